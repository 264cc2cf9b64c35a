import { TableSettings, type UsageAnswer, type UserInfo } from '@api/contracts/session';
import { modulesOf, PackageLimits } from '@domain/access/packages';
import { timezoneOfCountry } from '@domain/batches/auto-batch';
import { monthIn } from '@domain/orders/monthly-limit';
import type { Database } from '@infra/db';
import { withTenant } from '@infra/db/tenant';
import { countLinkedStores } from '@integrations/stores/registry';
import type { Kysely } from 'kysely';

/** What the console reads after signing in: the user, their table settings, the package's usage panel. */

/** The signed-in user with their group, account and package; undefined when the user is gone. */
export async function userInfo(db: Kysely<Database>, userId: string): Promise<UserInfo | undefined> {
  const row = await db
    .selectFrom('users as u')
    .leftJoin('user_groups as g', 'g.id', 'u.group_id')
    .leftJoin('tenants as n', 'n.id', 'u.tenant_id')
    .leftJoin('packages as p', 'p.id', 'n.package_id')
    .select([
      'u.id',
      'u.kind',
      'u.username',
      'u.email',
      'u.first_name',
      'u.last_name',
      'u.phone',
      'u.country',
      'u.language',
      'g.id as group_id',
      'g.name as group_name',
      'n.id as tenant_id',
      'n.name as tenant_name',
      'n.country as tenant_country',
      'p.id as package_id',
      'p.name as package_name',
      'p.flags as package_flags',
    ])
    .where('u.id', '=', userId)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    id: row.id,
    kind: row.kind,
    username: row.username,
    email: row.email,
    first_name: row.first_name,
    last_name: row.last_name,
    phone: row.phone,
    country: row.country,
    language: row.language,
    group: row.group_id && row.group_name ? { id: row.group_id, name: row.group_name } : null,
    tenant:
      row.tenant_id && row.tenant_name && row.tenant_country && row.package_id && row.package_name
        ? {
            id: row.tenant_id,
            name: row.tenant_name,
            country: row.tenant_country,
            package: {
              id: row.package_id,
              name: row.package_name,
              modules: [...modulesOf(row.package_flags)],
            },
          }
        : null,
  };
}

/** The user's table settings; what no longer reads as settings is forgotten. */
export async function tableSettings(db: Kysely<Database>, userId: string): Promise<TableSettings> {
  const row = await db
    .selectFrom('table_settings')
    .select('settings')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return TableSettings.catch({}).parse(row?.settings ?? {});
}

/** The usage-limit panel: what the seller's package allows and how much is used. */
export async function usage(db: Kysely<Database>, tenantId: string): Promise<UsageAnswer> {
  const tenant = await db
    .selectFrom('tenants as n')
    .innerJoin('packages as p', 'p.id', 'n.package_id')
    .select(['p.id', 'p.name', 'p.limits', 'n.ewallet_balance', 'n.country'])
    .where('n.id', '=', tenantId)
    .executeTakeFirstOrThrow();
  const limits = PackageLimits.parse(tenant.limits);
  const count = (query: { executeTakeFirstOrThrow(): Promise<{ n: string }> }) =>
    query.executeTakeFirstOrThrow().then((row) => Number(row.n));
  const month = monthIn(timezoneOfCountry(tenant.country), new Date());
  const [subUsers, masterCodes, branches, marketplaces, orders] = await Promise.all([
    count(
      db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('tenant_id', '=', tenantId)
        .where('kind', '=', 'subuser'),
    ),
    count(
      db
        .selectFrom('master_codes')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('tenant_id', '=', tenantId),
    ),
    count(
      db
        .selectFrom('warehouses')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('tenant_id', '=', tenantId)
        .where('kind', '=', 'branch'),
    ),
    countLinkedStores(db, tenantId),
    // Used as the limit counts it (commands/orders/monthly-limit.ts); held as the board's "held" filter lists them
    // (a held order cancelled meanwhile is not waiting any more). Behind row-level security: read as the tenant.
    withTenant(db, tenantId, async (trx) => ({
      used: await count(
        trx
          .selectFrom('order_admissions')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('tenant_id', '=', tenantId)
          .where('month', '=', month)
          .where('state', 'in', ['admitted', 'releasing']),
      ),
      held: await count(
        trx
          .selectFrom('orders')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('tenant_id', '=', tenantId)
          .where('on_hold', '=', true),
      ),
    })),
  ]);
  return {
    package: { id: tenant.id, name: tenant.name },
    monthlyOrders: { ...orders, limit: limits.monthlyOrders },
    masterCodes: { used: masterCodes, limit: limits.masterCodes },
    marketplaces: { used: marketplaces, limit: limits.marketplaces },
    subUsers: { used: subUsers, limit: limits.subUsers },
    branches: { used: branches, limit: limits.branches },
    dropshipping: limits.dropshipping,
    supplier: limits.supplier,
    dealerLevel: limits.dealerLevel,
    ewalletBalance: tenant.ewallet_balance,
  };
}
