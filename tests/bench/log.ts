import type { Database } from '@infra/db';
import type { Position } from '@infra/eventstore/port';
import { type PostgresEventStore, readAllQuery } from '@infra/eventstore/postgres';
import { defineProjection } from '@projections/runtime/projection';
import { type Kysely, sql } from 'kysely';
import type pg from 'pg';
import type { CpuSampler, CpuSplit } from './cpu';
import { formatShares } from './cpu';
import {
  BENCH_EVENT_TYPE,
  BENCH_TENANT,
  type BenchStockAdjusted,
  benchData,
  benchMetadata,
} from './fixtures';
import { leastDisturbed, median, type Timed, timed } from './load';
import { log, perSec } from './report';

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

/**
 * The same pages with plain pg: readAll's statement, rows as pg gives them (objects, jsonb parsed by pg's default
 * parser), none of the store's own work. What a catch-up read is measured against.
 */
export async function readWholeLogRaw(pool: pg.Pool, pageSize: number): Promise<number> {
  let after: Position | undefined;
  let read = 0;
  for (;;) {
    const query = readAllQuery({ after, limit: pageSize });
    const page = await pool.query<{ transaction_id: string; global_position: string }>({
      ...query,
      name: `raw_${query.name}`,
    });
    if (page.rows.length === 0) return read;
    read += page.rows.length;
    const last = page.rows.at(-1)!;
    after = { commit: BigInt(last.transaction_id), prepare: BigInt(last.global_position) };
  }
}

export type CatchUpRead = Timed & { cpu: CpuSplit };

/**
 * `passes` reads of the whole log by the store (as a catch-up reads it) and as many with plain pg, in pairs whose
 * order alternates so that neither always reads a warmer cache; `ratio` is the median of the pairs' ratios.
 */
export async function measureCatchUpReads(
  store: PostgresEventStore,
  pool: pg.Pool,
  opts: { logSize: number; pageSize: number; passes: number; cpu: CpuSampler },
): Promise<{ ours: CatchUpRead[]; raw: CatchUpRead[]; ratio: number }> {
  const readers = {
    ours: () => readWholeLog(store, opts.pageSize),
    raw: () => readWholeLogRaw(pool, opts.pageSize),
  };
  const measured = { ours: [] as CatchUpRead[], raw: [] as CatchUpRead[] };
  for (let pass = 0; pass < opts.passes; pass++) {
    const order = pass % 2 === 0 ? (['raw', 'ours'] as const) : (['ours', 'raw'] as const);
    for (const key of order) {
      const what = `catch-up read ${pass + 1} (${key === 'ours' ? 'event store' : 'plain pg'})`;
      const read = await leastDisturbed(what, async () => {
        const before = opts.cpu.sample();
        const { value, seconds } = await timed(readers[key]);
        return { operations: value, seconds, perSec: value / seconds, cpu: opts.cpu.split(before) };
      });
      if (read.operations !== opts.logSize) {
        throw new Error(`${what} read ${read.operations} events; the log holds ${opts.logSize}`);
      }
      measured[key].push(read);
      log(
        `${what}: ${opts.logSize} events in ${read.seconds.toFixed(2)} s (${perSec(read.perSec)}; ${formatShares(read.cpu)})`,
      );
    }
  }
  const ratio = median(measured.ours.map((ours, pass) => ours.perSec / measured.raw[pass]!.perSec));
  return { ...measured, ratio };
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
