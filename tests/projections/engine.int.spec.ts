import { eventSchemas } from '@domain/events';
import { createDb, createPool } from '@infra/db';
import { comparePositions, type Position } from '@infra/eventstore/port';
import { PostgresEventStore } from '@infra/eventstore/postgres';
import { EventSchemaRegistry } from '@infra/eventstore/registry';
import { projections } from '@projections/index';
import { ProjectionEngine } from '@projections/runtime/engine';
import { LiveHub } from '@projections/runtime/live-hub';
import { defineProjection, type LiveChange } from '@projections/runtime/projection';
import { type Reactor, ReactorRunner } from '@projections/runtime/reactor';
import { listStreams, STREAM_CATALOGUE_VIEW } from '@projections/stream-catalogue';
import { createTestDatabase, type TestDatabase } from '@tests/support/db';
import { appendSampleEvents } from '@tests/support/events';
import { dumpStreamCatalogue, inconsistentCatalogueRows } from '@tests/support/projections';
import { waitFor } from '@tests/support/wait';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const registry = new EventSchemaRegistry().registerAll(eventSchemas);

/** Starts a rebuild and aborts it once `after` events are applied, leaving it resumable under its id. */
async function interruptedRebuild(
  engine: ProjectionEngine,
  rebuildId: string,
  batchSize: number,
  after: bigint,
) {
  const stop = new AbortController();
  await expect(
    engine.rebuild('stream_catalogue', {
      rebuildId,
      batchSize,
      signal: stop.signal,
      onProgress: (p) => {
        if (p.eventsApplied >= after) stop.abort();
      },
    }),
  ).rejects.toThrow();
}

