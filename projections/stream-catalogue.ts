import { eventSchemas } from '@domain/events';
import { STREAM_CATALOGUE_VIEW } from '@domain/shared/live-views';
import type { Database, StreamCatalogueTable } from '@infra/db';
import { parseStreamId, type RecordedEvent } from '@infra/eventstore/port';
import { type Kysely, type Selectable, sql } from 'kysely';
import { defineProjection } from './runtime/projection';

export { STREAM_CATALOGUE_VIEW };

/**
 * One row per stream and tenant: how many events it holds, its last revision and type, and when it was first and
 * last written. Auditors start here to pick the stream to replay; the event feed lists streams from it.
 */
export type StreamCatalogueRow = Selectable<StreamCatalogueTable>;

export const streamCatalogue = defineProjection({
  name: 'stream_catalogue',
  eventTypes: Object.keys(eventSchemas),
  tables: ['stream_catalogue'],
  async apply(trx, events) {
    const rows = new Map<string, ReturnType<typeof rowFor>>();
    for (const event of events) {
      const key = `${event.metadata.tenantId}\u0000${event.stream}`;
      const row = rows.get(key);
      if (!row) {
        rows.set(key, rowFor(event));
        continue;
      }
      row.event_count += 1n;
      row.last_revision = event.revision;
      row.last_event_type = event.type;
      row.last_event_at = event.createdAt;
    }
    const values = [...rows.values()].map((r) => ({
      ...r,
      event_count: r.event_count.toString(),
      last_revision: r.last_revision.toString(),
    }));
    await trx
      .insertInto('stream_catalogue')
      .values(values)
      .onConflict((oc) =>
        oc.columns(['tenant_id', 'stream_id']).doUpdateSet({
          event_count: sql`stream_catalogue.event_count + excluded.event_count`,
          last_revision: sql`excluded.last_revision`,
          last_event_type: sql`excluded.last_event_type`,
          last_event_at: sql`excluded.last_event_at`,
        }),
      )
      .execute();
    return values.map((v) => ({ tenantId: v.tenant_id, view: STREAM_CATALOGUE_VIEW, ids: [v.stream_id] }));
  },
});

function rowFor(event: RecordedEvent) {
  return {
    tenant_id: event.metadata.tenantId,
    stream_id: event.stream,
    category: parseStreamId(event.stream)?.category ?? event.stream,
    event_count: 1n,
    last_revision: event.revision,
    last_event_type: event.type,
    first_event_at: event.createdAt,
    last_event_at: event.createdAt,
  };
}

/** A tenant's streams, newest first; the tenant is part of every query. */
export async function listStreams(
  db: Kysely<Database>,
  tenantId: string,
  opts: { category?: string; limit?: number } = {},
): Promise<StreamCatalogueRow[]> {
  let query = db.selectFrom('stream_catalogue').selectAll().where('tenant_id', '=', tenantId);
  if (opts.category) query = query.where('category', '=', opts.category);
  return query
    .orderBy('last_event_at', 'desc')
    .orderBy('stream_id')
    .limit(opts.limit ?? 100)
    .execute();
}
