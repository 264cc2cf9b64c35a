import { type Kysely, type RawBuilder, sql } from 'kysely';

// Tenancy enforced by the database (issue 13). Until now some read models had row-level security whose policy let
// the setting '*' see every tenant, and the app connected as a superuser that no policy binds. From here:
// - two roles besides the schema's owner: kedai_app (the API; owns nothing, no BYPASSRLS) and kedai_system (the
//   projection engine, reactors, live hub, workflow activities and the lookups made before a tenant is known). The
//   embedded server makes them as login roles with random passwords before migrating; on DATABASE_URL they are made
//   here without a login, and the migrating user becomes a member of both to connect as them (SET ROLE);
// - every table holding a tenant's rows gets FORCEd row-level security: `tenant_isolation` (everyone, the owner
//   included) shows the rows of the tenant in `kedai.tenant_id` and nothing else, whatever the setting holds;
//   `system_access` (kedai_system only) shows all. No wildcard any more: no app query can widen itself;
// - grants: the system role reads and writes everything (TRUNCATE for projection rebuilds); the app role reads and
//   writes the tenant tables, reads the provider's packages and announcements, and is given nothing of the
//   engine's checkpoints, the mail outbox, the sign-in counters or the migrations' tables.
//
// es_events has no tenant column: its tenant is `metadata->>'tenantId'`, and the policy keys on that. The app role
// may only read it (events are appended by the event store, which runs as the system role); a tenant column filled
// from the metadata would be a second copy to keep equal, on the hottest insert path, for reads the app never makes.

const APP = 'kedai_app';
const SYSTEM = 'kedai_system';
const setting = sql`current_setting('kedai.tenant_id', true)`;

/** Rows owned through a user (the user carries the tenant; a provider admin's, tenant null, only the system sees). */
const USER_TABLES = [
  'access_tokens',
  'announcement_acks',
  'email_verifications',
  'reset_links',
  'table_settings',
];

/** Provider-wide reference data every seller reads and only the provider (system role) writes. */
const PROVIDER_TABLES = ['packages', 'announcements'];

/** Tables that had the old policy with the '*' wildcard (restored by down). */
const WILDCARD_TABLES = [
  'average_cost_receipts',
  'average_costs',
  'batches',
  'goods_issues',
  'goods_receipts',
  'order_counts',
  'order_lines',
  'order_returns',
  'order_shipments',
  'orders',
  'print_log',
  'purchases',
  'scan_checks',
  'stock_levels',
  'stock_movements',
  'transfer_requests',
  'transfers',
];

/** Every table of the schema with a `tenant_id` column. */
async function tenantIdTables(db: Kysely<unknown>): Promise<string[]> {
  const { rows } = await sql<{ table: string }>`
    SELECT c.table_name AS table FROM information_schema.columns c
    JOIN information_schema.tables t USING (table_schema, table_name)
    WHERE c.table_schema = current_schema() AND c.column_name = 'tenant_id' AND t.table_type = 'BASE TABLE'
    ORDER BY 1`.execute(db);
  return rows.map((r) => r.table);
}

