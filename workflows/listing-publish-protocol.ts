import type { PublicationAction } from '../domain/listings/listing';

/**
 * What the listing publish workflow (listing-publish.workflow.ts) and the listing routes share: its name and input.
 * One run per (listing, store, action, listing revision): its id is the business key (`publicationRunId`), so a
 * double click, a retried request or a restarted worker runs it once. No node imports: the workflow bundle takes it.
 */

export const LISTING_PUBLISH_WORKFLOW = 'listingPublishWorkflow';

export interface ListingPublishInput {
  tenantId: string;
  listingId: string;
  storeId: string;
  action: PublicationAction;
  /** Who asked: recorded as the user of the run's events. */
  userId: string;
}

export type ListingPublishOutcome =
  | { ok: true; itemId: string | null }
  | { ok: false; reason: string; itemLeft: string | null };
