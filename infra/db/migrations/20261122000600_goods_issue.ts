import { type Kysely, sql } from 'kysely';

// Goods issue notes and their approval layers (issue 5; domain/goods-issue, domain/approvals):
//
// - `approval_settings`: one row per account, absent until the owner first saves (absent means the defaults):
//   how many layers approve a goods issue note (1 to 3), after how long a waiting layer's approvers are reminded
//   (kept in seconds; the API takes and shows minutes, 1 to 10,080), and whether one user may approve at two
//   layers. A note takes a snapshot of them when it is submitted.
// - `goods_issues`: the notes' list (projections/goods-issue.ts), one row per note with what the list filters and
//   sorts on, and the folded note (`state`) the projection evolves. Ids are text, as the events carry them (a
//   projection must take every event its schema accepts). Row-level security as for the stock read
//   models (20261122000100): the tenant filter is the first lock, the policy the second.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE approval_settings (
      tenant_id text PRIMARY KEY REFERENCES tenants (id) ON DELETE CASCADE,
      layers integer NOT NULL DEFAULT 1 CHECK (layers BETWEEN 1 AND 3),
      reminder_seconds integer NOT NULL DEFAULT 86400 CHECK (reminder_seconds BETWEEN 1 AND 604800),
      allow_same_approver boolean NOT NULL DEFAULT false,
      updated_by uuid,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);

  await sql`
    CREATE TABLE goods_issues (
      tenant_id text NOT NULL,
      id text NOT NULL,
      reference text NOT NULL,
      reason text NOT NULL,
      remark text NOT NULL,
      warehouse_id text NOT NULL,
      status integer NOT NULL CHECK (status BETWEEN 1 AND 5),
      layers integer,
      current_layer integer,
      line_count integer NOT NULL,
      total_quantity bigint NOT NULL,
      issue_failed boolean NOT NULL,
      created_by text NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      last_revision bigint NOT NULL,
      state jsonb NOT NULL,
      PRIMARY KEY (tenant_id, id)
    )`.execute(db);
  await sql`CREATE INDEX goods_issues_created_idx ON goods_issues (tenant_id, created_at DESC, id)`.execute(
    db,
  );
  await sql`CREATE INDEX goods_issues_status_idx ON goods_issues (tenant_id, status, created_at DESC)`.execute(
    db,
  );
  // "Waiting for me": the notes whose waiting layer is one the caller holds the key of.
  await sql`CREATE INDEX goods_issues_waiting_idx ON goods_issues (tenant_id, current_layer) WHERE status = 4`.execute(
    db,
  );
  await sql`ALTER TABLE goods_issues ENABLE ROW LEVEL SECURITY`.execute(db);
  await sql`ALTER TABLE goods_issues FORCE ROW LEVEL SECURITY`.execute(db);
  await sql`
    CREATE POLICY tenant_isolation ON goods_issues
    USING (tenant_id = current_setting('kedai.tenant_id', true) OR current_setting('kedai.tenant_id', true) = '*')
    WITH CHECK (tenant_id = current_setting('kedai.tenant_id', true) OR current_setting('kedai.tenant_id', true) = '*')
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE goods_issues`.execute(db);
  await sql`DROP TABLE approval_settings`.execute(db);
}
