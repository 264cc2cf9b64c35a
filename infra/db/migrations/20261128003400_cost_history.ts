import { type Kysely, sql } from 'kysely';

// Issue 16, the cost side of reports as of a past date and gross profit (projections/average-cost.ts):
// - `average_cost_history`: the moving average cost and the units held after every movement that changed them,
//   keyed by the event's log position, so the valuation at any past instant is the last row at or before it.
// - `cost_of_sales`: one row per shipment or return of stock, at the moving average of that moment: a shipment's
//   quantity is positive, a return's negative, so summing quantity × unit_cost over an order is its cost.
// FORCEd row-level security as every tenant table has (20261127000900_tenancy_roles).

const APP = 'kedai_app';
const SYSTEM = 'kedai_system';
const TABLES = ['average_cost_history', 'cost_of_sales'];

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE average_cost_history (
      tenant_id text NOT NULL,
      master_code_id text NOT NULL,
      global_position bigint NOT NULL,
      event_id uuid NOT NULL,
      occurred_at timestamptz NOT NULL,
      average_cost numeric(20, 4) NOT NULL,
      on_hand bigint NOT NULL,
      PRIMARY KEY (tenant_id, master_code_id, global_position)
    )`.execute(db);
  // The as-of read: the last row per master code at or before an instant.
  await sql`
    CREATE INDEX average_cost_history_at
    ON average_cost_history (tenant_id, master_code_id, occurred_at DESC, global_position DESC)
    INCLUDE (average_cost, on_hand)`.execute(db);
  await sql`
    CREATE TABLE cost_of_sales (
      tenant_id text NOT NULL,
      event_id uuid NOT NULL,
      master_code_id text NOT NULL,
      warehouse_id text NOT NULL,
      -- StockShipped or StockReturned.
      movement text NOT NULL,
      source_type text,
      source_id text,
      quantity bigint NOT NULL,
      unit_cost numeric(20, 4) NOT NULL,
      occurred_at timestamptz NOT NULL,
      global_position bigint NOT NULL,
      PRIMARY KEY (tenant_id, event_id)
    )`.execute(db);
  await sql`CREATE INDEX cost_of_sales_at ON cost_of_sales (tenant_id, occurred_at)`.execute(db);
  await sql`CREATE INDEX cost_of_sales_source ON cost_of_sales (tenant_id, source_type, source_id)`.execute(
    db,
  );
  const owned = sql`tenant_id = current_setting('kedai.tenant_id', true)`;
  for (const name of TABLES) {
    const table = sql.table(name);
    await sql`ALTER TABLE ${table} ENABLE ROW LEVEL SECURITY`.execute(db);
    await sql`ALTER TABLE ${table} FORCE ROW LEVEL SECURITY`.execute(db);
    await sql`CREATE POLICY tenant_isolation ON ${table} USING (${owned}) WITH CHECK (${owned})`.execute(db);
    await sql`CREATE POLICY system_access ON ${table} TO ${sql.id(SYSTEM)} USING (true) WITH CHECK (true)`.execute(
      db,
    );
    await sql`GRANT SELECT ON ${table} TO ${sql.id(APP)}`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const name of TABLES) await sql`DROP TABLE ${sql.table(name)}`.execute(db);
}
