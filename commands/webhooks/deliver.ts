import { createHash, randomUUID } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { hostOf, outcomeOf } from '@domain/webhooks/subscriptions';
import type { Database } from '@infra/db';
import type { WebhookDeliveriesTable } from '@infra/db/schema';
import type { DeliverInput, DeliverResult, FailingEvent, RedeliverInput } from '@workflows/webhook-protocol';
import { type Insertable, type Kysely, sql } from 'kysely';
import { announceWebhook } from './announce';
import {
  comparePositions,
  type FeedItem,
  positionBefore,
  positionOf,
  readSubscribedEvents,
} from './feed-source';
import { signatureHeader } from './signing';
import { addressAllowed, guardedLookup, type TargetPolicy } from './targets';

/**
 * Delivering an endpoint's events (the activities of workflows/webhook.workflow.ts): each event of its types after
 * its saved position, in log order, as a CloudEvents 1.0 JSON body in structured mode, signed the Standard Webhooks
 * way, one request at a time. Every try is a row of the delivery log; the position moves with each acknowledged
 * event, saved with the log rows in one transaction every few events, so a worker killed mid-way sends again only
 * what it had not saved (the same webhook-id: receivers drop it as a duplicate).
 */

export interface DeliveryDeps {
  db: Kysely<Database>;
  targets: TargetPolicy;
  /** Called per event: the activity's heartbeat. */
  beat?: () => void;
}

/** Events read per page; a delivery call goes on page after page up to MAX_PER_CALL. */
const PAGE = 100;
const MAX_PER_CALL = 2_000;
/** Log rows and the position are saved every this many deliveries (and at every failure and at the end). */
const SAVE_EVERY = 25;
/** How long a call keeps looking for more after its last delivery, and how often. */
const LINGER_MS = 1_000;
const POLL_MS = 25;
const EXCERPT = 2_000;
const ANSWER_EXCERPT = 1_000;
const USER_AGENT = 'Kedai-Webhooks/1.0';

type Subscription = Awaited<ReturnType<typeof loadSubscription>>;

async function loadSubscription(db: Kysely<Database>, tenantId: string, id: string) {
  return db
    .selectFrom('webhook_subscriptions')
    .select([
      'url',
      'event_types',
      'status',
      'secret',
      'previous_secret',
      'previous_secret_until',
      'delivered_through',
      'starts_after',
      'failing_since',
    ])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The secrets that sign now: the current one, and the previous one during its rotation window. */
function signingSecrets(subscription: NonNullable<Subscription>, now: Date): string[] {
  const { secret, previous_secret: previous, previous_secret_until: until } = subscription;
  return previous && until && until > now ? [secret, previous] : [secret];
}

interface Answer {
  status: number | null;
  answer: string;
  error: string | null;
  durationMs: number;
}

const keepAlive = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };

