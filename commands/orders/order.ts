import {
  decide,
  evolve,
  initialState,
  type OrderCommand,
  type OrderEvent,
  type OrderState,
  orderStreamId,
  type PlacedOrder,
  placed,
  refuse,
} from '@domain/orders/order';
import type { EventStore } from '@infra/eventstore/port';
import { type DocumentContext, type DocumentResult, handleDocumentCommand } from '../support/document';
import { eventIdFor } from '../support/ids';

/**
 * Runs an order command (domain/orders/order.ts) on the order's stream: load, decide, append with the revision it
 * was decided on, retrying on a conflict; the command id is the idempotency key, so a double click, a retried
 * activity or two pickers scanning the same order record the change once.
 */
export function handleOrderCommand(
  store: EventStore,
  orderId: string,
  command: OrderCommand,
  context: DocumentContext,
): Promise<DocumentResult<OrderEvent, OrderState>> {
  return handleDocumentCommand(
    store,
    orderStreamId(context.tenantId, orderId),
    { initial: initialState, evolve, decide },
    command,
    context,
  );
}

/** The order of a store's order number: derived, so the same marketplace order is always the same Kedai order. */
export const orderIdFor = (storeId: string, orderNumber: string) =>
  eventIdFor(`order:${storeId}:${orderNumber}`);

/** The state of an order now (`none` when it does not exist). */
export async function findOrder(store: EventStore, tenantId: string, orderId: string): Promise<OrderState> {
  let state = initialState;
  for await (const recorded of store.readStream(orderStreamId(tenantId, orderId))) {
    state = evolve(state, { type: recorded.type, data: recorded.data } as OrderEvent);
  }
  return state;
}

/** An order that exists, as it is now; one that does not is refused as not found. */
export async function loadOrder(store: EventStore, tenantId: string, orderId: string): Promise<PlacedOrder> {
  const order = placed(await findOrder(store, tenantId, orderId));
  if (!order) throw refuse('ORDER_NOT_FOUND');
  return order;
}
