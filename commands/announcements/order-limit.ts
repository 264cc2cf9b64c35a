import { hasWaiting } from '@commands/orders/monthly-limit';
import { eventIdFor } from '@commands/support/ids';
import { PackageLimits } from '@domain/access/packages';
import { timezoneOfCountry } from '@domain/batches/auto-batch';
import { monthIn } from '@domain/orders/monthly-limit';
import { LANGUAGES, type Language } from '@domain/platform/languages';
import type { Database } from '@infra/db';
import { DEFAULT_LANGUAGE, translate } from '@infra/i18n';
import type { Kysely } from 'kysely';

/** How long the notice shows: the rest of the month at most; the shell's banner tells the state after that. */
const SHOWN_FOR_MS = 31 * 24 * 60 * 60_000;

/**
 * Tells an account that has orders held over its monthly order limit (commands/orders/monthly-limit.ts), once a
 * month, with an announcement to that account alone, in its owner's language, prompted at sign-in. Run by the
 * system role (the import's activities, the release schedule): sellers only read announcements. Posting twice for
 * the same month posts once (the id is the account's and the month's).
 */
export async function announceHeldOrders(db: Kysely<Database>, tenantId: string, now: Date): Promise<void> {
  if (!(await hasWaiting(db, tenantId))) return;
  const account = await db
    .selectFrom('tenants as n')
    .innerJoin('packages as p', 'p.id', 'n.package_id')
    .leftJoin('users as u', (join) => join.onRef('u.tenant_id', '=', 'n.id').on('u.kind', '=', 'owner'))
    .select(['n.country', 'p.limits', 'u.language'])
    .where('n.id', '=', tenantId)
    .executeTakeFirstOrThrow();
  const limit = PackageLimits.parse(account.limits).monthlyOrders;
  if (limit === null) return;
  const month = monthIn(timezoneOfCountry(account.country), now);
  const language: Language = (LANGUAGES as readonly string[]).includes(account.language ?? '')
    ? (account.language as Language)
    : DEFAULT_LANGUAGE;
  const params = { limit, month };
  await db
    .insertInto('announcements')
    .values({
      id: eventIdFor(`order-limit-announcement:${tenantId}:${month}`),
      tenant_id: tenantId,
      subject: translate(language, 'announcement.order_limit.subject', params),
      content: translate(language, 'announcement.order_limit.content', params),
      start_at: now,
      end_at: new Date(now.getTime() + SHOWN_FOR_MS),
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
