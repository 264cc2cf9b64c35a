import { placed, refuse, replacementPart } from '@domain/orders/order';
import type { EventStore } from '@infra/eventstore/port';
import type { DocumentContext } from '../support/document';
import { eventIdFor } from '../support/ids';
import { findOrder, handleOrderCommand } from './order';

/**
 * A replacement order (spec §4 "replacement"): items of an order that reached the buyer (or came back) are sent
 * again, at no charge, as a new order of Kedai's own that reserves its stock at once and goes through the warehouse
 * like any other. The two are linked both ways: the original records the replacement (`OrderReplaced`), the
 * replacement names its original. Two streams, so two appends — the original first — each idempotent by an id
 * derived from the request's; a request interrupted between the two finishes when it is retried.
 */

export interface ReplacementResult {
  replacementOrderId: string;
  replayed: boolean;
}

/** The replacement a request makes: one id per request, however often it is retried. */
export const replacementOrderIdFor = (commandId: string) => eventIdFor(`order-replacement:${commandId}`, 0);

export async function replaceOrder(
  store: EventStore,
  orderId: string,
  lines: { lineId: string; quantity: number }[],
  context: DocumentContext,
): Promise<ReplacementResult> {
  const replacementOrderId = replacementOrderIdFor(context.commandId);
  const original = await handleOrderCommand(
    store,
    orderId,
    { type: 'ReplaceOrder', replacementOrderId, lines },
    { ...context, commandId: `${context.commandId}:original` },
  );
  const replaced = original.events.find((event) => event.type === 'OrderReplaced');
  const known = placed(await findOrder(store, context.tenantId, orderId));
  if (!known) throw refuse('ORDER_NOT_FOUND');
  const part = replacementPart(
    known,
    replacementOrderId,
    replaced?.type === 'OrderReplaced' ? replaced.data.lines : lines,
    context.occurredAt,
  );
  const replacement = await handleOrderCommand(store, replacementOrderId, part, {
    ...context,
    commandId: `${context.commandId}:replacement`,
    causationId: `${context.commandId}:original`,
  });
  return { replacementOrderId, replayed: original.replayed && replacement.replayed };
}
