import { WEBHOOK_LIMITS, WebhookCode } from '@domain/webhooks/subscriptions';
import { z } from 'zod';
import { GridPage } from './common';
import { DateFilter, gridQuery, setFilter } from './grid';
import { rule } from './rules';

/**
 * Webhook subscriptions (issue 16, the push half of the integrator feed; console /settings/webhooks): endpoints with
 * the event types they receive, their signing secret (shown once, at creation and at each rotation), their state,
 * the delivery log, and redelivery of one event or a range of feed positions.
 */

const urlInvalid = rule(WebhookCode.urlInvalid, 'webhooks.url_invalid');
const typesInvalid = rule(WebhookCode.typesInvalid, 'webhooks.types_invalid');
const rangeInvalid = rule(WebhookCode.rangeInvalid, 'webhooks.range_invalid');

const Url = z
  .string({ error: urlInvalid })
  .trim()
  .min(1, urlInvalid)
  .max(WEBHOOK_LIMITS.urlLength, urlInvalid);
const EventTypes = z
  .array(z.string().max(100, typesInvalid), { error: typesInvalid })
  .min(1, typesInvalid)
  .max(200, typesInvalid);
const Description = z.string().trim().max(WEBHOOK_LIMITS.description);
const Position = z.string({ error: rangeInvalid }).min(1, rangeInvalid).max(64, rangeInvalid);

export const WEBHOOK_STATUSES = ['enabled', 'disabled'] as const;
export const WEBHOOK_DISABLED_REASONS = ['seller', 'gone', 'failing'] as const;
export const WEBHOOK_ACTIONS = ['enable', 'disable', 'rotate', 'redeliver'] as const;
export const DELIVERY_OUTCOMES = ['delivered', 'failed', 'gone'] as const;

export const WebhookBody = z.strictObject({
  url: Url,
  event_types: EventTypes,
  description: Description.default(''),
});
export type WebhookBody = z.infer<typeof WebhookBody>;

export const WebhookParams = z.strictObject({ id: z.string().max(64) });

export const Webhook = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string(),
  event_types: z.array(z.string()),
  status: z.enum(WEBHOOK_STATUSES),
  disabled_reason: z.enum(WEBHOOK_DISABLED_REASONS).nullable(),
  actions: z.array(z.enum(WEBHOOK_ACTIONS)),
  /** The feed position of the last event delivered; null: none yet. */
  delivered_through: z.string().nullable(),
  /** Since when deliveries fail (the event at the head of the queue waits for its next try); null: not failing. */
  failing_since: z.string().nullable(),
  /** Until when the previous secret signs too (a rotation's window); null: one secret. */
  previous_secret_until: z.string().nullable(),
  last_delivery: z
    .object({
      outcome: z.enum(DELIVERY_OUTCOMES),
      status: z.number().int().nullable(),
      attempted_at: z.string(),
    })
    .nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Webhook = z.infer<typeof Webhook>;

export const WebhookList = z.object({
  webhooks: z.array(Webhook),
  /** The event types an endpoint may subscribe to. */
  event_types: z.array(z.string()),
});
export type WebhookList = z.infer<typeof WebhookList>;

/** A new endpoint, or a rotated secret: the only answers that carry the secret. */
export const WebhookWithSecret = z.object({ webhook: Webhook, secret: z.string() });
export type WebhookWithSecret = z.infer<typeof WebhookWithSecret>;

export const RotateBody = z.strictObject({
  /** How long the old secret goes on signing beside the new one (0: stop at once). */
  window_hours: z.number().int().min(0).max(168).default(24),
});
export type RotateBody = z.infer<typeof RotateBody>;

/** One event again (by its id, as the delivery log names it), or every event of the endpoint's types in a range. */
export const RedeliverBody = z.union([
  z.strictObject({ event_id: z.string().max(64) }),
  z.strictObject({ from: Position, to: Position }),
]);
export type RedeliverBody = z.infer<typeof RedeliverBody>;

export const RedeliverAnswer = z.object({ from: z.string(), to: z.string() });
export type RedeliverAnswer = z.infer<typeof RedeliverAnswer>;

// ---- the delivery log ----

export const DELIVERY_SORTS = ['attempted_at', 'position', 'status', 'duration_ms'] as const;

export const DeliveryQuery = gridQuery(DELIVERY_SORTS, {
  outcome: setFilter(DELIVERY_OUTCOMES),
  attempted_at: DateFilter,
}).extend({ event_id: z.string().max(64).optional() });
export type DeliveryQuery = z.infer<typeof DeliveryQuery>;

export const DeliveryRow = z.object({
  id: z.string(),
  event_id: z.string(),
  event_type: z.string(),
  position: z.string(),
  attempt: z.number().int(),
  redelivery: z.boolean(),
  request_headers: z.record(z.string(), z.string()),
  body_sha256: z.string(),
  body_excerpt: z.string(),
  outcome: z.enum(DELIVERY_OUTCOMES),
  status: z.number().int().nullable(),
  answer_excerpt: z.string(),
  error: z.string().nullable(),
  duration_ms: z.number().int(),
  attempted_at: z.string(),
});
export type DeliveryRow = z.infer<typeof DeliveryRow>;
export const DeliveryPage = GridPage(DeliveryRow);
export type DeliveryPage = z.infer<typeof DeliveryPage>;
