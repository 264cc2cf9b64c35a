import { randomUUID } from 'node:crypto';
import { eventSchemas } from '@domain/events';
import { type FeedPosition, formatFeedPosition } from '@domain/feed/cloud-events';
import type { Database } from '@infra/db';
import { PostgresEventStore } from '@infra/eventstore/postgres';
import { EventSchemaRegistry } from '@infra/eventstore/registry';
import { readTenantFeed } from '@projections/feed.queries';
import { createTestDatabase, type TestDatabase } from '@tests/support/db';
import { appendSampleEvents } from '@tests/support/events';
import { waitFor } from '@tests/support/wait';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const TENANTS = ['system', 'tenant1', 'tenant2', 'tenant3', 'tenant4'];

/** Every event of a tenant's streams, in log order, as the superuser sees the table. */
async function logOf(database: TestDatabase, tenantId: string): Promise<string[]> {
  const { rows } = await database.pool.query<{ event_id: string }>(
    `SELECT event_id FROM es_events WHERE metadata->>'tenantId' = $1 AND stream_id LIKE $2
     ORDER BY transaction_id, global_position`,
    [tenantId, `system-${tenantId}.%`],
  );
  return rows.map((r) => r.event_id);
}

/** Reads the tenant's whole feed page by page; returns the ids and the last `next`. */
async function readAll(db: Kysely<Database>, tenantId: string, limit: number, after?: FeedPosition) {
  const ids: string[] = [];
  for (;;) {
    const page = await readTenantFeed(db, { tenantId, after, limit });
    for (const event of page.events) {
      expect(event.metadata.tenantId).toBe(tenantId);
      expect(event.stream.startsWith(`system-${tenantId}.`)).toBe(true);
    }
    ids.push(...page.events.map((e) => e.id));
    after = page.next;
    if (page.events.length < limit) return { ids, next: page.next };
  }
}

describe('the feed read of a tenant', () => {
  let database: TestDatabase;
  let store: PostgresEventStore;

  beforeAll(async () => {
    database = await createTestDatabase();
    store = new PostgresEventStore(database.pool, new EventSchemaRegistry().registerAll(eventSchemas));
    // Five tenants' streams, their appends interleaved in the log.
    await appendSampleEvents(store, { count: 600, streams: 25, tenants: 5, perAppend: 7 });
    // An event that claims tenant1 in a stream of tenant2: the stream is not tenant1's, the feed leaves it out.
    await store.append(
      'system-tenant2.forged',
      [
        {
          type: 'SystemStarted',
          data: { version: '9', node: 'v20', host: 'x', eventStore: 'postgres' },
          metadata: { tenantId: 'tenant1', occurredAt: '2026-11-21T00:00:00.000Z' },
        },
      ],
      { expectedRevision: 'no_stream' },
    );
    await store.awaitVisible();
  });
  afterAll(async () => {
    await store.close();
    await database.drop();
  });

  it('gives each of five tenants all of its own events in log order across pages, and none of the others', async () => {
    for (const tenantId of TENANTS) {
      const expected = await logOf(database, tenantId);
      expect(expected.length).toBeGreaterThan(100);
      // As the API reads (app role, row-level security) and as a worker would (system role, which sees every
      // tenant's rows: only the read's own filter keeps the others out).
      expect((await readAll(database.appDb, tenantId, 17)).ids).toEqual(expected);
      expect((await readAll(database.systemDb, tenantId, 50)).ids).toEqual(expected);
    }
  });

  it('resumes from any position it gave, and from the end of a short page without reading anything again', async () => {
    const expected = await logOf(database, 'tenant3');
    const first = await readTenantFeed(database.systemDb, { tenantId: 'tenant3', limit: 40 });
    const rest = await readAll(database.systemDb, 'tenant3', 1000, first.events[39]!.position);
    expect([...first.events.map((e) => e.id), ...rest.ids]).toEqual(expected);
    const again = await readTenantFeed(database.systemDb, {
      tenantId: 'tenant3',
      after: rest.next,
      limit: 5,
    });
    expect(again.events).toEqual([]);
  });

  it('filters by event type', async () => {
    const page = await readTenantFeed(database.systemDb, {
      tenantId: 'tenant1',
      types: ['StockAdjusted'],
      limit: 100,
    });
    expect(page.events).toEqual([]);
    const all = await readTenantFeed(database.systemDb, {
      tenantId: 'tenant1',
      types: ['StockAdjusted', 'SystemStarted'],
      limit: 5,
    });
    expect(all.events.map((e) => e.id)).toEqual((await logOf(database, 'tenant1')).slice(0, 5));
  });

  it('never passes an event a slow writer commits late, and gives it on the next read', async () => {
    const before = await readAll(database.systemDb, 'tenant4', 1000);
    const metadata = { tenantId: 'tenant4', occurredAt: '2026-11-21T10:00:00.000Z' };
    const slow = await database.pool.connect();
    try {
      await slow.query('BEGIN');
      const slowId = randomUUID();
      await slow.query(
        `INSERT INTO es_events (stream_id, stream_revision, event_id, type, data, metadata)
         VALUES ('system-tenant4.slow', 0, $1, 'SystemStarted', $2, $3)`,
        [slowId, { version: 's', node: 'v20', host: 'h', eventStore: 'postgres' }, metadata],
      );
      const fast = await store.append(
        'system-tenant4.fast',
        [
          {
            type: 'SystemStarted',
            data: { version: 'f', node: 'v20', host: 'h', eventStore: 'postgres' },
            metadata,
          },
        ],
        { expectedRevision: 'no_stream' },
      );
      const held = await readTenantFeed(database.systemDb, {
        tenantId: 'tenant4',
        after: before.next,
        limit: 10,
      });
      expect(held.events).toEqual([]);
      await slow.query('COMMIT');
      const late = await waitFor(async () => {
        const page = await readTenantFeed(database.systemDb, {
          tenantId: 'tenant4',
          after: held.next,
          limit: 10,
        });
        return page.events.length === 2 && page;
      });
      expect(late.events.map((e) => e.stream)).toEqual(['system-tenant4.slow', 'system-tenant4.fast']);
      expect(late.events[0]!.id).toBe(slowId);
      expect(late.events[1]!.position).toEqual(fast.position);
    } finally {
      slow.release();
    }
  });

  it('refuses a position past the horizon of the log', async () => {
    const head = await readTenantFeed(database.systemDb, { tenantId: 'tenant2', limit: 1 });
    const ahead = { commit: head.next.commit + 1_000_000n, prepare: 1n };
    await expect(
      readTenantFeed(database.appDb, { tenantId: 'tenant2', after: ahead, limit: 1 }),
    ).rejects.toMatchObject({
      code: 'FEED_POSITION_AHEAD',
      refusal: { status: 400, code: 823 },
    });
    expect(formatFeedPosition(ahead)).toMatch(/^\d+-1$/);
  });
});
