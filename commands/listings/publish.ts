import type { ListingDetail } from '@api/contracts/listings';
import { type PublicationAction, publicationRunId, storeActions } from '@domain/listings/listing';
import { refuseListing } from '@domain/listings/rules';
import { LISTING_PUBLISH_WORKFLOW, type ListingPublishInput } from '@workflows/listing-publish-protocol';
import { startOnce, workflowsUnavailable } from '@workflows/updates';
import type { Actor } from '../support/actor';
import type { Answered } from '../support/answer';
import { listingDetail } from './details';
import { handleListingCommand, loadListing } from './listing';
import { type ListingDeps, listingIdOf } from './support';

/**
 * Publish, sync or unlist a listing on some of its stores (`POST /api/listing/publish/{groupId}`; spec §2 actions):
 * one workflow per store (workflows/listing-publish.workflow.ts), so a store that fails leaves the others alone. Each
 * run is first recorded on the listing (publish in progress, syncing), under the run's id, then started with that
 * id: asking twice at the same revision starts it once, and a listing already running on a store refuses a second
 * run there. Publishing to a store that already has the item syncs it. At most 20 stores (§9).
 */
export async function runPublication(
  deps: ListingDeps,
  actor: Actor,
  input: { groupId: string; action: PublicationAction; storeIds: string[] | undefined },
): Promise<Answered<ListingDetail>> {
  const { tenantId } = actor;
  const listingId = listingIdOf(input.groupId);
  const { state, revision } = await loadListing(deps.store, tenantId, listingId);
  if (state.status === 'none') throw refuseListing('LISTING_NOT_FOUND');
  if (state.status === 'deleted') throw refuseListing('LISTING_DELETED');
  const named = input.storeIds?.map((id) => id.toLowerCase());
  const candidates = named ?? [...new Set([...state.content.storeIds, ...Object.keys(state.stores)])];
  if (candidates.length === 0) throw refuseListing('NO_STORE');
  if (candidates.length > 20) throw refuseListing('TOO_MANY_STORES', { max: 20 });
  const runs = candidates.flatMap((storeId) => {
    // A run recorded whose workflow could not be started (Temporal away) is started now under its own id.
    const running = state.stores[storeId]?.running;
    if (running?.action === input.action || (running?.action === 'sync' && input.action === 'publish'))
      return [{ storeId, action: running.action, runId: running.runId }];
    const allowed = storeActions(state, storeId);
    const action = input.action === 'publish' && allowed.includes('sync') ? 'sync' : input.action;
    if (allowed.includes(action))
      return [{ storeId, action, runId: publicationRunId(tenantId, listingId, storeId, action, revision) }];
    // Stores named one by one must all allow it; by default, the stores it does not apply to are left out.
    if (named) throw refuseListing(state.stores[storeId]?.running ? 'PUBLISH_IN_PROGRESS' : 'NOT_PUBLISHED');
    return [];
  });
  if (runs.length === 0) throw refuseListing(input.action === 'publish' ? 'NO_STORE' : 'NOT_PUBLISHED');
  for (const { storeId, action, runId } of runs) {
    await handleListingCommand(
      deps.store,
      listingId,
      { type: 'StartPublication', storeId, runId, action },
      { tenantId, userId: actor.userId, commandId: `${runId}:start`, occurredAt: new Date().toISOString() },
    );
    const workflowInput: ListingPublishInput = { tenantId, listingId, storeId, action, userId: actor.userId };
    try {
      await startOnce(deps.workflows, LISTING_PUBLISH_WORKFLOW, runId, workflowInput);
    } catch {
      // The run stays recorded as started: asking again at the same revision starts the same workflow.
      throw workflowsUnavailable();
    }
  }
  const key = {
    publish: 'listing.publish_started',
    sync: 'listing.sync_started',
    unlist: 'listing.unlist_started',
  };
  return [await listingDetail(deps, tenantId, listingId), key[input.action], { count: runs.length }];
}
