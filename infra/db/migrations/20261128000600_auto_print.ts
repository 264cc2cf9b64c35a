import { type Kysely, sql } from 'kysely';

// The worker auto print station (issue 14; spec shell.md /orders/worker-auto-print; commands/printing/auto-print.ts):
// `auto_print_claims` holds one row per order and document an auto print station took, taken in one statement, so
// two stations (or one reloaded) never print the same order's document twice. Tenant rows: the FORCEd row-level
// security of 20261127000900_tenancy_roles.ts.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE auto_print_claims (
      tenant_id text NOT NULL,
      order_id text NOT NULL,
      document text NOT NULL,
      station text NOT NULL,
      claimed_by text NOT NULL,
      claimed_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, order_id, document)
    )`.execute(db);
  const owned = sql`tenant_id = current_setting('kedai.tenant_id', true)`;
  await sql`ALTER TABLE auto_print_claims ENABLE ROW LEVEL SECURITY`.execute(db);
  await sql`ALTER TABLE auto_print_claims FORCE ROW LEVEL SECURITY`.execute(db);
  await sql`CREATE POLICY tenant_isolation ON auto_print_claims USING (${owned}) WITH CHECK (${owned})`.execute(
    db,
  );
  await sql`CREATE POLICY system_access ON auto_print_claims TO kedai_system USING (true) WITH CHECK (true)`.execute(
    db,
  );
  await sql`GRANT SELECT, INSERT, UPDATE, DELETE ON auto_print_claims TO kedai_app`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE auto_print_claims`.execute(db);
}
