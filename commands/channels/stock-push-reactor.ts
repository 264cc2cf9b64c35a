import type { ChannelSkusLinked } from '@domain/channels/link-events';
import {
  STOCK_CATEGORY,
  STOCK_EVENT_TYPES,
  type StockEvent,
  type StockEventType,
} from '@domain/inventory/stock';
import type { Database } from '@infra/db';
import { type EventStore, parseStreamId, type RecordedEvent } from '@infra/eventstore/port';
import { defineReactor, type Reactor } from '@projections/runtime/reactor';
import { type PushTiming, skuKey } from '@workflows/stock-push-protocol';
import type { WorkflowDeps } from '@workflows/updates';
import type { Kysely } from 'kysely';
import { sendStockFigures } from './push-queue';
import { stockFigure, stockFigures } from './stock-figures';

/**
 * The stock push (issue 15, ARCHITECTURE.md "Channels and feeds"): every stock event that can change a master
 * code's available quantity — orders reserving and shipping, adjustments, transfers, receipts, returns, holds —
 * recomputes what each channel SKU linked to it (or to a combo it is part of) should show in each store its
 * warehouse feeds, and hands the figures to that store's push workflow. Expected stock changes nothing available.
 *
 * A batch of events is answered at once: the figures of every SKU the batch moved are read together after it, and
 * each store's workflow gets one signal for the batch. Per event (six reads and a signal per store each) the reactor
 * fell minutes behind at 100 changes a second; the workflow coalesces a burst per SKU anyway.
 *
 * Each figure's version is the log position of the newest event of the batch that moved it, and the figures are
 * read after the batch, so a replayed batch (the reactor's checkpoint moves after it signals) sends figures no newer
 * than those already sent, which the workflow ignores: replay changes nothing.
 */

export const STOCK_PUSH_REACTOR = 'stockPush';

const UNAVAILABLE_ONLY: readonly StockEventType[] = ['StockIncomingExpected', 'StockIncomingCancelled'];
const PUSHED_EVENTS: readonly string[] = [
  ...STOCK_EVENT_TYPES.filter((type) => !UNAVAILABLE_ONLY.includes(type)),
  // A SKU newly linked shows its master code's quantity at once.
  'ChannelSkusLinked',
];

export interface StockPushReactorDeps {
  db: Kysely<Database>;
  store: EventStore;
  workflows: WorkflowDeps & { pushTiming?: PushTiming };
}

/** What a batch moved in one account: where, and the newest event that moved each master code. */
interface Moves {
  moved: Map<string, Set<string>>;
  newest: Map<string, RecordedEvent>;
}

function movesByTenant(events: readonly RecordedEvent[]): Map<string, Moves> {
  const tenants = new Map<string, Moves>();
  for (const recorded of events) {
    const stream = parseStreamId(recorded.stream);
    if (!stream || stream.category !== STOCK_CATEGORY) continue;
    const { masterCodeId, warehouseId } = recorded.data as StockEvent['data'];
    let moves = tenants.get(stream.tenantId);
    if (!moves) {
      moves = { moved: new Map(), newest: new Map() };
      tenants.set(stream.tenantId, moves);
    }
    moves.moved.set(masterCodeId, (moves.moved.get(masterCodeId) ?? new Set()).add(warehouseId));
    moves.newest.set(masterCodeId, recorded);
  }
  return tenants;
}

export function createStockPushReactor(deps: StockPushReactorDeps): Reactor {
  async function reactBatch(events: readonly RecordedEvent[]): Promise<void> {
    await pushLinked(events);
    for (const [tenantId, { moved, newest }] of movesByTenant(events)) {
      const stores = await stockFigures(deps, { tenantId, moved });
      await Promise.all(
        stores.map(({ storeId, figures }) =>
          sendStockFigures(
            deps.workflows,
            tenantId,
            storeId,
            figures.map((figure) => {
              // The newest of the batch's events that moved one of the figure's sources: it is the reason.
              const cause = figure.sources
                .map((code) => newest.get(code))
                .filter((event) => event !== undefined)
                .reduce((a, b) => (b.position.commit > a.position.commit ? b : a));
              return stockFigure(figure, {
                version: cause.position.commit.toString(),
                trigger: {
                  origin: 'change',
                  eventId: cause.id,
                  eventType: cause.type,
                  reason: (cause.data as StockEvent['data']).reason ?? '',
                },
              });
            }),
          ),
        ),
      );
    }
  }

  /** The figures of SKUs the batch linked, each for its own store, the link event as the reason. */
  async function pushLinked(events: readonly RecordedEvent[]): Promise<void> {
    for (const recorded of events) {
      if (recorded.type !== 'ChannelSkusLinked') continue;
      const stream = parseStreamId(recorded.stream);
      if (!stream) continue;
      const { storeId, links } = recorded.data as ChannelSkusLinked;
      const keys = new Set(links.map(skuKey));
      const [computed] = await stockFigures(deps, {
        tenantId: stream.tenantId,
        storeIds: [storeId],
        masterCodeIds: [...new Set(links.map((link) => link.masterCodeId))],
      });
      await sendStockFigures(
        deps.workflows,
        stream.tenantId,
        storeId,
        (computed?.figures ?? [])
          .filter((figure) => keys.has(skuKey(figure)))
          .map((figure) =>
            stockFigure(figure, {
              version: recorded.position.commit.toString(),
              trigger: { origin: 'change', eventId: recorded.id, eventType: recorded.type, reason: '' },
            }),
          ),
      );
    }
  }

  return defineReactor({
    name: STOCK_PUSH_REACTOR,
    eventTypes: PUSHED_EVENTS,
    react: (event) => reactBatch([event]),
    reactBatch,
  });
}
