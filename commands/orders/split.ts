import {
  evolve,
  initialState,
  type OrderEvent,
  type OrderState,
  orderStreamId,
  placed,
  refuse,
  splitPart,
} from '@domain/orders/order';
import type { EventStore } from '@infra/eventstore/port';
import type { DocumentContext } from '../support/document';
import { eventIdFor } from '../support/ids';
import { handleOrderCommand } from './order';

/**
 * Split order (spec §4): some lines, or part of their quantity, leave the order for a new one that takes their share
 * of the order's state and stock (nothing moves: the stock stays held, by the part). Two streams, so two appends:
 * the parent first, then the part, each idempotent by an id derived from the request's; a split interrupted between
 * the two finishes when the same request is retried.
 */

export interface SplitResult {
  childOrderId: string;
  replayed: boolean;
}

/** The part a split request makes: one id per request, however often it is retried. */
export const childOrderIdFor = (commandId: string) => eventIdFor(`order-split:${commandId}`, 0);

export async function splitOrder(
  store: EventStore,
  orderId: string,
  lines: { lineId: string; quantity: number }[],
  context: DocumentContext,
): Promise<SplitResult> {
  const childOrderId = childOrderIdFor(context.commandId);
  const parent = await handleOrderCommand(
    store,
    orderId,
    { type: 'SplitOrder', childOrderId, lines },
    { ...context, commandId: `${context.commandId}:parent` },
  );
  // The parent as it stood just before the split: the part copies its details and number from there.
  const before = await orderBefore(store, context.tenantId, orderId, `${context.commandId}:parent`);
  const split = parent.events.find((event) => event.type === 'OrderSplit');
  const known = placed(before);
  if (!known) throw refuse('ORDER_NOT_FOUND');
  const part = splitPart(known, childOrderId, split?.type === 'OrderSplit' ? split.data.lines : lines);
  const child = await handleOrderCommand(store, childOrderId, part, {
    ...context,
    commandId: `${context.commandId}:part`,
    causationId: `${context.commandId}:parent`,
  });
  return { childOrderId, replayed: parent.replayed && child.replayed };
}

/** The order as it stood before the first event the command `commandId` recorded. */
async function orderBefore(
  store: EventStore,
  tenantId: string,
  orderId: string,
  commandId: string,
): Promise<OrderState> {
  let state = initialState;
  for await (const recorded of store.readStream(orderStreamId(tenantId, orderId))) {
    if (recorded.metadata.commandId === commandId) break;
    state = evolve(state, { type: recorded.type, data: recorded.data } as OrderEvent);
  }
  return state;
}
