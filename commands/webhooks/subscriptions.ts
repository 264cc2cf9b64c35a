import { randomUUID } from 'node:crypto';
import type {
  DeliveryPage,
  DeliveryQuery,
  RedeliverAnswer,
  RedeliverBody,
  RotateBody,
  Webhook,
  WebhookBody,
  WebhookWithSecret,
} from '@api/contracts/webhooks';
import { isUuid } from '@domain/platform/ids';
import { refuseWebhook, WEBHOOK_LIMITS } from '@domain/webhooks/subscriptions';
import type { Database } from '@infra/db';
import type { WebhookSubscriptionsTable } from '@infra/db/schema';
import { withTenant } from '@infra/db/tenant';
import type { EventStore } from '@infra/eventstore/port';
import { deliveredPosition, deliveryPage, webhookOf } from '@projections/webhooks.queries';
import type { Kysely, Transaction, Updateable } from 'kysely';
import { logActivity } from '../support/activity';
import type { Actor } from '../support/actor';
import { comparePositions, feedHorizon, positionOf, publishedTypes } from './feed-source';
import { newSigningSecret } from './signing';
import { checkTarget, type TargetPolicy } from './targets';
import { askRedelivery, type WebhookWorkflows, wakeWebhook } from './wake';

/**
 * An account's webhook endpoints (domain/webhooks): add, change, rotate the secret, enable, disable, delete, and ask
 * for a redelivery. Plain settings with an activity-log row per change; each change wakes the endpoint's delivery
 * workflow, which reads the settings afresh (a disabled endpoint's workflow ends; enabling starts it again from the
 * position it had reached, so nothing is skipped).
 */

export interface WebhookDeps {
  db: Kysely<Database>;
  store: EventStore;
  workflows: WebhookWorkflows;
  targets: TargetPolicy;
}

const HOUR_MS = 3_600_000;

async function requireSubscription(trx: Transaction<Database>, tenantId: string, id: string) {
  const found =
    isUuid(id) &&
    (await trx
      .selectFrom('webhook_subscriptions')
      .select(['id', 'status', 'secret'])
      .where('tenant_id', '=', tenantId)
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst());
  if (!found) throw refuseWebhook('NOT_FOUND');
  return found;
}

/** One endpoint of the account, or 404. */
export async function answerOf(deps: Pick<WebhookDeps, 'db'>, actor: Actor, id: string): Promise<Webhook> {
  const webhook = await webhookOf(deps.db, actor.tenantId, id);
  if (!webhook) throw refuseWebhook('NOT_FOUND');
  return webhook;
}

async function checked(deps: WebhookDeps, body: WebhookBody) {
  const url = await checkTarget(body.url, deps.targets);
  return {
    url: url.href,
    event_types: publishedTypes(body.event_types),
    description: body.description,
  };
}

/** A new endpoint: it receives the events of its types appended from now on (older ones by redelivery). */
export async function addWebhook(
  deps: WebhookDeps,
  actor: Actor,
  body: WebhookBody,
): Promise<WebhookWithSecret> {
  const settings = await checked(deps, body);
  const id = randomUUID();
  const secret = newSigningSecret();
  const startsAfter = await feedHorizon(deps.db, actor.tenantId);
  await withTenant(deps.db, actor.tenantId, async (trx) => {
    const { n } = await trx
      .selectFrom('webhook_subscriptions')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('tenant_id', '=', actor.tenantId)
      .executeTakeFirstOrThrow();
    if (Number(n) >= WEBHOOK_LIMITS.subscriptions) throw refuseWebhook('LIMIT_REACHED');
    await trx
      .insertInto('webhook_subscriptions')
      .values({
        tenant_id: actor.tenantId,
        id,
        ...settings,
        status: 'enabled',
        secret,
        starts_after: startsAfter,
        created_by: actor.userId,
      })
      .execute();
    await logActivity(trx, {
      tenantId: actor.tenantId,
      userId: actor.userId,
      action: 'webhook.added',
      subjectType: 'webhook',
      subjectId: id,
      detail: settings,
    });
  });
  await wakeWebhook(deps.workflows, actor.tenantId, id);
  return { webhook: await answerOf(deps, actor, id), secret };
}

async function change(
  deps: WebhookDeps,
  actor: Actor,
  id: string,
  action: string,
  columns: (current: { status: string; secret: string }) => Updateable<WebhookSubscriptionsTable>,
  detail: Record<string, unknown> = {},
): Promise<void> {
  await withTenant(deps.db, actor.tenantId, async (trx) => {
    const current = await requireSubscription(trx, actor.tenantId, id);
    await trx
      .updateTable('webhook_subscriptions')
      .set({ ...columns(current), updated_at: new Date() })
      .where('tenant_id', '=', actor.tenantId)
      .where('id', '=', id)
      .execute();
    await logActivity(trx, {
      tenantId: actor.tenantId,
      userId: actor.userId,
      action,
      subjectType: 'webhook',
      subjectId: id,
      detail,
    });
  });
  await wakeWebhook(deps.workflows, actor.tenantId, id);
}

