import {
  STOCK_CATEGORY,
  STOCK_EVENT_TYPES,
  type StockEvent,
  type StockEventType,
} from '@domain/inventory/stock';
import type { Database } from '@infra/db';
import { type EventStore, parseStreamId, type RecordedEvent } from '@infra/eventstore/port';
import { defineReactor, type Reactor } from '@projections/runtime/reactor';
import type { PushTiming } from '@workflows/stock-push-protocol';
import type { WorkflowDeps } from '@workflows/updates';
import type { Kysely } from 'kysely';
import { sendStockFigures } from './push-queue';
import { stockFigures } from './stock-figures';

/**
 * The stock push (issue 15, ARCHITECTURE.md "Channels and feeds"): every stock event that can change a master
 * code's available quantity — orders reserving and shipping, adjustments, transfers, receipts, returns, holds —
 * recomputes what each channel SKU linked to it (or to a combo it is part of) should show in each store its
 * warehouse feeds, and hands the figures to that store's push workflow. Expected stock changes nothing available.
 *
 * Each figure's version is the event's log position and the figures are read after the event, so a replayed event
 * (the reactor's checkpoint moves after it signals) sends figures no newer than those already sent, which the
 * workflow ignores: replay changes nothing. A master code's events are answered in log order.
 */

export const STOCK_PUSH_REACTOR = 'stockPush';

const UNAVAILABLE_ONLY: readonly StockEventType[] = ['StockIncomingExpected', 'StockIncomingCancelled'];
const PUSHED_EVENTS = STOCK_EVENT_TYPES.filter((type) => !UNAVAILABLE_ONLY.includes(type));

export interface StockPushReactorDeps {
  db: Kysely<Database>;
  store: EventStore;
  workflows: WorkflowDeps & { pushTiming?: PushTiming };
}

export function createStockPushReactor(deps: StockPushReactorDeps): Reactor {
  async function react(recorded: RecordedEvent): Promise<void> {
    const stream = parseStreamId(recorded.stream);
    if (!stream || stream.category !== STOCK_CATEGORY) return;
    const event = { type: recorded.type, data: recorded.data } as StockEvent;
    const { masterCodeId, warehouseId } = event.data;
    const stores = await stockFigures(deps, {
      tenantId: stream.tenantId,
      masterCodeIds: [masterCodeId],
      warehouseId,
    });
    const trigger = {
      origin: 'change' as const,
      eventId: recorded.id,
      eventType: recorded.type,
      reason: event.data.reason ?? '',
    };
    const version = recorded.position.commit.toString();
    for (const { storeId, figures } of stores) {
      await sendStockFigures(
        deps.workflows,
        stream.tenantId,
        storeId,
        figures.map((figure) => ({ ...figure, version, trigger })),
      );
    }
  }

  return defineReactor({
    name: STOCK_PUSH_REACTOR,
    eventTypes: PUSHED_EVENTS,
    react,
    partitionOf: (recorded) => {
      const data = recorded.data as { masterCodeId?: string };
      return `${recorded.metadata.tenantId}/${data.masterCodeId ?? recorded.stream}`;
    },
  });
}
