import { eventSchemas } from '@domain/events';
import type { z } from 'zod';

/**
 * What integrators see of the log: each event as a CloudEvents 1.0 JSON event (https://cloudevents.io), the same
 * for the pull feed (GET /api/feed/events) and the webhooks.
 *
 * - `type` is `my.kedai.<EventType>` (reverse DNS, so a consumer mixing sources can route on it); the feed's
 *   `types=` filter and an app's scope take the plain event type (`StockAdjusted`) or that form.
 * - `source` is `/kedai/tenants/<tenantId>`, `subject` the stream (the entity the event is about), `time` when it
 *   happened (the command's time), `id` the event id (a consumer's deduplication key: a webhook retried keeps it).
 * - Two extension attributes: `position`, the place in the tenant's log as one opaque string a consumer passes
 *   back as `after` to resume, and `streamrevision`, the event's sequence within its stream (0, 1, 2…).
 */

/** The platform's own events (a system tenant's instance starting) are nobody's business outside. */
const PRIVATE_EVENT_TYPES = new Set(['SystemStarted']);

/** Every event type an app can subscribe to, each with the zod schema of its `data`. */
export const feedEventSchemas: Readonly<Record<string, z.ZodType>> = Object.fromEntries(
  Object.entries(eventSchemas).filter(([type]) => !PRIVATE_EVENT_TYPES.has(type)),
);

export const FEED_EVENT_TYPES: readonly string[] = Object.keys(feedEventSchemas).sort();

export const CLOUD_EVENT_TYPE_PREFIX = 'my.kedai.';

export const cloudEventType = (eventType: string) => `${CLOUD_EVENT_TYPE_PREFIX}${eventType}`;

/** The event type a feed filter names (plain or in its CloudEvents form), or undefined when it names none. */
export function feedEventType(name: string): string | undefined {
  const plain = name.startsWith(CLOUD_EVENT_TYPE_PREFIX) ? name.slice(CLOUD_EVENT_TYPE_PREFIX.length) : name;
  return Object.hasOwn(feedEventSchemas, plain) ? plain : undefined;
}

export const cloudEventSource = (tenantId: string) => `/kedai/tenants/${tenantId}`;

// ---- positions ----

/** A place in the log (the event store's: the writing transaction, then the global sequence). */
export interface FeedPosition {
  readonly commit: bigint;
  readonly prepare: bigint;
}

const MAX_BIGINT = 2n ** 63n - 1n;

/** `<commit>-<prepare>`: digits only, safe in a URL and never mistaken for a number by a JSON reader. */
export const formatFeedPosition = (position: FeedPosition) => `${position.commit}-${position.prepare}`;

/** The position a client passed back, or null when it is not one this feed could have given. */
export function parseFeedPosition(text: string): FeedPosition | null {
  const match = /^(\d{1,19})-(\d{1,19})$/.exec(text);
  if (!match) return null;
  const commit = BigInt(match[1]!);
  const prepare = BigInt(match[2]!);
  return commit <= MAX_BIGINT && prepare <= MAX_BIGINT ? { commit, prepare } : null;
}

// ---- events ----

/** What a CloudEvent is made of: a recorded event of the store (RecordedEvent has this shape). */
export interface FeedSourceEvent {
  id: string;
  stream: string;
  revision: bigint;
  type: string;
  metadata: { tenantId: string; occurredAt: string };
  position: FeedPosition;
}

export interface CloudEvent {
  specversion: '1.0';
  id: string;
  source: string;
  type: string;
  subject: string;
  time: string;
  datacontenttype: 'application/json';
  position: string;
  streamrevision: number;
  data: unknown;
}

function envelope(event: FeedSourceEvent): Omit<CloudEvent, 'data'> {
  return {
    specversion: '1.0',
    id: event.id,
    source: cloudEventSource(event.metadata.tenantId),
    type: cloudEventType(event.type),
    subject: event.stream,
    time: event.metadata.occurredAt,
    datacontenttype: 'application/json',
    position: formatFeedPosition(event.position),
    streamrevision: Number(event.revision),
  };
}

export function toCloudEvent(event: FeedSourceEvent & { data: unknown }): CloudEvent {
  return { ...envelope(event), data: event.data };
}

/**
 * The same event as JSON text, its data spliced in as the store gave it (already JSON): a feed page of thousands
 * of events is neither parsed nor serialised again, which is most of what reading the feed would otherwise cost.
 */
export function cloudEventJson(event: FeedSourceEvent & { dataJson: string }): string {
  const head = JSON.stringify(envelope(event));
  return `${head.slice(0, -1)},"data":${event.dataJson}}`;
}
