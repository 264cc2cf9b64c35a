import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { GoodsReceipt } from '../domain/purchases/goods-receipt';
import type { Actor, ReasonArgs } from './purchase-protocol';

/**
 * What the goods receipt workflow (goods-receipt.workflow.ts) and the API share: its name, id and input, the
 * updates of a goods receive note (approve, reject, receive, cancel) and its query. No node imports.
 */

export const GOODS_RECEIPT_WORKFLOW = 'goodsReceiptWorkflow';

/** `goods-receipt-<tenant>-<goodsReceiptId>`. */
export const goodsReceiptWorkflowId = (tenantId: string, goodsReceiptId: string) =>
  `goods-receipt-${tenantId}-${goodsReceiptId}`;

export interface GoodsReceiptWorkflowInput {
  tenantId: string;
  goodsReceiptId: string;
  goodsReceipt: GoodsReceipt;
  revision: number;
  /** The workflow of the note's purchase order, told of every change the note makes to the order. */
  purchaseWorkflowId: string;
}

export interface GoodsReceiptSnapshot {
  goodsReceipt: GoodsReceipt;
  revision: number;
  busy: string | null;
}

export const approveGoodsReceiptUpdate = defineUpdate<GoodsReceiptSnapshot, [Actor]>('goodsReceipt.approve');
export const rejectGoodsReceiptUpdate = defineUpdate<GoodsReceiptSnapshot, [ReasonArgs]>(
  'goodsReceipt.reject',
);
export const receiveGoodsReceiptUpdate = defineUpdate<GoodsReceiptSnapshot, [Actor]>('goodsReceipt.receive');
export const cancelGoodsReceiptUpdate = defineUpdate<GoodsReceiptSnapshot, [ReasonArgs]>(
  'goodsReceipt.cancel',
);
export const goodsReceiptStateQuery = defineQuery<GoodsReceiptSnapshot>('goodsReceipt.state');
