import type { FeedPosition, FeedSourceEvent } from '@domain/feed/cloud-events';
import { refuseFeed } from '@domain/feed/errors';
import type { Database } from '@infra/db';
import { withTenant } from '@infra/db/tenant';
import { type Kysely, sql } from 'kysely';

/**
 * The integrator feed's read: one tenant's events, straight from the log (es_events), in log order.
 *
 * - The store's visibility rule: only events of transactions older than the oldest one still running
 *   (pg_snapshot_xmin), so an event committed late by a slow writer is never passed over (infra/eventstore/postgres.ts).
 * - The tenant: the event's metadata (what row-level security keys on for the app role) and its stream id
 *   (`<category>-<tenant>.<entity>`) must both name it. No index: the log index (transaction_id, global_position)
 *   walks the log in order and the rows of other tenants are skipped as it goes; an index by tenant would be one more
 *   to fill on every append, the store's hottest path.
 * - `next`: after a full page, the last event's position; after a short one, the horizon itself (the oldest running
 *   transaction, prepare 0), which lies past every event this read could see and before every event still to come,
 *   so the next read neither looks at the other tenants' events again nor skips one of this tenant's.
 */

export interface FeedRead {
  tenantId: string;
  /** Strictly after this position; from the start of the log when absent. */
  after?: FeedPosition;
  /** Only these event types; every type when absent. */
  types?: readonly string[];
  limit: number;
}

/** A recorded event with its data as the JSON text the store holds (see cloudEventJson). */
export interface FeedEvent extends FeedSourceEvent {
  dataJson: string;
}

export interface FeedPage {
  events: FeedEvent[];
  /** Where the next read starts (its `after`). */
  next: FeedPosition;
}

interface FeedRow {
  commit: string;
  prepare: string;
  stream_id: string;
  stream_revision: string;
  event_id: string;
  type: string;
  data: string;
  tenant_id: string;
  occurred_at: string;
}

/** Refuses (400) a position past the log's horizon: a position the feed never gave. */
export async function readTenantFeed(db: Kysely<Database>, read: FeedRead): Promise<FeedPage> {
  return withTenant(db, read.tenantId, async (trx) => {
    const horizon = await sql<{ xmin: string }>`
      SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin`.execute(trx);
    const head: FeedPosition = { commit: BigInt(horizon.rows[0]!.xmin), prepare: 0n };
    if (read.after && isAfter(read.after, head)) throw refuseFeed('FEED_POSITION_AHEAD');
    const { after, types, tenantId, limit } = read;
    const rows = await sql<FeedRow>`
      SELECT transaction_id::text AS commit, global_position::text AS prepare, stream_id,
        stream_revision::text AS stream_revision, event_id::text AS event_id, type, data::text AS data,
        metadata->>'tenantId' AS tenant_id, metadata->>'occurredAt' AS occurred_at
      FROM es_events
      WHERE transaction_id < ${String(head.commit)}::text::xid8
        AND metadata->>'tenantId' = ${tenantId}
        AND substr(split_part(stream_id, '.', 1), strpos(stream_id, '-') + 1) = ${tenantId}
        ${after ? sql`AND (transaction_id, global_position) > (${String(after.commit)}::text::xid8, ${String(after.prepare)}::bigint)` : sql``}
        ${types ? sql`AND type = ANY(${types}::text[])` : sql``}
      ORDER BY es_events.transaction_id, es_events.global_position
      LIMIT ${limit}`.execute(trx);
    const events = rows.rows.map(toFeedEvent);
    const last = events.at(-1)?.position;
    return { events, next: events.length === limit && last ? last : head };
  });
}

const isAfter = (a: FeedPosition, b: FeedPosition) =>
  a.commit !== b.commit ? a.commit > b.commit : a.prepare > b.prepare;

function toFeedEvent(row: FeedRow): FeedEvent {
  return {
    id: row.event_id,
    stream: row.stream_id,
    revision: BigInt(row.stream_revision),
    type: row.type,
    metadata: { tenantId: row.tenant_id, occurredAt: row.occurred_at },
    position: { commit: BigInt(row.commit), prepare: BigInt(row.prepare) },
    dataJson: row.data,
  };
}
