/**
 * What the item download workflow (item-download.workflow.ts), its activities (activities/item-download.ts) and the
 * command that starts it (commands/channels/download.ts) share. No node imports: the workflow bundle takes it too.
 */

export const ITEM_DOWNLOAD_WORKFLOW = 'itemDownloadWorkflow';

/** One download per store at a time: a second request while one runs joins it (the id is the store's). */
export const itemDownloadWorkflowId = (tenantId: string, storeId: string) =>
  `item-download-${tenantId}-${storeId}`;

export interface ItemDownloadRetry {
  initialIntervalMs: number;
  maximumIntervalMs: number;
  maximumAttempts: number;
}

export interface DownloadCounts {
  items: number;
  skus: number;
  linked: number;
  unlinked: number;
}

export interface ItemDownloadInput {
  tenantId: string;
  storeId: string;
  /** The channel calls' retries (default: the workflow's). */
  retry?: ItemDownloadRetry;
  /** Set by the workflow itself when it continues as new. */
  progress?: { startedAt: number; cursor: string };
}

export interface ItemDownloadResult {
  status: 'completed' | 'error';
  counts?: DownloadCounts;
  /** Waiting orders whose "item not found" lines the new links mapped. */
  ordersMapped?: number;
  error?: { kind: string; message: string };
}
