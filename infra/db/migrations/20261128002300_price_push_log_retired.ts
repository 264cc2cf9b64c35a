import { type Kysely, sql } from 'kysely';

// Price pushes are recorded in the push log with the stock pushes (`ChannelUpdatePushed` with `field: 'price'`,
// read model `channel_push_log`), so the price-push log of 20261128001800_promotions goes. Its rows were a read
// model of `PricesPushed` events, which stay in the event store as history.
// `down` puts the empty table back as that migration made it, so the migrations go down and up alike.

const APP = 'kedai_app';
const SYSTEM = 'kedai_system';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE price_push_log`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
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
      outcome text NOT NULL,
      reason text,
      user_id text,
      at timestamptz NOT NULL,
      PRIMARY KEY (tenant_id, store_id, push_id, attempt, item_id, model_id)
    )`.execute(db);
  await sql`CREATE INDEX price_push_log_sku ON price_push_log (tenant_id, store_id, seller_sku, at DESC)`.execute(
    db,
  );
  const owned = sql`tenant_id = current_setting('kedai.tenant_id', true)`;
  await sql`ALTER TABLE price_push_log ENABLE ROW LEVEL SECURITY`.execute(db);
  await sql`ALTER TABLE price_push_log FORCE ROW LEVEL SECURITY`.execute(db);
  await sql`CREATE POLICY tenant_isolation ON price_push_log USING (${owned}) WITH CHECK (${owned})`.execute(
    db,
  );
  await sql`CREATE POLICY system_access ON price_push_log TO ${sql.id(SYSTEM)} USING (true) WITH CHECK (true)`.execute(
    db,
  );
  await sql`GRANT SELECT ON price_push_log TO ${sql.id(APP)}`.execute(db);
}
