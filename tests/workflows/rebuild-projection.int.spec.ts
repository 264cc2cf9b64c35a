import { randomBytes } from 'node:crypto';
import { eventSchemas } from '@domain/events';
import { PostgresEventStore } from '@infra/eventstore/postgres';
import { EventSchemaRegistry } from '@infra/eventstore/registry';
import { projections } from '@projections/index';
import { ProjectionEngine } from '@projections/runtime/engine';
import { type Child, startWorkerChild } from '@tests/support/child';
import { createTestDatabase, type TestDatabase } from '@tests/support/db';
import { appendSampleEvents } from '@tests/support/events';
import { dumpStreamCatalogue, inconsistentCatalogueRows } from '@tests/support/projections';
import { startTestTemporal, type TestTemporal } from '@tests/support/temporal';
import { waitFor } from '@tests/support/wait';
import { projectionRebuildWorkflowId, startProjectionRebuild } from '@workflows/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const TOTAL = 20_000;
const STREAMS = 60;

describe('projection rebuild as a Temporal workflow', () => {
  let temporal: TestTemporal;
  let database: TestDatabase;
  let store: PostgresEventStore;
  let engine: ProjectionEngine;
  const taskQueue = `rebuild-test-${randomBytes(4).toString('hex')}`;
  const children: Child[] = [];

  /** A worker process on the test database and dev server; resolves once it polls the task queue. */
  const startWorker = () =>
    startWorkerChild(
      {
        DATABASE_URL: database.url,
        EVENTSTORE_URL: '',
        TEMPORAL_ADDRESS: temporal.address,
        TEMPORAL_NAMESPACE: temporal.namespace,
        TEMPORAL_TASK_QUEUE: taskQueue,
      },
      children,
    );

  beforeAll(async () => {
    // The dev server starts while the events are written.
    const starting = startTestTemporal();
    database = await createTestDatabase({ poolSize: 20 });
    store = new PostgresEventStore(database.pool, new EventSchemaRegistry().registerAll(eventSchemas));
    engine = new ProjectionEngine({ db: database.db, store, projections });
    await appendSampleEvents(store, { count: TOTAL, streams: STREAMS, tenants: 4, perAppend: 100 });
    temporal = await starting;
  });

  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await Promise.all(children.map((c) => c.exited));
    await temporal?.stop();
    await store?.close();
    await database?.drop();
  });

  it('survives a killed worker: the next attempt resumes from the checkpoint and applies nothing twice', async () => {
    const first = await startWorker();
    const handle = await startProjectionRebuild(temporal.env.client, taskQueue, 'stream_catalogue', {
      batchSize: 200,
      heartbeatTimeoutMs: 3_000,
    });
    expect(handle.workflowId).toBe(projectionRebuildWorkflowId('stream_catalogue'));

    await waitFor(
      async () => {
        const state = await engine.checkpoint('stream_catalogue');
        return (state.status === 'rebuilding' && state.eventsApplied >= 2_000n) || undefined;
      },
      { timeoutMs: 60_000, what: 'the rebuild to apply some batches' },
    );
    // Freeze the rebuild inside its next batch, so the kill lands in the middle of a transaction.
    const lock = await database.pool.connect();
    try {
      await lock.query('BEGIN');
      await lock.query('LOCK TABLE stream_catalogue IN ACCESS EXCLUSIVE MODE');
      const frozen = await engine.checkpoint('stream_catalogue');
      expect(frozen.status).toBe('rebuilding');
      expect(frozen.rebuildId).toBe(handle.workflowId);
      expect(frozen.eventsApplied).toBeLessThan(BigInt(TOTAL));
      await waitFor(
        async () => {
          const waiting = await database.pool.query(
            "SELECT 1 FROM pg_locks WHERE relation = 'stream_catalogue'::regclass AND NOT granted",
          );
          return (waiting.rowCount ?? 0) > 0;
        },
        { what: 'the worker to block on the locked table' },
      );
      first.kill('SIGKILL');
      expect(await first.exited).toBe('SIGKILL');
    } finally {
      await lock.query('ROLLBACK');
      lock.release();
    }

    await startWorker();
    const result = await handle.result();
    expect(result.name).toBe('stream_catalogue');
    expect(result.attempt).toBeGreaterThanOrEqual(2);
    expect(result.resumedFrom).not.toBeNull();
    expect(result.eventsApplied).toBe(String(TOTAL));

    const done = await engine.checkpoint('stream_catalogue');
    expect(done).toMatchObject({ status: 'live', rebuildId: null, eventsApplied: BigInt(TOTAL) });
    expect(await inconsistentCatalogueRows(database.db)).toBe(0);
    const viaWorkflow = await dumpStreamCatalogue(database.db);
    expect(viaWorkflow).toHaveLength(STREAMS);

    await engine.rebuild('stream_catalogue', { rebuildId: 'clean' });
    expect(viaWorkflow).toEqual(await dumpStreamCatalogue(database.db));
  });

  it('makes one rebuild of a projection however many times it is started', async () => {
    // A queue no worker polls keeps the first execution running while the second start arrives.
    const idleQueue = `${taskQueue}-idle`;
    const first = await startProjectionRebuild(temporal.env.client, idleQueue, 'stream_catalogue');
    const second = await startProjectionRebuild(temporal.env.client, idleQueue, 'stream_catalogue');
    try {
      expect(second.workflowId).toBe(first.workflowId);
      expect(second.firstExecutionRunId).toBe(first.firstExecutionRunId);
      expect((await first.describe()).status.name).toBe('RUNNING');
    } finally {
      await first.terminate('test over');
    }
  });
});