/** One POST: the receiver's status and the start of its answer, or why there was none (timeout, refused…). */
function post(
  url: URL,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  policy: TargetPolicy,
): Promise<Answer> {
  const started = performance.now();
  const done = (status: number | null, answer: string, error: string | null): Answer => ({
    status,
    answer,
    error,
    durationMs: Math.round(performance.now() - started),
  });
  const host = hostOf(url);
  // An address written in the URL is dialled without a lookup: it is checked here instead.
  if (isIP(host) && !addressAllowed(host, policy))
    return Promise.resolve(done(null, '', `${host} is not an address webhooks may reach`));
  const secure = url.protocol === 'https:';
  return new Promise((resolve) => {
    let settled = false;
    const settle = (answer: Answer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(answer);
    };
    const request = (secure ? https : http).request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': Buffer.byteLength(body).toString() },
        agent: secure ? keepAlive.https : keepAlive.http,
        lookup: guardedLookup(policy),
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          if (size < ANSWER_EXCERPT) chunks.push(chunk);
          size += chunk.length;
        });
        response.on('end', () =>
          settle(
            done(
              response.statusCode ?? null,
              Buffer.concat(chunks).toString('utf8').slice(0, ANSWER_EXCERPT),
              null,
            ),
          ),
        );
        response.on('error', (error) => settle(done(response.statusCode ?? null, '', error.message)));
      },
    );
    // A receiver slower than the timeout failed this try (Standard Webhooks "Request timeouts").
    const timer = setTimeout(() => {
      request.destroy();
      settle(done(null, '', `no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    request.on('error', (error) => settle(done(null, '', error.message)));
    // Headers and body go out at once, not held back by Nagle's algorithm waiting for the receiver's delayed ACK.
    request.setNoDelay(true);
    request.end(body);
  });
}

/** A delivery log row, as written. */
type LogRow = Omit<Insertable<WebhookDeliveriesTable>, 'tenant_id'> & { attempted_at: Date };

interface Attempt {
  row: LogRow;
  outcome: 'delivered' | 'failed' | 'gone';
}

async function insertRows(db: Kysely<Database>, tenantId: string, rows: readonly LogRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('webhook_deliveries')
    .values(rows.map((row) => ({ tenant_id: tenantId, ...row })))
    .execute();
}

/** Sends one event to the endpoint and says how it went, as a log row. */
async function sendEvent(
  subscription: NonNullable<Subscription>,
  ids: { tenantId: string; subscriptionId: string },
  event: FeedItem,
  opts: { attempt: number; redelivery: boolean; timeoutMs: number; policy: TargetPolicy },
): Promise<Attempt> {
  const now = new Date();
  const timestamp = Math.floor(now.getTime() / 1000);
  const headers = {
    'content-type': 'application/cloudevents+json; charset=utf-8',
    'user-agent': USER_AGENT,
    'webhook-id': event.id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signatureHeader(signingSecrets(subscription, now), event.id, timestamp, event.body),
  };
  const answer = await post(new URL(subscription.url), headers, event.body, opts.timeoutMs, opts.policy);
  const outcome = outcomeOf(answer.status);
  return {
    outcome,
    row: {
      id: randomUUID(),
      subscription_id: ids.subscriptionId,
      event_id: event.id,
      event_type: event.type,
      position: event.position,
      attempt: opts.attempt,
      redelivery: opts.redelivery,
      request_headers: JSON.stringify(headers),
      body_sha256: createHash('sha256').update(event.body).digest('hex'),
      body_excerpt: event.body.slice(0, EXCERPT),
      outcome,
      status: answer.status,
      answer_excerpt: answer.answer,
      error: answer.error,
      duration_ms: answer.durationMs,
      attempted_at: now,
    },
  };
}

/**
 * Beats while a receiver takes its time (up to the request timeout, longer than the activity's heartbeat timeout):
 * a slow receiver is not mistaken for a dead worker.
 */
async function beating<T>(deps: DeliveryDeps, work: () => Promise<T>): Promise<T> {
  deps.beat?.();
  const ticking = setInterval(() => deps.beat?.(), 1_000);
  try {
    return await work();
  } finally {
    clearInterval(ticking);
  }
}

/** Saves the log rows of the tries since the last save and, when events were acknowledged, the new position. */
async function save(
  db: Kysely<Database>,
  ids: { tenantId: string; subscriptionId: string },
  rows: LogRow[],
  state: { deliveredThrough?: string; failing?: boolean; gone?: boolean },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await insertRows(trx, ids.tenantId, rows);
    const update: Record<string, unknown> = {};
    if (state.deliveredThrough !== undefined) update.delivered_through = state.deliveredThrough;
    if (state.failing === false) {
      update.failing_since = null;
      update.warned_at = null;
    }
    if (state.gone) {
      update.status = 'disabled';
      update.disabled_reason = 'gone';
    }
    let query = trx
      .updateTable('webhook_subscriptions')
      .where('tenant_id', '=', ids.tenantId)
      .where('id', '=', ids.subscriptionId);
    if (state.failing) query = query.set({ failing_since: sql`coalesce(failing_since, now())` });
    if (Object.keys(update).length > 0) query = query.set(update);
    if (Object.keys(update).length > 0 || state.failing) {
      await query.set({ updated_at: new Date() }).execute();
    }
  });
}

/**
 * Delivers what is due to one endpoint, from its saved position, until the log holds no more of its types, an event
 * fails (it stays at the head of the queue), or MAX_PER_CALL went (the workflow calls again at once). While events
 * keep coming it stays a moment (LINGER_MS) looking for the next ones itself: under a steady stream the endpoint's
 * deliveries do not wait for a wake-up and a new activity each time. The log rows and position are saved beside the
 * deliveries, not in their way; every save is done before the call answers.
 */
export async function deliverDue(deps: DeliveryDeps, input: DeliverInput): Promise<DeliverResult> {
  const ids = { tenantId: input.tenantId, subscriptionId: input.subscriptionId };
  const subscription = await loadSubscription(deps.db, input.tenantId, input.subscriptionId);
  if (subscription?.status !== 'enabled') return { kind: 'stopped' };
  let after = subscription.delivered_through ?? subscription.starts_after;
  let count = 0;
  let rows: LogRow[] = [];
  let saved = after;
  let saving: Promise<void> = Promise.resolve();
  let lastSentAt = performance.now();
  const flush = (state: { failing?: boolean; gone?: boolean } = {}) => {
    const moved = after !== saved && after !== null ? { deliveredThrough: after } : {};
    // The first acknowledged event ends a spell of failures.
    const recovered =
      subscription.failing_since !== null && count > 0 && !state.failing ? { failing: false } : {};
    const batch = rows;
    // One save after another, so positions are saved in order.
    saving = saving.then(() => save(deps.db, ids, batch, { ...moved, ...recovered, ...state }));
    // Awaited before the call answers; marked handled meanwhile so a failure waits for that await.
    saving.catch(() => undefined);
    rows = [];
    saved = after;
  };
  const settled = async () => {
    flush();
    await saving;
  };
  let current: Subscription = subscription;
  while (count < MAX_PER_CALL) {
    const page = await readSubscribedEvents(deps.db, {
      tenantId: input.tenantId,
      after: after === null ? null : positionOf(after),
      types: current.event_types,
      limit: PAGE,
    });
    // Read again after the events: a rotation, a new URL or a disable made before they were appended applies to them.
    if (page.items.length > 0)
      current = await loadSubscription(deps.db, input.tenantId, input.subscriptionId);
    if (current?.status !== 'enabled') {
      await settled();
      return { kind: 'stopped' };
    }
    const endpoint = current;
    for (const event of page.items) {
      const failing: FailingEvent | undefined =
        input.failing?.eventId === event.id ? input.failing : undefined;
      const attempt = (failing?.attempts ?? 0) + 1;
      const tried = await beating(deps, () =>
        sendEvent(endpoint, ids, event, {
          attempt,
          redelivery: false,
          timeoutMs: input.requestTimeoutMs,
          policy: deps.targets,
        }),
      );
      rows.push(tried.row);
      if (tried.outcome === 'gone') {
        flush({ gone: true });
        await saving;
        await announceWebhook(deps.db, {
          ...ids,
          notice: 'disabled_gone',
          since: tried.row.attempted_at,
          now: tried.row.attempted_at,
        });
        return { kind: 'gone' };
      }
      if (tried.outcome === 'failed') {
        flush({ failing: true });
        await saving;
        return { kind: 'failed', failing: { eventId: event.id, attempts: attempt } };
      }
      after = event.position;
      count++;
      lastSentAt = performance.now();
      if (rows.length >= SAVE_EVERY) flush();
    }
    if (page.items.length < PAGE) {
      // Past everything this read could see: the next one does not look at the other accounts' events again.
      after = page.next;
      if (count === 0 || performance.now() - lastSentAt >= LINGER_MS) {
        await settled();
        return { kind: 'delivered', count, more: false };
      }
      flush();
      deps.beat?.();
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }
  await settled();
  return { kind: 'delivered', count, more: true };
}

/**
 * Sends again, once each, the endpoint's events in a range of positions (the seller's redelivery): logged as
 * redeliveries; a failure is logged and the range goes on (the seller may ask again). The saved position does not
 * move: the queue carries on where it was.
 */
export async function redeliverRange(deps: DeliveryDeps, input: RedeliverInput): Promise<number> {
  const ids = { tenantId: input.tenantId, subscriptionId: input.subscriptionId };
  const subscription = await loadSubscription(deps.db, input.tenantId, input.subscriptionId);
  if (subscription?.status !== 'enabled') return 0;
  const { range } = input;
  let sent = 0;
  const from = positionOf(range.from);
  const to = positionOf(range.to);
  if (!from || !to) return 0;
  let after = positionBefore(from);
  for (;;) {
    const page = await readSubscribedEvents(deps.db, {
      tenantId: input.tenantId,
      after,
      types: subscription.event_types,
      limit: PAGE,
    });
    const rows: LogRow[] = [];
    let past = false;
    for (const event of page.items) {
      const position = positionOf(event.position)!;
      if (comparePositions(position, to) > 0) {
        past = true;
        break;
      }
      after = position;
      if (range.eventId && event.id !== range.eventId) continue;
      const tried = await beating(deps, () =>
        sendEvent(subscription, ids, event, {
          attempt: 1,
          redelivery: true,
          timeoutMs: input.requestTimeoutMs,
          policy: deps.targets,
        }),
      );
      rows.push(tried.row);
      sent++;
    }
    await insertRows(deps.db, input.tenantId, rows);
    if (past || page.items.length < PAGE) return sent;
  }
}
