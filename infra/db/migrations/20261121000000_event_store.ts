import { type Kysely, sql } from 'kysely';

// The event log. The unique (stream_id, stream_revision) index is both the stream's head for optimistic concurrency
// and the path of stream reads. `transaction_id` lets readers stop below the oldest running writer
// (pg_snapshot_xmin), so an event committed late by a slow writer is never skipped.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE es_events (
      global_position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
      stream_id text NOT NULL,
      stream_revision bigint NOT NULL,
      event_id uuid NOT NULL,
      type text NOT NULL,
      data jsonb NOT NULL,
      metadata jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT es_events_event_id_key UNIQUE (event_id),
      CONSTRAINT es_events_stream_revision_key UNIQUE (stream_id, stream_revision)
    )`.execute(db);
  await sql`CREATE INDEX es_events_log_idx ON es_events (transaction_id, global_position)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE es_events`.execute(db);
}