describe('projection engine', () => {
  let database: TestDatabase;
  let store: PostgresEventStore;
  const engines: ProjectionEngine[] = [];
  const hubs: LiveHub[] = [];

  const newEngine = (withHub = false) => {
    const hub = withHub ? new LiveHub(database.pool) : undefined;
    if (hub) hubs.push(hub);
    const engine = new ProjectionEngine({ db: database.db, store, projections, hub, retryMs: 20 });
    engines.push(engine);
    return { engine, hub };
  };
  const eventsApplied = async () => (await engines[0]!.checkpoint('stream_catalogue')).eventsApplied;

  beforeEach(async () => {
    database = await createTestDatabase({ poolSize: 20 });
    store = new PostgresEventStore(database.pool, registry, { pollIntervalMs: 20 });
  });
  afterEach(async () => {
    await Promise.all(engines.splice(0).map((e) => e.stop()));
    await Promise.all(hubs.splice(0).map((h) => h.close()));
    await store.close();
    await database.drop();
  });

  it('catches up from its checkpoint and reports the lag going to zero', async () => {
    const { engine } = newEngine();
    await appendSampleEvents(store, { count: 1000, streams: 10 });
    const before = await engine.status();
    expect(before[0]).toMatchObject({ name: 'stream_catalogue', status: 'live', position: null, lag: 1000n });
    expect(await engine.catchUp('stream_catalogue', 300)).toBe(1000);
    const after = await engine.status();
    expect(after[0]!.lag).toBe(0n);
    expect(after[0]!.eventsApplied).toBe(1000n);
    const rows = await listStreams(database.db, 'system');
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.reduce((n, r) => n + Number(r.event_count), 0)).toBeGreaterThan(0);
    expect(await inconsistentCatalogueRows(database.db)).toBe(0);
    expect(await engine.catchUp('stream_catalogue')).toBe(0);
  });

  it('follows the log live and publishes what each batch changed', async () => {
    const { engine, hub } = newEngine(true);
    const changes: LiveChange[] = [];
    hub!.subscribe((c) => changes.push(c));
    engine.start();
    const { streams } = await appendSampleEvents(store, {
      count: 500,
      streams: 5,
      tenants: 1,
      perAppend: 10,
    });
    await waitFor(async () => (await eventsApplied()) === 500n || undefined);
    expect(changes.every((c) => c.view === STREAM_CATALOGUE_VIEW && c.tenantId === 'system')).toBe(true);
    expect(new Set(changes.flatMap((c) => c.ids))).toEqual(new Set(streams));
    const rows = await listStreams(database.db, 'system');
    expect(rows.map((r) => Number(r.event_count)).sort()).toEqual([100, 100, 100, 100, 100]);
  });

  it('applies every event exactly once when several runners race on one projection', async () => {
    const runners = [newEngine(), newEngine(), newEngine()];
    for (const { engine } of runners) engine.start();
    await Promise.all([
      appendSampleEvents(store, { count: 1500, streams: 30, perAppend: 7 }),
      ...runners.map(({ engine }) => engine.catchUp('stream_catalogue', 50)),
    ]);
    await waitFor(async () => (await eventsApplied()) === 1500n || undefined);
    expect(await inconsistentCatalogueRows(database.db)).toBe(0);
    const total = await database.db
      .selectFrom('stream_catalogue')
      .select((eb) => eb.fn.sum<string>('event_count').as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(total.n)).toBe(1500);
  });

  it('rebuilds into the same rows the live runner built, and resumes a rebuild by its id', async () => {
    const { engine } = newEngine();
    await appendSampleEvents(store, { count: 2000, streams: 40 });
    await engine.catchUp('stream_catalogue');
    const live = await dumpStreamCatalogue(database.db);

    const progress: bigint[] = [];
    const result = await engine.rebuild('stream_catalogue', {
      rebuildId: 'r1',
      batchSize: 300,
      onProgress: (p) => {
        progress.push(p.eventsApplied);
      },
    });
    expect(result.eventsApplied).toBe(2000n);
    expect(progress[0]).toBe(0n);
    expect(progress).toEqual([...progress].sort((a, b) => (a < b ? -1 : 1)));
    expect(await dumpStreamCatalogue(database.db)).toEqual(live);
    expect((await engine.checkpoint('stream_catalogue')).status).toBe('live');

    // Interrupted after some batches: the same id picks up where it stopped instead of starting over.
    await interruptedRebuild(engine, 'r2', 300, 600n);
    const halfway = await engine.checkpoint('stream_catalogue');
    expect(halfway).toMatchObject({ status: 'rebuilding', rebuildId: 'r2', eventsApplied: 600n });
    const seen: bigint[] = [];
    await engine.rebuild('stream_catalogue', {
      rebuildId: 'r2',
      batchSize: 300,
      onProgress: (p) => {
        seen.push(p.eventsApplied);
      },
    });
    expect(seen[0]).toBe(600n);
    expect(await dumpStreamCatalogue(database.db)).toEqual(live);
    expect((await engine.checkpoint('stream_catalogue')).eventsApplied).toBe(2000n);
  });

  it('writes a batch with a commit that does not wait for the disk, and leaks it to no later transaction', async () => {
    const seen: { commit: string }[] = [];
    const settingsProbe = defineProjection({
      name: 'settings_probe',
      eventTypes: ['SystemStarted'],
      tables: [],
      async apply(trx) {
        const { rows } = await sql<{ commit: string }>`
          SELECT current_setting('synchronous_commit') AS commit`.execute(trx);
        seen.push(rows[0]!);
        return [];
      },
    });
    // The test server runs without waiting for the disk anyway: this database waits, so the batch's own setting shows.
    await database.pool.query(
      `DO $$ BEGIN EXECUTE format('ALTER DATABASE %I SET synchronous_commit = on', current_database()); END $$`,
    );
    const pool = createPool(database.url, 3);
    const db = createDb(pool);
    try {
      const engine = new ProjectionEngine({ db, store, projections: [settingsProbe] });
      await appendSampleEvents(store, { count: 10, streams: 2 });
      expect(await engine.catchUp('settings_probe', 4)).toBe(10);
      expect(seen).toEqual(Array.from({ length: 3 }, () => ({ commit: 'off' })));
      // Both were the batch's own: every connection of the pool is back to the defaults.
      const clients = await Promise.all(Array.from({ length: 3 }, () => pool.connect()));
      try {
        for (const client of clients) {
          const { rows } = await client.query<{ commit: string }>(
            `SELECT current_setting('synchronous_commit') AS commit`,
          );
          expect(rows[0]).toEqual({ commit: 'on' });
        }
      } finally {
        for (const client of clients) client.release();
      }
      // A batch read from a position the checkpoint has left applies nothing and moves nothing.
      const events = await store.readAll({ limit: 4 });
      expect(await engine.applyBatch(settingsProbe, null, events)).toBe(false);
      expect(seen).toHaveLength(3);
      expect((await engine.checkpoint('settings_probe')).eventsApplied).toBe(10n);
    } finally {
      await db.destroy();
    }
  });

  it('keeps a live runner off a projection while it is being rebuilt, then carries on', async () => {
    const { engine: rebuilder } = newEngine();
    const { engine: live } = newEngine();
    await appendSampleEvents(store, { count: 600, streams: 6 });
    await interruptedRebuild(rebuilder, 'held', 100, 200n);
    live.start();
    await appendSampleEvents(store, { count: 10, streams: 1, tenants: 1, prefix: 'late' });
    // The live runner must leave the half-built projection alone.
    expect(await live.catchUp('stream_catalogue')).toBe(0);
    expect((await live.checkpoint('stream_catalogue')).eventsApplied).toBe(200n);
    await rebuilder.rebuild('stream_catalogue', { rebuildId: 'held', batchSize: 100 });
    await waitFor(async () => (await eventsApplied()) === 610n || undefined);
    expect(await inconsistentCatalogueRows(database.db)).toBe(0);
  });
});

