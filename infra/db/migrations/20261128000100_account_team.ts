import { type Kysely, sql } from 'kysely';

// Account and team (issue 14): the user kinds of spec §6 beyond owner and sub-user, and the account's sign-ins (the
// `/login_access/list` screen). A table made after the tenancy migration gets its FORCEd row-level security here.

const PARTNER_KINDS = ['supplier', 'dropshipper', 'dealer', 'salesperson', 'affiliate', 'cargo_logistics'];
const setting = sql`current_setting('kedai.tenant_id', true)`;

async function tenantOwned(db: Kysely<unknown>, table: string): Promise<void> {
  const t = sql.table(table);
  const owned = sql`tenant_id = ${setting}`;
  await sql`ALTER TABLE ${t} ENABLE ROW LEVEL SECURITY`.execute(db);
  await sql`ALTER TABLE ${t} FORCE ROW LEVEL SECURITY`.execute(db);
  await sql`CREATE POLICY tenant_isolation ON ${t} USING (${owned}) WITH CHECK (${owned})`.execute(db);
  await sql`CREATE POLICY system_access ON ${t} TO kedai_system USING (true) WITH CHECK (true)`.execute(db);
  await sql`GRANT SELECT, INSERT, UPDATE, DELETE ON ${t} TO kedai_app`.execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE users DROP CONSTRAINT users_kind_check`.execute(db);
  await sql`
    ALTER TABLE users ADD CONSTRAINT users_kind_check
    CHECK (kind IN ('owner', 'subuser', 'admin', 'subadmin', ${sql.join(PARTNER_KINDS.map((k) => sql.lit(k)))}))`.execute(
    db,
  );
  await sql`CREATE INDEX activity_log_tenant_user_idx ON activity_log (tenant_id, user_id, at)`.execute(db);

  // Every sign-in attempt on a known account: who, from where, with what, and how it ended. An unknown login has no
  // account, so no tenant to show it to, and is not kept.
  await sql`
    CREATE TABLE sign_in_log (
      id bigserial PRIMARY KEY,
      tenant_id text REFERENCES tenants (id) ON DELETE CASCADE,
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      login text NOT NULL,
      address text NOT NULL,
      user_agent text NOT NULL DEFAULT '',
      result text NOT NULL CHECK (result IN ('success', 'failure', 'locked')),
      at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX sign_in_log_tenant_idx ON sign_in_log (tenant_id, at)`.execute(db);
  await tenantOwned(db, 'sign_in_log');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE sign_in_log`.execute(db);
  await sql`DROP INDEX activity_log_tenant_user_idx`.execute(db);
  await sql`DELETE FROM users WHERE kind IN (${sql.join(PARTNER_KINDS.map((k) => sql.lit(k)))})`.execute(db);
  await sql`ALTER TABLE users DROP CONSTRAINT users_kind_check`.execute(db);
  await sql`
    ALTER TABLE users ADD CONSTRAINT users_kind_check
    CHECK (kind IN ('owner', 'subuser', 'admin', 'subadmin'))`.execute(db);
}
