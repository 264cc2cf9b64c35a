import { ContinueAsNew, continueAsNew, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { createOrderImportActivities } from './activities/order-import';
import {
  IMPORT_WINDOW_SECONDS,
  type ImportProgress,
  type ImportTotals,
  noTotals,
  type OrderImportInput,
  type OrderImportResult,
  orderImportKey,
  STORE_GONE,
} from './order-import-protocol';
import { failureOf } from './support/failure';

type OrderImportActivities = ReturnType<typeof createOrderImportActivities>;

/** The activities' retries unless the input says otherwise: 2 s, 4 s, 8 s, 16 s, then the store shows the error. */
const DEFAULT_RETRY = { initialIntervalMs: 2_000, maximumIntervalMs: 60_000, maximumAttempts: 5 };

/** The store's bookkeeping (database only): retried until it is done. */
const bookkeeping = proxyActivities<OrderImportActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumInterval: '30 seconds' },
});

const add = (totals: ImportTotals, page: ImportTotals): ImportTotals => ({
  orders: totals.orders + page.orders,
  created: totals.created + page.created,
  updated: totals.updated + page.updated,
  unchanged: totals.unchanged + page.unchanged,
  skipped: totals.skipped + page.skipped,
});

/**
 * One import of a store's orders, `order-import-<tenant>-<storeId>` (run by the store's schedule, which never starts
 * one while another runs, and by "Import now", a trigger of that same schedule). It reads the orders the store's
 * channel updated since the store's checkpoint (the channel port's listOrders), window by window (15 days at most),
 * page by page (the cursor), each page an activity that imports every order (`importMarketplaceOrder`, idempotent,
 * with a command id of the order's number and update time) and names those the channel could not translate. The
 * checkpoint moves only once a window is fully imported. A page that keeps failing (the channel's 5xx, timeouts,
 * bad signatures… retried with backoff; a refused authorisation is not retried) ends the run with the error on the
 * store; the next run that succeeds clears it.
 */
export async function orderImportWorkflow(input: OrderImportInput): Promise<OrderImportResult> {
  const { tenantId, storeId } = input;
  const retry = input.retry ?? DEFAULT_RETRY;
  const channel = proxyActivities<OrderImportActivities>({
    // A page: the channel's calls (Shopee: the list, details, tracking numbers of shipped orders), 100 imports.
    startToCloseTimeout: '10 minutes',
    retry: {
      initialInterval: retry.initialIntervalMs,
      backoffCoefficient: 2,
      maximumInterval: retry.maximumIntervalMs,
      maximumAttempts: retry.maximumAttempts,
    },
  });
  const key = orderImportKey(tenantId, storeId);

  let progress: ImportProgress;
  if (input.progress) {
    progress = input.progress;
  } else {
    const begin = await bookkeeping.beginOrderImport({ tenantId, storeId });
    if ('skip' in begin) return { status: 'skipped', reason: begin.skip, totals: noTotals() };
    progress = { from: begin.from, until: begin.until, cursor: '', totals: noTotals(), problems: [] };
  }

  try {
    for (;;) {
      const windowTo = Math.min(progress.from + IMPORT_WINDOW_SECONDS, progress.until);
      for (;;) {
        const page = await channel.importOrderPage({
          tenantId,
          storeId,
          key,
          timeFrom: progress.from,
          timeTo: windowTo,
          cursor: progress.cursor,
        });
        progress = {
          ...progress,
          totals: add(progress.totals, page.totals),
          problems: [...progress.problems, ...page.problems].slice(0, 10),
        };
        if (!page.more) break;
        progress = { ...progress, cursor: page.nextCursor };
        if (workflowInfo().continueAsNewSuggested)
          await continueAsNew<typeof orderImportWorkflow>({ ...input, progress });
      }
      await bookkeeping.advanceImportCheckpoint({ tenantId, storeId, checkpoint: windowTo });
      if (windowTo >= progress.until) break;
      progress = { ...progress, from: windowTo, cursor: '' };
    }
  } catch (error) {
    // continueAsNew works by throwing: it is the run going on, not the import failing.
    if (error instanceof ContinueAsNew) throw error;
    const failure = failureOf(error);
    if (failure.kind === STORE_GONE)
      return { status: 'skipped', reason: 'disconnected', totals: progress.totals };
    await bookkeeping.markOrderImportFailed({ tenantId, storeId, ...failure });
    return { status: 'failed', totals: progress.totals, error: failure };
  }
  await bookkeeping.finishOrderImport({
    tenantId,
    storeId,
    orders: progress.totals.orders,
    problems: progress.problems,
  });
  return { status: 'imported', totals: progress.totals };
}
