import { type ListingCommand, listingDecider, listingStreamId } from '@domain/listings/listing';
import { refuseListing } from '@domain/listings/rules';
import { WrongExpectedRevisionError } from '@infra/eventstore/errors';
import type { EventStore } from '@infra/eventstore/port';
import type { DocumentContext } from '../support/document';
import { documentCommands } from '../support/document';

/**
 * Listings as documents (commands/support/document.ts): the API records saves and the start of a run, the publish
 * workflow's activities the run's steps; the context's command id is the idempotency key. `loadListing` is the
 * listing as its events leave it, with its history.
 */
const listings = documentCommands(listingStreamId, listingDecider);

export const handleListingCommand = listings.handle;
export const loadListing = listings.load;

/** A person's change of a listing made against the revision they read: one changed since is refused (409, 725). */
export async function changeListing(
  store: EventStore,
  listingId: string,
  command: ListingCommand,
  context: DocumentContext,
) {
  try {
    return await handleListingCommand(store, listingId, command, context);
  } catch (error) {
    if (error instanceof WrongExpectedRevisionError) throw refuseListing('CHANGED_MEANWHILE');
    throw error;
  }
}
