import { ContinueAsNew, continueAsNew, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { createItemDownloadActivities } from './activities/item-download';
import type { ItemDownloadInput, ItemDownloadResult } from './item-download-protocol';
import { failureOf } from './support/failure';

type ItemDownloadActivities = ReturnType<typeof createItemDownloadActivities>;

/** The channel's pages unless the input says otherwise: 2 s, 4 s, 8 s, 16 s, then the store shows the error. */
const DEFAULT_RETRY = { initialIntervalMs: 2_000, maximumIntervalMs: 60_000, maximumAttempts: 5 };

/** The download's bookkeeping (database only): retried until it is done. */
const bookkeeping = proxyActivities<ItemDownloadActivities>({
  startToCloseTimeout: '5 minutes',
  retry: { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumInterval: '30 seconds' },
});

/**
 * Downloads a store's items into its channel SKUs (`item-download-<tenant>-<store>`, so two requests run one):
 * the store's item list page by page, each page's items in full 50 at a time, every SKU recorded and linked to its
 * master code by the order import's rule (commands/channels/channel-skus.ts). Once every page is in, SKUs the
 * channel no longer has are dropped, the counts kept on the store's download status, and the store's waiting orders
 * whose "item not found" SKU is now linked are mapped. A page that keeps failing ends the run in `error` with why.
 */
export async function itemDownloadWorkflow(input: ItemDownloadInput): Promise<ItemDownloadResult> {
  const { tenantId, storeId } = input;
  const retry = input.retry ?? DEFAULT_RETRY;
  const channel = proxyActivities<ItemDownloadActivities>({
    // A page: the list call and its items' details, 50 at a time.
    startToCloseTimeout: '10 minutes',
    retry: {
      initialInterval: retry.initialIntervalMs,
      backoffCoefficient: 2,
      maximumInterval: retry.maximumIntervalMs,
      maximumAttempts: retry.maximumAttempts,
    },
  });
  try {
    let progress = input.progress ?? {
      startedAt: (await bookkeeping.beginItemDownload({ tenantId, storeId })).startedAt,
      cursor: '',
    };
    for (;;) {
      const page = await channel.downloadItemPage({ tenantId, storeId, cursor: progress.cursor });
      if (page.next === undefined) break;
      progress = { ...progress, cursor: page.next };
      if (workflowInfo().continueAsNewSuggested)
        await continueAsNew<typeof itemDownloadWorkflow>({ ...input, progress });
    }
    const done = await bookkeeping.finishItemDownload({ tenantId, storeId, startedAt: progress.startedAt });
    return { status: 'completed', counts: done.counts, ordersMapped: done.ordersMapped };
  } catch (error) {
    if (error instanceof ContinueAsNew) throw error;
    const failure = failureOf(error);
    await bookkeeping.failItemDownload({ tenantId, storeId, message: failure.message });
    return { status: 'error', error: failure };
  }
}
