import {
  type GoodsReceiptCommand,
  type GoodsReceiptEvent,
  type GoodsReceiptState,
  goodsReceiptDecider,
  goodsReceiptStreamId,
} from '@domain/purchases/goods-receipt';
import {
  type PurchaseCommand,
  type PurchaseEvent,
  type PurchaseState,
  purchaseDecider,
  purchaseStreamId,
} from '@domain/purchases/purchase';
import type { EventStore } from '@infra/eventstore/port';
import {
  type DocumentContext,
  type DocumentResult,
  documentTimeline,
  handleDocumentCommand,
  type TimelineEntry,
} from '../support/document';

/**
 * Runs commands on the purchasing documents (commands/support/document.ts): the API records a purchase order's
 * creation; the purchase and goods receipt workflows' activities record everything after. The context's command id
 * is the idempotency key.
 */

export function handlePurchaseCommand(
  store: EventStore,
  purchaseId: string,
  command: PurchaseCommand,
  context: DocumentContext,
): Promise<DocumentResult<PurchaseEvent, PurchaseState>> {
  return handleDocumentCommand(
    store,
    purchaseStreamId(context.tenantId, purchaseId),
    purchaseDecider,
    command,
    context,
  );
}

export function handleGoodsReceiptCommand(
  store: EventStore,
  goodsReceiptId: string,
  command: GoodsReceiptCommand,
  context: DocumentContext,
): Promise<DocumentResult<GoodsReceiptEvent, GoodsReceiptState>> {
  return handleDocumentCommand(
    store,
    goodsReceiptStreamId(context.tenantId, goodsReceiptId),
    goodsReceiptDecider,
    command,
    context,
  );
}

export interface Loaded<State> {
  state: State;
  timeline: TimelineEntry[];
  /** The stream's last revision, as a number (-1: no event yet). */
  revision: number;
}

/** A purchase order as its events leave it, and its history, oldest first. */
export async function loadPurchase(
  store: EventStore,
  tenantId: string,
  purchaseId: string,
): Promise<Loaded<PurchaseState>> {
  const timeline = await documentTimeline(store, purchaseStreamId(tenantId, purchaseId));
  const state = timeline.reduce<PurchaseState>(
    (current, entry) =>
      purchaseDecider.evolve(current, { type: entry.type, data: entry.data } as PurchaseEvent),
    purchaseDecider.initial,
  );
  return { state, timeline, revision: timeline.length - 1 };
}

/** A goods receive note as its events leave it, and its history, oldest first. */
export async function loadGoodsReceipt(
  store: EventStore,
  tenantId: string,
  goodsReceiptId: string,
): Promise<Loaded<GoodsReceiptState>> {
  const timeline = await documentTimeline(store, goodsReceiptStreamId(tenantId, goodsReceiptId));
  const state = timeline.reduce<GoodsReceiptState>(
    (current, entry) =>
      goodsReceiptDecider.evolve(current, { type: entry.type, data: entry.data } as GoodsReceiptEvent),
    goodsReceiptDecider.initial,
  );
  return { state, timeline, revision: timeline.length - 1 };
}
