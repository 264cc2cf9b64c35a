import { type Kysely, sql } from 'kysely';

// Batches, auto batch and scan to verify (issue 6, items 4 and 5).
//
// Read models (projections/batches.ts), with row-level security as on the stock read models (20261122000100):
// - batches: one row per batch document (domain/batches/batch.ts) with its orders (their status, lines and tracking
//   numbers are the order board's: orders, order_lines);
// - scan_checks: one row per order's scan check (domain/scan/check.ts): who checks it and how far they are.
//
// Plain tables of the write side:
// - batch_claims: which batch holds an order — the one-row-per-order guard that two batches made at once cannot
//   both take an order (commands/batches/claims.ts);
// - batch_numbers: each account's batch number sequence;
// - auto_batch_configs: the auto batch configurations (settings: an activity-log row per change), at most one per
//   fingerprint of what it batches and how ("Duplicate config").
const READ_MODELS = ['batches', 'scan_checks'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE batches (
      tenant_id text NOT NULL,
      id uuid NOT NULL,
      number int4 NOT NULL,
      label text NOT NULL,
      name text NOT NULL,
      type text NOT NULL,
      status text NOT NULL,
      picker_id uuid,
      date text NOT NULL,
      max_orders int4 NOT NULL,
      split text NOT NULL,
      group_value text,
      source text NOT NULL,
      config_id uuid,
      order_ids text[] NOT NULL,
      total_orders int4 NOT NULL,
      created_by uuid,
      created_at timestamptz NOT NULL,
      closed_at timestamptz,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (tenant_id, id)
    )`.execute(db);
  await sql`CREATE INDEX batches_created_idx ON batches (tenant_id, created_at DESC, id)`.execute(db);
  await sql`CREATE INDEX batches_number_idx ON batches (tenant_id, number DESC)`.execute(db);
  await sql`CREATE INDEX batches_orders_idx ON batches USING gin (order_ids)`.execute(db);

  await sql`
    CREATE TABLE scan_checks (
      tenant_id text NOT NULL,
      order_id text NOT NULL,
      round int4 NOT NULL,
      status text NOT NULL,
      picker_id text NOT NULL,
      batch_id text,
      tracking_number text NOT NULL,
      scanned_units int4 NOT NULL,
      required_units int4 NOT NULL,
      opened_at timestamptz NOT NULL,
      completed_at timestamptz,
      state jsonb NOT NULL,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (tenant_id, order_id)
    )`.execute(db);
  await sql`CREATE INDEX scan_checks_batch_idx ON scan_checks (tenant_id, batch_id)`.execute(db);

  for (const table of READ_MODELS) {
    await sql`ALTER TABLE ${sql.table(table)} ENABLE ROW LEVEL SECURITY`.execute(db);
    await sql`ALTER TABLE ${sql.table(table)} FORCE ROW LEVEL SECURITY`.execute(db);
    await sql`
      CREATE POLICY tenant_isolation ON ${sql.table(table)}
      USING (tenant_id = current_setting('kedai.tenant_id', true) OR current_setting('kedai.tenant_id', true) = '*')
      WITH CHECK (tenant_id = current_setting('kedai.tenant_id', true) OR current_setting('kedai.tenant_id', true) = '*')
    `.execute(db);
  }

  await sql`
    CREATE TABLE batch_claims (
      tenant_id text NOT NULL,
      order_id text NOT NULL,
      batch_id text NOT NULL,
      confirmed boolean NOT NULL,
      claimed_at timestamptz NOT NULL,
      PRIMARY KEY (tenant_id, order_id)
    )`.execute(db);

  await sql`
    CREATE TABLE batch_numbers (
      tenant_id text PRIMARY KEY,
      last_number int8 NOT NULL
    )`.execute(db);

  await sql`
    CREATE TABLE auto_batch_configs (
      id uuid PRIMARY KEY,
      tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      name text NOT NULL,
      active boolean NOT NULL,
      interval_hours int4 NOT NULL CHECK (interval_hours IN (1, 2)),
      start_time text NOT NULL,
      end_time text NOT NULL,
      max_orders int4 NOT NULL CHECK (max_orders BETWEEN 1 AND 1000),
      split text NOT NULL,
      type text NOT NULL,
      store_ids text[] NOT NULL,
      platforms text[] NOT NULL,
      prefix text NOT NULL,
      digits int4 NOT NULL,
      timezone text NOT NULL,
      fingerprint text NOT NULL,
      last_run_at timestamptz,
      last_batch_count int4,
      created_by uuid,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (tenant_id, fingerprint)
    )`.execute(db);
  await sql`CREATE INDEX auto_batch_configs_tenant_idx ON auto_batch_configs (tenant_id, created_at)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE auto_batch_configs`.execute(db);
  await sql`DROP TABLE batch_numbers`.execute(db);
  await sql`DROP TABLE batch_claims`.execute(db);
  await sql`DROP TABLE scan_checks`.execute(db);
  await sql`DROP TABLE batches`.execute(db);
}
