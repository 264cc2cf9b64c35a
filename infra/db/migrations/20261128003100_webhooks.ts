import { type Kysely, sql } from 'kysely';

// Issue 16, the push half of the integrator feed: each account's webhook subscriptions (plain settings, an activity
// row per change; their signing secrets must be readable to sign, so they are kept, not hashed) and the delivery
// log (one row per attempt). Both hold a tenant's rows: FORCEd row-level security as 20261127000900_tenancy_roles
// gives the others.

const APP = 'kedai_app';
const SYSTEM = 'kedai_system';
const TABLES = ['webhook_subscriptions', 'webhook_deliveries'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE webhook_subscriptions (
      tenant_id text NOT NULL,
      id uuid NOT NULL,
      url text NOT NULL,
      description text NOT NULL DEFAULT '',
      event_types text[] NOT NULL,
      status text NOT NULL,
      disabled_reason text,
      secret text NOT NULL,
      previous_secret text,
      previous_secret_until timestamptz,
      -- The feed position of the last event delivered (or given up by the seller's choice); null: none yet.
      delivered_through text,
      starts_after text,
      failing_since timestamptz,
      warned_at timestamptz,
      created_by uuid,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id)
    )`.execute(db);
  await sql`
    CREATE TABLE webhook_deliveries (
      tenant_id text NOT NULL,
      id uuid NOT NULL,
      subscription_id uuid NOT NULL,
      event_id uuid NOT NULL,
      event_type text NOT NULL,
      position text NOT NULL,
      attempt integer NOT NULL,
      redelivery boolean NOT NULL DEFAULT false,
      request_headers jsonb NOT NULL,
      body_sha256 text NOT NULL,
      body_excerpt text NOT NULL,
      outcome text NOT NULL,
      status integer,
      answer_excerpt text NOT NULL DEFAULT '',
      error text,
      duration_ms integer NOT NULL,
      attempted_at timestamptz NOT NULL,
      PRIMARY KEY (tenant_id, id)
    )`.execute(db);
  await sql`CREATE INDEX webhook_deliveries_time ON webhook_deliveries (tenant_id, subscription_id, attempted_at DESC)`.execute(
    db,
  );
  await sql`CREATE INDEX webhook_deliveries_event ON webhook_deliveries (tenant_id, subscription_id, event_id)`.execute(
    db,
  );
  const owned = sql`tenant_id = current_setting('kedai.tenant_id', true)`;
  for (const table of TABLES) {
    const name = sql.id(table);
    await sql`ALTER TABLE ${name} ENABLE ROW LEVEL SECURITY`.execute(db);
    await sql`ALTER TABLE ${name} FORCE ROW LEVEL SECURITY`.execute(db);
    await sql`CREATE POLICY tenant_isolation ON ${name} USING (${owned}) WITH CHECK (${owned})`.execute(db);
    await sql`CREATE POLICY system_access ON ${name} TO ${sql.id(SYSTEM)} USING (true) WITH CHECK (true)`.execute(
      db,
    );
    await sql`GRANT SELECT, INSERT, UPDATE, DELETE ON ${name} TO ${sql.id(APP)}`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [...TABLES].reverse()) await sql`DROP TABLE ${sql.id(table)}`.execute(db);
}
