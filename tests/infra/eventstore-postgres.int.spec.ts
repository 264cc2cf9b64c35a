import { randomUUID } from 'node:crypto';
import type { RecordedEvent } from '@infra/eventstore/port';
import { PostgresEventStore } from '@infra/eventstore/postgres';
import { EventSchemaRegistry } from '@infra/eventstore/registry';
import { createTestDatabase, type TestDatabase } from '@tests/support/db';
import { waitFor } from '@tests/support/wait';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
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

describe('postgres event store: a subscriber to few types', () => {
  let database: TestDatabase;
  let store: PostgresEventStore;
  const registry = new EventSchemaRegistry()
    .register('Ticked', z.object({ n: z.number() }))
    .register('Tocked', z.object({ n: z.number() }));
  const metadata = { tenantId: 't1', occurredAt: '2026-11-21T10:00:00.000Z' };
  const tick = (stream: string, n: number, type = 'Ticked') =>
    store.append(stream, [{ type, data: { n }, metadata }], { expectedRevision: 'any' });

  beforeEach(async () => {
    database = await createTestDatabase();
    store = new PostgresEventStore(database.pool, registry, { pollIntervalMs: 20 });
  });
  afterEach(async () => {
    await store.close();
    await database.drop();
  });

  it('reads past events of other types once: it is told how far it looked, and the next read starts there', async () => {
    for (let n = 0; n < 5; n++) await tick('tick-t1.a', n);
    const received: RecordedEvent[] = [];
    const caughtUp: bigint[] = [];
    const subscription = store.subscribe(
      {
        types: ['Tocked'],
        onCaughtUp: async (position) => {
          caughtUp.push(position.prepare);
        },
      },
      async (batch) => {
        received.push(...batch);
      },
    );
    const head = async () => (await store.headPosition())!.prepare;
    await waitFor(async () => caughtUp.at(-1) === (await head()) || undefined);
    const tocked = await tick('tock-t1.b', 1, 'Tocked');
    await waitFor(() => received.length === 1 || undefined);
    const more = await tick('tick-t1.a', 6);
    await waitFor(() => caughtUp.at(-1) === more.position.prepare || undefined);
    await subscription.stop();
    expect(received.map((e) => e.position)).toEqual([tocked.position]);
    // Each stretch of other types is reported once, in order, and never the event it handed over.
    expect(caughtUp).toEqual([...caughtUp].sort((a, b) => (a < b ? -1 : 1)));
    expect(new Set(caughtUp).size).toBe(caughtUp.length);
    expect(caughtUp).not.toContain(tocked.position.prepare);
  });

  it('does not look past a transaction still open: its event of the wanted type is read when it commits', async () => {
    await tick('tick-t1.a', 0);
    // A slow writer of the wanted type takes its transaction id first and commits last.
    const slow = await database.pool.connect();
    await slow.query('BEGIN');
    await slow.query(
      `INSERT INTO es_events (stream_id, stream_revision, event_id, type, data, metadata)
       VALUES ('tock-t1.slow', 0, gen_random_uuid(), 'Tocked', '{"n":1}', '${JSON.stringify(metadata)}')`,
    );
    const later = await tick('tick-t1.a', 1);
    // The later event is committed, but what a read of Tocked looked at stops short of the open transaction.
    const held = await store.readTypesPage(undefined, 10, ['Tocked']);
    expect(held.events).toEqual([]);
    expect(held.scannedTo?.prepare ?? 0n).toBeLessThan(later.position.prepare);
    await slow.query('COMMIT');
    slow.release();
    // (Other tests' transactions on this server hold the horizon too: wait until they let these events through.)
    await store.awaitVisible();
    const read = await store.readTypesPage(held.scannedTo ?? undefined, 10, ['Tocked']);
    expect(read.events.map((e) => e.stream)).toEqual(['tock-t1.slow']);
    // Past its last event lies only the later Ticked: the read looked that far.
    expect(read.events[0]!.position.commit).toBeLessThan(later.position.commit);
    expect(read.scannedTo).toEqual(later.position);
    // A full page looks only as far as its last event.
    const full = await store.readTypesPage(undefined, 1, ['Ticked']);
    expect(full.scannedTo).toEqual(full.events[0]!.position);
  });
});

