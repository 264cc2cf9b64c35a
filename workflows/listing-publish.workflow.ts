import { ActivityFailure, ApplicationFailure, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { ListingActivities, RunItem } from './activities/listings';
import type { ListingPublishInput, ListingPublishOutcome } from './listing-publish-protocol';

const activities = proxyActivities<ListingActivities>({
  // A step is one or two channel calls and an append. The sandbox and Shopee answer in seconds; a worker that dies
  // mid-step loses it to this timeout and the retry (same command id) finds what the first attempt did.
  startToCloseTimeout: '60 seconds',
  retry: {
    initialInterval: '500 milliseconds',
    backoffCoefficient: 2,
    maximumInterval: '10 seconds',
    maximumAttempts: 6,
  },
});

/** Why a step failed for good, in the channel's or the domain's words. */
function reasonOf(error: unknown): string {
  const cause = error instanceof ActivityFailure ? error.cause : error;
  if (cause instanceof ApplicationFailure) return cause.message || cause.type || 'failed';
  return cause instanceof Error ? cause.message : 'failed';
}

/**
 * One run of a listing on one store (`listing-<action>-<tenant>-<listing>-<store>-<revision>`; the API recorded its
 * start): publish creates the item, then sets its prices and stock; sync updates the item, then prices and stock;
 * unlist unlists it. Each step is recorded on the listing as it succeeds, creating the item with its undo. When a
 * later step fails for good, a created item is deleted (the undo) or, should that fail too, left and marked on the
 * listing; the failure is recorded. The other stores' runs are other workflows, untouched by this one's failure.
 */
export async function listingPublishWorkflow(input: ListingPublishInput): Promise<ListingPublishOutcome> {
  const run = { ...input, runId: workflowInfo().workflowId };
  let created: string | null = null;
  try {
    if (run.action === 'unlist') {
      await activities.unlistListingItem(run);
      return { ok: true, itemId: null };
    }
    const item: RunItem =
      run.action === 'publish'
        ? await activities.createListingItem(run)
        : await activities.updateListingItem(run);
    if (item.created) created = item.itemId;
    await activities.pushListingPriceAndStock(run, item);
    await activities.completePublication(run, item);
    return { ok: true, itemId: item.itemId };
  } catch (error) {
    const reason = reasonOf(error);
    let itemLeft: string | null = null;
    if (created) {
      try {
        await activities.deleteListingItem(run, created);
      } catch {
        itemLeft = created;
      }
    }
    await activities.failPublication(run, reason, itemLeft);
    return { ok: false, reason, itemLeft };
  }
}
