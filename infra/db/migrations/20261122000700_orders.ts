import { type Kysely, sql } from 'kysely';

// The order board (projections/orders.ts; issue 6 item 8): one row per marketplace order with everything its lists
// show, filter and sort on, its lines, and the count of orders per store and status that the board's tabs show.
// The folded order (domain/orders/order.ts) is kept in `state`, so a batch evolves it with the domain's own rules.
//
// The indexes serve the board: a tab (a status or a few) of one store or all, newest paid first, paged by offset;
// search by the start of an order or tracking number; the problem lists (item not found, out of stock, pre-order)
// and a batch's orders. Row-level security as on the stock read models (20261122000100).
const TABLES = ['orders', 'order_lines', 'order_counts'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE orders (
      tenant_id text NOT NULL,
      id text NOT NULL,
      order_number text NOT NULL,
      store_id text NOT NULL,
      platform text NOT NULL,
      status text NOT NULL,
      marketplace_status text NOT NULL,
      payment_method text NOT NULL,
      cod boolean NOT NULL,
      currency text NOT NULL,
      total_amount numeric(14, 2) NOT NULL,
      ordered_at timestamptz NOT NULL,
      paid_at timestamptz,
      tracking_number text,
      shipping_provider text,
      buyer_username text,
      buyer_name text NOT NULL,
      warehouse_id text NOT NULL,
      batch_id text,
      item_count int4 NOT NULL,
      line_count int4 NOT NULL,
      item_not_found boolean NOT NULL,
      out_of_stock boolean NOT NULL,
      pre_order boolean NOT NULL,
      printed text[] NOT NULL,
      preview boolean NOT NULL,
      stock_stage text NOT NULL,
      split_from text,
      scanned_at timestamptz,
      scanned_by text,
      shipped_at timestamptz,
      cancelled_at timestamptz,
      cancel_reason text,
      imported_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      state jsonb NOT NULL,
      PRIMARY KEY (tenant_id, id)
    )`.execute(db);
  await sql`CREATE INDEX orders_board_idx ON orders (tenant_id, status, store_id, paid_at DESC NULLS LAST, id)`.execute(
    db,
  );
  await sql`CREATE INDEX orders_status_idx ON orders (tenant_id, status, paid_at DESC NULLS LAST, id)`.execute(
    db,
  );
  await sql`CREATE INDEX orders_paid_idx ON orders (tenant_id, paid_at DESC NULLS LAST, id)`.execute(db);
  await sql`CREATE INDEX orders_number_idx ON orders (tenant_id, order_number text_pattern_ops)`.execute(db);
  await sql`CREATE INDEX orders_tracking_idx ON orders (tenant_id, tracking_number text_pattern_ops)
    WHERE tracking_number IS NOT NULL`.execute(db);
  await sql`CREATE INDEX orders_item_not_found_idx ON orders (tenant_id, status) WHERE item_not_found`.execute(
    db,
  );
  await sql`CREATE INDEX orders_out_of_stock_idx ON orders (tenant_id, status) WHERE out_of_stock`.execute(
    db,
  );
  await sql`CREATE INDEX orders_pre_order_idx ON orders (tenant_id, status) WHERE pre_order`.execute(db);
  await sql`CREATE INDEX orders_batch_idx ON orders (tenant_id, batch_id) WHERE batch_id IS NOT NULL`.execute(
    db,
  );

  await sql`
    CREATE TABLE order_lines (
      tenant_id text NOT NULL,
      order_id text NOT NULL,
      line_id text NOT NULL,
      position int4 NOT NULL,
      sku text NOT NULL,
      seller_sku text NOT NULL,
      name text NOT NULL,
      variation text,
      quantity int4 NOT NULL,
      unit_price numeric(14, 2) NOT NULL,
      master_code_id text,
      combo boolean NOT NULL,
      removed boolean NOT NULL,
      short boolean NOT NULL,
      PRIMARY KEY (tenant_id, order_id, line_id)
    )`.execute(db);
  await sql`CREATE INDEX order_lines_master_code_idx ON order_lines (tenant_id, master_code_id)`.execute(db);

  await sql`
    CREATE TABLE order_counts (
      tenant_id text NOT NULL,
      store_id text NOT NULL,
      status text NOT NULL,
      platform text NOT NULL,
      orders bigint NOT NULL,
      PRIMARY KEY (tenant_id, store_id, status)
    )`.execute(db);

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
  for (const table of [...TABLES].reverse()) await sql`DROP TABLE ${sql.table(table)}`.execute(db);
}
