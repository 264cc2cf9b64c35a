import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { handleStockCommand } from '@commands/inventory/stock';
import {
  decide,
  evolve,
  initialState,
  type StockCommand,
  type StockEvent,
  type StockState,
  stockEvents,
  stockStreamId,
} from '@domain/inventory/stock';
import type { Database } from '@infra/db';
import { PostgresEventStore } from '@infra/eventstore/postgres';
import { EventSchemaRegistry } from '@infra/eventstore/registry';
import { ProjectionEngine } from '@projections/runtime/engine';
import { STOCK_PROJECTION, stockAt, stockProjection } from '@projections/stock';
import { type Kysely, sql } from 'kysely';
import type pg from 'pg';
import { BENCH_TENANT } from './fixtures';
import { timed } from './load';

/**
 * The point-in-time budget: one master code in one warehouse with `movements` movements (one a second, made by
 * the real decider so each carries the figures after it), projected by the stock projection, then asked for its
 * stock at random past instants through `stockAt`, the query the API runs.
 */
const MASTER_CODE = 'MC-BENCH';
const WAREHOUSE = 'wh-bench';
const START = Date.UTC(2026, 0, 1);
const STEP_MS = 1000;
const APPEND_BATCH = 1000;

export interface StockHistory {
  movements: number;
  seedSeconds: number;
  projectSeconds: number;
  /** The query plan of a point-in-time lookup. */
  plan: string;
  /** The figures after movement i. */
  onHand: Int32Array;
  reserved: Int32Array;
}

const commandFor = (i: number, state: StockState): StockCommand => {
  const at = { masterCodeId: MASTER_CODE, warehouseId: WAREHOUSE };
  switch (i % 5) {
    case 0:
      return { type: 'ReceiveStock', ...at, quantity: 7 };
    case 1:
      return { type: 'AdjustStock', ...at, mode: 'deduct', quantity: 3, refuseNegative: false };
    case 2:
      return { type: 'ReserveStock', ...at, quantity: 2 };
    case 3:
      return state.reserved > 0
        ? { type: 'ReleaseStock', ...at, quantity: 1 }
        : { type: 'ReturnStock', ...at, quantity: 1 };
    default:
      return { type: 'ShipStock', ...at, quantity: 2, from: 'reserved' };
  }
};

/** Appends `movements` stock events to one stream, APPEND_BATCH per call, and projects them. */
export async function seedStockHistory(
  pool: pg.Pool,
  db: Kysely<Database>,
  movements: number,
): Promise<StockHistory> {
  const store = new PostgresEventStore(pool, new EventSchemaRegistry().registerAll(stockEvents));
  const onHand = new Int32Array(movements);
  const reserved = new Int32Array(movements);
  try {
    const stream = stockStreamId(BENCH_TENANT, MASTER_CODE, WAREHOUSE);
    const seed = await timed(async () => {
      let state = initialState;
      let revision: bigint | 'no_stream' = 'no_stream';
      for (let from = 0; from < movements; from += APPEND_BATCH) {
        const events = [];
        for (let i = from; i < Math.min(from + APPEND_BATCH, movements); i++) {
          const [event] = decide(commandFor(i, state), state) as [StockEvent];
          state = evolve(state, event);
          onHand[i] = state.onHand;
          reserved[i] = state.reserved;
          events.push({
            type: event.type,
            data: event.data,
            metadata: {
              tenantId: BENCH_TENANT,
              userId: 'bench-user',
              occurredAt: new Date(START + i * STEP_MS).toISOString(),
            },
          });
        }
        revision = (await store.append(stream, events, { expectedRevision: revision })).nextRevision;
      }
    });
    const engine = new ProjectionEngine({ db, store, projections: [stockProjection] });
    const project = await timed(() => engine.catchUp(STOCK_PROJECTION, 5000));
    if (project.value !== movements) {
      throw new Error(`the stock projection applied ${project.value} events; ${movements} were appended`);
    }
    // What autovacuum does to a freshly written table before long.
    await sql`VACUUM (ANALYZE) stock_movements`.execute(db);
    const plan = await sql<{ 'QUERY PLAN': string }>`
      EXPLAIN SELECT * FROM stock_movements
      WHERE tenant_id = ${BENCH_TENANT} AND master_code_id = ${MASTER_CODE} AND warehouse_id = ${WAREHOUSE}
        AND occurred_at <= ${new Date(START + (movements / 2) * STEP_MS)}
      ORDER BY occurred_at DESC, revision DESC LIMIT 1`.execute(db);
    return {
      movements,
      seedSeconds: seed.seconds,
      projectSeconds: project.seconds,
      plan: plan.rows.map((row) => row['QUERY PLAN'].trim()).join('; '),
      onHand,
      reserved,
    };
  } finally {
    await store.close();
  }
}

