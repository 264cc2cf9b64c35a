import { type Kysely, sql } from 'kysely';

// Marketplace stores a seller connected (issue 6: "A store connection through a real protocol"): settings-like
// reference data in plain tables with an activity-log row per change (ARCHITECTURE.md), not events. The order
// import reads and writes `stores` (its checkpoint, last import, last error); the tokens are in a table of their
// own that no API answer ever reads from.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE stores (
      id uuid PRIMARY KEY,
      tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
      platform text NOT NULL,
      name text NOT NULL,
      shop_id int8 NOT NULL,
      region text NOT NULL,
      status text NOT NULL CHECK (status IN ('connected', 'error', 'disconnected')),
      warehouse_id uuid,
      import_interval_minutes int4 NOT NULL DEFAULT 30 CHECK (import_interval_minutes BETWEEN 1 AND 1440),
      import_checkpoint timestamptz,
      last_import_at timestamptz,
      last_import_orders int4,
      last_error text,
      last_error_kind text,
      last_error_at timestamptz,
      connected_by uuid,
      connected_at timestamptz NOT NULL,
      disconnected_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (tenant_id, id)
    )`.execute(db);
  // One store per shop in an account: connecting the shop again reconnects that store.
  await sql`CREATE UNIQUE INDEX stores_shop_idx ON stores (tenant_id, platform, shop_id)`.execute(db);
  await sql`CREATE INDEX stores_tenant_idx ON stores (tenant_id, created_at)`.execute(db);

  await sql`
    CREATE TABLE store_tokens (
      store_id uuid PRIMARY KEY,
      tenant_id text NOT NULL,
      access_token text NOT NULL,
      refresh_token text NOT NULL,
      expires_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now(),
      FOREIGN KEY (tenant_id, store_id) REFERENCES stores (tenant_id, id) ON DELETE CASCADE
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE store_tokens`.execute(db);
  await sql`DROP TABLE stores`.execute(db);
}