describe('postgres event store: group commit', () => {
  let database: TestDatabase;
  let store: PostgresEventStore;
  const registry = new EventSchemaRegistry().register('Ticked', z.object({ n: z.number() }));
  const metadata = { tenantId: 't1', occurredAt: '2026-11-21T10:00:00.000Z' };
  const ticks = (...ns: number[]) => ns.map((n) => ({ type: 'Ticked', data: { n }, metadata }));
  const stream = () => `tick-t1.${randomUUID()}`;
  const rows = (s: string) =>
    database.pool
      .query<{ stream_revision: string; global_position: string; transaction_id: string; n: number }>(
        `SELECT stream_revision, global_position, transaction_id::text, (data->>'n')::int AS n
         FROM es_events WHERE stream_id = $1 ORDER BY stream_revision`,
        [s],
      )
      .then((result) => result.rows);
  /** Holds the store's only slot with an append to a stream of its own, so the appends made next wait together. */
  const occupy = () => store.append(stream(), ticks(0), { expectedRevision: 'no_stream' });

  beforeEach(async () => {
    database = await createTestDatabase();
    store = new PostgresEventStore(database.pool, registry, { appendsInFlight: 1 });
  });
  afterEach(async () => {
    await store.close();
    await database.drop();
  });

  it('sends appends that waited together in one transaction, each with its own revisions and positions', async () => {
    const existing = stream();
    await store.append(existing, ticks(1, 2), { expectedRevision: 'no_stream' });
    const fresh = [stream(), stream(), stream()];
    const first = occupy();
    const grouped = await Promise.all([
      store.append(fresh[0]!, ticks(10, 11, 12), { expectedRevision: 'no_stream' }),
      store.append(existing, ticks(3), { expectedRevision: 1n }),
      store.append(fresh[1]!, ticks(20), { expectedRevision: 'any' }),
      store.append(fresh[2]!, ticks(30, 31), { expectedRevision: 'no_stream' }),
    ]);
    await first;
    expect(grouped.map((r) => r.nextRevision)).toEqual([2n, 2n, 0n, 1n]);
    // One transaction for the four; positions rise in the order the appends were made, revisions in each stream.
    expect(new Set(grouped.map((r) => r.position.commit)).size).toBe(1);
    const prepares = grouped.map((r) => r.position.prepare);
    expect(prepares).toEqual([...prepares].sort((a, b) => (a < b ? -1 : 1)));
    const stored = await rows(fresh[0]!);
    expect(stored.map((r) => [r.stream_revision, r.n])).toEqual([
      ['0', 10],
      ['1', 11],
      ['2', 12],
    ]);
    expect(stored.map((r) => BigInt(r.global_position))).toEqual(
      stored.map((r) => BigInt(r.global_position)).sort((a, b) => (a < b ? -1 : 1)),
    );
    expect(BigInt(stored.at(-1)!.global_position)).toBe(grouped[0]!.position.prepare);
    expect((await rows(existing)).map((r) => r.n)).toEqual([1, 2, 3]);
    // A subscriber reads them in that order (once no older transaction of the server holds them back).
    await store.awaitVisible();
    const read = await store.readAll({ limit: 100 });
    const mine = read.filter((e) => fresh.includes(e.stream) || e.stream === existing);
    expect(mine.map((e) => (e.data as { n: number }).n)).toEqual([1, 2, 10, 11, 12, 3, 20, 30, 31]);
  });

  it('refuses a wrong expected revision inside a group, appending nothing for it and the rest for the others', async () => {
    const behind = stream();
    await store.append(behind, ticks(1, 2), { expectedRevision: 'no_stream' });
    const missing = stream();
    const others = [stream(), stream()];
    const first = occupy();
    const results = await Promise.allSettled([
      store.append(others[0]!, ticks(1), { expectedRevision: 'no_stream' }),
      store.append(behind, ticks(3), { expectedRevision: 0n }),
      store.append(missing, ticks(1), { expectedRevision: 4n }),
      store.append(others[1]!, ticks(1), { expectedRevision: 'no_stream' }),
    ]);
    await first;
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
    expect(results[1]).toMatchObject({
      reason: { name: 'WrongExpectedRevisionError', stream: behind, expected: 0n, actual: 1n },
    });
    expect(results[2]).toMatchObject({ reason: { name: 'WrongExpectedRevisionError', actual: 'no_stream' } });
    expect((await rows(behind)).map((r) => r.n)).toEqual([1, 2]);
    expect(await rows(missing)).toEqual([]);
    const [a, b] = [results[0], results[3]] as PromiseFulfilledResult<{ position: { commit: bigint } }>[];
    expect(a!.value.position.commit).toBe(b!.value.position.commit);
  });

  it('answers a retried append inside a group as the first append, storing nothing twice', async () => {
    const s = stream();
    const ids = [randomUUID(), randomUUID()];
    const events = ticks(1, 2).map((event, i) => ({ ...event, id: ids[i] }));
    const original = await store.append(s, events, { expectedRevision: 'no_stream' });
    const other = stream();
    const first = occupy();
    const [retried, beside] = await Promise.all([
      store.append(s, events, { expectedRevision: 'no_stream' }),
      store.append(other, ticks(5), { expectedRevision: 'no_stream' }),
    ]);
    await first;
    expect(retried).toEqual(original);
    expect(beside.nextRevision).toBe(0n);
    expect((await rows(s)).map((r) => r.n)).toEqual([1, 2]);
  });

  it('resends a group one by one when it fails as a whole, so only the offending append is refused', async () => {
    const taken = randomUUID();
    await store.append(stream(), [{ ...ticks(1)[0]!, id: taken }], { expectedRevision: 'no_stream' });
    const clean = [stream(), stream()];
    const clashing = stream();
    const first = occupy();
    const results = await Promise.allSettled([
      store.append(clean[0]!, ticks(1), { expectedRevision: 'no_stream' }),
      // The id is stored in another stream: the group's statement fails on the unique event id.
      store.append(clashing, [{ ...ticks(2)[0]!, id: taken }], { expectedRevision: 'no_stream' }),
      store.append(clean[1]!, ticks(3), { expectedRevision: 'no_stream' }),
    ]);
    await first;
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(results[1]).toMatchObject({ reason: { name: 'DuplicateEventIdError' } });
    expect(await rows(clashing)).toEqual([]);
    const [one, two] = [await rows(clean[0]!), await rows(clean[1]!)];
    expect([one.map((r) => r.n), two.map((r) => r.n)]).toEqual([[1], [3]]);
    // Each went alone after the group failed: two transactions.
    expect(one[0]!.transaction_id).not.toBe(two[0]!.transaction_id);
  });

  it('sends appends to one stream one after another, in the order they were made', async () => {
    const s = stream();
    const results = await Promise.all(
      [1, 2, 3, 4].map((n) => store.append(s, ticks(n), { expectedRevision: 'any' })),
    );
    expect(results.map((r) => r.nextRevision)).toEqual([0n, 1n, 2n, 3n]);
    expect((await rows(s)).map((r) => r.n)).toEqual([1, 2, 3, 4]);
    // Two that both expect the stream to be new: the first wins, the second gets the conflict.
    const t = stream();
    const race = await Promise.allSettled([
      store.append(t, ticks(1), { expectedRevision: 'no_stream' }),
      store.append(t, ticks(2), { expectedRevision: 'no_stream' }),
    ]);
    expect(race.map((r) => r.status)).toEqual(['fulfilled', 'rejected']);
    expect((await rows(t)).map((r) => r.n)).toEqual([1]);
  });
});
