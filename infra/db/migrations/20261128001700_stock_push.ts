import { type Kysely, sql } from 'kysely';

// Issue 15, the stock push (domain/channels/stock-push.ts): each store's push rule, the per-master-code rules that
// replace it, which warehouses feed each store, the account's main store lock, and the push log's read model
// (projections/push-log.ts). Every table holds a tenant's rows: FORCEd row-level security as
// 20261127000900_tenancy_roles gives the others.

const APP = 'kedai_app';
const SYSTEM = 'kedai_system';

const ruleColumns = sql`
  percent numeric(5, 2) NOT NULL,
  fixed integer NOT NULL,
  buffer integer NOT NULL,
  minimum integer NOT NULL,
  maximum integer,
  updated_by uuid,
  updated_at timestamptz NOT NULL DEFAULT now()`;

const TABLES = [
  'stock_push_rules',
  'stock_push_sku_rules',
  'stock_push_warehouses',
  'stock_push_settings',
  'channel_push_log',
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE stock_push_rules (
      tenant_id text NOT NULL,
      store_id uuid NOT NULL,
      ${ruleColumns},
      PRIMARY KEY (tenant_id, store_id)
    )`.execute(db);
  await sql`
    CREATE TABLE stock_push_sku_rules (
      tenant_id text NOT NULL,
      store_id uuid NOT NULL,
      master_code_id uuid NOT NULL,
      ${ruleColumns},
      PRIMARY KEY (tenant_id, store_id, master_code_id)
    )`.execute(db);
  await sql`
    CREATE TABLE stock_push_warehouses (
      tenant_id text NOT NULL,
      store_id uuid NOT NULL,
      warehouse_id uuid NOT NULL,
      PRIMARY KEY (tenant_id, store_id, warehouse_id)
    )`.execute(db);
  await sql`
    CREATE TABLE stock_push_settings (
      tenant_id text PRIMARY KEY,
      main_store_id uuid,
      lock_below integer NOT NULL DEFAULT 0,
      updated_by uuid,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`
    CREATE TABLE channel_push_log (
      tenant_id text NOT NULL,
      -- <event id>:<line index>
      id text NOT NULL,
      store_id text NOT NULL,
      platform text NOT NULL,
      field text NOT NULL,
      item_id text NOT NULL,
      model_id text NOT NULL,
      seller_sku text NOT NULL,
      master_code_id text,
      quantity integer,
      price numeric(14, 2),
      origin text NOT NULL,
      trigger_event_id text,
      trigger_type text,
      reason text NOT NULL,
      attempt integer NOT NULL,
      outcome text NOT NULL,
      answer text NOT NULL,
      pushed_at timestamptz NOT NULL,
      PRIMARY KEY (tenant_id, id)
    )`.execute(db);
  await sql`CREATE INDEX channel_push_log_time ON channel_push_log (tenant_id, pushed_at DESC)`.execute(db);
  await sql`CREATE INDEX channel_push_log_sku ON channel_push_log (tenant_id, store_id, item_id, model_id, pushed_at DESC)`.execute(
    db,
  );
  const owned = sql`tenant_id = current_setting('kedai.tenant_id', true)`;
  for (const table of TABLES) {
    const name = sql.id(table);
    await sql`ALTER TABLE ${name} ENABLE ROW LEVEL SECURITY`.execute(db);
    await sql`ALTER TABLE ${name} FORCE ROW LEVEL SECURITY`.execute(db);
    await sql`CREATE POLICY tenant_isolation ON ${name} USING (${owned}) WITH CHECK (${owned})`.execute(db);
    await sql`CREATE POLICY system_access ON ${name} TO ${sql.id(SYSTEM)} USING (true) WITH CHECK (true)`.execute(
      db,
    );
    await sql`GRANT SELECT, INSERT, UPDATE, DELETE ON ${name} TO ${sql.id(APP)}`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [...TABLES].reverse()) await sql`DROP TABLE ${sql.id(table)}`.execute(db);
}
