import { type Kysely, sql } from 'kysely';

// Issue 16, the sales dashboard and the sales reports (projections/reports/sales-daily.ts):
// - `sales_daily`: one row per seller's local day (`yyyy-mm-dd`, as batches keep theirs), store, marketplace,
//   warehouse and currency, with the day's order figures. Orders count on their order date; cancelled ones are
//   taken out of the sales and counted apart.
// - `sku_sales_daily`: the same days split by master code (empty when the line maps to none) and seller SKU.
// - `sales_daily_orders`: each order's folded state and what it has added to the two tables so far, so that a later
//   event (a cancellation, a payment, a return) moves the figures by its difference.
// The primary keys start with (tenant_id, day): a date range of one account reads one index range.
// FORCEd row-level security as every tenant table has (20261127000900_tenancy_roles).

const APP = 'kedai_app';
const SYSTEM = 'kedai_system';
const TABLES = ['sales_daily', 'sku_sales_daily', 'sales_daily_orders'];

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE sales_daily (
      tenant_id text NOT NULL,
      day text NOT NULL,
      store_id text NOT NULL,
      platform text NOT NULL,
      warehouse_id text NOT NULL,
      currency text NOT NULL,
      orders integer NOT NULL,
      paid_orders integer NOT NULL,
      unpaid_orders integer NOT NULL,
      cancelled_orders integer NOT NULL,
      units integer NOT NULL,
      revenue numeric(16, 2) NOT NULL,
      shipping numeric(16, 2) NOT NULL,
      cancelled_amount numeric(16, 2) NOT NULL,
      returned_units integer NOT NULL,
      returned_amount numeric(16, 2) NOT NULL,
      PRIMARY KEY (tenant_id, day, store_id, platform, warehouse_id, currency)
    )`.execute(db);
  await sql`
    CREATE TABLE sku_sales_daily (
      tenant_id text NOT NULL,
      day text NOT NULL,
      store_id text NOT NULL,
      platform text NOT NULL,
      warehouse_id text NOT NULL,
      currency text NOT NULL,
      master_code_id text NOT NULL,
      seller_sku text NOT NULL,
      name text NOT NULL,
      orders integer NOT NULL,
      units integer NOT NULL,
      revenue numeric(16, 2) NOT NULL,
      PRIMARY KEY (tenant_id, day, store_id, platform, warehouse_id, currency, master_code_id, seller_sku)
    )`.execute(db);
  await sql`
    CREATE TABLE sales_daily_orders (
      tenant_id text NOT NULL,
      order_id text NOT NULL,
      day text NOT NULL,
      cancelled boolean NOT NULL,
      returned jsonb NOT NULL,
      state jsonb NOT NULL,
      PRIMARY KEY (tenant_id, order_id)
    )`.execute(db);
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
