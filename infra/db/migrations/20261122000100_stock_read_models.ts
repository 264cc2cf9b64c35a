import { type Kysely, sql } from 'kysely';

// The stock read models (projections/stock.ts): the level of each master code in each warehouse, and the movement
// ledger, one row per stock event. Each ledger row carries the figures after it (new_stock, reserved), so the
// stock at a past instant is one index lookup however long the ledger: the last movement at or before it.
//
// Row-level security is the second lock behind the tenant filter every query carries (infra/db/tenant.ts): a
// session sees the rows of the tenant in `kedai.tenant_id`, all rows when it is '*' (the projection writer), and
// none when it is unset. FORCE makes the policy bind the tables' owner too. Superusers and BYPASSRLS roles are
// never bound: with the embedded server, where the app connects as the superuser `postgres`, only the tenant
// filter protects.
const TABLES = ['stock_levels', 'stock_movements'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE stock_levels (
      tenant_id text NOT NULL,
      master_code_id text NOT NULL,
      warehouse_id text NOT NULL,
      on_hand bigint NOT NULL,
      reserved bigint NOT NULL,
      available bigint GENERATED ALWAYS AS (on_hand - reserved) STORED NOT NULL,
      negative boolean GENERATED ALWAYS AS (on_hand - reserved < 0) STORED NOT NULL,
      last_movement_at timestamptz NOT NULL,
      movements bigint NOT NULL,
      last_revision bigint NOT NULL,
      last_position bigint NOT NULL,
      PRIMARY KEY (tenant_id, master_code_id, warehouse_id)
    )`.execute(db);
  // The stock list: one warehouse (or all), sorted by available or on hand; the oversold ones on their own.
  await sql`CREATE INDEX stock_levels_available_idx ON stock_levels (tenant_id, warehouse_id, available, master_code_id)`.execute(
    db,
  );
  await sql`CREATE INDEX stock_levels_on_hand_idx ON stock_levels (tenant_id, warehouse_id, on_hand, master_code_id)`.execute(
    db,
  );
  await sql`CREATE INDEX stock_levels_tenant_available_idx ON stock_levels (tenant_id, available, master_code_id, warehouse_id)`.execute(
    db,
  );
  await sql`CREATE INDEX stock_levels_negative_idx ON stock_levels (tenant_id, warehouse_id, available) WHERE negative`.execute(
    db,
  );

  await sql`
    CREATE TABLE stock_movements (
      tenant_id text NOT NULL,
      master_code_id text NOT NULL,
      warehouse_id text NOT NULL,
      revision bigint NOT NULL,
      event_id uuid NOT NULL,
      occurred_at timestamptz NOT NULL,
      action text NOT NULL,
      mode text,
      quantity bigint NOT NULL,
      previous_stock bigint NOT NULL,
      change bigint NOT NULL,
      stock_in bigint NOT NULL,
      stock_out bigint NOT NULL,
      new_stock bigint NOT NULL,
      reserved bigint NOT NULL,
      counterpart_warehouse_id text,
      reason text,
      source_type text,
      source_id text,
      created_by text,
      global_position bigint NOT NULL,
      PRIMARY KEY (tenant_id, master_code_id, warehouse_id, revision)
    )`.execute(db);
  // Point in time: the last movement at or before an instant, read backwards from this index.
  await sql`CREATE INDEX stock_movements_at_idx ON stock_movements (tenant_id, master_code_id, warehouse_id, occurred_at, revision)`.execute(
    db,
  );
  // The movement report of a whole tenant (or warehouse) over a period.
  await sql`CREATE INDEX stock_movements_tenant_at_idx ON stock_movements (tenant_id, occurred_at)`.execute(
    db,
  );

  for (const table of TABLES) {
    await sql`ALTER TABLE ${sql.table(table)} ENABLE ROW LEVEL SECURITY`.execute(db);
    await sql`ALTER TABLE ${sql.table(table)} FORCE ROW LEVEL SECURITY`.execute(db);
    await sql`
      CREATE POLICY tenant_isolation ON ${sql.table(table)}
      USING (tenant_id = current_setting('kedai.tenant_id', true) OR current_setting('kedai.tenant_id', true) = '*')
      WITH CHECK (tenant_id = current_setting('kedai.tenant_id', true) OR current_setting('kedai.tenant_id', true) = '*')
    `.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE stock_movements`.execute(db);
  await sql`DROP TABLE stock_levels`.execute(db);
}
