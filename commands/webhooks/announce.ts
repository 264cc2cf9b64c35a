import { eventIdFor } from '@commands/support/ids';
import { LANGUAGES, type Language } from '@domain/platform/languages';
import type { Database } from '@infra/db';
import { DEFAULT_LANGUAGE, translate } from '@infra/i18n';
import type { Kysely } from 'kysely';

/** How long a notice about an endpoint shows. */
const SHOWN_FOR_MS = 14 * 24 * 60 * 60_000;

export type WebhookNotice = 'failing' | 'disabled_failing' | 'disabled_gone';

/**
 * Tells the account about one of its endpoints through an announcement to it alone, in its owner's language,
 * prompted at sign-in: that deliveries keep failing and the endpoint will be disabled, or that it was disabled.
 * Once per notice and spell of failures (the id is derived from them): a retried activity posts it once.
 */
export async function announceWebhook(
  db: Kysely<Database>,
  input: { tenantId: string; subscriptionId: string; notice: WebhookNotice; since: Date; now: Date },
): Promise<void> {
  const subscription = await db
    .selectFrom('webhook_subscriptions')
    .select('url')
    .where('tenant_id', '=', input.tenantId)
    .where('id', '=', input.subscriptionId)
    .executeTakeFirst();
  if (!subscription) return;
  const owner = await db
    .selectFrom('users')
    .select('language')
    .where('tenant_id', '=', input.tenantId)
    .where('kind', '=', 'owner')
    .executeTakeFirst();
  const language: Language = (LANGUAGES as readonly string[]).includes(owner?.language ?? '')
    ? (owner!.language as Language)
    : DEFAULT_LANGUAGE;
  const params = { url: subscription.url };
  await db
    .insertInto('announcements')
    .values({
      id: eventIdFor(`webhook:${input.notice}:${input.subscriptionId}:${input.since.toISOString()}`),
      tenant_id: input.tenantId,
      subject: translate(language, `webhooks.announcement.${input.notice}.subject`, params),
      content: translate(language, `webhooks.announcement.${input.notice}.content`, params),
      start_at: input.now,
      end_at: new Date(input.now.getTime() + SHOWN_FOR_MS),
      priority: 100,
      is_active: true,
      requires_ack: false,
      country: null,
      prompt: true,
      created_by: null,
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

type Endpoint = { tenantId: string; subscriptionId: string };

async function failingSince(db: Kysely<Database>, endpoint: Endpoint): Promise<Date | null> {
  const row = await db
    .selectFrom('webhook_subscriptions')
    .select('failing_since')
    .where('tenant_id', '=', endpoint.tenantId)
    .where('id', '=', endpoint.subscriptionId)
    .executeTakeFirst();
  return row?.failing_since ?? null;
}

/** Deliveries keep failing: the seller is told, before the endpoint is disabled. */
export async function warnFailingWebhook(db: Kysely<Database>, endpoint: Endpoint, now: Date): Promise<void> {
  const since = await failingSince(db, endpoint);
  if (!since) return;
  await db
    .updateTable('webhook_subscriptions')
    .set({ warned_at: now })
    .where('tenant_id', '=', endpoint.tenantId)
    .where('id', '=', endpoint.subscriptionId)
    .execute();
  await announceWebhook(db, { ...endpoint, notice: 'failing', since, now });
}

/** The retry schedule is spent: the endpoint is disabled (its position stays at the failing event) and the seller told. */
export async function disableFailingWebhook(
  db: Kysely<Database>,
  endpoint: Endpoint,
  now: Date,
): Promise<void> {
  const since = (await failingSince(db, endpoint)) ?? now;
  await db
    .updateTable('webhook_subscriptions')
    .set({ status: 'disabled', disabled_reason: 'failing', updated_at: now })
    .where('tenant_id', '=', endpoint.tenantId)
    .where('id', '=', endpoint.subscriptionId)
    .where('status', '=', 'enabled')
    .execute();
  await announceWebhook(db, { ...endpoint, notice: 'disabled_failing', since, now });
}
