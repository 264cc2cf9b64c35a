import { type Kysely, sql } from 'kysely';

// The monthly order limit (issue 14: "orders beyond the limit are imported but held"). `order_admissions` is the
// limit's ledger: one row per order that asked to enter the warehouse's work, in arrival order (`seq`), admitted in
// a month or held; admissions are decided under a per-account lock, so two imports at once never both take the
// last place of a month. The order's own stream records the hold and the release (the log is the truth); the row
// only counts and orders them. `orders.on_hold` is the board's "held" filter. FORCEd row-level security as every
// tenant table has (20261127000900_tenancy_roles).
//
// An account told its orders are held: an announcement for that account alone (`announcements.tenant_id`; null, as
// before, is the provider's notice to every seller). The provider's table gets row-level security for it: a seller's
// session sees the notices to everyone and its own; the system role (the provider's admins, the workflows) all.

const APP = 'kedai_app';
const SYSTEM = 'kedai_system';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE order_admissions (
      tenant_id text NOT NULL,
      order_id text NOT NULL,
      seq bigserial NOT NULL,
      state text NOT NULL CHECK (state IN ('admitted', 'held', 'releasing', 'closed')),
      month text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, order_id)
    )`.execute(db);
  // A month's count; and the orders waiting, few beside the rest, in arrival order.
  await sql`CREATE INDEX order_admissions_month_idx ON order_admissions (tenant_id, month, state)`.execute(
    db,
  );
  await sql`CREATE INDEX order_admissions_waiting_idx ON order_admissions (tenant_id, seq)
    WHERE state IN ('held', 'releasing')`.execute(db);
  const owned = sql`tenant_id = current_setting('kedai.tenant_id', true)`;
  await sql`ALTER TABLE order_admissions ENABLE ROW LEVEL SECURITY`.execute(db);
  await sql`ALTER TABLE order_admissions FORCE ROW LEVEL SECURITY`.execute(db);
  await sql`CREATE POLICY tenant_isolation ON order_admissions USING (${owned}) WITH CHECK (${owned})`.execute(
    db,
  );
  await sql`CREATE POLICY system_access ON order_admissions TO ${sql.id(SYSTEM)} USING (true) WITH CHECK (true)`.execute(
    db,
  );
  await sql`GRANT SELECT, INSERT, UPDATE, DELETE ON order_admissions TO ${sql.id(APP)}`.execute(db);
  await sql`ALTER TABLE orders ADD COLUMN on_hold boolean NOT NULL DEFAULT false`.execute(db);
  // The "held" filter and the banner's count: few rows, found without reading the rest.
  await sql`CREATE INDEX orders_on_hold_idx ON orders (tenant_id, status) WHERE on_hold`.execute(db);

  await sql`ALTER TABLE announcements ADD COLUMN tenant_id text`.execute(db);
  const audience = sql`tenant_id IS NULL OR tenant_id = current_setting('kedai.tenant_id', true)`;
  await sql`ALTER TABLE announcements ENABLE ROW LEVEL SECURITY`.execute(db);
  await sql`ALTER TABLE announcements FORCE ROW LEVEL SECURITY`.execute(db);
  await sql`CREATE POLICY audience ON announcements USING (${audience}) WITH CHECK (${audience})`.execute(db);
  await sql`CREATE POLICY system_access ON announcements TO ${sql.id(SYSTEM)} USING (true) WITH CHECK (true)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP POLICY system_access ON announcements`.execute(db);
  await sql`DROP POLICY audience ON announcements`.execute(db);
  await sql`ALTER TABLE announcements NO FORCE ROW LEVEL SECURITY`.execute(db);
  await sql`ALTER TABLE announcements DISABLE ROW LEVEL SECURITY`.execute(db);
  await sql`ALTER TABLE announcements DROP COLUMN tenant_id`.execute(db);
  await sql`ALTER TABLE orders DROP COLUMN on_hold`.execute(db);
  await sql`DROP TABLE order_admissions`.execute(db);
}
