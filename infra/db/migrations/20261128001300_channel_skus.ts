import { type Kysely, sql } from 'kysely';

// Issue 15: every SKU a connected store sells (Shopee's item × model), as downloaded from the channel or created by
// publishing a listing, with the master code it is linked to (the same rule that maps an order line: the seller's
// mapping of the store's SKU, then seller SKU, then code; commands/orders/import.ts `mapSellerSkus`). What the
// stock push reads to know which channel SKUs a stock change moves. FORCEd row-level security as every tenant table
// has (20261127000900_tenancy_roles).

const APP = 'kedai_app';
const SYSTEM = 'kedai_system';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE channel_skus (
      tenant_id text NOT NULL,
      store_id text NOT NULL,
      item_id text NOT NULL,
      -- '' for an item without variants.
      model_id text NOT NULL DEFAULT '',
      seller_sku text NOT NULL,
      item_name text NOT NULL,
      model_name text NOT NULL DEFAULT '',
      price numeric(14, 2) NOT NULL DEFAULT 0,
      -- The quantity the channel last said it shows.
      channel_stock integer NOT NULL DEFAULT 0,
      -- normal, unlisted, banned, deleted, reviewing (integrations/channel/port.ts ChannelItemStatus).
      status text NOT NULL DEFAULT 'normal',
      master_code_id uuid,
      listing_id text,
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, store_id, item_id, model_id)
    )`.execute(db);
  await sql`CREATE INDEX channel_skus_master_code ON channel_skus (tenant_id, master_code_id)`.execute(db);
  await sql`CREATE INDEX channel_skus_seller_sku ON channel_skus (tenant_id, store_id, seller_sku)`.execute(
    db,
  );
  const owned = sql`tenant_id = current_setting('kedai.tenant_id', true)`;
  await sql`ALTER TABLE channel_skus ENABLE ROW LEVEL SECURITY`.execute(db);
  await sql`ALTER TABLE channel_skus FORCE ROW LEVEL SECURITY`.execute(db);
  await sql`CREATE POLICY tenant_isolation ON channel_skus USING (${owned}) WITH CHECK (${owned})`.execute(
    db,
  );
  await sql`CREATE POLICY system_access ON channel_skus TO ${sql.id(SYSTEM)} USING (true) WITH CHECK (true)`.execute(
    db,
  );
  await sql`GRANT SELECT, INSERT, UPDATE, DELETE ON channel_skus TO ${sql.id(APP)}`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE channel_skus`.execute(db);
}
