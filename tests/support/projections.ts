import type { Database } from '@infra/db';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';

/** The stream catalogue as comparable plain rows, in a fixed order. */
export async function dumpStreamCatalogue(db: Kysely<Database>) {
  const rows = await db
    .selectFrom('stream_catalogue')
    .selectAll()
    .orderBy('tenant_id')
    .orderBy('stream_id')
    .execute();
  return rows.map((r) => ({
    ...r,
    first_event_at: r.first_event_at.toISOString(),
    last_event_at: r.last_event_at.toISOString(),
  }));
}

/** Rows whose event count disagrees with their revision: what applying an event twice (or skipping one) leaves. */
export async function inconsistentCatalogueRows(db: Kysely<Database>): Promise<number> {
  const result = await sql<{ n: string }>`
    SELECT count(*) AS n FROM stream_catalogue WHERE event_count <> last_revision + 1`.execute(db);
  return Number(result.rows[0]!.n);
}
