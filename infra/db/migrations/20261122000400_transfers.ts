import { type Kysely, sql } from 'kysely';

// The read models of transfer requests and transfers (projections/transfers.ts): one row per document, with what
// the lists show, filter and sort on; the lines and the timeline of one document are read from its stream. Row-level
// security as on the stock read models (20261122000100): a session sees the rows of the tenant in
// `kedai.tenant_id`, every row when it is '*' (the projection writer), none when it is unset.
const TABLES = ['transfer_requests', 'transfers'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE transfer_requests (
      tenant_id text NOT NULL,
      id uuid NOT NULL,
      reference text NOT NULL,
      from_warehouse_id uuid NOT NULL,
      to_warehouse_id uuid NOT NULL,
      status text NOT NULL,
      remark text NOT NULL,
      reject_reason text,
      line_count int4 NOT NULL,
      total_quantity bigint NOT NULL,
      transfer_id uuid,
      created_by uuid,
      created_at timestamptz NOT NULL,
      approved_by uuid,
      approved_at timestamptz,
      rejected_by uuid,
      rejected_at timestamptz,
      cancelled_by uuid,
      cancelled_at timestamptz,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (tenant_id, id)
    )`.execute(db);
  await sql`CREATE INDEX transfer_requests_created_idx ON transfer_requests (tenant_id, created_at DESC, id)`.execute(
    db,
  );
  await sql`CREATE INDEX transfer_requests_status_idx ON transfer_requests (tenant_id, status, created_at DESC)`.execute(
    db,
  );

  await sql`
    CREATE TABLE transfers (
      tenant_id text NOT NULL,
      id uuid NOT NULL,
      reference text NOT NULL,
      request_id uuid,
      from_warehouse_id uuid NOT NULL,
      to_warehouse_id uuid NOT NULL,
      status text NOT NULL,
      confirmed boolean NOT NULL,
      remark text NOT NULL,
      cancel_reason text,
      line_count int4 NOT NULL,
      total_quantity bigint NOT NULL,
      shipped_quantity bigint NOT NULL,
      received_quantity bigint NOT NULL,
      returned_quantity bigint NOT NULL,
      created_by uuid,
      created_at timestamptz NOT NULL,
      confirmed_by uuid,
      confirmed_at timestamptz,
      shipped_by uuid,
      shipped_at timestamptz,
      received_by uuid,
      received_at timestamptz,
      cancelled_by uuid,
      cancelled_at timestamptz,
      completed_at timestamptz,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (tenant_id, id)
    )`.execute(db);
  await sql`CREATE INDEX transfers_created_idx ON transfers (tenant_id, created_at DESC, id)`.execute(db);
  await sql`CREATE INDEX transfers_status_idx ON transfers (tenant_id, status, created_at DESC)`.execute(db);

  for (const table of TABLES) {
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
  await sql`DROP TABLE transfers`.execute(db);
  await sql`DROP TABLE transfer_requests`.execute(db);
}
