import { type Kysely, sql } from 'kysely';

// Printing, returns and carrier manifests of marketplace orders (issue 6, items 6 and 7):
//
// - `print_settings`: one row per account, absent until first saved (absent means the defaults): the company
//   details printed on documents and, per document type, the logo position, the address display and the font size
//   (spec §9), as JSON checked by the API; the uploaded logo (PNG or JPEG, what pdfkit embeds) as bytes.
// - `order_shipments` and `print_log`: read models of the projection `order_fulfilment` (projections/print-log.ts)
//   over the order events: per order what the print log, the returns form and the carrier manifests look up (number,
//   tracking, provider, when it shipped); one row per print (OrderPrinted) with who and when.
// - `order_returns`: the returns' list (projections/returns.ts), one row per return with the folded return.
// - `return_images`: images attached to returns, uploaded before the return is created (bounded in type and size).
// - `carrier_manifests`: a month's shipped orders per carrier, counted when the manifest is created.
//
// Read models carry row-level security as the stock read models do (20261122000100); plain tables are reached by
// tenant id only.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE print_settings (
      tenant_id text PRIMARY KEY REFERENCES tenants (id) ON DELETE CASCADE,
      settings jsonb NOT NULL,
      logo bytea,
      logo_type text CHECK (logo_type IN ('image/png', 'image/jpeg')),
      updated_by uuid,
      updated_at timestamptz NOT NULL DEFAULT now(),
      CHECK ((logo IS NULL) = (logo_type IS NULL))
    )`.execute(db);

  await sql`
    CREATE TABLE order_shipments (
      tenant_id text NOT NULL,
      order_id text NOT NULL,
      order_number text NOT NULL,
      store_id text NOT NULL,
      platform text NOT NULL,
      warehouse_id text NOT NULL,
      tracking_number text,
      shipping_provider text,
      status text NOT NULL,
      shipped_at timestamptz,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (tenant_id, order_id)
    )`.execute(db);
  await sql`CREATE INDEX order_shipments_shipped_idx ON order_shipments (tenant_id, shipped_at) WHERE shipped_at IS NOT NULL`.execute(
    db,
  );
  await sql`CREATE INDEX order_shipments_number_idx ON order_shipments (tenant_id, lower(order_number))`.execute(
    db,
  );
  await sql`CREATE INDEX order_shipments_tracking_idx ON order_shipments (tenant_id, lower(tracking_number))`.execute(
    db,
  );

  await sql`
    CREATE TABLE print_log (
      tenant_id text NOT NULL,
      id uuid NOT NULL,
      order_id text NOT NULL,
      order_number text,
      tracking_number text,
      document text NOT NULL CHECK (document IN ('AWB', 'INV', 'PL', 'CL', 'DO')),
      origin text NOT NULL,
      printed_by text,
      printed_at timestamptz NOT NULL,
      PRIMARY KEY (tenant_id, id)
    )`.execute(db);
  await sql`CREATE INDEX print_log_printed_idx ON print_log (tenant_id, printed_at DESC, id)`.execute(db);
  await sql`CREATE INDEX print_log_order_idx ON print_log (tenant_id, order_id)`.execute(db);

  await sql`
    CREATE TABLE order_returns (
      tenant_id text NOT NULL,
      id text NOT NULL,
      order_id text NOT NULL,
      order_number text NOT NULL,
      tracking_number text,
      store_id text NOT NULL,
      platform text NOT NULL,
      warehouse_id text NOT NULL,
      action text NOT NULL,
      reason text NOT NULL,
      refund_to_buyer numeric(14, 2) NOT NULL,
      include_shipping boolean NOT NULL,
      refund_reason text NOT NULL,
      reversal_item_price numeric(14, 2) NOT NULL,
      currency text NOT NULL,
      line_count integer NOT NULL,
      total_quantity integer NOT NULL,
      restocked_quantity integer NOT NULL,
      image_count integer NOT NULL,
      completed boolean NOT NULL,
      created_by text,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      last_revision bigint NOT NULL,
      state jsonb NOT NULL,
      PRIMARY KEY (tenant_id, id)
    )`.execute(db);
  await sql`CREATE INDEX order_returns_created_idx ON order_returns (tenant_id, created_at DESC, id)`.execute(
    db,
  );
  await sql`CREATE INDEX order_returns_order_idx ON order_returns (tenant_id, order_id)`.execute(db);

  for (const table of ['order_shipments', 'print_log', 'order_returns']) {
    await sql`ALTER TABLE ${sql.table(table)} ENABLE ROW LEVEL SECURITY`.execute(db);
    await sql`ALTER TABLE ${sql.table(table)} FORCE ROW LEVEL SECURITY`.execute(db);
    await sql`
      CREATE POLICY tenant_isolation ON ${sql.table(table)}
      USING (tenant_id = current_setting('kedai.tenant_id', true) OR current_setting('kedai.tenant_id', true) = '*')
      WITH CHECK (tenant_id = current_setting('kedai.tenant_id', true) OR current_setting('kedai.tenant_id', true) = '*')
    `.execute(db);
  }

  await sql`
    CREATE TABLE return_images (
      id uuid PRIMARY KEY,
      tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      return_id text,
      content_type text NOT NULL CHECK (content_type IN ('image/png', 'image/jpeg', 'image/webp')),
      byte_size integer NOT NULL CHECK (byte_size BETWEEN 1 AND 2097152),
      data bytea NOT NULL,
      uploaded_by uuid,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX return_images_return_idx ON return_images (tenant_id, return_id)`.execute(db);

  await sql`
    CREATE TABLE carrier_manifests (
      id uuid PRIMARY KEY,
      tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      month text NOT NULL CHECK (month ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
      total_shipped integer NOT NULL,
      carriers jsonb NOT NULL,
      created_by uuid,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (tenant_id, month)
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE carrier_manifests`.execute(db);
  await sql`DROP TABLE return_images`.execute(db);
  await sql`DROP TABLE order_returns`.execute(db);
  await sql`DROP TABLE print_log`.execute(db);
  await sql`DROP TABLE order_shipments`.execute(db);
  await sql`DROP TABLE print_settings`.execute(db);
}
