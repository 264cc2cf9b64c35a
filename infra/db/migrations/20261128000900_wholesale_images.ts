import { type Kysely, sql } from 'kysely';

// Issue 14, stock: wholesale pricing per master code, and master codes' images uploaded to the app.
// - `master_code_wholesale_prices`: tiers of a minimum quantity and a unit price per master code, FORCEd row-level
//   security as every tenant table has (20261127000900_tenancy_roles);
// - the returns' image table becomes the app's one image store, `uploaded_images`, with the purpose each image was
//   uploaded for (a return's attachment cannot be claimed as a master code's picture, nor the reverse) and GIF
//   among its types; its policies and grants follow the rename;
// - `master_codes.image_id`: the uploaded image, beside `image_url` for an image elsewhere.

const APP = 'kedai_app';
const SYSTEM = 'kedai_system';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE master_code_wholesale_prices (
      tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      master_code_id uuid NOT NULL,
      min_quantity integer NOT NULL CHECK (min_quantity > 0),
      unit_price numeric(14, 2) NOT NULL CHECK (unit_price > 0),
      PRIMARY KEY (master_code_id, min_quantity),
      FOREIGN KEY (tenant_id, master_code_id) REFERENCES master_codes (tenant_id, id) ON DELETE CASCADE
    )`.execute(db);
  const owned = sql`tenant_id = current_setting('kedai.tenant_id', true)`;
  await sql`ALTER TABLE master_code_wholesale_prices ENABLE ROW LEVEL SECURITY`.execute(db);
  await sql`ALTER TABLE master_code_wholesale_prices FORCE ROW LEVEL SECURITY`.execute(db);
  await sql`CREATE POLICY tenant_isolation ON master_code_wholesale_prices USING (${owned}) WITH CHECK (${owned})`.execute(
    db,
  );
  await sql`CREATE POLICY system_access ON master_code_wholesale_prices TO ${sql.id(SYSTEM)} USING (true) WITH CHECK (true)`.execute(
    db,
  );
  await sql`GRANT SELECT, INSERT, UPDATE, DELETE ON master_code_wholesale_prices TO ${sql.id(APP)}`.execute(
    db,
  );

  await sql`ALTER TABLE return_images RENAME TO uploaded_images`.execute(db);
  await sql`ALTER INDEX return_images_return_idx RENAME TO uploaded_images_return_idx`.execute(db);
  await sql`ALTER TABLE uploaded_images ADD COLUMN purpose text NOT NULL DEFAULT 'return'`.execute(db);
  await sql`ALTER TABLE uploaded_images ALTER COLUMN purpose DROP DEFAULT`.execute(db);
  await sql`ALTER TABLE uploaded_images ADD CONSTRAINT uploaded_images_purpose_check CHECK (purpose IN ('return', 'master_code'))`.execute(
    db,
  );
  await sql`ALTER TABLE uploaded_images DROP CONSTRAINT return_images_content_type_check`.execute(db);
  await sql`
    ALTER TABLE uploaded_images ADD CONSTRAINT uploaded_images_content_type_check
    CHECK (content_type IN ('image/png', 'image/jpeg', 'image/webp', 'image/gif'))`.execute(db);

  await sql`ALTER TABLE master_codes ADD COLUMN image_id uuid`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE master_codes DROP COLUMN image_id`.execute(db);
  await sql`DELETE FROM uploaded_images WHERE purpose <> 'return' OR content_type = 'image/gif'`.execute(db);
  await sql`ALTER TABLE uploaded_images DROP CONSTRAINT uploaded_images_content_type_check`.execute(db);
  await sql`
    ALTER TABLE uploaded_images ADD CONSTRAINT return_images_content_type_check
    CHECK (content_type IN ('image/png', 'image/jpeg', 'image/webp'))`.execute(db);
  await sql`ALTER TABLE uploaded_images DROP COLUMN purpose`.execute(db);
  await sql`ALTER INDEX uploaded_images_return_idx RENAME TO return_images_return_idx`.execute(db);
  await sql`ALTER TABLE uploaded_images RENAME TO return_images`.execute(db);
  await sql`DROP TABLE master_code_wholesale_prices`.execute(db);
}
