import { type Kysely, sql } from 'kysely';

// Issue 16, reports as projections (projections/reports/facts.ts): an order's figures and the moments of its life
// (paid, scanned, shipped, cancelled, returned), its lines as sold and returned, and each return's refund, from which
// the order, fulfilment and return reports are read. Every table holds a tenant's rows: FORCEd row-level security
// as 20261127000900_tenancy_roles gives the others.

const APP = 'kedai_app';
const SYSTEM = 'kedai_system';

const TABLES = ['report_orders', 'report_order_lines', 'report_returns'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE report_orders (
      tenant_id text NOT NULL,
      order_id text NOT NULL,
      order_number text NOT NULL,
      store_id text NOT NULL,
      platform text NOT NULL,
      warehouse_id text NOT NULL,
      status text NOT NULL,
      currency text NOT NULL,
      payment_method text NOT NULL,
      cod boolean NOT NULL,
      replacement boolean NOT NULL,
      total_amount numeric(14, 2) NOT NULL,
      shipping_fee numeric(14, 2),
      shipping_provider text,
      item_count integer NOT NULL,
      ordered_at timestamptz NOT NULL,
      paid_at timestamptz,
      scanned_at timestamptz,
      scanned_by text,
      batch_id text,
      shipped_at timestamptz,
      cancelled_at timestamptz,
      returned_at timestamptz,
      refunded_at timestamptz,
      PRIMARY KEY (tenant_id, order_id)
    )`.execute(db);
  await sql`CREATE INDEX report_orders_ordered ON report_orders (tenant_id, ordered_at)`.execute(db);
  await sql`CREATE INDEX report_orders_paid ON report_orders (tenant_id, paid_at)`.execute(db);
  await sql`CREATE INDEX report_orders_scanned ON report_orders (tenant_id, scanned_at)`.execute(db);
  await sql`
    CREATE TABLE report_order_lines (
      tenant_id text NOT NULL,
      order_id text NOT NULL,
      line_id text NOT NULL,
      sku text NOT NULL,
      seller_sku text NOT NULL,
      name text NOT NULL,
      master_code_id text,
      quantity integer NOT NULL,
      unit_price numeric(14, 2) NOT NULL,
      gift boolean NOT NULL,
      removed boolean NOT NULL,
      returned_quantity integer NOT NULL,
      PRIMARY KEY (tenant_id, order_id, line_id)
    )`.execute(db);
  await sql`
    CREATE TABLE report_returns (
      tenant_id text NOT NULL,
      return_id text NOT NULL,
      order_id text NOT NULL,
      order_number text NOT NULL,
      store_id text NOT NULL,
      warehouse_id text NOT NULL,
      currency text NOT NULL,
      action text NOT NULL,
      refund_to_buyer numeric(14, 2) NOT NULL,
      reversal_item_price numeric(14, 2) NOT NULL,
      returned_quantity integer NOT NULL,
      returned_value numeric(14, 2) NOT NULL,
      restocked_quantity integer NOT NULL,
      recorded_at timestamptz NOT NULL,
      completed_at timestamptz,
      PRIMARY KEY (tenant_id, return_id)
    )`.execute(db);
  await sql`CREATE INDEX report_returns_recorded ON report_returns (tenant_id, recorded_at)`.execute(db);
  const owned = sql`tenant_id = current_setting('kedai.tenant_id', true)`;
  for (const table of TABLES) {
    const name = sql.id(table);
    await sql`ALTER TABLE ${name} ENABLE ROW LEVEL SECURITY`.execute(db);
    await sql`ALTER TABLE ${name} FORCE ROW LEVEL SECURITY`.execute(db);
    await sql`CREATE POLICY tenant_isolation ON ${name} USING (${owned}) WITH CHECK (${owned})`.execute(db);
    await sql`CREATE POLICY system_access ON ${name} TO ${sql.id(SYSTEM)} USING (true) WITH CHECK (true)`.execute(
      db,
    );
    // Read models: the app reads them, the projection (system role) writes them.
    await sql`GRANT SELECT ON ${name} TO ${sql.id(APP)}`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [...TABLES].reverse()) await sql`DROP TABLE ${sql.id(table)}`.execute(db);
}
