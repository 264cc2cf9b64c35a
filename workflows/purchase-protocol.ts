import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { Purchase, ReceiptLine } from '../domain/purchases/purchase';
import type { GoodsReceiptSnapshot } from './goods-receipt-protocol';

/**
 * What the purchase workflow (purchase.workflow.ts) and the API (api/purchases/) share: the workflow's name, id and
 * input, its updates — people's actions on a purchase order, each answering the order as the action left it or
 * refusing with a domain code (workflows/support/refusal.ts) — the signal a goods receipt workflow sends when it
 * changed the order, and the query. No node imports: the workflow bundle takes it too.
 */

export const PURCHASE_WORKFLOW = 'purchaseWorkflow';

/** `purchase-<tenant>-<purchaseId>`: the business key, so starting twice is harmless. */
export const purchaseWorkflowId = (tenantId: string, purchaseId: string) =>
  `purchase-${tenantId}-${purchaseId}`;

export interface PurchaseWorkflowInput {
  tenantId: string;
  purchaseId: string;
  /** The order as the API recorded its creation, and the stream's revision then. */
  purchase: Purchase;
  revision: number;
}

/** Who acts: recorded as the event's user. The owner may approve what they created; nobody else may. */
export interface Actor {
  userId: string;
  owner: boolean;
}

export interface PlaceArgs extends Actor {
  /** The tenant's setting: an order placed waits for an approval first. */
  approvalRequired: boolean;
}

export interface ReasonArgs extends Actor {
  reason: string;
}

export interface ReturnArgs extends ReasonArgs {
  lines: { masterCodeId: string; quantity: number }[];
}

export interface OpenReceiptArgs extends Actor {
  goodsReceiptId: string;
  grnNumber: string;
  reference: string;
  note: string;
  /** The tenant's setting: the note waits for an approval before it can be received. */
  approvalRequired: boolean;
  lines: ReceiptLine[];
}

export interface PurchaseSnapshot {
  purchase: Purchase;
  /** The purchase stream's revision the snapshot reflects. */
  revision: number;
  /** The action running now (its update not answered yet), or null. */
  busy: string | null;
}

/** What a goods receipt workflow tells the order's workflow after changing the order. */
export interface PurchaseChanged {
  purchase: Purchase;
  revision: number;
}

export const placePurchaseUpdate = defineUpdate<PurchaseSnapshot, [PlaceArgs]>('purchase.place');
export const approvePurchaseUpdate = defineUpdate<PurchaseSnapshot, [Actor]>('purchase.approve');
export const rejectPurchaseUpdate = defineUpdate<PurchaseSnapshot, [ReasonArgs]>('purchase.reject');
export const cancelPurchaseUpdate = defineUpdate<PurchaseSnapshot, [ReasonArgs]>('purchase.cancel');
export const voidPurchaseUpdate = defineUpdate<PurchaseSnapshot, [ReasonArgs]>('purchase.void');
export const returnPurchaseUpdate = defineUpdate<PurchaseSnapshot, [ReturnArgs]>('purchase.return');
export const openReceiptUpdate = defineUpdate<GoodsReceiptSnapshot, [OpenReceiptArgs]>(
  'purchase.openReceipt',
);
export const purchaseChangedSignal = defineSignal<[PurchaseChanged]>('purchase.changed');
export const purchaseStateQuery = defineQuery<PurchaseSnapshot>('purchase.state');
