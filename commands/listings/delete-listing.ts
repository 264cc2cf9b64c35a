import type { ListingDetail } from '@api/contracts/listings';
import { refuseListing } from '@domain/listings/rules';
import type { Actor } from '../support/actor';
import type { Answered } from '../support/answer';
import { listingDetail } from './details';
import { handleListingCommand, loadListing } from './listing';
import { type ListingDeps, listingIdOf, personContext } from './support';

/** Deletes a listing in Kedai (the "deleted" filter keeps it); never while a run writes it to a store. */
export async function deleteListing(
  deps: ListingDeps,
  actor: Actor,
  groupId: string,
): Promise<Answered<ListingDetail>> {
  const listingId = listingIdOf(groupId);
  const { state } = await loadListing(deps.store, actor.tenantId, listingId);
  if (state.status === 'none') throw refuseListing('LISTING_NOT_FOUND');
  await handleListingCommand(
    deps.store,
    listingId,
    { type: 'DeleteListing' },
    personContext(actor, 'delete'),
  );
  return [await listingDetail(deps, actor.tenantId, listingId), 'listing.deleted_done'];
}
