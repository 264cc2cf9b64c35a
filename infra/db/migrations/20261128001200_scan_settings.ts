import { type Kysely, sql } from 'kysely';

// Bulk scan control (issue 14; spec shell.md /settings/ "bulk scan control"; domain/scan/settings.ts): one row per
// account with how its smart scan may go faster — an item scanned with a quantity, the order number in place of
// the tracking number, one scan of an item completing every single-unit order of it in a batch. No row: all off.
// Tenant rows: the FORCEd row-level security of 20261127000900_tenancy_roles.ts.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE scan_settings (
      tenant_id text PRIMARY KEY REFERENCES tenants (id) ON DELETE CASCADE,
      quantity_entry boolean NOT NULL DEFAULT false,
      order_number_scan boolean NOT NULL DEFAULT false,
      bulk_single_items boolean NOT NULL DEFAULT false,
      updated_by uuid,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  const owned = sql`tenant_id = current_setting('kedai.tenant_id', true)`;
  await sql`ALTER TABLE scan_settings ENABLE ROW LEVEL SECURITY`.execute(db);
  await sql`ALTER TABLE scan_settings FORCE ROW LEVEL SECURITY`.execute(db);
  await sql`CREATE POLICY tenant_isolation ON scan_settings USING (${owned}) WITH CHECK (${owned})`.execute(
    db,
  );
  await sql`CREATE POLICY system_access ON scan_settings TO kedai_system USING (true) WITH CHECK (true)`.execute(
    db,
  );
  await sql`GRANT SELECT, INSERT, UPDATE, DELETE ON scan_settings TO kedai_app`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE scan_settings`.execute(db);
}
