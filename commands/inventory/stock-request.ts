import type {
  AdjustBody,
  HoldBody,
  MovementMode,
  ReceiveBody,
  StockMovementAnswer,
} from '@api/contracts/inventory-stock';
import { figuresOf, type StockEvent } from '@domain/inventory/stock';
import type { Database } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import { stockTarget } from '@projections/inventory/reference';
import { stockSettings } from '@projections/inventory/stock-settings';
import { figureAnswer } from '@projections/stock.queries';
import type { Kysely } from 'kysely';
import type { Actor } from '../support/actor';
import { moveStock } from './move-stock';

/**
 * A stock movement a person asks for by hand: receive, adjust (add, deduct, set to the count), or put on or take off
 * a hold. The master code and the warehouse must be the tenant's, a combo has no stock of its own, and a manual
 * deduction follows the account's setting on negative stock; the rest is the stock's own decide.
 */

export interface StockRequestDeps {
  db: Kysely<Database>;
  store: EventStore;
}

export type StockRequest =
  | ({ kind: 'receive' } & ReceiveBody)
  | ({ kind: 'adjust' } & AdjustBody)
  | ({ kind: 'hold' } & HoldBody);

export interface StockRequestResult {
  answer: StockMovementAnswer;
  replayed: boolean;
  /** The answer's message key. */
  message: string;
}

const messageOf = (input: StockRequest) =>
  input.kind === 'hold'
    ? input.action === 'hold'
      ? 'stock.held'
      : 'stock.hold_released'
    : input.kind === 'receive'
      ? 'stock.received'
      : 'stock.adjusted';

/** The mode of a stock event, as the movement report shows it (projections/stock.ts stores the same). */
function modeOf(event: StockEvent): MovementMode | null {
  switch (event.type) {
    case 'StockAdjusted':
      return event.data.mode;
    case 'StockHeld':
    case 'StockHoldReleased':
      return event.data.hold;
    case 'StockShipped':
      return event.data.from;
    default:
      return null;
  }
}

/** `commandId` is the idempotency key, scoped by tenant: a retry moves stock once and answers the same. */
export async function requestStockMovement(
  deps: StockRequestDeps,
  actor: Actor,
  input: StockRequest & { commandId: string },
): Promise<StockRequestResult> {
  const target = await stockTarget(deps.db, actor.tenantId, input.master_code_id, input.warehouse_id);
  const at = {
    masterCodeId: target.masterCode.id,
    warehouseId: target.warehouse.id,
    ...(input.reason ? { reason: input.reason } : {}),
  };
  const command = await (async () => {
    switch (input.kind) {
      case 'receive':
        return {
          type: 'ReceiveStock' as const,
          ...at,
          quantity: input.quantity,
          ...(input.reference ? { source: { type: 'reference', id: input.reference } } : {}),
        };
      case 'adjust': {
        const settings = await stockSettings(deps.db, actor.tenantId);
        return {
          type: 'AdjustStock' as const,
          ...at,
          mode: input.mode,
          quantity: input.quantity,
          refuseNegative: settings.refuse_negative_manual,
        };
      }
      case 'hold':
        return {
          type: input.action === 'hold' ? ('HoldStock' as const) : ('ReleaseHold' as const),
          ...at,
          hold: input.hold,
          quantity: input.quantity,
        };
      default: {
        const unknown: never = input;
        throw new Error(`unknown stock request ${(unknown as { kind: string }).kind}`);
      }
    }
  })();
  const result = await moveStock({ store: deps.store }, actor, { command, commandId: input.commandId });
  const { event } = result;
  const data = event.data;
  const ref = (of: { id: string; code: string; name: string }) => ({
    id: of.id,
    code: of.code,
    name: of.name,
  });
  return {
    replayed: result.replayed,
    message: messageOf(input),
    answer: {
      master_code: ref(target.masterCode),
      warehouse: ref(target.warehouse),
      action: event.type,
      mode: modeOf(event),
      quantity: data.quantity,
      previous_stock: data.onHand - data.change,
      change: data.change,
      ...figureAnswer(figuresOf(data)),
      reason: data.reason ?? null,
      revision: Number(result.revision),
    },
  };
}
