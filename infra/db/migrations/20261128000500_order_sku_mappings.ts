import { type Kysely, sql } from 'kysely';

// A seller's mapping of a store's SKU to a master code (issue 14: "a mapping is kept per store and SKU"): the
// import maps the next order's line with it, and the seller may change it. FORCEd row-level security as every
// tenant table has (20261127000900_tenancy_roles).

const APP = 'kedai_app';
const SYSTEM = 'kedai_system';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE order_sku_mappings (
      tenant_id text NOT NULL,
      store_id text NOT NULL,
      sku text NOT NULL,
      master_code_id uuid NOT NULL,
      updated_by text,
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, store_id, sku)
    )`.execute(db);
  const owned = sql`tenant_id = current_setting('kedai.tenant_id', true)`;
  await sql`ALTER TABLE order_sku_mappings ENABLE ROW LEVEL SECURITY`.execute(db);
  await sql`ALTER TABLE order_sku_mappings FORCE ROW LEVEL SECURITY`.execute(db);
  await sql`CREATE POLICY tenant_isolation ON order_sku_mappings USING (${owned}) WITH CHECK (${owned})`.execute(
    db,
  );
  await sql`CREATE POLICY system_access ON order_sku_mappings TO ${sql.id(SYSTEM)} USING (true) WITH CHECK (true)`.execute(
    db,
  );
  await sql`GRANT SELECT, INSERT, UPDATE, DELETE ON order_sku_mappings TO ${sql.id(APP)}`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE order_sku_mappings`.execute(db);
}
