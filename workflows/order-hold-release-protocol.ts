/**
 * What the held orders' release (order-hold-release.workflow.ts), its activity and the worker's start share. No node
 * imports: the workflow bundle takes it too.
 */

export const ORDER_HOLD_RELEASE_WORKFLOW = 'orderHoldReleaseWorkflow';

/** The one schedule (and its runs' workflow id) that releases every account's held orders. */
export const ORDER_HOLD_RELEASE_SCHEDULE = 'order-hold-release';

/** How often it looks: a new month (or a larger package) lets held orders in within this. */
export const ORDER_HOLD_RELEASE_EVERY_MS = 5 * 60_000;

export interface OrderHoldReleaseResult {
  accounts: number;
  released: number;
}
