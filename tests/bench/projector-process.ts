import { performance } from 'node:perf_hooks';
import { eventSchemas } from '@domain/events';
import { createDb, createPool, warmPool } from '@infra/db';
import { PostgresEventStore } from '@infra/eventstore/postgres';
import { EventSchemaRegistry } from '@infra/eventstore/registry';
import { ORDERS_PROJECTION, ordersProjection } from '@projections/orders';
import { ProjectionEngine } from '@projections/runtime/engine';
import { LiveHub } from '@projections/runtime/live-hub';

/**
 * The bench's background process: the order board projection following the log live, its changes going out
 * through the live hub's NOTIFY, as `npm start`'s background process (workflows/worker-main.ts) runs it beside
 * the API. Forked by the scan → board measurement (orders.ts), which talks to it over IPC:
 *
 *   { kind: 'catch-up' } → { kind: 'caught-up' }   apply everything there is now
 *   { kind: 'start' }    → { kind: 'started' }     follow the log live
 *   { kind: 'stop' }     → { kind: 'stopped', batches, cpuSeconds }; the bench then ends this process
 *
 * `batches` is when each stream's last batch ran, in milliseconds on the clock both processes share
 * (performance.timeOrigin + performance.now()), kept here and sent once at the end so that timing it costs the
 * measured path nothing; `cpuSeconds` is this process's CPU time from its start, which the bench counts as its own.
 */

type FromBench = { kind: 'catch-up' } | { kind: 'start' } | { kind: 'stop' };
export type ToBench =
  | { kind: 'ready' }
  | { kind: 'caught-up' }
  | { kind: 'started' }
  | { kind: 'stopped'; batches: [stream: string, from: number, to: number][]; cpuSeconds: number }
  | { kind: 'failed'; error: string };

const url = process.env.BENCH_PROJECTOR_URL;
if (!url || !process.send)
  throw new Error('projector-process.ts is forked by the bench with BENCH_PROJECTOR_URL');
const send = (message: ToBench) => process.send!(message);

const pool = createPool(url, 10);
const db = createDb(pool);
const store = new PostgresEventStore(pool, new EventSchemaRegistry().registerAll(eventSchemas));
const hub = new LiveHub(pool);
const engine = new ProjectionEngine({ db, store, projections: [ordersProjection], hub, retryMs: 50 });

const now = () => performance.timeOrigin + performance.now();
const batches = new Map<string, { from: number; to: number }>();
const applyBatch = engine.applyBatch.bind(engine);
engine.applyBatch = async (projection, from, events, opts) => {
  const started = now();
  const applied = await applyBatch(projection, from, events, opts);
  const ended = now();
  if (applied) for (const event of events) batches.set(event.stream, { from: started, to: ended });
  return applied;
};

process.on('message', (message: FromBench) => {
  const answer = async (): Promise<ToBench> => {
    switch (message.kind) {
      case 'catch-up':
        await warmPool(pool);
        await engine.catchUp(ORDERS_PROJECTION);
        batches.clear();
        return { kind: 'caught-up' };
      case 'start':
        engine.start();
        return { kind: 'started' };
      case 'stop': {
        await engine.stop();
        await hub.close();
        await store.close();
        await db.destroy();
        const usage = process.cpuUsage();
        return {
          kind: 'stopped',
          batches: [...batches].map(([stream, b]) => [stream, b.from, b.to]),
          cpuSeconds: (usage.user + usage.system) / 1e6,
        };
      }
    }
  };
  answer().then(
    (reply) => send(reply),
    (error: unknown) => send({ kind: 'failed', error: String(error instanceof Error ? error.stack : error) }),
  );
});
send({ kind: 'ready' });
