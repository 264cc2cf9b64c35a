import {
  cloudEventJson,
  FEED_EVENT_TYPES,
  type FeedPosition,
  feedEventType,
  formatFeedPosition,
  parseFeedPosition,
} from '@domain/feed/cloud-events';
import { refuseWebhook } from '@domain/webhooks/subscriptions';
import type { Database } from '@infra/db';
import { readTenantFeed } from '@projections/feed.queries';
import type { Kysely } from 'kysely';

/**
 * What webhooks read of the log: the integrator feed's own read (projections/feed.queries.ts) and its CloudEvents
 * form (domain/feed/cloud-events.ts), so a webhook carries exactly what the pull feed gives, position included.
 */

/** An event as a webhook carries it: its id (the webhook-id), type, feed position and CloudEvents JSON body. */
export interface FeedItem {
  id: string;
  type: string;
  position: string;
  body: string;
}

export interface FeedPage {
  items: FeedItem[];
  /** Where the next read starts: past everything this read could see (the feed's `next`). */
  next: string;
}

export const PUBLISHED_TYPES = FEED_EVENT_TYPES;

/** The event types an endpoint chose, as the feed names them (plain or `my.kedai.…`), in their plain form. */
export function publishedTypes(names: readonly string[]): string[] {
  const types = names.map(feedEventType);
  if (types.length === 0 || types.some((type) => type === undefined)) throw refuseWebhook('TYPES_INVALID');
  return [...new Set(types as string[])].sort();
}

export async function readSubscribedEvents(
  db: Kysely<Database>,
  query: { tenantId: string; after: FeedPosition | null; types: readonly string[]; limit: number },
): Promise<FeedPage> {
  const page = await readTenantFeed(db, {
    tenantId: query.tenantId,
    ...(query.after ? { after: query.after } : {}),
    types: query.types,
    limit: query.limit,
  });
  return {
    items: page.events.map((event) => ({
      id: event.id,
      type: event.type,
      position: formatFeedPosition(event.position),
      body: cloudEventJson(event),
    })),
    next: formatFeedPosition(page.next),
  };
}

/**
 * The log's horizon for the account: every event after it is still to come (or still being written), every event
 * before it already readable. A new endpoint starts here.
 */
export async function feedHorizon(db: Kysely<Database>, tenantId: string): Promise<string> {
  // A read of no events answers with the horizon as its `next`.
  const page = await readTenantFeed(db, { tenantId, limit: 0 });
  return formatFeedPosition(page.next);
}

export const positionOf = (text: string): FeedPosition | null => parseFeedPosition(text);

/** The position just before `position`: a read after it starts with the event at `position`. */
export const positionBefore = (position: FeedPosition): FeedPosition => ({
  commit: position.commit,
  prepare: position.prepare - 1n,
});

export function comparePositions(a: FeedPosition, b: FeedPosition): number {
  if (a.commit !== b.commit) return a.commit < b.commit ? -1 : 1;
  return a.prepare === b.prepare ? 0 : a.prepare < b.prepare ? -1 : 1;
}
