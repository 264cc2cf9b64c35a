import {
  type ComboCommand,
  type ComboComponent,
  comboComponents,
  handleComboCommand,
} from '@commands/inventory/combo';
import { type CommandContext, handleStockCommand, type StockCommandResult } from '@commands/inventory/stock';
import { type MovementReasonKind, movementReason } from '@domain/inventory/movement-reasons';
import { available, type StockState } from '@domain/inventory/stock';
import {
  ORDER_CATEGORY,
  type OrderEvent,
  type OrderEventType,
  type StockLine,
  type StockMove,
  type StockStage,
} from '@domain/orders/order';
import { refusalOf } from '@domain/shared/errors';
import type { Database } from '@infra/db';
import { type EventStore, parseStreamId, type RecordedEvent } from '@infra/eventstore/port';
import type { EngineLogger } from '@projections/runtime/engine';
import { defineReactor, type Reactor } from '@projections/runtime/reactor';
import type { Kysely } from 'kysely';
import { handleOrderCommand } from './order';

/**
 * The order's stock (issue 6: "Stock is reserved when an order is accepted, released when cancelled, and deducted
 * when shipped, by reactors on the order events (combos move their components)"). Every order event that moves
 * stock names the lines and the stage their stock is in (`stock`), so this reactor needs the event alone:
 *
 *   OrderAccepted, OrderLineMapped, OrderGiftAdded    none      → reserved   ReserveStock
 *   OrderLineMapped (a changed mapping, `released`)   reserved  → released   ReleaseStock of the former code, first
 *   OrderScanned                                      reserved  → in process StartProcessing
 *   OrderMoved back to new or unscan                  in process→ reserved   StopProcessing
 *   OrderShipmentCancelled (while picked)             in process→ reserved   StopProcessing
 *   OrderShipped                                      reserved | in process  ShipStock from that stage
 *   OrderCancelled, OrderLineRemoved, OrderMoved to trash    held → released  ReleaseStock (StopProcessing first
 *                                                                                when in process)
 *
 * A combo moves its components (commands/inventory/combo.ts; the stop and release of a combo, which the combo
 * handler leaves to the caller, go component by component here with the same ids it would use). Each stock
 * command's id is `<order event id>:<line>[:<step>]`, so a redelivered or replayed event moves nothing twice.
 *
 * A reservation that takes available stock below zero (marketplaces oversell) marks the line "out of stock" on the
 * order (MarkOutOfStock, itself idempotent by the same rule). A stock refusal (releasing more than is reserved,
 * after a hand adjustment, say) is logged and skipped: the reactor must not stall the orders behind it.
 */

export const ORDER_STOCK_REACTOR = 'orderStock';

const STOCK_EVENTS = [
  'OrderAccepted',
  'OrderLineMapped',
  'OrderScanned',
  'OrderMoved',
  'OrderShipped',
  'OrderCancelled',
  'OrderLineRemoved',
  'OrderShipmentCancelled',
  'OrderGiftAdded',
] as const satisfies readonly OrderEventType[];

type Target = 'reserved' | 'inProcess' | 'shipped' | 'released';

/** Where an event takes the stock it names. */
function targetOf(event: OrderEvent): Target | null {
  switch (event.type) {
    case 'OrderAccepted':
    case 'OrderLineMapped':
    case 'OrderGiftAdded':
      return 'reserved';
    case 'OrderScanned':
      return 'inProcess';
    case 'OrderMoved':
      return event.data.to === 'trash' ? 'released' : 'reserved';
    case 'OrderShipmentCancelled':
      return 'reserved';
    case 'OrderShipped':
      return 'shipped';
    case 'OrderCancelled':
    case 'OrderLineRemoved':
      return 'released';
    default:
      return null;
  }
}

