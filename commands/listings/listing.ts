import { listingDecider, listingStreamId } from '@domain/listings/listing';
import { documentCommands } from '../support/document';

/**
 * Listings as documents (commands/support/document.ts): the API records saves and the start of a run, the publish
 * workflow's activities the run's steps; the context's command id is the idempotency key. `loadListing` is the
 * listing as its events leave it, with its history.
 */
const listings = documentCommands(listingStreamId, listingDecider);

export const handleListingCommand = listings.handle;
export const loadListing = listings.load;
