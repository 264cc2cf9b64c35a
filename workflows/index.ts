// The entry of the workflow bundle: every workflow the worker runs is exported from here. Workflow code is bundled
// by webpack without the tsconfig path aliases, so workflow files import each other relatively.

export { autoBatchWorkflow } from './auto-batch.workflow';
export { goodsIssueWorkflow } from './goods-issue.workflow';
export { goodsReceiptWorkflow } from './goods-receipt.workflow';
export { itemDownloadWorkflow } from './item-download.workflow';
export { listingPublishWorkflow } from './listing-publish.workflow';
export { orderHoldReleaseWorkflow } from './order-hold-release.workflow';
export { orderImportWorkflow } from './order-import.workflow';
export { pricePushWorkflow, promotionPushWorkflow } from './promotion-push.workflow';
export { purchaseWorkflow } from './purchase.workflow';
export { rebuildProjectionWorkflow } from './rebuild-projection.workflow';
export { stockPushWorkflow } from './stock-push.workflow';
export { stockReconcileWorkflow } from './stock-reconcile.workflow';
export { transferWorkflow } from './transfer.workflow';
export { webhookDeliveryWorkflow } from './webhook.workflow';