/** The tenant each table's row belongs to, as the policy compares it with the session's. */
async function tenantTables(db: Kysely<unknown>): Promise<Map<string, RawBuilder<unknown>>> {
  const tables = new Map<string, RawBuilder<unknown>>();
  for (const table of await tenantIdTables(db)) tables.set(table, sql`tenant_id = ${setting}`);
  for (const table of USER_TABLES) {
    tables.set(table, sql`user_id IN (SELECT u.id FROM users u WHERE u.tenant_id = ${setting})`);
  }
  tables.set('tenants', sql`id = ${setting}`);
  tables.set('es_events', sql`metadata->>'tenantId' = ${setting}`);
  return tables;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    DO $$
    DECLARE role text;
    BEGIN
      FOREACH role IN ARRAY ARRAY[${sql.lit(APP)}, ${sql.lit(SYSTEM)}] LOOP
        IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = role) THEN
          EXECUTE format('CREATE ROLE %I NOLOGIN NOSUPERUSER NOBYPASSRLS', role);
        END IF;
        IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
          EXECUTE format('GRANT %I TO %I', role, current_user);
        END IF;
      END LOOP;
    END $$`.execute(db);

  for (const [table, owned] of await tenantTables(db)) {
    const t = sql.table(table);
    await sql`ALTER TABLE ${t} ENABLE ROW LEVEL SECURITY`.execute(db);
    await sql`ALTER TABLE ${t} FORCE ROW LEVEL SECURITY`.execute(db);
    await sql`DROP POLICY IF EXISTS tenant_isolation ON ${t}`.execute(db);
    await sql`CREATE POLICY tenant_isolation ON ${t} USING (${owned}) WITH CHECK (${owned})`.execute(db);
    await sql`CREATE POLICY system_access ON ${t} TO ${sql.id(SYSTEM)} USING (true) WITH CHECK (true)`.execute(
      db,
    );
    if (table !== 'es_events') {
      await sql`GRANT SELECT, INSERT, UPDATE, DELETE ON ${t} TO ${sql.id(APP)}`.execute(db);
    }
  }
  await sql`GRANT SELECT ON es_events TO ${sql.id(APP)}`.execute(db);
  for (const table of PROVIDER_TABLES)
    await sql`GRANT SELECT ON ${sql.table(table)} TO ${sql.id(APP)}`.execute(db);

  await sql`GRANT USAGE ON SCHEMA public TO ${sql.id(APP)}, ${sql.id(SYSTEM)}`.execute(db);
  await sql`GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO ${sql.id(APP)}, ${sql.id(SYSTEM)}`.execute(
    db,
  );
  await sql`GRANT SELECT, INSERT, UPDATE, DELETE, TRUNCATE ON ALL TABLES IN SCHEMA public TO ${sql.id(SYSTEM)}`.execute(
    db,
  );
  // Tables of later migrations: the system role can use them; the app role gets each one by its own grant.
  await sql`ALTER DEFAULT PRIVILEGES IN SCHEMA public
    GRANT SELECT, INSERT, UPDATE, DELETE, TRUNCATE ON TABLES TO ${sql.id(SYSTEM)}`.execute(db);
  await sql`ALTER DEFAULT PRIVILEGES IN SCHEMA public
    GRANT USAGE, SELECT ON SEQUENCES TO ${sql.id(APP)}, ${sql.id(SYSTEM)}`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER DEFAULT PRIVILEGES IN SCHEMA public
    REVOKE ALL ON TABLES FROM ${sql.id(SYSTEM)}`.execute(db);
  await sql`ALTER DEFAULT PRIVILEGES IN SCHEMA public
    REVOKE ALL ON SEQUENCES FROM ${sql.id(APP)}, ${sql.id(SYSTEM)}`.execute(db);
  await sql`REVOKE ALL ON ALL TABLES IN SCHEMA public FROM ${sql.id(APP)}, ${sql.id(SYSTEM)}`.execute(db);
  await sql`REVOKE ALL ON ALL SEQUENCES IN SCHEMA public FROM ${sql.id(APP)}, ${sql.id(SYSTEM)}`.execute(db);
  await sql`REVOKE ALL ON SCHEMA public FROM ${sql.id(APP)}, ${sql.id(SYSTEM)}`.execute(db);
  const wildcard = sql`${setting} = '*'`;
  for (const table of (await tenantTables(db)).keys()) {
    const t = sql.table(table);
    await sql`DROP POLICY system_access ON ${t}`.execute(db);
    await sql`DROP POLICY tenant_isolation ON ${t}`.execute(db);
    if (WILDCARD_TABLES.includes(table)) {
      await sql`
        CREATE POLICY tenant_isolation ON ${t}
        USING (tenant_id = ${setting} OR ${wildcard}) WITH CHECK (tenant_id = ${setting} OR ${wildcard})`.execute(
        db,
      );
    } else {
      await sql`ALTER TABLE ${t} NO FORCE ROW LEVEL SECURITY`.execute(db);
      await sql`ALTER TABLE ${t} DISABLE ROW LEVEL SECURITY`.execute(db);
    }
  }
  // The roles are the cluster's, shared by its databases: they stay.
}