describe('a runner of types the log rarely holds', () => {
  let database: TestDatabase;
  let store: PostgresEventStore;
  const rare = defineProjection({
    name: 'rare_things',
    eventTypes: ['TransferShipped'],
    tables: [],
    async apply() {
      throw new Error('there is no TransferShipped in this log');
    },
  });
  const reactor: Reactor = {
    name: 'rare-reactor',
    eventTypes: ['TransferShipped'],
    async react() {
      throw new Error('there is no TransferShipped in this log');
    },
  };

  beforeEach(async () => {
    database = await createTestDatabase({ poolSize: 12 });
    store = new PostgresEventStore(database.pool, registry, { pollIntervalMs: 20 });
  });
  afterEach(async () => {
    await store.close();
    await database.drop();
  });

  it('moves its checkpoint past the events of other types, so a restart and the lag check do not read them again', async () => {
    await appendSampleEvents(store, { count: 1200, streams: 4 });
    const engine = new ProjectionEngine({ db: database.db, store, projections: [rare], retryMs: 20 });
    const reactors = new ReactorRunner({ db: database.db, store, reactors: [reactor], retryMs: 20 });
    const head = async () => (await store.headPosition())!;
    /** Both checkpoints at `target`: the projection's and the reactor's. */
    const bothAt = async (target: Position) => {
      for (const checkpoint of [
        async () => (await engine.checkpoint(rare.name)).position,
        () => reactors.checkpoint(reactor.name),
      ]) {
        await waitFor(async () => {
          const at = await checkpoint();
          return (at && comparePositions(at, target) === 0) || undefined;
        });
      }
    };
    try {
      engine.start();
      reactors.start();
      await bothAt(await head());
      // Another thousand of other types, in one commit: both move again, to the new head, having applied nothing.
      await appendSampleEvents(store, {
        count: 1000,
        streams: 1,
        tenants: 1,
        perAppend: 1000,
        prefix: 'more',
      });
      await bothAt(await head());
      const [status] = await engine.status();
      expect(status).toMatchObject({ name: rare.name, lag: 0n, eventsApplied: 0n });
    } finally {
      await engine.stop();
      await reactors.stop();
    }
  });
});

describe('live hub across processes', () => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await createTestDatabase({ migrate: false });
  });
  afterEach(async () => {
    await database.drop();
  });

  it('delivers a change once to listeners in this process and once to another process, long id lists included', async () => {
    const here = new LiveHub(database.pool);
    const there = new LiveHub(database.pool);
    await here.listen();
    await there.listen();
    const local: LiveChange[] = [];
    const remote: LiveChange[] = [];
    here.subscribe((c) => local.push(c));
    there.subscribe((c) => remote.push(c));
    const ids = Array.from({ length: 2000 }, (_, i) => `order-${i}`);
    here.publish([
      { tenantId: 't1', view: 'orders', ids },
      { tenantId: 't2', view: 'stock', ids: ['a'] },
    ]);
    await waitFor(() => remote.flatMap((c) => c.ids).length === 2001 || undefined);
    expect(local).toEqual([
      { tenantId: 't1', view: 'orders', ids },
      { tenantId: 't2', view: 'stock', ids: ['a'] },
    ]);
    expect(remote.filter((c) => c.tenantId === 't1').flatMap((c) => c.ids)).toEqual(ids);
    expect(remote.filter((c) => c.tenantId === 't2')).toEqual([
      { tenantId: 't2', view: 'stock', ids: ['a'] },
    ]);
    // The echo of its own notices never reaches the publisher twice.
    there.publish([{ tenantId: 't3', view: 'stock', ids: ['b'] }]);
    await waitFor(() => local.some((c) => c.tenantId === 't3') || undefined);
    expect(remote.filter((c) => c.tenantId === 't3')).toHaveLength(1);
    expect(local.filter((c) => c.tenantId === 't1').flatMap((c) => c.ids)).toHaveLength(2000);
    await here.close();
    await there.close();
  });
});