export interface PointInTimeResult {
  queries: number;
  medianMs: number;
  p95Ms: number;
  maxMs: number;
}

/**
 * Times `queries` point-in-time queries at instants spread over the history (and a little before and after it),
 * from a fixed pseudo-random sequence, checking every answer against the figures the seeding computed.
 */
export async function measurePointInTime(
  db: Kysely<Database>,
  history: StockHistory,
  queries: number,
): Promise<PointInTimeResult> {
  let seed = 0x2f6b_1d3a;
  const random = () => {
    seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
    return seed / 2 ** 32;
  };
  const span = history.movements * STEP_MS;
  const ask = async () => {
    const instant = START - span * 0.02 + random() * span * 1.04;
    const started = performance.now();
    const answer = await stockAt(db, BENCH_TENANT, MASTER_CODE, WAREHOUSE, new Date(instant));
    const ms = performance.now() - started;
    const index = Math.min(Math.floor((instant - START) / STEP_MS), history.movements - 1);
    const expected = index < 0 ? [0, 0] : [history.onHand[index]!, history.reserved[index]!];
    if (answer.onHand !== expected[0] || answer.reserved !== expected[1]) {
      throw new Error(
        `stock at ${new Date(instant).toISOString()}: ${answer.onHand}/${answer.reserved}, expected ${expected.join('/')}`,
      );
    }
    return ms;
  };
  for (let i = 0; i < 20; i++) await ask();
  const times: number[] = [];
  for (let i = 0; i < queries; i++) times.push(await ask());
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.ceil(q * times.length) - 1)]!;
  return { queries, medianMs: at(0.5), p95Ms: at(0.95), maxMs: times.at(-1)! };
}

export interface HotStreamResult {
  commands: number;
  /** Events in the stream before the first timed command. */
  streamLength: number;
  medianMs: number;
  p95Ms: number;
  maxMs: number;
}

/**
 * Times `commands` stock adjustments, one after another, through `handleStockCommand` (what the API runs) on the
 * stream seeded by seedStockHistory: one master code in one warehouse with 100,000 movements and more. Adds and
 * deducts alternate; each answer is checked against the figures before it, so a handler that decided from the
 * wrong state would stop the bench.
 */
export async function measureHotStreamCommand(pool: pg.Pool, commands: number): Promise<HotStreamResult> {
  const store = new PostgresEventStore(pool, new EventSchemaRegistry().registerAll(stockEvents));
  const at = { masterCodeId: MASTER_CODE, warehouseId: WAREHOUSE };
  try {
    const last = await store.readLastEvent(stockStreamId(BENCH_TENANT, MASTER_CODE, WAREHOUSE));
    if (!last) throw new Error('the hot stream is empty: seed the stock history first');
    let onHand = (last.data as { onHand: number }).onHand;
    let n = 0;
    const adjust = async () => {
      const add = n++ % 2 === 0;
      const started = performance.now();
      const result = await handleStockCommand(
        store,
        { type: 'AdjustStock', ...at, mode: add ? 'add' : 'deduct', quantity: 1, refuseNegative: false },
        {
          tenantId: BENCH_TENANT,
          userId: 'bench-user',
          commandId: randomUUID(),
          occurredAt: new Date(START + (Number(last.revision) + 1 + n) * STEP_MS).toISOString(),
        },
      );
      const ms = performance.now() - started;
      onHand += add ? 1 : -1;
      if (result.event.data.onHand !== onHand || result.replayed) {
        throw new Error(
          `hot stream: the adjustment left ${result.event.data.onHand} on hand, expected ${onHand}`,
        );
      }
      return ms;
    };
    for (let i = 0; i < 5; i++) await adjust();
    const streamLength = Number(last.revision) + 1 + 5;
    const times: number[] = [];
    for (let i = 0; i < commands; i++) times.push(await adjust());
    times.sort((a, b) => a - b);
    const q = (p: number) => times[Math.min(times.length - 1, Math.ceil(p * times.length) - 1)]!;
    return { commands, streamLength, medianMs: q(0.5), p95Ms: q(0.95), maxMs: times.at(-1)! };
  } finally {
    await store.close();
  }
}