const REASONS: Record<(typeof STOCK_EVENTS)[number], MovementReasonKind> = {
  OrderAccepted: 'order_accepted',
  OrderLineMapped: 'order_line_mapped',
  OrderScanned: 'order_scanned',
  OrderMoved: 'order_moved',
  OrderShipped: 'order_shipped',
  OrderCancelled: 'order_cancelled',
  OrderLineRemoved: 'order_line_removed',
  OrderShipmentCancelled: 'order_shipment_cancelled',
  OrderGiftAdded: 'order_gift_added',
};

export interface OrderStockReactorDeps {
  db: Kysely<Database>;
  store: EventStore;
  logger?: EngineLogger;
}

type Step =
  | { type: 'ReserveStock' | 'StartProcessing' | 'StopProcessing' | 'ReleaseStock' }
  | {
      type: 'ShipStock';
      from: 'reserved' | 'inProcess';
    };

/** The stock commands that take a line from `from` to `to`, each with the suffix of its command id. */
function stepsFor(from: StockStage, to: Target): { suffix: string; step: Step }[] {
  if (to === 'reserved' && from === 'none') return [{ suffix: '', step: { type: 'ReserveStock' } }];
  if (to === 'reserved' && from === 'inProcess') return [{ suffix: '', step: { type: 'StopProcessing' } }];
  if (to === 'inProcess' && from === 'reserved') return [{ suffix: '', step: { type: 'StartProcessing' } }];
  if (to === 'shipped' && (from === 'reserved' || from === 'inProcess')) {
    return [{ suffix: '', step: { type: 'ShipStock', from } }];
  }
  if (to === 'released' && from === 'reserved') return [{ suffix: '', step: { type: 'ReleaseStock' } }];
  if (to === 'released' && from === 'inProcess') {
    return [
      { suffix: ':stop', step: { type: 'StopProcessing' } },
      { suffix: ':release', step: { type: 'ReleaseStock' } },
    ];
  }
  return [];
}

const short = (state: StockState) => available(state) < 0;

