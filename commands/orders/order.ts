import {
  decide,
  emptyOrder,
  evolve,
  type OrderCommand,
  type OrderEvent,
  type OrderState,
  orderStreamId,
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
    { initial: emptyOrder, evolve, decide },
    command,
    context,
  );
}

/** The order of a store's order number: derived, so the same marketplace order is always the same Kedai order. */
export const orderIdFor = (storeId: string, orderNumber: string) =>
  eventIdFor(`order:${storeId}:${orderNumber}`);

/** The state of an order now (empty when it does not exist). */
export async function loadOrder(store: EventStore, tenantId: string, orderId: string): Promise<OrderState> {
  let state = emptyOrder;
  for await (const recorded of store.readStream(orderStreamId(tenantId, orderId))) {
    state = evolve(state, { type: recorded.type, data: recorded.data } as OrderEvent);
  }
  return state;
}
