import { type Kysely, sql } from 'kysely';

// Issue 15: each store's item download (spec §3 "Download status": new, pending, downloading, completed, error),
// with what the last one found (items, SKUs, linked and unlinked to master codes) and its error. A store without a
// row was never downloaded (new). Written by commands/channels/download.ts and the download workflow's activities.
// FORCEd row-level security as every tenant table has (20261127000900_tenancy_roles).
// Also drops `master_codes.bound`, which nothing ever set: a master code is bound when a channel SKU is linked to it,
// read from `channel_skus` (projections/inventory/master-codes.ts), so the flag cannot drift from the links.

const APP = 'kedai_app';
const SYSTEM = 'kedai_system';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE channel_downloads (
      tenant_id text NOT NULL,
      store_id text NOT NULL,
      status text NOT NULL CHECK (status IN ('pending', 'downloading', 'completed', 'error')),
      items integer NOT NULL DEFAULT 0,
      skus integer NOT NULL DEFAULT 0,
      linked integer NOT NULL DEFAULT 0,
      unlinked integer NOT NULL DEFAULT 0,
      last_error text,
      requested_by text,
      requested_at timestamptz NOT NULL DEFAULT now(),
      started_at timestamptz,
      finished_at timestamptz,
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, store_id)
    )`.execute(db);
  const owned = sql`tenant_id = current_setting('kedai.tenant_id', true)`;
  await sql`ALTER TABLE channel_downloads ENABLE ROW LEVEL SECURITY`.execute(db);
  await sql`ALTER TABLE channel_downloads FORCE ROW LEVEL SECURITY`.execute(db);
  await sql`CREATE POLICY tenant_isolation ON channel_downloads USING (${owned}) WITH CHECK (${owned})`.execute(
    db,
  );
  await sql`CREATE POLICY system_access ON channel_downloads TO ${sql.id(SYSTEM)} USING (true) WITH CHECK (true)`.execute(
    db,
  );
  await sql`GRANT SELECT, INSERT, UPDATE, DELETE ON channel_downloads TO ${sql.id(APP)}`.execute(db);
  await sql`ALTER TABLE master_codes DROP COLUMN bound`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE master_codes ADD COLUMN bound boolean NOT NULL DEFAULT false`.execute(db);
  await sql`DROP TABLE channel_downloads`.execute(db);
}
