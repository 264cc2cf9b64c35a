import { type Kysely, sql } from 'kysely';

// Issue 15: the listing list's read model (projections/listings.ts), one row per listing with what the list filters,
// sorts and pages on, and the listing's state (jsonb: each store's publication, the live progress the console shows); and the
// listing's images in the app's one image store (uploaded_images, purpose 'listing'). FORCEd row-level security as
// every tenant table has (20261127000900_tenancy_roles).

const APP = 'kedai_app';
const SYSTEM = 'kedai_system';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE listings (
      tenant_id text NOT NULL,
      id text NOT NULL,
      platform text NOT NULL,
      product_name text NOT NULL,
      brand text NOT NULL DEFAULT '',
      category_id text NOT NULL DEFAULT '',
      condition text NOT NULL DEFAULT 'new',
      parent_sku text NOT NULL DEFAULT '',
      image text,
      store_ids text[] NOT NULL DEFAULT '{}',
      sku_count integer NOT NULL DEFAULT 0,
      total_stock integer NOT NULL DEFAULT 0,
      min_price numeric(14, 2) NOT NULL DEFAULT 0,
      max_price numeric(14, 2) NOT NULL DEFAULT 0,
      -- draft, published, deleted (domain/listings/listing.ts)
      status text NOT NULL,
      listed boolean NOT NULL DEFAULT false,
      running boolean NOT NULL DEFAULT false,
      failed boolean NOT NULL DEFAULT false,
      -- The listing as its events leave it (domain/listings/listing.ts), each store's publication included.
      state jsonb NOT NULL,
      -- The listing stream's revision the row reflects: what a bulk edit is made against.
      revision integer NOT NULL,
      created_by uuid,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (tenant_id, id)
    )`.execute(db);
  await sql`CREATE INDEX listings_updated ON listings (tenant_id, updated_at DESC)`.execute(db);
  const owned = sql`tenant_id = current_setting('kedai.tenant_id', true)`;
  await sql`ALTER TABLE listings ENABLE ROW LEVEL SECURITY`.execute(db);
  await sql`ALTER TABLE listings FORCE ROW LEVEL SECURITY`.execute(db);
  await sql`CREATE POLICY tenant_isolation ON listings USING (${owned}) WITH CHECK (${owned})`.execute(db);
  await sql`CREATE POLICY system_access ON listings TO ${sql.id(SYSTEM)} USING (true) WITH CHECK (true)`.execute(
    db,
  );
  await sql`GRANT SELECT ON listings TO ${sql.id(APP)}`.execute(db);
  await sql`GRANT SELECT, INSERT, UPDATE, DELETE, TRUNCATE ON listings TO ${sql.id(SYSTEM)}`.execute(db);

  await sql`ALTER TABLE uploaded_images DROP CONSTRAINT uploaded_images_purpose_check`.execute(db);
  await sql`ALTER TABLE uploaded_images ADD CONSTRAINT uploaded_images_purpose_check CHECK (purpose IN ('return', 'master_code', 'listing'))`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DELETE FROM uploaded_images WHERE purpose = 'listing'`.execute(db);
  await sql`ALTER TABLE uploaded_images DROP CONSTRAINT uploaded_images_purpose_check`.execute(db);
  await sql`ALTER TABLE uploaded_images ADD CONSTRAINT uploaded_images_purpose_check CHECK (purpose IN ('return', 'master_code'))`.execute(
    db,
  );
  await sql`DROP TABLE listings`.execute(db);
}
