import { type Kysely, sql } from 'kysely';

// Issue 16, the integrator feed's apps (commands/apps): an app of a seller account reads the account's events with
// an API key. Only the key's SHA-256 is kept (shown once, like an access token); `key_hint`, its first characters,
// lets the seller tell keys apart. The app acts with the permission keys of `created_by`, read on every call.
// FORCEd row-level security as every tenant table has (20261127000900_tenancy_roles); the key's lookup, made before
// the tenant is known, runs as the system role.

const APP = 'kedai_app';
const SYSTEM = 'kedai_system';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE feed_apps (
      tenant_id text NOT NULL,
      id uuid NOT NULL,
      name text NOT NULL,
      event_types text[] NOT NULL,
      created_by uuid NOT NULL,
      key_hash text NOT NULL,
      key_hint text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      key_created_at timestamptz NOT NULL DEFAULT now(),
      revoked_at timestamptz,
      last_used_at timestamptz,
      PRIMARY KEY (tenant_id, id),
      CONSTRAINT feed_apps_key_hash_key UNIQUE (key_hash)
    )`.execute(db);
  const table = sql.table('feed_apps');
  const owned = sql`tenant_id = current_setting('kedai.tenant_id', true)`;
  await sql`ALTER TABLE ${table} ENABLE ROW LEVEL SECURITY`.execute(db);
  await sql`ALTER TABLE ${table} FORCE ROW LEVEL SECURITY`.execute(db);
  await sql`CREATE POLICY tenant_isolation ON ${table} USING (${owned}) WITH CHECK (${owned})`.execute(db);
  await sql`CREATE POLICY system_access ON ${table} TO ${sql.id(SYSTEM)} USING (true) WITH CHECK (true)`.execute(
    db,
  );
  await sql`GRANT SELECT, INSERT, UPDATE ON ${table} TO ${sql.id(APP)}`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE feed_apps`.execute(db);
}
