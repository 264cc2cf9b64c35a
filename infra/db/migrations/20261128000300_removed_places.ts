import { type Kysely, sql } from 'kysely';

// The code and name of each deleted warehouse or branch (commands/inventory/warehouses.ts writes them as it deletes),
// so the transfers and stock movements that name it still show its name, never a bare id. Tenancy as migration
// 20261127000900_tenancy_roles gives every tenant table.

const setting = sql`current_setting('kedai.tenant_id', true)`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE removed_places (
      id uuid NOT NULL,
      tenant_id text NOT NULL,
      kind text NOT NULL CHECK (kind IN ('warehouse', 'branch')),
      code text NOT NULL,
      name text NOT NULL,
      removed_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, id)
    )`.execute(db);
  await sql`ALTER TABLE removed_places ENABLE ROW LEVEL SECURITY`.execute(db);
  await sql`ALTER TABLE removed_places FORCE ROW LEVEL SECURITY`.execute(db);
  await sql`
    CREATE POLICY tenant_isolation ON removed_places
    USING (tenant_id = ${setting}) WITH CHECK (tenant_id = ${setting})`.execute(db);
  await sql`
    CREATE POLICY system_access ON removed_places TO kedai_system USING (true) WITH CHECK (true)`.execute(db);
  await sql`GRANT SELECT, INSERT, UPDATE, DELETE ON removed_places TO kedai_app`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE removed_places`.execute(db);
}
