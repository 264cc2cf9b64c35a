import type { RecordedEvent } from '@infra/eventstore/port';
import { PostgresEventStore } from '@infra/eventstore/postgres';
import { EventSchemaRegistry } from '@infra/eventstore/registry';
import { createTestDatabase, type TestDatabase } from '@tests/support/db';
import { waitFor } from '@tests/support/wait';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { eventStoreContract } from './eventstore.contract';

eventStoreContract('postgres', async (registry) => {
  const database = await createTestDatabase({ poolSize: 12 });
  const store = new PostgresEventStore(database.pool, registry);
  return {
    store,
    async cleanup() {
      await store.close();
      await database.drop();
    },
  };
});

describe('postgres event store: the sequence-gap problem', () => {
  let database: TestDatabase;
  let store: PostgresEventStore;
  const registry = new EventSchemaRegistry().register('Ticked', z.object({ n: z.number() }));
  const metadata = { tenantId: 't1', occurredAt: '2026-11-21T10:00:00.000Z' };

  beforeAll(async () => {
    database = await createTestDatabase();
    store = new PostgresEventStore(database.pool, registry);
  });
  afterAll(async () => {
    await store.close();
    await database.drop();
  });

  it('holds back an event committed after one with a higher sequence number, and then delivers both in order', async () => {
    const received: RecordedEvent[] = [];
    const subscription = store.subscribe({}, async (batch) => {
      received.push(...batch);
    });
    // A slow writer takes a sequence number first and commits last.
    const slow = await database.pool.connect();
    await slow.query('BEGIN');
    await slow.query(
      `INSERT INTO es_events (stream_id, stream_revision, event_id, type, data, metadata)
       VALUES ('tick-t1.slow', 0, gen_random_uuid(), 'Ticked', '{"n":1}', '${JSON.stringify(metadata)}')`,
    );
    const fast = await store.append('tick-t1.fast', [{ type: 'Ticked', data: { n: 2 }, metadata }], {
      expectedRevision: 'no_stream',
    });
    const fastRow = await database.pool.query<{ global_position: string }>(
      "SELECT global_position FROM es_events WHERE stream_id = 'tick-t1.fast'",
    );
    expect(BigInt(fastRow.rows[0]!.global_position)).toBe(fast.position.prepare);
    // The fast event is committed, but a reader must not pass the slow writer's open transaction.
    expect(await store.readAll({ limit: 10 })).toEqual([]);
    expect(await store.headPosition()).toBeNull();
    await slow.query('COMMIT');
    slow.release();

    await waitFor(() => received.length >= 2 || undefined);
    await subscription.stop();
    expect(received.map((e) => e.stream)).toEqual(['tick-t1.slow', 'tick-t1.fast']);
    expect(received[0]!.position.prepare).toBeLessThan(received[1]!.position.prepare);
  });
});

describe('postgres event store: awaitVisible', () => {
  let database: TestDatabase;
  let store: PostgresEventStore;
  const registry = new EventSchemaRegistry().register('Ticked', z.object({ n: z.number() }));
  const metadata = { tenantId: 't1', occurredAt: '2026-11-21T10:00:00.000Z' };

  beforeAll(async () => {
    database = await createTestDatabase();
    store = new PostgresEventStore(database.pool, registry);
  });
  afterAll(async () => {
    await store.close();
    await database.drop();
  });

  it('waits, in awaitVisible, for an event committed behind an older open transaction to come into view', async () => {
    // Any older transaction holds the horizon back, even one that writes no event.
    const older = await database.pool.connect();
    await older.query('BEGIN');
    await older.query('SELECT pg_current_xact_id()');
    await store.append('tick-t1.visible', [{ type: 'Ticked', data: { n: 7 }, metadata }], {
      expectedRevision: 'no_stream',
    });
    const inView = async () =>
      (await store.readAll({ limit: 1000 })).some((event) => event.stream === 'tick-t1.visible');
    expect(await inView()).toBe(false);
    let settled = false;
    const waiting = store.awaitVisible().then(() => {
      settled = true;
    });
    // Still held: the older transaction runs.
    await database.pool.query('SELECT pg_sleep(0.05)');
    expect(settled).toBe(false);
    await older.query('COMMIT');
    older.release();
    await waiting;
    expect(await inView()).toBe(true);
  });
});
