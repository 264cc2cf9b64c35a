import { type Kysely, sql } from 'kysely';

// The stock API's own plain tables (api/inventory/stock*.ts):
//
// - `inventory_settings`: one row per account, absent until the owner first saves; absent means the defaults.
//   `refuse_negative_manual`: a manual deduction (an adjustment, a bulk upload row) may not take on-hand stock
//   below zero. Marketplace oversells are never refused, only flagged.
// - `stock_uploads`: a bulk adjustment file being applied, so that any API process can report its progress. The
//   rows themselves are stock events (idempotent by file hash and row); this table only counts them.
// - an index on combo_items by tenant: the stock list derives every combo of a tenant from its items.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE inventory_settings (
      tenant_id text PRIMARY KEY REFERENCES tenants (id) ON DELETE CASCADE,
      refuse_negative_manual boolean NOT NULL DEFAULT true,
      updated_by uuid,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`
    CREATE TABLE stock_uploads (
      id uuid PRIMARY KEY,
      tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      user_id uuid NOT NULL,
      filename text NOT NULL,
      file_hash text NOT NULL,
      status text NOT NULL CHECK (status IN ('running', 'done', 'failed')),
      total integer NOT NULL CHECK (total >= 0),
      applied integer NOT NULL DEFAULT 0 CHECK (applied >= 0),
      replayed integer NOT NULL DEFAULT 0 CHECK (replayed >= 0),
      failed integer NOT NULL DEFAULT 0 CHECK (failed >= 0),
      errors jsonb NOT NULL DEFAULT '[]',
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      finished_at timestamptz
    )`.execute(db);
  // The same file uploaded again while it is still being applied finds the running upload.
  await sql`CREATE INDEX stock_uploads_file_idx ON stock_uploads (tenant_id, file_hash, created_at)`.execute(
    db,
  );
  await sql`CREATE INDEX combo_items_tenant_idx ON combo_items (tenant_id, combo_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX combo_items_tenant_idx`.execute(db);
  await sql`DROP TABLE stock_uploads`.execute(db);
  await sql`DROP TABLE inventory_settings`.execute(db);
}
