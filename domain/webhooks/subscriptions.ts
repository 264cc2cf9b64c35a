import { type ErrorTable, refuser } from '../shared/errors';

/**
 * # Webhook subscriptions (issue 16, the push half of the integrator feed)
 *
 * An account sends the events of the types it chose, in log order, to an endpoint of its own, signed the Standard
 * Webhooks way (standardwebhooks.com: `webhook-id`, `webhook-timestamp`, `webhook-signature`). Here: the result
 * codes, the rules a subscription's URL must keep before anything resolves it, what each state allows, and the
 * retry schedule. Pure: the caller brings the clock and the randomness.
 */

/** Issue 16 gives the webhooks 840–859. */
export const WebhookCode = {
  urlInvalid: 840,
  /** A private, link-local or loopback address: the server would call into its own network (SSRF). */
  urlNotAllowed: 841,
  typesInvalid: 842,
  notFound: 843,
  limitReached: 844,
  rangeInvalid: 845,
  deliveryNotFound: 846,
  /** Redelivery to an endpoint that is disabled. */
  disabled: 847,
  urlUnresolved: 848,
} as const;

export const webhookErrors = {
  URL_INVALID: { status: 400, code: WebhookCode.urlInvalid, key: 'webhooks.url_invalid' },
  URL_NOT_ALLOWED: { status: 400, code: WebhookCode.urlNotAllowed, key: 'webhooks.url_not_allowed' },
  URL_UNRESOLVED: { status: 400, code: WebhookCode.urlUnresolved, key: 'webhooks.url_unresolved' },
  TYPES_INVALID: { status: 400, code: WebhookCode.typesInvalid, key: 'webhooks.types_invalid' },
  NOT_FOUND: { status: 404, code: WebhookCode.notFound, key: 'webhooks.not_found' },
  LIMIT_REACHED: { status: 409, code: WebhookCode.limitReached, key: 'webhooks.limit_reached' },
  RANGE_INVALID: { status: 400, code: WebhookCode.rangeInvalid, key: 'webhooks.range_invalid' },
  DELIVERY_NOT_FOUND: { status: 404, code: WebhookCode.deliveryNotFound, key: 'webhooks.delivery_not_found' },
  DISABLED: { status: 409, code: WebhookCode.disabled, key: 'webhooks.disabled' },
} satisfies ErrorTable;

export type WebhookErrorCode = keyof typeof webhookErrors;

export const WEBHOOK_LIMITS = {
  /** Endpoints per account. */
  subscriptions: 20,
  urlLength: 2000,
  description: 200,
} as const;

export const refuseWebhook = refuser(webhookErrors, { max: WEBHOOK_LIMITS.subscriptions });

export type WebhookStatus = 'enabled' | 'disabled';
/** Why an endpoint is disabled: the seller chose it, the receiver answered 410 Gone, or it kept failing. */
export type DisabledReason = 'seller' | 'gone' | 'failing';

/** Host names that always mean this machine. */
const LOOPBACK_NAMES = new Set(['localhost', 'localhost.localdomain', 'ip6-localhost', 'ip6-loopback']);

export const isLoopbackName = (host: string) => {
  const name = host.toLowerCase().replace(/\.$/, '');
  return LOOPBACK_NAMES.has(name) || name.endsWith('.localhost');
};

/** The host of a URL as the resolver takes it (an IPv6 literal without its brackets). */
export const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');

/**
 * The URL's shape, before anything resolves its host: https, or http to this machine where loopback targets are
 * allowed (tests, development); no user name or password in it (they would travel in the clear in the log).
 */
export function checkEndpointUrl(raw: string, opts: { allowLoopback: boolean }): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuseWebhook('URL_INVALID');
  }
  if (raw.length > WEBHOOK_LIMITS.urlLength || url.username || url.password || !url.hostname)
    throw refuseWebhook('URL_INVALID');
  if (url.protocol === 'https:') return url;
  if (url.protocol !== 'http:') throw refuseWebhook('URL_INVALID');
  // Plain http only reaches this machine, and only where loopback targets are allowed at all.
  const host = hostOf(url);
  const loopback = isLoopbackName(host) || /^127\./.test(host) || host === '::1';
  if (!loopback) throw refuseWebhook('URL_INVALID');
  if (!opts.allowLoopback) throw refuseWebhook('URL_NOT_ALLOWED');
  return url;
}

/** What the console offers for an endpoint in this state. */
export function webhookActions(status: WebhookStatus): ('enable' | 'disable' | 'rotate' | 'redeliver')[] {
  return status === 'enabled' ? ['disable', 'rotate', 'redeliver'] : ['enable', 'rotate'];
}

// ---- retries ----

/**
 * The wait before each retry of a failed delivery: Standard Webhooks' example schedule (5 s, 5 min, 30 min, 2 h,
 * 5 h, 10 h, 14 h, 20 h, 24 h), about 75 hours in all: an endpoint down over a long weekend still gets its events.
 */
export const STANDARD_RETRY_SCHEDULE_MS: readonly number[] = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  14 * 3_600_000,
  20 * 3_600_000,
  24 * 3_600_000,
];

/** At most this share of a wait is added at random, so endpoints that failed together do not retry together. */
export const RETRY_JITTER = 0.2;

/**
 * The wait after the `attempt`-th failed try of an event (1 = the first try), with jitter from `random` in [0, 1):
 * only ever added, so the schedule never runs shorter than its sum. Null: the schedule is spent, the endpoint is
 * disabled.
 */
export function retryDelayMs(schedule: readonly number[], attempt: number, random: number): number | null {
  const base = schedule[attempt - 1];
  if (base === undefined) return null;
  return Math.round(base * (1 + RETRY_JITTER * random));
}

/**
 * Whether a failed try is the one after which the seller is warned: the first of the last three retries (with the
 * standard schedule, after about 17 hours of failures and some 58 hours before the endpoint is disabled).
 */
export const warnsAfter = (schedule: readonly number[], attempt: number) =>
  attempt === Math.max(1, schedule.length - 2);

/** A delivery succeeded: a 2xx answer. 410 Gone disables the endpoint; anything else is a failure to retry. */
export function outcomeOf(status: number | null): 'delivered' | 'gone' | 'failed' {
  if (status !== null && status >= 200 && status < 300) return 'delivered';
  if (status === 410) return 'gone';
  return 'failed';
}
