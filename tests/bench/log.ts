import type { Database } from '@infra/db';
import type { Position } from '@infra/eventstore/port';
import type { PostgresEventStore } from '@infra/eventstore/postgres';
import { defineProjection } from '@projections/runtime/projection';
import { type Kysely, sql } from 'kysely';
import {
  BENCH_EVENT_TYPE,
  BENCH_TENANT,
  type BenchStockAdjusted,
  benchData,
  benchMetadata,
} from './fixtures';
import { timed } from './load';
import { log } from './report';

/** Fills the log up to `target` events with big appends (1,000 events per call, one new stream each). */
export async function seedLog(
  store: PostgresEventStore,
  db: Kysely<Database>,
  target: number,
  opts: { batch?: number; concurrency?: number } = {},
): Promise<{ seeded: number; seconds: number }> {
  const batch = opts.batch ?? 1000;
  const existing = await countEvents(db);
  const calls = Math.max(0, Math.ceil((target - existing) / batch));
  let next = 0;
  const { seconds } = await timed(() =>
    Promise.all(
      Array.from({ length: opts.concurrency ?? 4 }, async (_, w) => {
        for (let call = next++; call < calls; call = next++) {
          const events = Array.from({ length: batch }, (_, i) => ({
            type: BENCH_EVENT_TYPE,
            data: benchData(w, call * batch + i),
            metadata: benchMetadata(w),
          }));
          await store.append(`benchSeed-${BENCH_TENANT}.s${call}`, events, { expectedRevision: 'no_stream' });
        }
      }),
    ),
  );
  return { seeded: calls * batch, seconds };
}

export async function countEvents(db: Kysely<Database>): Promise<number> {
  const row = await sql<{ n: string }>`SELECT count(*) AS n FROM es_events`.execute(db);
  return Number(row.rows[0]!.n);
}

/** Reads the whole log from the start with readAll, page after page, as a subscriber catching up does. */
export async function readWholeLog(store: PostgresEventStore, pageSize: number): Promise<number> {
  let after: Position | undefined;
  let read = 0;
  for (;;) {
    const page = await store.readAll({ after, limit: pageSize });
    if (page.length === 0) return read;
    read += page.length;
    after = page.at(-1)!.position;
  }
}

/** The rebuild's read model: one row per event, written with one unnest INSERT per batch. */
export const BENCH_ROWS_TABLE = 'bench_event_rows';

export async function createBenchRowsTable(db: Kysely<Database>): Promise<void> {
  await sql`
    CREATE TABLE bench_event_rows (
      global_position bigint PRIMARY KEY,
      tenant_id text NOT NULL,
      stream_id text NOT NULL,
      revision bigint NOT NULL,
      sku text NOT NULL,
      warehouse_id text NOT NULL,
      delta integer NOT NULL,
      occurred_at timestamptz NOT NULL
    )`.execute(db);
}

export const benchRowsProjection = defineProjection({
  name: 'bench_event_rows',
  eventTypes: [BENCH_EVENT_TYPE],
  tables: [BENCH_ROWS_TABLE],
  async apply(trx, events) {
    const n = events.length;
    const positions = new Array<string>(n);
    const tenants = new Array<string>(n);
    const streams = new Array<string>(n);
    const revisions = new Array<string>(n);
    const skus = new Array<string>(n);
    const warehouses = new Array<string>(n);
    const deltas = new Array<number>(n);
    const occurred = new Array<string>(n);
    events.forEach((event, i) => {
      const data = event.data as BenchStockAdjusted;
      positions[i] = String(event.position.prepare);
      tenants[i] = event.metadata.tenantId;
      streams[i] = event.stream;
      revisions[i] = String(event.revision);
      skus[i] = data.sku;
      warehouses[i] = data.warehouseId;
      deltas[i] = data.delta;
      occurred[i] = event.metadata.occurredAt;
    });
    await sql`
      INSERT INTO bench_event_rows
        (global_position, tenant_id, stream_id, revision, sku, warehouse_id, delta, occurred_at)
      SELECT * FROM unnest(${positions}::bigint[], ${tenants}::text[], ${streams}::text[], ${revisions}::bigint[],
        ${skus}::text[], ${warehouses}::text[], ${deltas}::int[], ${occurred}::timestamptz[])`.execute(trx);
    return [];
  },
});

export async function countBenchRows(db: Kysely<Database>): Promise<number> {
  const row = await sql<{ n: string }>`SELECT count(*) AS n FROM bench_event_rows`.execute(db);
  return Number(row.rows[0]!.n);
}

export function logProgress(what: string, done: number, seconds: number): void {
  log(`${what}: ${done.toLocaleString('en-US')} in ${seconds.toFixed(2)} s`);
}
