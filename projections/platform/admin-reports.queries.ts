import type { PlatformSummary, TenantUsage, TenantUsageQuery } from '@api/contracts/admin-reports';
import { COUNTRY_ZONES, dayIn, timezoneOfCountry } from '@domain/batches/auto-batch';
import { monthIn } from '@domain/orders/monthly-limit';
import type { Database } from '@infra/db';
import { type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import { allOf, pageWindow, searchWhere, setWhere, sortTerms, textWhere } from '../runtime/grid';

/**
 * The provider's reports (/admin-reports/), across every account: how many accounts, on which packages, signing up
 * when; their stores, users and this month's orders (the monthly order limit's ledger, `order_admissions`, which
 * holds each account's month in its own time zone). Read by the system role: these are cross-tenant by design.
 */

const DAY_MS = 86_400_000;
/** The provider's calendar (Malaysia's) for the sign-up chart. */
const HOME_ZONE = 'Asia/Kuala_Lumpur';

/** Each account's current month, by its country's time zone (the one the order limit counts in). */
function currentMonths(now: Date) {
  const byCountry = Object.fromEntries(
    Object.entries(COUNTRY_ZONES).map(([country, zone]) => [country, monthIn(zone, now)]),
  );
  const fallback = monthIn(timezoneOfCountry(null), now);
  return (country: RawBuilder<string>) =>
    sql<string>`coalesce(${JSON.stringify(byCountry)}::jsonb ->> upper(${country}), ${fallback})`;
}

export async function platformSummary(db: Kysely<Database>, now = new Date()): Promise<PlatformSummary> {
  const since = new Date(now.getTime() - 30 * DAY_MS);
  const monthOf = currentMonths(now);
  const [tenants, byStatus, byPackage, signUps, stores, orders, users] = await Promise.all([
    db
      .selectFrom('tenants')
      .select([
        sql<number>`count(*)::int`.as('total'),
        sql<number>`(count(*) FILTER (WHERE created_at >= ${since}))::int`.as('recent'),
      ])
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('tenants')
      .select(['status', sql<number>`count(*)::int`.as('tenants')])
      .groupBy('status')
      .orderBy('status')
      .execute(),
    db
      .selectFrom('tenants as t')
      .innerJoin('packages as p', 'p.id', 't.package_id')
      .select(['p.id as package_id', 'p.name as package', sql<number>`count(*)::int`.as('tenants')])
      .groupBy(['p.id', 'p.name'])
      .orderBy('tenants', 'desc')
      .orderBy('p.id')
      .execute(),
    db
      .selectFrom('tenants')
      .select([
        sql<string>`to_char(created_at AT TIME ZONE ${HOME_ZONE}, 'YYYY-MM-DD')`.as('day'),
        sql<number>`count(*)::int`.as('tenants'),
      ])
      .where('created_at', '>=', since)
      .groupBy('day')
      .execute(),
    db
      .selectFrom('stores')
      .select([
        'platform',
        sql<number>`(count(*) FILTER (WHERE status = 'connected'))::int`.as('connected'),
        sql<number>`(count(*) FILTER (WHERE status <> 'connected'))::int`.as('other'),
      ])
      .groupBy('platform')
      .orderBy('platform')
      .execute(),
    db
      .selectFrom('order_admissions as a')
      .innerJoin('tenants as t', 't.id', 'a.tenant_id')
      .select([
        sql<number>`(count(*) FILTER (WHERE a.state IN ('admitted', 'releasing', 'closed')))::int`.as(
          'admitted',
        ),
        sql<number>`(count(*) FILTER (WHERE a.state = 'held'))::int`.as('held'),
      ])
      .where(sql<SqlBool>`a.month = ${monthOf(sql.ref('t.country'))}`)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('users')
      .select([
        sql<number>`count(*)::int`.as('total'),
        sql<number>`(count(*) FILTER (WHERE last_sign_in_at >= ${since}))::int`.as('recent'),
      ])
      .where('tenant_id', 'is not', null)
      .executeTakeFirstOrThrow(),
  ]);
  const perDay = new Map(signUps.map((row) => [row.day, row.tenants]));
  const days = Array.from({ length: 30 }, (_, i) =>
    dayIn(HOME_ZONE, new Date(now.getTime() - (29 - i) * DAY_MS)),
  );
  return {
    tenants: {
      total: tenants.total,
      new_30_days: tenants.recent,
      by_status: byStatus,
      by_package: byPackage,
    },
    sign_ups: days.map((day) => ({ day, tenants: perDay.get(day) ?? 0 })),
    stores,
    orders_this_month: orders,
    users: { total: users.total, signed_in_30_days: users.recent },
  };
}

/** One row per account with what it uses (ag-grid Infinite Row Model), sortable on every figure. */
export async function tenantUsage(
  db: Kysely<Database>,
  query: TenantUsageQuery,
  now = new Date(),
): Promise<{ rows: TenantUsage[]; lastRow: number }> {
  const monthOf = currentMonths(now);
  const usage = db
    .selectFrom('tenants as t')
    .innerJoin('packages as p', 'p.id', 't.package_id')
    .select((eb) => [
      't.id',
      't.name',
      't.country',
      't.package_id',
      'p.name as package',
      't.status',
      't.created_at',
      eb
        .selectFrom('users as u')
        .select(sql<number>`count(*)::int`.as('n'))
        .whereRef('u.tenant_id', '=', 't.id')
        .as('users'),
      eb
        .selectFrom('users as u')
        .select(sql<Date | null>`max(u.last_sign_in_at)`.as('at'))
        .whereRef('u.tenant_id', '=', 't.id')
        .as('last_sign_in_at'),
      eb
        .selectFrom('stores as s')
        .select(sql<number>`count(*)::int`.as('n'))
        .whereRef('s.tenant_id', '=', 't.id')
        .where('s.status', '=', 'connected')
        .as('stores'),
      eb
        .selectFrom('master_codes as m')
        .select(sql<number>`count(*)::int`.as('n'))
        .whereRef('m.tenant_id', '=', 't.id')
        .as('master_codes'),
      eb
        .selectFrom('order_admissions as a')
        .select(sql<number>`count(*)::int`.as('n'))
        .whereRef('a.tenant_id', '=', 't.id')
        .where(sql<SqlBool>`a.month = ${monthOf(sql.ref('t.country'))}`)
        .where('a.state', 'in', ['admitted', 'releasing', 'closed'])
        .as('orders_this_month'),
      eb
        .selectFrom('order_admissions as a')
        .select(sql<number>`count(*)::int`.as('n'))
        .whereRef('a.tenant_id', '=', 't.id')
        .where(sql<SqlBool>`a.month = ${monthOf(sql.ref('t.country'))}`)
        .where('a.state', '=', 'held')
        .as('held_this_month'),
    ]);
  const filter = query.filterModel;
  const where = allOf(
    [
      filter.name && textWhere(sql<string>`name`, filter.name),
      filter.package && textWhere(sql<string>`package`, filter.package),
      filter.status && setWhere(sql<string>`status`, filter.status.values),
      query.search && searchWhere([sql<string>`name`, sql<string>`package`, sql<string>`id`], query.search),
    ].filter((part): part is RawBuilder<SqlBool> => !!part),
  );
  const order = sortTerms(
    query.sortModel,
    Object.fromEntries(query.sortModel.map(({ colId }) => [colId, sql.ref(colId)])) as Record<
      TenantUsageQuery['sortModel'][number]['colId'],
      RawBuilder<unknown>
    >,
  );
  const { limit, offset } = pageWindow(query);
  const [rows, total] = await Promise.all([
    db
      .selectFrom(usage.as('usage'))
      .selectAll()
      .where(where)
      .orderBy(sql.join([...order, sql`created_at DESC`, sql`id ASC`]))
      .limit(limit)
      .offset(offset)
      .execute(),
    db
      .selectFrom(usage.as('usage'))
      .select(sql<number>`count(*)::int`.as('n'))
      .where(where)
      .executeTakeFirstOrThrow(),
  ]);
  return {
    rows: rows.map((row) => ({
      id: row.id,
      name: row.name,
      country: row.country,
      package_id: row.package_id,
      package: row.package,
      status: row.status,
      created_at: row.created_at.toISOString(),
      users: row.users ?? 0,
      stores: row.stores ?? 0,
      master_codes: row.master_codes ?? 0,
      orders_this_month: row.orders_this_month ?? 0,
      held_this_month: row.held_this_month ?? 0,
      last_sign_in_at: row.last_sign_in_at ? new Date(row.last_sign_in_at).toISOString() : null,
    })),
    lastRow: total.n,
  };
}
