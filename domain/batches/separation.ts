import { type ErrorTable, refuser } from '../shared/errors';
import { BatchCode } from './codes';

/**
 * Batch separation (spec §2 /orders/batch-separation): an open batch's orders split into separate batches, so each
 * picking round holds orders that are packed alike — one store's, one carrier's, one payment method's, the orders of
 * one item apart from those of several, or the orders the seller chose. The largest group stays in the batch; every
 * other group becomes a batch of its own with the batch's settings. Only orders still waiting to be scanned (new or
 * unscan) move: a scanned order stays where it was scanned. Pick lists follow, as they are read from each batch's
 * orders.
 */

export const SEPARATION_BYS = ['store', 'logistics', 'payment', 'items', 'orders'] as const;
export type SeparationBy = (typeof SEPARATION_BYS)[number];

/** The item groups of `items`: the orders of one line (packed straight from the pick), and the others. */
export const ITEM_GROUPS = ['single', 'multiple'] as const;

/** What separating needs of an order. */
export interface SeparableOrder {
  orderId: string;
  storeId: string;
  shippingProvider: string | null;
  paymentMethod: string | null;
  /** Lines still on the order (the pick list's single and multiple count lines the same way). */
  lineCount: number;
}

/** The group an order falls in (by `orders`, every chosen order falls in one). */
export function separationKey(order: SeparableOrder, by: SeparationBy): string {
  switch (by) {
    case 'store':
      return order.storeId;
    case 'logistics':
      return order.shippingProvider?.trim() ?? '';
    case 'payment':
      return order.paymentMethod?.trim() ?? '';
    case 'items':
      return order.lineCount > 1 ? 'multiple' : 'single';
    case 'orders':
      return '';
  }
}

export const SEPARATION_ERRORS = ['ONE_GROUP', 'KEEP_ONE'] as const;
export type SeparationErrorCode = (typeof SEPARATION_ERRORS)[number];

export const separationErrors = {
  ONE_GROUP: { status: 400, code: BatchCode.oneGroup, key: 'batch.separation.one_group' },
  KEEP_ONE: { status: 400, code: BatchCode.keepOne, key: 'batch.separation.keep_an_order' },
} satisfies ErrorTable<SeparationErrorCode>;

const refuse = refuser(separationErrors);

export interface SeparationGroup {
  key: string;
  orderIds: string[];
}

/** Groups orders by `by`, each group in the order given, the groups by key. */
export function groupForSeparation(orders: readonly SeparableOrder[], by: SeparationBy): SeparationGroup[] {
  const groups = new Map<string, string[]>();
  for (const order of orders) {
    const key = separationKey(order, by);
    groups.set(key, [...(groups.get(key) ?? []), order.orderId]);
  }
  return [...groups.entries()]
    .map(([key, orderIds]) => ({ key, orderIds }))
    .sort((a, b) => a.key.localeCompare(b.key));
}

/**
 * What separating a batch of `total` orders moves: the groups of the movable orders but the largest (the first by
 * key among equals), which stays; by `orders`, the chosen orders as one group. Refused when nothing would move, or
 * when the chosen orders are the whole batch.
 */
export function planSeparation(
  movable: readonly SeparableOrder[],
  by: SeparationBy,
  total: number,
): SeparationGroup[] {
  if (by === 'orders') {
    if (movable.length >= total) throw refuse('KEEP_ONE');
    return [{ key: '', orderIds: movable.map((order) => order.orderId) }];
  }
  const groups = groupForSeparation(movable, by);
  if (groups.length < 2) throw refuse('ONE_GROUP', { by });
  const staying = groups.reduce((largest, group) =>
    group.orderIds.length > largest.orderIds.length ? group : largest,
  );
  return groups.filter((group) => group !== staying);
}
