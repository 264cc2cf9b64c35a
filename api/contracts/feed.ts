import { APP_NAME_MAX } from '@domain/feed/apps';
import { cloudEventType, FEED_EVENT_TYPES, feedEventSchemas } from '@domain/feed/cloud-events';
import { FeedCode } from '@domain/feed/errors';
import { z } from 'zod';
import { rule } from './rules';

/**
 * The integrator feed (GET /api/feed/events, read with an app's API key) and the apps that read it (Settings →
 * apps). Zod only, no server imports.
 */

// ---- the feed ----

const positionInvalid = rule(FeedCode.positionInvalid, 'feed.position_invalid');

export const FEED_PAGE_MAX = 5000;

export const FeedEventsQuery = z.strictObject({
  after: z
    .string()
    .regex(/^\d{1,19}-\d{1,19}$/, positionInvalid)
    .optional()
    .describe(
      "Read the events after this position (an event's `position`, or a page's `next`); from the start of the log when absent.",
    ),
  types: z
    .string()
    .max(10_000)
    .optional()
    .describe(
      'Comma-separated event types (`StockAdjusted` or `my.kedai.StockAdjusted`); every type of the app when absent.',
    ),
  limit: z.coerce.number().int().min(1).max(FEED_PAGE_MAX).default(1000),
});
export type FeedEventsQuery = z.infer<typeof FeedEventsQuery>;

const envelope = {
  specversion: z.literal('1.0'),
  id: z.string().describe('The event id: the same on every delivery of the event.'),
  source: z.string().describe('/kedai/tenants/<tenantId>'),
  subject: z
    .string()
    .describe('The stream (the entity the event is about): <category>-<tenantId>.<entityKey>'),
  time: z.string().describe('When it happened (RFC 3339).'),
  datacontenttype: z.literal('application/json'),
  position: z.string().describe('The place in the log: pass it back as `after` to read on from this event.'),
  streamrevision: z.number().int().describe("The event's sequence in its stream: 0, 1, 2…"),
};

/** One CloudEvents 1.0 event per type, each its own component (`my.kedai.<EventType>`) with the type's data. */
export const FeedCloudEvent = z
  .discriminatedUnion(
    'type',
    FEED_EVENT_TYPES.map((type) =>
      z.object({ ...envelope, type: z.literal(cloudEventType(type)), data: feedEventSchemas[type]! }).meta({
        id: cloudEventType(type),
      }),
    ) as unknown as [z.ZodObject, ...z.ZodObject[]],
  )
  .meta({ id: 'my.kedai.CloudEvent' });

export const FeedPage = z.object({
  events: z.array(FeedCloudEvent),
  next: z.string().describe('Where the next read starts: pass it as `after`.'),
});

// ---- apps ----

const nameRequired = rule(FeedCode.nameRequired, 'feed.app_name_required');
const typesRequired = rule(FeedCode.typesRequired, 'feed.app_types_required');

export const NewApp = z.strictObject({
  name: z.string({ error: nameRequired }).trim().min(1, nameRequired).max(APP_NAME_MAX),
  eventTypes: z.array(z.string().max(100), { error: typesRequired }).min(1, typesRequired).max(500),
});
export type NewApp = z.infer<typeof NewApp>;

export const FeedApp = z.object({
  id: z.string(),
  name: z.string(),
  eventTypes: z.array(z.string()),
  /** The key's first characters, to tell keys apart (the key itself is shown once). */
  keyHint: z.string(),
  createdBy: z.string(),
  createdAt: z.string(),
  keyCreatedAt: z.string(),
  revokedAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
});
export type FeedApp = z.infer<typeof FeedApp>;

/** An app with its new API key: the only time the key is shown. */
export const AppWithKey = FeedApp.extend({ key: z.string() });
export type AppWithKey = z.infer<typeof AppWithKey>;

/** The event types the caller may give an app (those the caller may read). */
export const AppEventTypes = z.array(z.string());
