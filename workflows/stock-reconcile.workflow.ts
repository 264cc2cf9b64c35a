import { proxyActivities } from '@temporalio/workflow';
import type { createStockPushActivities } from './activities/stock-push';

type StockPushActivities = ReturnType<typeof createStockPushActivities>;

const reconcile = proxyActivities<StockPushActivities>({
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '1 minute',
  retry: {
    initialInterval: '5 seconds',
    backoffCoefficient: 2,
    maximumInterval: '2 minutes',
    maximumAttempts: 5,
  },
});

/**
 * One round of the stock reconciliation (its schedule, STOCK_RECONCILE_SCHEDULE, never overlaps two): each
 * connected store's stock is read back and every drifted SKU corrected through the store's push workflow. A store
 * that cannot be read this round is left for the next; the others go on.
 */
export async function stockReconcileWorkflow(): Promise<{ stores: number; drifted: number; failed: number }> {
  const stores = await reconcile.storesToReconcile();
  let drifted = 0;
  let failed = 0;
  for (const store of stores) {
    try {
      drifted += (await reconcile.reconcileStore(store)).drifted;
    } catch {
      failed++;
    }
  }
  return { stores: stores.length, drifted, failed };
}
