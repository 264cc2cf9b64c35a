import { goodsReceiptDecider, goodsReceiptStreamId } from '@domain/purchases/goods-receipt';
import { purchaseDecider, purchaseStreamId } from '@domain/purchases/purchase';
import { documentCommands } from '../support/document';

/**
 * Runs commands on the purchasing documents (commands/support/document.ts): the API records a purchase order's
 * creation; the purchase and goods receipt workflows' activities record everything after. The context's command id
 * is the idempotency key. The loaders answer a document as its events leave it, with its history, oldest first.
 */

const purchases = documentCommands(purchaseStreamId, purchaseDecider);
const goodsReceipts = documentCommands(goodsReceiptStreamId, goodsReceiptDecider);

export const handlePurchaseCommand = purchases.handle;
export const loadPurchase = purchases.load;
export const handleGoodsReceiptCommand = goodsReceipts.handle;
export const loadGoodsReceipt = goodsReceipts.load;
