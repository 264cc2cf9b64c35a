import { type Kysely, sql } from 'kysely';

// Each projection's checkpoint, advanced in the same transaction as the rows it wrote, and the first read model:
// the catalogue of streams (one row per stream, per tenant) that auditors and the event feed browse.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE projection_checkpoints (
      name text PRIMARY KEY,
      position_commit bigint,
      position_prepare bigint,
      status text NOT NULL DEFAULT 'live' CHECK (status IN ('live', 'rebuilding')),
      rebuild_id text,
      events_applied bigint NOT NULL DEFAULT 0,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`
    CREATE TABLE stream_catalogue (
      tenant_id text NOT NULL,
      stream_id text NOT NULL,
      category text NOT NULL,
      event_count bigint NOT NULL,
      last_revision bigint NOT NULL,
      last_event_type text NOT NULL,
      first_event_at timestamptz NOT NULL,
      last_event_at timestamptz NOT NULL,
      PRIMARY KEY (tenant_id, stream_id)
    )`.execute(db);
  await sql`CREATE INDEX stream_catalogue_category_idx ON stream_catalogue (tenant_id, category, last_event_at)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE stream_catalogue`.execute(db);
  await sql`DROP TABLE projection_checkpoints`.execute(db);
}
