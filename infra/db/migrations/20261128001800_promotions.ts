import { type Kysely, sql } from 'kysely';

// Issue 15, promotions and price control (projections/promotions.ts):
// - `promotions`: discount and gift-with-purchase promotions, one row per promotion with what the lists filter and
//   sort on, and the folded promotion in `state`. Their status (upcoming, ongoing, ended, stopped) is read off the
//   clock against start_at, end_at and stopped_at, never stored.
// - `price_rules`: each store's price rule (markup, fixed amount, rounding, per-SKU overrides).
// - `price_push_log`: every price told to a store, one row per SKU per try, with the channel's answer.
// FORCEd row-level security as every tenant table has (20261127000900_tenancy_roles).

const APP = 'kedai_app';
const SYSTEM = 'kedai_system';
const TABLES = ['promotions', 'price_rules', 'price_push_log'];

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE promotions (
      tenant_id text NOT NULL,
      id text NOT NULL,
      kind text NOT NULL,
      store_id text NOT NULL,
      name text NOT NULL,
      start_at timestamptz NOT NULL,
      end_at timestamptz NOT NULL,
      stopped_at timestamptz,
      -- pending, pushed, failed, not_on_channel (domain/promotions/promotion.ts ChannelState).
      channel_state text NOT NULL,
      channel_id text,
      channel_error text,
      item_count integer NOT NULL,
      created_by text NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      last_revision bigint NOT NULL,
      state jsonb NOT NULL,
      PRIMARY KEY (tenant_id, id)
    )`.execute(db);
  await sql`CREATE INDEX promotions_list ON promotions (tenant_id, kind, start_at DESC)`.execute(db);
  await sql`
    CREATE TABLE price_rules (
      tenant_id text NOT NULL,
      store_id text NOT NULL,
      markup_percent numeric(8, 2) NOT NULL,
      fixed_amount numeric(14, 2) NOT NULL,
      rounding text NOT NULL,
      overrides jsonb NOT NULL,
      updated_by text NOT NULL,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (tenant_id, store_id)
    )`.execute(db);
  await sql`
    CREATE TABLE price_push_log (
      tenant_id text NOT NULL,
      store_id text NOT NULL,
      push_id text NOT NULL,
      attempt integer NOT NULL,
      item_id text NOT NULL,
      model_id text NOT NULL,
      seller_sku text NOT NULL,
      master_code_id text NOT NULL,
      price numeric(14, 2) NOT NULL,
      -- ok, refused (by the channel for this SKU, for good), failed (the call, or busy for now: tried again).
      outcome text NOT NULL,
      reason text,
      -- Who asked for the push.
      user_id text,
      at timestamptz NOT NULL,
      PRIMARY KEY (tenant_id, store_id, push_id, attempt, item_id, model_id)
    )`.execute(db);
  await sql`CREATE INDEX price_push_log_sku ON price_push_log (tenant_id, store_id, seller_sku, at DESC)`.execute(
    db,
  );
  const owned = sql`tenant_id = current_setting('kedai.tenant_id', true)`;
  for (const name of TABLES) {
    const table = sql.table(name);
    await sql`ALTER TABLE ${table} ENABLE ROW LEVEL SECURITY`.execute(db);
    await sql`ALTER TABLE ${table} FORCE ROW LEVEL SECURITY`.execute(db);
    await sql`CREATE POLICY tenant_isolation ON ${table} USING (${owned}) WITH CHECK (${owned})`.execute(db);
    await sql`CREATE POLICY system_access ON ${table} TO ${sql.id(SYSTEM)} USING (true) WITH CHECK (true)`.execute(
      db,
    );
    await sql`GRANT SELECT ON ${table} TO ${sql.id(APP)}`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const name of TABLES) await sql`DROP TABLE ${sql.table(name)}`.execute(db);
}
