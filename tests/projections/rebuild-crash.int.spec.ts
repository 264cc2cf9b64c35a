import { eventSchemas } from '@domain/events';
import { PostgresEventStore } from '@infra/eventstore/postgres';
import { EventSchemaRegistry } from '@infra/eventstore/registry';
import { projections } from '@projections/index';
import { ProjectionEngine } from '@projections/runtime/engine';
import { type Child, spawnTsx } from '@tests/support/child';
import { createTestDatabase, type TestDatabase } from '@tests/support/db';
import { appendSampleEvents } from '@tests/support/events';
import { dumpStreamCatalogue, inconsistentCatalogueRows } from '@tests/support/projections';
import { waitFor } from '@tests/support/wait';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const TOTAL = 20_000;

describe('npm run projections -- rebuild, killed half-way', () => {
  let database: TestDatabase;
  let store: PostgresEventStore;
  let engine: ProjectionEngine;
  const children: Child[] = [];
  const rebuild = (...args: string[]) => {
    const child = spawnTsx(
      'projections/runtime/cli.ts',
      ['rebuild', 'stream_catalogue', '--batch-size', '250', ...args],
      {
        DATABASE_URL: database.url,
      },
    );
    children.push(child);
    return child;
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    store = new PostgresEventStore(database.pool, new EventSchemaRegistry().registerAll(eventSchemas));
    engine = new ProjectionEngine({ db: database.db, store, projections });
    await appendSampleEvents(store, { count: TOTAL, streams: 120, tenants: 4, perAppend: 50 });
  });
  afterAll(async () => {
    for (const child of children) child.kill();
    await Promise.all(children.map((c) => c.exited));
    await store.close();
    await database.drop();
  });

  it('resumes after SIGKILL and ends with the read model of a clean rebuild', async () => {
    const first = rebuild();
    await waitFor(
      async () => (await engine.checkpoint('stream_catalogue')).eventsApplied >= 2000n || undefined,
      {
        timeoutMs: 60_000,
        what: 'the first rebuild to apply some batches',
      },
    );
    // Freeze the rebuild inside its next batch, so the kill lands in the middle of a transaction.
    const lock = await database.pool.connect();
    await lock.query('BEGIN');
    await lock.query('LOCK TABLE stream_catalogue IN ACCESS EXCLUSIVE MODE');
    const frozen = await engine.checkpoint('stream_catalogue');
    expect(frozen.status).toBe('rebuilding');
    expect(frozen.eventsApplied).toBeLessThan(BigInt(TOTAL));
    await waitFor(async () => {
      const waiting = await database.pool.query(
        "SELECT 1 FROM pg_locks WHERE relation = 'stream_catalogue'::regclass AND NOT granted",
      );
      return (waiting.rowCount ?? 0) > 0 || undefined;
    });
    first.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');
    await lock.query('ROLLBACK');
    lock.release();

    const afterKill = await engine.checkpoint('stream_catalogue');
    expect(afterKill.eventsApplied).toBe(frozen.eventsApplied);

    const second = rebuild();
    expect(await second.exited).toBe(0);
    expect(second.output()).toContain(`Resuming the rebuild of stream_catalogue (${frozen.rebuildId})`);
    expect(second.output()).toContain(`Rebuilt stream_catalogue: ${TOTAL} events applied.`);

    const resumed = await engine.checkpoint('stream_catalogue');
    expect(resumed).toMatchObject({ status: 'live', rebuildId: null, eventsApplied: BigInt(TOTAL) });
    expect(await inconsistentCatalogueRows(database.db)).toBe(0);
    const afterResume = await dumpStreamCatalogue(database.db);

    await engine.rebuild('stream_catalogue', { rebuildId: 'clean' });
    expect(afterResume).toEqual(await dumpStreamCatalogue(database.db));
    expect(afterResume).toHaveLength(120);
  });

  it('starts over with --restart', async () => {
    const child = rebuild('--restart');
    expect(await child.exited).toBe(0);
    expect(child.output()).toContain('Rebuilding stream_catalogue.');
    expect((await engine.checkpoint('stream_catalogue')).eventsApplied).toBe(BigInt(TOTAL));
  });

  it("lists each projection's status, position, events applied and lag", async () => {
    const child = spawnTsx('projections/runtime/cli.ts', ['list'], { DATABASE_URL: database.url });
    children.push(child);
    expect(await child.exited).toBe(0);
    const { position } = await engine.checkpoint('stream_catalogue');
    const lines = child.output().trim().split('\n');
    expect(lines).toHaveLength(projections.length);
    expect(lines).toContain(
      `stream_catalogue\tlive\tat ${position!.commit}/${position!.prepare}\tapplied ${TOTAL}\tlag 0`,
    );
  });

  it('names the known projections when asked for an unknown one', async () => {
    const child = spawnTsx('projections/runtime/cli.ts', ['rebuild', 'nope'], { DATABASE_URL: database.url });
    children.push(child);
    expect(await child.exited).toBe(1);
    const known = projections.map((projection) => projection.name).join(', ');
    expect(child.output().trim()).toBe(`There is no projection named "nope"; known: ${known}.`);
  });
});