/** A new URL, event types or description; the position stays where it was. */
export async function updateWebhook(
  deps: WebhookDeps,
  actor: Actor,
  id: string,
  body: WebhookBody,
): Promise<Webhook> {
  const settings = await checked(deps, body);
  await change(deps, actor, id, 'webhook.updated', () => settings, settings);
  return answerOf(deps, actor, id);
}

/** A new secret; the old one signs beside it for `window_hours` (Standard Webhooks' zero-downtime rotation). */
export async function rotateWebhookSecret(
  deps: WebhookDeps,
  actor: Actor,
  id: string,
  body: RotateBody,
): Promise<WebhookWithSecret> {
  const secret = newSigningSecret();
  const until = new Date(Date.now() + body.window_hours * HOUR_MS);
  await change(
    deps,
    actor,
    id,
    'webhook.secret_rotated',
    (current) => ({ secret, previous_secret: current.secret, previous_secret_until: until }),
    { window_hours: body.window_hours },
  );
  return { webhook: await answerOf(deps, actor, id), secret };
}

/** Enabled again: deliveries resume at the event it had reached, with a fresh retry schedule. */
export async function enableWebhook(deps: WebhookDeps, actor: Actor, id: string): Promise<Webhook> {
  await change(deps, actor, id, 'webhook.enabled', () => ({
    status: 'enabled',
    disabled_reason: null,
    failing_since: null,
    warned_at: null,
  }));
  return answerOf(deps, actor, id);
}

export async function disableWebhook(deps: WebhookDeps, actor: Actor, id: string): Promise<Webhook> {
  await change(deps, actor, id, 'webhook.disabled', () => ({
    status: 'disabled',
    disabled_reason: 'seller',
  }));
  return answerOf(deps, actor, id);
}

/** Removes the endpoint and its delivery log; its workflow ends at its next look. */
export async function deleteWebhook(deps: WebhookDeps, actor: Actor, id: string): Promise<{ id: string }> {
  await withTenant(deps.db, actor.tenantId, async (trx) => {
    await requireSubscription(trx, actor.tenantId, id);
    await trx
      .deleteFrom('webhook_deliveries')
      .where('tenant_id', '=', actor.tenantId)
      .where('subscription_id', '=', id)
      .execute();
    await trx
      .deleteFrom('webhook_subscriptions')
      .where('tenant_id', '=', actor.tenantId)
      .where('id', '=', id)
      .execute();
    await logActivity(trx, {
      tenantId: actor.tenantId,
      userId: actor.userId,
      action: 'webhook.deleted',
      subjectType: 'webhook',
      subjectId: id,
    });
  });
  await wakeWebhook(deps.workflows, actor.tenantId, id);
  return { id };
}

/**
 * Sends again one event the endpoint was sent (by its id in the delivery log), or its events in a range of feed
 * positions, `from` and `to` included. They go between two deliveries of the queue, with their own webhook-ids
 * (the events' ids): a receiver that already has them drops them.
 */
export async function redeliverWebhook(
  deps: WebhookDeps,
  actor: Actor,
  id: string,
  body: RedeliverBody,
): Promise<RedeliverAnswer> {
  const webhook = await answerOf(deps, actor, id);
  if (webhook.status !== 'enabled') throw refuseWebhook('DISABLED');
  let range: { from: string; to: string; eventId?: string };
  if ('event_id' in body) {
    const position = await deliveredPosition(deps.db, actor.tenantId, id, body.event_id.toLowerCase());
    if (!position) throw refuseWebhook('DELIVERY_NOT_FOUND');
    range = { from: position, to: position, eventId: body.event_id.toLowerCase() };
  } else {
    const from = positionOf(body.from);
    const to = positionOf(body.to);
    if (!from || !to || comparePositions(from, to) > 0) throw refuseWebhook('RANGE_INVALID');
    range = { from: body.from, to: body.to };
  }
  await askRedelivery(deps.workflows, actor.tenantId, id, range);
  await withTenant(deps.db, actor.tenantId, (trx) =>
    logActivity(trx, {
      tenantId: actor.tenantId,
      userId: actor.userId,
      action: 'webhook.redelivery_asked',
      subjectType: 'webhook',
      subjectId: id,
      detail: range,
    }),
  );
  return { from: range.from, to: range.to };
}

/** An endpoint's delivery log, for ag-grid (404 for an endpoint the account does not have). */
export async function deliveriesOf(
  deps: Pick<WebhookDeps, 'db'>,
  actor: Actor,
  id: string,
  query: DeliveryQuery,
): Promise<DeliveryPage> {
  await answerOf(deps, actor, id);
  return deliveryPage(deps.db, actor.tenantId, id, query);
}
