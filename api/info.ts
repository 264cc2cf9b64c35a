import { PackageLimits } from '@domain/access/packages';
import { permissionMap } from '@domain/access/permissions';
import type { Database } from '@infra/db';
import { withTenant } from '@infra/db/tenant';
import { countLinkedStores } from '@integrations/stores/registry';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { Ok, ok, refusals } from './answers';
import { signedIn } from './auth/session';
import { unauthorized } from './errors';

/**
 * The session calls of spec §7 the console makes after signing in: who am I, what may I do, my table settings
 * (saving answers with what is now stored, which the console keeps), and the header's usage-limit panel.
 */

export const UserInfo = z.object({
  id: z.string(),
  kind: z.enum(['owner', 'subuser', 'admin', 'subadmin']),
  username: z.string().nullable(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  phone: z.string(),
  country: z.string().nullable(),
  language: z.string(),
  group: z.object({ id: z.string(), name: z.string() }).nullable(),
  tenant: z
    .object({
      id: z.string(),
      name: z.string(),
      country: z.string(),
      package: z.object({ id: z.string(), name: z.string() }),
    })
    .nullable(),
});
export type UserInfo = z.infer<typeof UserInfo>;

/** Per-grid column state, keyed by grid id: ag-grid's column state array and anything else a grid keeps. */
export const TableSettings = z.record(
  z.string().max(100),
  z.strictObject({
    columnState: z
      .array(
        z.object({
          colId: z.string().max(100),
          width: z.number().optional(),
          hide: z.boolean().nullable().optional(),
          pinned: z.enum(['left', 'right']).nullable().optional(),
          sort: z.enum(['asc', 'desc']).nullable().optional(),
          sortIndex: z.number().int().nullable().optional(),
          flex: z.number().nullable().optional(),
        }),
      )
      .max(200)
      .optional(),
    pageSize: z.number().int().min(1).max(1000).optional(),
  }),
);
export type TableSettings = z.infer<typeof TableSettings>;

const Usage = z.object({ used: z.number().int(), limit: z.number().int().nullable() });
export const UsageAnswer = z.object({
  package: z.object({ id: z.string(), name: z.string() }),
  monthlyOrders: Usage,
  masterCodes: Usage,
  marketplaces: Usage,
  subUsers: Usage,
  branches: Usage,
  dropshipping: z.boolean(),
  supplier: z.boolean(),
  dealerLevel: z.string().nullable(),
  ewalletBalance: z.string(),
});
export type UsageAnswer = z.infer<typeof UsageAnswer>;

const MAX_SETTINGS_BYTES = 256 * 1024;

export const infoRoutes: FastifyPluginAsyncZod<{ db: Kysely<Database> }> = async (app, { db }) => {
  app.get(
    '/api/user/info',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['session'],
        summary: 'The signed-in user',
        response: { 200: Ok(UserInfo), ...refusals },
      },
    },
    async (request) => {
      const session = signedIn(request);
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
        ])
        .where('u.id', '=', session.userId)
        .executeTakeFirst();
      if (!row) throw unauthorized();
      return ok(request, {
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
                package: { id: row.package_id, name: row.package_name },
              }
            : null,
      } satisfies UserInfo);
    },
  );

  app.get(
    '/api/info/permission',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['session'],
        summary: 'The permission map of spec §6: every key, true where granted',
        response: { 200: Ok(z.record(z.string(), z.boolean())), ...refusals },
      },
    },
    async (request) => ok(request, permissionMap(signedIn(request).permissions)),
  );

  app.get(
    '/api/info/table_settings',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['session'],
        summary: "The user's table settings",
        response: { 200: Ok(TableSettings), ...refusals },
      },
    },
    async (request) => {
      const row = await db
        .selectFrom('table_settings')
        .select('settings')
        .where('user_id', '=', signedIn(request).userId)
        .executeTakeFirst();
      return ok(request, TableSettings.catch({}).parse(row?.settings ?? {}));
    },
  );

  app.post(
    '/api/info/save_table_settings',
    {
      config: { access: 'signed-in' },
      bodyLimit: MAX_SETTINGS_BYTES,
      schema: {
        tags: ['session'],
        summary: 'Replace the table settings; the answer is what is now stored',
        body: TableSettings,
        response: { 200: Ok(TableSettings), ...refusals },
      },
    },
    async (request) => {
      const userId = signedIn(request).userId;
      const settings = JSON.stringify(request.body);
      const saved = await db
        .insertInto('table_settings')
        .values({ user_id: userId, settings })
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ settings, updated_at: new Date() }))
        .returning('settings')
        .executeTakeFirstOrThrow();
      return ok(request, TableSettings.parse(saved.settings), 'common.saved');
    },
  );

  app.get(
    '/api/info/usage',
    {
      config: { access: 'seller' },
      schema: {
        tags: ['session'],
        summary: "The usage-limit panel: what the seller's package allows and how much is used",
        response: { 200: Ok(UsageAnswer), ...refusals },
      },
    },
    async (request) => {
      const tenantId = signedIn(request).tenantId!;
      const tenant = await db
        .selectFrom('tenants as n')
        .innerJoin('packages as p', 'p.id', 'n.package_id')
        .select(['p.id', 'p.name', 'p.limits', 'n.ewallet_balance'])
        .where('n.id', '=', tenantId)
        .executeTakeFirstOrThrow();
      const limits = PackageLimits.parse(tenant.limits);
      const count = (query: { executeTakeFirstOrThrow(): Promise<{ n: string }> }) =>
        query.executeTakeFirstOrThrow().then((row) => Number(row.n));
      const monthStart = new Date();
      monthStart.setUTCDate(1);
      monthStart.setUTCHours(0, 0, 0, 0);
      const [subUsers, masterCodes, branches, marketplaces, monthlyOrders] = await Promise.all([
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
        // The order board is a read model behind row-level security: read it as the tenant.
        withTenant(db, tenantId, (trx) =>
          count(
            trx
              .selectFrom('orders')
              .select((eb) => eb.fn.countAll<string>().as('n'))
              .where('tenant_id', '=', tenantId)
              .where('ordered_at', '>=', monthStart),
          ),
        ),
      ]);
      return ok(request, {
        package: { id: tenant.id, name: tenant.name },
        monthlyOrders: { used: monthlyOrders, limit: limits.monthlyOrders },
        masterCodes: { used: masterCodes, limit: limits.masterCodes },
        marketplaces: { used: marketplaces, limit: limits.marketplaces },
        subUsers: { used: subUsers, limit: limits.subUsers },
        branches: { used: branches, limit: limits.branches },
        dropshipping: limits.dropshipping,
        supplier: limits.supplier,
        dealerLevel: limits.dealerLevel,
        ewalletBalance: tenant.ewallet_balance,
      } satisfies UsageAnswer);
    },
  );
};
