import {
  evolve,
  initialState,
  type OrderEvent,
  type OrderStatus,
  orderStreamId,
  type PlacedOrder,
  placed,
} from '@domain/orders/order';
import { inTurns } from '@infra/concurrency';
import type { EventStore } from '@infra/eventstore/port';

/**
 * An order as batching and scanning read it, from the order's own stream (the truth, never behind): the fields
 * fixed when it was imported (store, platform, number, pre-order, payment method) and its state folded by the
 * order's own `evolve` (status, batch, tracking number, provider, lines). Batching and scanning change an order only
 * through its commands (commands/orders/order.ts).
 */
export interface OrderFacts {
  orderId: string;
  storeId: string;
  platform: string;
  orderNumber: string;
  preOrder: boolean;
  paymentMethod: string;
  orderedAt: string;
  state: PlacedOrder;
}

export async function loadOrderFacts(
  store: EventStore,
  tenantId: string,
  orderId: string,
): Promise<OrderFacts | null> {
  let state = initialState;
  let imported: Extract<OrderEvent, { type: 'OrderImported' }>['data'] | null = null;
  for await (const recorded of store.readStream(orderStreamId(tenantId, orderId))) {
    const event = { type: recorded.type, data: recorded.data } as OrderEvent;
    if (event.type === 'OrderImported') imported = event.data;
    state = evolve(state, event);
  }
  const order = placed(state);
  if (!imported || !order) return null;
  return {
    orderId,
    storeId: imported.storeId,
    platform: imported.platform,
    orderNumber: imported.orderNumber,
    preOrder: imported.preOrder,
    paymentMethod: imported.paymentMethod,
    orderedAt: imported.orderedAt,
    state: order,
  };
}

/** Several orders' facts, a few streams at a time; missing orders are left out. */
export async function loadOrdersFacts(
  store: EventStore,
  tenantId: string,
  orderIds: readonly string[],
  concurrency = 8,
): Promise<Map<string, OrderFacts>> {
  const found = new Map<string, OrderFacts>();
  await inTurns(
    [...new Set(orderIds)],
    async (orderId) => {
      const facts = await loadOrderFacts(store, tenantId, orderId);
      if (facts) found.set(orderId, facts);
    },
    concurrency,
  );
  return found;
}

/** The statuses an order may be batched in: accepted and not yet scanned (spec §2 new and unscan lists). */
export const BATCHABLE_STATUSES: readonly OrderStatus[] = ['new', 'unscan'];

/** The lines of an order still on it (not removed), as a pick list and a scan check read them. */
export function liveLines(state: Pick<PlacedOrder, 'lines' | 'removed'>) {
  return state.lines.filter((line) => !state.removed.includes(line.lineId));
}
