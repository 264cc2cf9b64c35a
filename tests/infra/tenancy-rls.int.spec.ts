import { randomBytes, randomUUID } from 'node:crypto';
import { runInScope } from '@infra/db/tenant';
import { createTestDatabase, type TestDatabase } from '@tests/support/db';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Tenancy enforced by the database, in the default embedded setup (the run's cluster is started by the same code as
 * `npm start`'s, with its roles): every table of the catalogue either holds a tenant's rows, and then has FORCEd
 * row-level security keyed on the session's tenant, or is listed here with the reason it holds none. A row of two
 * tenants in every tenant table, read as the app role without any tenant filter, shows only the session's own.
 */

/** Tables without a tenant's rows, and what the app role may do with them. A new table must land in one list. */
const EXEMPT: Record<string, { reason: string; app: string[] }> = {
  kysely_migration: { reason: "the migrator's own record of applied migrations", app: [] },
  kysely_migration_lock: { reason: "the migrator's lock", app: [] },
  projection_checkpoints: {
    reason: "one position per projection (not per tenant), the engine's (system role) alone",
    app: [],
  },
  packages: { reason: "the provider's catalogue of plans, the same for every seller", app: ['SELECT'] },
  announcements: {
    reason:
      "the provider's notices to every seller; one to a single account is kept from the others by a policy",
    app: ['SELECT'],
  },
  mail_outbox: {
    reason: 'mail waiting to be sent, written and sent by the mailer (system role); the app cannot touch it',
    app: [],
  },
  sign_in_failures: {
    reason: 'failed sign-ups by address, counted before any tenant exists (system role)',
    app: [],
  },
  sign_in_throttle: {
    reason: 'failed sign-ins by account and address, counted before any tenant is known (system role)',
    app: [],
  },
  sign_in_addresses: {
    reason:
      'the addresses an account signed in from, read at sign-in before any tenant is known (system role)',
    app: [],
  },
  sign_in_unlocks: {
    reason: 'e-mailed unlock links, opened before sign-in (system role)',
    app: [],
  },
};

const PRIVILEGES = ['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'TRUNCATE'];

interface Column {
  table: string;
  column: string;
  type: string;
  notNull: boolean;
  hasDefault: boolean;
}

describe('tenancy enforced by the database', () => {
  let database: TestDatabase;
  let tables: string[];
  let columns: Column[];
  const A = `tenant-a-${randomBytes(3).toString('hex')}`;
  const B = `tenant-b-${randomBytes(3).toString('hex')}`;

  beforeAll(async () => {
    database = await createTestDatabase();
    const found = await sql<{ relname: string }>`
      SELECT relname FROM pg_class
      WHERE relnamespace = 'public'::regnamespace AND relkind IN ('r', 'p') ORDER BY relname`.execute(
      database.db,
    );
    tables = found.rows.map((r) => r.relname);
    const cols = await sql<Column>`
      SELECT c.relname AS table, a.attname AS column, format_type(a.atttypid, a.atttypmod) AS type,
        a.attnotnull AS "notNull", (a.atthasdef OR a.attidentity <> '' OR a.attgenerated <> '') AS "hasDefault"
      FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
      WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p') AND a.attnum > 0
        AND NOT a.attisdropped
      ORDER BY c.relname, a.attnum`.execute(database.db);
    columns = cols.rows;
  });

  afterAll(async () => {
    await database?.drop();
  });

  const tenantTables = () => tables.filter((t) => !(t in EXEMPT));

  it('puts FORCEd row-level security keyed on the session tenant on every table but the listed exempt ones', async () => {
    expect(Object.keys(EXEMPT).filter((t) => !tables.includes(t))).toEqual([]);
    const { rows } = await sql<{ relname: string; rls: boolean; force: boolean; policies: string[] | null }>`
      SELECT c.relname, c.relrowsecurity AS rls, c.relforcerowsecurity AS force,
        (SELECT array_agg(p.polname || ':' || pg_get_expr(p.polqual, p.polrelid) || ':' ||
           coalesce(pg_get_expr(p.polwithcheck, p.polrelid), '') ORDER BY p.polname)
         FROM pg_policy p WHERE p.polrelid = c.oid) AS policies
      FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p')`.execute(
      database.db,
    );
    const byTable = new Map(rows.map((r) => [r.relname, r]));
    for (const table of tenantTables()) {
      const row = byTable.get(table)!;
      expect({ table, rls: row.rls, force: row.force }).toEqual({ table, rls: true, force: true });
      const tenantPolicy = (row.policies ?? []).find((p) => p.startsWith('tenant_isolation:'));
      expect(tenantPolicy, table).toMatch(/current_setting\('kedai\.tenant_id'::text, true\)/);
      // No value of the setting may widen a session any more (the old policies let '*' see every tenant).
      for (const policy of row.policies ?? []) expect(policy, table).not.toContain("'*'");
    }
  });

  it('gives the app role no way around the policies, and the system role a policy of its own', async () => {
    const roles = await sql<{ rolname: string; rolsuper: boolean; rolbypassrls: boolean; owns: number }>`
      SELECT r.rolname, r.rolsuper, r.rolbypassrls,
        (SELECT count(*) FROM pg_class WHERE relowner = r.oid)::int
          + (SELECT count(*) FROM pg_proc WHERE proowner = r.oid)::int
          + (SELECT count(*) FROM pg_namespace WHERE nspowner = r.oid)::int
          + (SELECT count(*) FROM pg_type WHERE typowner = r.oid)::int
          + (SELECT count(*) FROM pg_database WHERE datdba = r.oid)::int AS owns
      FROM pg_roles r WHERE r.rolname IN ('kedai_app', 'kedai_system') ORDER BY r.rolname`.execute(
      database.db,
    );
    expect(roles.rows).toEqual([
      { rolname: 'kedai_app', rolsuper: false, rolbypassrls: false, owns: 0 },
      { rolname: 'kedai_system', rolsuper: false, rolbypassrls: false, owns: 0 },
    ]);
    // The app role can become no other role (SET ROLE kedai_system, or the owner's).
    const member = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM pg_auth_members m JOIN pg_roles r ON r.oid = m.member
      WHERE r.rolname = 'kedai_app'`.execute(database.db);
    expect(member.rows[0]!.n).toBe(0);
    // The API connects as it.
    await runInScope({ tenantId: A, system: false }, async () => {
      const who = await sql<{ user: string }>`SELECT current_user AS user`.execute(database.appDb);
      expect(who.rows[0]!.user).toBe('kedai_app');
    });
    for (const table of tenantTables()) {
      const policies = await sql<{ roles: string[] }>`
        SELECT roles::text[] AS roles FROM pg_policies WHERE tablename = ${table} AND policyname = 'system_access'`.execute(
        database.db,
      );
      expect({ table, roles: policies.rows[0]?.roles }).toEqual({ table, roles: ['kedai_system'] });
    }
    for (const [table, { app }] of Object.entries(EXEMPT)) {
      const granted = [];
      for (const privilege of PRIVILEGES) {
        const { rows } = await sql<{ ok: boolean }>`
          SELECT has_table_privilege('kedai_app', ${table}, ${privilege}) AS ok`.execute(database.db);
        if (rows[0]!.ok) granted.push(privilege);
      }
      expect({ table, granted }).toEqual({ table, granted: app });
    }
  });

  it('shows the app role, in a query without a tenant filter, no row of another tenant in any tenant table', async () => {
    await fillTwoTenants(database, columns, tenantTables(), [A, B]);
    const count = (table: string) =>
      sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.table(table)}`
        .execute(database.appDb)
        .then((r) => r.rows[0]!.n);
    for (const table of tenantTables()) {
      const total = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.table(table)}`.execute(
        database.db,
      );
      expect({ table, total: total.rows[0]!.n }).toEqual({ table, total: 2 });
      // One pooled connection serves the tenants in turn: the scope's tenant is set on it each time it changes.
      expect({ table, a: await runInScope({ tenantId: A, system: false }, () => count(table)) }).toEqual({
        table,
        a: 1,
      });
      expect({ table, b: await runInScope({ tenantId: B, system: false }, () => count(table)) }).toEqual({
        table,
        b: 1,
      });
      // No tenant (a connection that served one before): nothing.
      expect({
        table,
        none: await runInScope({ tenantId: null, system: false }, () => count(table)),
      }).toEqual({
        table,
        none: 0,
      });
      expect({ table, outside: await count(table) }).toEqual({ table, outside: 0 });
      // Neither can the session set the old wildcard to see all.
      const widened = await runInScope({ tenantId: '*', system: false }, () => count(table));
      expect({ table, widened }).toEqual({ table, widened: 0 });
    }
    // The system role (projections, reactors, activities) sees both.
    const both = await runInScope({ tenantId: null, system: true }, () =>
      database.appDb.selectFrom('warehouses').select('tenant_id').orderBy('tenant_id').execute(),
    );
    expect(both.map((r) => r.tenant_id)).toEqual([A, B]);
  });

  it("refuses the app role a write of another tenant's row", async () => {
    await expect(
      runInScope({ tenantId: A, system: false }, () =>
        database.appDb
          .insertInto('warehouses')
          .values({ id: randomUUID(), tenant_id: B, name: 'Forged', code: 'FORGED', kind: 'warehouse' })
          .execute(),
      ),
    ).rejects.toThrow(/row-level security/);
    const updated = await runInScope({ tenantId: A, system: false }, () =>
      database.appDb
        .updateTable('warehouses')
        .set({ name: 'Taken' })
        .where('tenant_id', '=', B)
        .executeTakeFirst(),
    );
    expect(updated.numUpdatedRows).toBe(0n);
  });
});

/**
 * One row per tenant in every tenant table, made by the superuser with foreign keys off (the rows need not make
 * sense together, only belong to a tenant). Values follow each column's type and the first value its CHECK allows.
 */
async function fillTwoTenants(
  database: TestDatabase,
  columns: Column[],
  tables: string[],
  tenants: [string, string],
): Promise<void> {
  const checks = await sql<{ table: string; def: string }>`
    SELECT conrelid::regclass::text AS table, pg_get_constraintdef(oid) AS def FROM pg_constraint
    WHERE contype = 'c' AND connamespace = 'public'::regnamespace`.execute(database.db);
  const allowed = new Map<string, string>();
  for (const { table, def } of checks.rows) {
    const match = /^CHECK \(\((\w+) = ANY \(ARRAY\[('?)([^',\]]*)/.exec(def);
    if (match) allowed.set(`${table}.${match[1]}`, match[3]!);
  }
  const special: Record<string, string> = {
    'users.kind': 'owner',
    'master_codes.einvoice_classification': '001',
    'carrier_manifests.month': '2026-01',
  };
  const client = await database.pool.connect();
  try {
    await client.query("SET session_replication_role = 'replica'");
    const userOf = new Map(tenants.map((tenant) => [tenant, randomUUID()]));
    // Tenants and their users first: the rows reached through a user need one.
    const order = ['tenants', 'users', ...tables.filter((t) => t !== 'tenants' && t !== 'users')];
    for (const table of order) {
      for (const [index, tenant] of tenants.entries()) {
        const values: Record<string, unknown> = {};
        for (const c of columns.filter((col) => col.table === table)) {
          const key = `${table}.${c.column}`;
          if (c.column === 'tenant_id') values[c.column] = tenant;
          else if (table === 'tenants' && c.column === 'id') values[c.column] = tenant;
          else if (table === 'users' && c.column === 'id') values[c.column] = userOf.get(tenant);
          else if (c.column === 'user_id') values[c.column] = userOf.get(tenant);
          else if (table === 'es_events' && c.column === 'metadata') values[c.column] = { tenantId: tenant };
          else if (c.notNull && !c.hasDefault)
            values[c.column] = special[key] ?? allowed.get(key) ?? sample(c.type, index);
        }
        const names = Object.keys(values);
        await client.query(
          `INSERT INTO ${client.escapeIdentifier(table)} (${names.map((n) => client.escapeIdentifier(n)).join(', ')})
           VALUES (${names.map((_, i) => `$${i + 1}`).join(', ')})`,
          names.map((n) => values[n]),
        );
      }
    }
  } finally {
    await client.query('RESET session_replication_role');
    client.release();
  }
}

function sample(type: string, index: number): unknown {
  if (type === 'uuid') return randomUUID();
  if (type === 'text' || type.startsWith('character')) return `v${index}-${randomBytes(4).toString('hex')}`;
  if (type === 'text[]') return [];
  if (type === 'jsonb') return {};
  if (type === 'boolean') return false;
  if (type === 'bytea') return Buffer.from([index]);
  if (type.startsWith('timestamp')) return new Date();
  if (type === 'date') return '2026-01-01';
  if (type === 'integer' || type === 'bigint' || type === 'smallint' || type.startsWith('numeric'))
    return index + 1;
  throw new Error(`No sample value for a column of type ${type}: add one to the tenancy test.`);
}