export function createOrderStockReactor(deps: OrderStockReactorDeps): Reactor {
  const logger = deps.logger;

  /** Runs a stock step; a refusal is logged and skipped (undefined), so the orders behind it are not stalled. */
  async function unlessRefused<T>(
    run: () => Promise<T>,
    about: Record<string, string>,
  ): Promise<T | undefined> {
    try {
      return await run();
    } catch (error) {
      const refused = refusalOf(error);
      if (!refused) throw error;
      logger?.error(
        { ...about, code: refused.code, params: refused.params },
        'order stock step refused; skipped',
      );
      return undefined;
    }
  }

  /** Runs one line's step; true when the stock it reserved left available below zero. */
  async function runStep(
    line: StockLine,
    move: StockMove,
    step: Step,
    source: { type: string; id: string },
    reason: string,
    context: CommandContext,
    components: () => Promise<ComboComponent[]>,
  ): Promise<boolean> {
    const target = { warehouseId: move.warehouseId, reason, source };
    if (!line.combo) {
      const result = await handleStockCommand(
        deps.store,
        { ...step, ...target, masterCodeId: line.masterCodeId, quantity: line.quantity },
        context,
      );
      return step.type === 'ReserveStock' && short(result.event.data);
    }
    const parts = await components();
    if (parts.length === 0) {
      logger?.error({ comboId: line.masterCodeId, commandId: context.commandId }, 'combo without components');
      return false;
    }
    let results: StockCommandResult[];
    if (step.type === 'StopProcessing' || step.type === 'ReleaseStock') {
      // What the combo handler does for the movements it takes, done here for the two it leaves to its caller.
      // Component by component: one refused (released by hand meanwhile, say) leaves the others to move.
      results = [];
      for (const part of parts) {
        const result = await unlessRefused(
          () =>
            handleStockCommand(
              deps.store,
              {
                ...step,
                ...target,
                masterCodeId: part.masterCodeId,
                quantity: part.quantity * line.quantity,
              },
              {
                ...context,
                commandId: `${context.commandId}/${part.masterCodeId}`,
                causationId: context.commandId,
              },
            ),
          { commandId: context.commandId, masterCodeId: part.masterCodeId, step: step.type },
        );
        if (result) results.push(result);
      }
    } else {
      const base = { ...target, comboId: line.masterCodeId, quantity: line.quantity };
      const command: ComboCommand =
        step.type === 'ShipStock'
          ? { ...base, type: 'ShipStock', from: step.from }
          : { ...base, type: step.type };
      const combo = await handleComboCommand(deps.store, command, parts, context);
      results = combo.components;
    }
    return step.type === 'ReserveStock' && results.some((result) => short(result.event.data));
  }

  /** Takes the lines of one move to `to`; the lines whose reservation left available stock below zero. */
  async function moveLines(
    recorded: RecordedEvent,
    move: StockMove,
    to: Target,
    tag: string,
    where: { tenantId: string; orderId: string; source: { type: string; id: string }; reason: string },
  ): Promise<string[]> {
    const { tenantId, orderId, source, reason } = where;
    const steps = stepsFor(move.from, to);
    const shortLines: string[] = [];
    for (const line of move.lines) {
      let parts: Promise<ComboComponent[]> | undefined;
      const components = () => {
        parts ??= comboComponents(deps.db, tenantId, line.masterCodeId);
        return parts;
      };
      for (const { suffix, step } of steps) {
        const context: CommandContext = {
          tenantId,
          ...(recorded.metadata.userId ? { userId: recorded.metadata.userId } : {}),
          commandId: `${recorded.id}:${line.lineId}${tag}${suffix}`,
          correlationId: recorded.metadata.correlationId ?? recorded.id,
          causationId: recorded.id,
          occurredAt: recorded.metadata.occurredAt,
        };
        const short = await unlessRefused(
          () => runStep(line, move, step, source, reason, context, components),
          { orderId, lineId: line.lineId, step: step.type },
        );
        if (short) shortLines.push(line.lineId);
      }
    }
    return shortLines;
  }

  async function react(recorded: RecordedEvent): Promise<void> {
    const stream = parseStreamId(recorded.stream);
    if (!stream || stream.category !== ORDER_CATEGORY) return;
    const event = { type: recorded.type, data: recorded.data } as OrderEvent;
    const move = 'stock' in event.data ? (event.data.stock as StockMove | null) : null;
    const to = targetOf(event);
    const released = event.type === 'OrderLineMapped' ? (event.data.released ?? null) : null;
    const moves: { move: StockMove; to: Target; tag: string }[] = [
      ...(released ? [{ move: released, to: 'released' as const, tag: ':unmap' }] : []),
      ...(move && to ? [{ move, to, tag: '' }] : []),
    ];
    const tenantId = stream.tenantId;
    const orderId = stream.entityKey;
    const source = { type: 'order', id: orderId };
    const reason = movementReason(REASONS[event.type as (typeof STOCK_EVENTS)[number]]);
    const shortLines: string[] = [];
    for (const { move, to, tag } of moves) {
      shortLines.push(...(await moveLines(recorded, move, to, tag, { tenantId, orderId, source, reason })));
    }
    if (shortLines.length > 0) {
      await handleOrderCommand(
        deps.store,
        orderId,
        { type: 'MarkOutOfStock', lineIds: shortLines },
        {
          tenantId,
          commandId: `${recorded.id}:out-of-stock`,
          correlationId: recorded.metadata.correlationId ?? recorded.id,
          causationId: recorded.id,
          occurredAt: recorded.metadata.occurredAt,
        },
      );
    }
  }

  return defineReactor({
    name: ORDER_STOCK_REACTOR,
    eventTypes: STOCK_EVENTS,
    react,
    // First come, first served: an account's orders take its stock in the order they came, so the order that
    // arrived first is not the one marked out of stock when a later one over-reserves.
    partitionOf: (recorded) => parseStreamId(recorded.stream)?.tenantId ?? recorded.stream,
  });
}
