import { z } from 'zod';
import { TEXT_LIMITS } from '../shared/limits';

/**
 * # The push log
 *
 * Every call that told a channel a stock figure or a price is an event, `ChannelUpdatePushed`, on the store's
 * stream (`channelpush-<tenant>.<storeId>`): which SKUs, what we told it, why (the event that moved the figure and
 * its reason in the seller's words, or a manual sync, or the reconciliation; for a price, the store's price rule
 * pushed by "push prices"), which try it was, and the channel's answer per SKU. The push log screen answers "what did we tell Shopee for SKU X at 10:02, and why?" from it.
 * One event per call (a call carries up to the channel's batch size): a burst of changes is a few events, not
 * thousands.
 */

const Id = z.string().min(1).max(100);

/** Why a figure was pushed; `pricing`: the prices the store's price rule gives, pushed on request. */
export const PUSH_ORIGINS = ['change', 'manual', 'reconcile', 'pricing'] as const;
export type PushOrigin = (typeof PUSH_ORIGINS)[number];

/** What the push did for one SKU: taken, refused for good, or refused for now (it will be tried again). */
export const PUSH_OUTCOMES = ['ok', 'failed', 'retrying'] as const;
export type PushOutcome = (typeof PUSH_OUTCOMES)[number];

/** The event that moved the figure, and why in the seller's words ("Order accepted", "Stock adjusted"…). */
export const PushTrigger = z.strictObject({
  origin: z.enum(PUSH_ORIGINS),
  /** The event that moved the figure; for a price push, the push asked for (its push id). */
  eventId: z.string().max(100).optional(),
  eventType: z.string().max(100).optional(),
  reason: z.string().max(TEXT_LIMITS.reason),
});
export type PushTrigger = z.infer<typeof PushTrigger>;

/** What a call told the channel: stock figures or prices. */
export const PUSH_FIELDS = ['stock', 'price'] as const;
export type PushField = (typeof PUSH_FIELDS)[number];

export const PushedLine = z.strictObject({
  itemId: Id,
  /** '' for an item without variants. */
  modelId: z.string().max(100),
  sellerSku: z.string().max(200),
  masterCodeId: z.string().max(100).nullable(),
  /** Stock pushes. */
  quantity: z.number().int().min(0).optional(),
  /** Price pushes: a decimal string in the store's currency. */
  price: z.string().max(20).optional(),
  trigger: PushTrigger,
  /** 1 for the first try of this figure, 2 for the first retry… */
  attempt: z.number().int().min(1),
  outcome: z.enum(PUSH_OUTCOMES),
  /** The channel's answer: its reason when it refused, '' when it took the figure. */
  answer: z.string().max(TEXT_LIMITS.reason),
});
export type PushedLine = z.infer<typeof PushedLine>;

export const ChannelUpdatePushed = z.strictObject({
  storeId: Id,
  platform: z.string().max(40),
  field: z.enum(PUSH_FIELDS),
  lines: z.array(PushedLine).min(1).max(500),
  /** When the call was made (the event's occurredAt is when it was recorded). */
  pushedAt: z.string(),
});
export type ChannelUpdatePushed = z.infer<typeof ChannelUpdatePushed>;

export const pushLogEvents = { ChannelUpdatePushed } as const;
export type PushLogEvent = { type: 'ChannelUpdatePushed'; data: ChannelUpdatePushed };

export const PUSH_LOG_CATEGORY = 'channelpush';
export const pushLogStreamId = (tenantId: string, storeId: string) =>
  `${PUSH_LOG_CATEGORY}-${tenantId}.${storeId}`;
