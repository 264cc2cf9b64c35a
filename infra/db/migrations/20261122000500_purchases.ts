import { type Kysely, sql } from 'kysely';

// Purchasing (issue 5): suppliers, the account's purchase settings and document numbers (plain tables), and the read
// models of purchase orders, goods receive notes and the moving average cost (projections/purchases.ts,
// projections/average-cost.ts). The orders and notes themselves are event streams.
//
// - `suppliers`: a purchasing supplier (spec §3 Supplier, the fields that fit buying from one). A code, when given,
//   is unique per account.
// - `purchase_settings`: whether placing an order and receiving a note need an approval; absent means neither.
// - `purchase_numbers`: the PO and GRN numbers, one sequence per account and kind. A document's number is kept by its
//   id, so a retried creation gets the number it was given the first time.
// - read models carry `tenant_id` and the row-level security of the stock read models.
const READ_MODELS = ['purchases', 'goods_receipts', 'average_costs', 'average_cost_receipts'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE suppliers (
      id uuid PRIMARY KEY,
      tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      code text NOT NULL DEFAULT '',
      name text NOT NULL,
      company text NOT NULL,
      contact_number text NOT NULL,
      email text NOT NULL DEFAULT '',
      address text NOT NULL,
      city text NOT NULL,
      postal_code text NOT NULL,
      state text NOT NULL,
      country text NOT NULL,
      currency text NOT NULL DEFAULT '',
      vat_number text NOT NULL DEFAULT '',
      status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'inactive')),
      created_by uuid,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (tenant_id, id)
    )`.execute(db);
  await sql`CREATE UNIQUE INDEX suppliers_code_idx ON suppliers (tenant_id, lower(code)) WHERE code <> ''`.execute(
    db,
  );
  await sql`CREATE INDEX suppliers_name_idx ON suppliers (tenant_id, lower(name))`.execute(db);

  await sql`
    CREATE TABLE purchase_settings (
      tenant_id text PRIMARY KEY REFERENCES tenants (id) ON DELETE CASCADE,
      purchase_approval boolean NOT NULL DEFAULT false,
      goods_receipt_approval boolean NOT NULL DEFAULT false,
      updated_by uuid,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);

  await sql`
    CREATE TABLE purchase_numbers (
      tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (kind IN ('purchase', 'goods_receipt')),
      document_id text NOT NULL,
      number integer NOT NULL CHECK (number > 0),
      PRIMARY KEY (tenant_id, kind, document_id),
      UNIQUE (tenant_id, kind, number)
    )`.execute(db);

  await sql`
    CREATE TABLE purchases (
      tenant_id text NOT NULL,
      id text NOT NULL,
      po_number text NOT NULL,
      reference text NOT NULL,
      purchase_date text NOT NULL,
      supplier_id text NOT NULL,
      warehouse_id text NOT NULL,
      status text NOT NULL,
      item_count integer NOT NULL,
      quantity bigint NOT NULL,
      received bigint NOT NULL,
      subtotal numeric(20, 4) NOT NULL,
      discount numeric(20, 4) NOT NULL,
      total numeric(20, 4) NOT NULL,
      estimated_arrival text,
      open_receipts integer NOT NULL,
      created_by text NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (tenant_id, id)
    )`.execute(db);
  await sql`CREATE INDEX purchases_created_idx ON purchases (tenant_id, created_at, id)`.execute(db);
  await sql`CREATE INDEX purchases_status_idx ON purchases (tenant_id, status, created_at)`.execute(db);

  await sql`
    CREATE TABLE goods_receipts (
      tenant_id text NOT NULL,
      id text NOT NULL,
      grn_number text NOT NULL,
      purchase_id text NOT NULL,
      po_number text NOT NULL,
      supplier_id text NOT NULL,
      warehouse_id text NOT NULL,
      status integer NOT NULL,
      reference text NOT NULL,
      line_count integer NOT NULL,
      received bigint NOT NULL,
      damaged bigint NOT NULL,
      returned bigint NOT NULL,
      approval_required boolean NOT NULL,
      created_by text NOT NULL,
      approved_by text,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (tenant_id, id)
    )`.execute(db);
  await sql`CREATE INDEX goods_receipts_created_idx ON goods_receipts (tenant_id, created_at, id)`.execute(
    db,
  );
  await sql`CREATE INDEX goods_receipts_purchase_idx ON goods_receipts (tenant_id, purchase_id)`.execute(db);

  await sql`
    CREATE TABLE average_costs (
      tenant_id text NOT NULL,
      master_code_id text NOT NULL,
      on_hand bigint NOT NULL,
      average_cost numeric(20, 4) NOT NULL,
      receipts integer NOT NULL,
      last_receipt_at timestamptz,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (tenant_id, master_code_id)
    )`.execute(db);
  await sql`
    CREATE TABLE average_cost_receipts (
      tenant_id text NOT NULL,
      goods_receipt_id text NOT NULL,
      master_code_id text NOT NULL,
      quantity bigint NOT NULL,
      unit_cost numeric(20, 4) NOT NULL,
      PRIMARY KEY (tenant_id, goods_receipt_id, master_code_id)
    )`.execute(db);

  for (const table of READ_MODELS) {
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
  for (const table of [...READ_MODELS].reverse()) await sql`DROP TABLE ${sql.table(table)}`.execute(db);
  await sql`DROP TABLE purchase_numbers`.execute(db);
  await sql`DROP TABLE purchase_settings`.execute(db);
  await sql`DROP TABLE suppliers`.execute(db);
}
