import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { buildApp } from '@api/app';
import { OrderListQuery } from '@api/contracts/orders';
import { createTenantWithOwner, ensurePackages } from '@commands/accounts/seed';
import { handleOrderCommand } from '@commands/orders/order';
import { eventSchemas } from '@domain/events';
import { TAB_STATUSES } from '@domain/orders/board';
import { type OrderEvent, orderStreamId } from '@domain/orders/order';
import { createDb, createPool, type Database, warmPool } from '@infra/db';
import { PostgresEventStore } from '@infra/eventstore/postgres';
import { EventSchemaRegistry } from '@infra/eventstore/registry';
import { createMailer } from '@infra/mail';
import { ORDER_COUNTS_VIEW, ordersProjection } from '@projections/orders';
import { listOrders } from '@projections/orders.queries';
import { ProjectionEngine } from '@projections/runtime/engine';
import { LiveHub } from '@projections/runtime/live-hub';
import { Client, Connection } from '@temporalio/client';
import { type Kysely, sql } from 'kysely';
import WebSocket from 'ws';
import { timed } from './load';
import type { ToBench } from './projector-process';

/**
 * The order board's two budgets:
 *
 * - orderListP95Ms: the order list over 1,000,000 orders of one account (seeded straight into the read model with
 *   generate_series: 5 stores, the statuses of a working shop), pages of 100 of one tab and one store, newest paid
 *   first, at offsets from the first page to 5,000 rows in, through `listOrders` (what GET /api/orders runs);
 * - scanToBoardP99Ms: orders scanned at 200 a second for 10 seconds (after 2 seconds of warm-up at the same rate)
 *   through the order command handler, each timed until another websocket client of GET /api/live receives the
 *   `orderCounts` change naming it: event store → order board projection (live, in a background process of its own
 *   as `npm start` runs it) → live hub (NOTIFY) → websocket. It starts with a CHECKPOINT, so that it does not also
 *   measure the flush of the section before.
 */

export const ORDER_LIST_TENANT = 'bench-order-board';
const ORDERS = 1_000_000;
const STORES = 5;
const PAGE = 100;
const LIST_TABS = ['new', 'unscan', 'scan', 'rts', 'shipped'] as const;

async function tenant(db: Kysely<Database>, id: string): Promise<void> {
  await ensurePackages(db);
  await db
    .insertInto('tenants')
    .values({ id, name: id, country: 'MY', package_id: 'growth', status: 'active' })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

export interface OrderListSeed {
  orders: number;
  seconds: number;
  plan: string;
}

/** A million orders of one account, written straight into the board's tables, and the counts behind its tabs. */
export async function seedOrderList(db: Kysely<Database>): Promise<OrderListSeed> {
  const { seconds } = await timed(async () => {
    await tenant(db, ORDER_LIST_TENANT);
    // n % 100 picks the status (10% new, 10% unscan, 5% scanned, 5% processed, 40% shipped, 20% delivered, 5%
    // cancelled, 3% unpaid, 1% returned, 1% refunded); n / 100 the store; paid over the last year, minute by minute.
    await sql`
      INSERT INTO orders (tenant_id, id, order_number, store_id, platform, status, marketplace_status, payment_method,
        cod, currency, total_amount, ordered_at, paid_at, tracking_number, shipping_provider, buyer_username,
        buyer_name, warehouse_id, batch_id, item_count, line_count, item_not_found, out_of_stock, pre_order, printed,
        preview, stock_stage, split_from, scanned_at, scanned_by, shipped_at, cancelled_at, cancel_reason,
        imported_at, updated_at, state)
      SELECT ${ORDER_LIST_TENANT}, md5(n::text)::uuid::text, 'BO' || lpad(n::text, 9, '0'),
        'bench-store-' || ((n / 100) % ${STORES} + 1), CASE WHEN (n / 100) % ${STORES} = 4 THEN 'lazada' ELSE 'shopee' END,
        s.status, 'ready_to_ship', 'Online banking', n % 7 = 0, 'MYR', (5 + (n % 50000) / 100.0)::numeric(14, 2),
        now() - (n % 525600) * interval '1 minute' - interval '5 minutes',
        CASE WHEN s.status = 'unpaid' THEN NULL ELSE now() - (n % 525600) * interval '1 minute' END,
        CASE WHEN s.status IN ('new', 'unpaid', 'cancelled') THEN NULL ELSE 'MY' || lpad(n::text, 10, '0') END,
        'J&T Express', 'buyer' || (n % 9973), 'Buyer ' || (n % 9973), 'bench-warehouse', NULL, 1 + n % 3, 1 + n % 2,
        n % 97 = 0, n % 89 = 0, n % 101 = 0, '{}', false, 'reserved', NULL, NULL, NULL, NULL, NULL, NULL, now(), now(),
        '{}'::jsonb
      FROM generate_series(1, ${ORDERS}) AS n
      CROSS JOIN LATERAL (SELECT CASE
        WHEN n % 100 < 10 THEN 'new' WHEN n % 100 < 20 THEN 'unscan' WHEN n % 100 < 25 THEN 'scanned'
        WHEN n % 100 < 30 THEN 'processed' WHEN n % 100 < 70 THEN 'shipped' WHEN n % 100 < 90 THEN 'delivered'
        WHEN n % 100 < 95 THEN 'cancelled' WHEN n % 100 < 98 THEN 'unpaid' WHEN n % 100 = 98 THEN 'returned'
        ELSE 'refunded' END AS status) s`.execute(db);
    await sql`
      INSERT INTO order_counts (tenant_id, store_id, status, platform, orders)
      SELECT tenant_id, store_id, status, min(platform), count(*) FROM orders
      WHERE tenant_id = ${ORDER_LIST_TENANT} GROUP BY tenant_id, store_id, status`.execute(db);
    for (const table of ['orders', 'order_counts'])
      await sql`VACUUM (ANALYZE) ${sql.table(table)}`.execute(db);
  });
  const query = OrderListQuery.parse({ tab: 'new', store_id: 'bench-store-1', endRow: String(PAGE) });
  const explained = await sql<{ 'QUERY PLAN': string }>`
    EXPLAIN SELECT id FROM orders o WHERE o.tenant_id = ${ORDER_LIST_TENANT} AND o.status = 'new'
      AND o.store_id = ${query.store_id} ORDER BY o.paid_at DESC NULLS LAST, o.id LIMIT ${PAGE}`.execute(db);
  return {
    orders: ORDERS,
    seconds,
    plan: explained.rows
      .map((row) => row['QUERY PLAN'].trim())
      .filter((line) => /Scan|Limit|Sort/.test(line))
      .map((line) => line.replace(/\s+\(cost=.*$/, ''))
      .join('; '),
  };
}

export interface Latencies {
  count: number;
  medianMs: number;
  p95Ms: number;
  p99Ms: number;
  maxMs: number;
}

function latencies(times: number[]): Latencies {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
  return { count: sorted.length, medianMs: at(0.5), p95Ms: at(0.95), p99Ms: at(0.99), maxMs: sorted.at(-1)! };
}

/** Times `queries` pages of one tab of one store (newest paid first), from a fixed pseudo-random sequence. */
export async function measureOrderList(db: Kysely<Database>, queries: number): Promise<Latencies> {
  let state = 0x0bd3_5eed;
  const random = () => {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    return state / 2 ** 32;
  };
  const offsets = [0, 0, 0, 100, 200, 500, 1000, 2500, 5000];
  const ask = async () => {
    const tab = LIST_TABS[Math.floor(random() * LIST_TABS.length)]!;
    const store = `bench-store-${1 + Math.floor(random() * STORES)}`;
    const startRow = offsets[Math.floor(random() * offsets.length)]!;
    const query = OrderListQuery.parse({
      tab,
      store_id: store,
      startRow: String(startRow),
      endRow: String(startRow + PAGE),
    });
    const started = performance.now();
    const page = await listOrders(db, ORDER_LIST_TENANT, query);
    const ms = performance.now() - started;
    const paid = page.rows.map((row) => (row.paid_at ? Date.parse(row.paid_at) : 0));
    const wrong =
      page.rows.length !== PAGE ||
      page.lastRow < startRow + PAGE ||
      page.rows.some((row) => row.store_id !== store || !TAB_STATUSES[tab].includes(row.status)) ||
      paid.some((value, i) => i > 0 && value > paid[i - 1]!);
    if (wrong) throw new Error(`order list page ${tab}/${store} at ${startRow} came back wrong`);
    return ms;
  };
  for (let i = 0; i < 10; i++) await ask();
  const times: number[] = [];
  for (let i = 0; i < queries; i++) times.push(await ask());
  return latencies(times);
}

// ---- scan → board ----

const SCAN_TENANT = 'bench-scan-board';
/** The scan rate; the architecture's command → websocket budget is at 500 commands/s. */
const SCANS_PER_SEC = 200;
const SCAN_SECONDS = 10;
/**
 * Scans at the same rate just before the measured ones, not counted: the first second of a burst on a server that
 * was idle pays for opening the pools' connections (a backend forked and a SCRAM exchange each, in both processes)
 * and for the first compilation of the path, 150-250 ms at p99 where the seconds after it stay under 60 ms. The
 * budget is for a server at work; what a burst after a quiet spell costs is kept down by the pools holding their
 * connections (createPool), not measured here.
 */
const WARM_SECONDS = 2;
const CLIENT = { clientId: 'kedai-bench', clientSecret: 'bench-secret' };

export interface ScanToBoard extends Latencies {
  scansPerSec: number;
  seedSeconds: number;
  /** The scan command alone (load, decide, append). */
  command: Latencies;
  /** CPU time of the background process (the projector), which the caller's CPU split counts as the bench's. */
  projectorCpuSeconds: number;
  /**
   * Where the rest of the way goes, p99 of each leg: the command's end → its event handed to the projection (the
   * wake-up, the round in progress, the read), the projection's batch (its transaction), the batch's end → the
   * websocket message in the client (the hub, the live channel, the socket).
   */
  legs: { toBatchP99Ms: number; batchP99Ms: number; toSocketP99Ms: number };
}

/** The legs of the way after the command, as the bench's log line shows them. */
export function formatLegs(legs: ScanToBoard['legs']): string {
  return (
    `p99 command → batch ${legs.toBatchP99Ms.toFixed(1)} ms, batch ${legs.batchP99Ms.toFixed(1)} ms, ` +
    `batch → socket ${legs.toSocketP99Ms.toFixed(1)} ms`
  );
}

/** Orders `count` of the scan tenant, imported, accepted and arranged (each one append of its three events). */
async function seedUnscanOrders(
  store: PostgresEventStore,
  tenantId: string,
  count: number,
): Promise<string[]> {
  const ids: string[] = [];
  const occurredAt = new Date().toISOString();
  const work = Array.from({ length: count }, (_, i) => i);
  const append = async (i: number) => {
    const orderId = randomUUID();
    const line = { lineId: 'l1', masterCodeId: 'bench-mc', combo: false, quantity: 1 };
    const events: OrderEvent[] = [
      {
        type: 'OrderImported',
        data: {
          orderId,
          storeId: `bench-store-${(i % STORES) + 1}`,
          platform: 'shopee',
          orderNumber: `SB${String(i).padStart(8, '0')}`,
          marketplaceStatus: 'ready_to_ship',
          status: 'unpaid',
          warehouseId: 'bench-warehouse',
          orderedAt: occurredAt,
          paidAt: occurredAt,
          marketplaceUpdatedAt: occurredAt,
          cod: false,
          paymentMethod: 'Online banking',
          currency: 'MYR',
          totalAmount: '10.00',
          preOrder: false,
          address: {
            name: 'Bench Buyer',
            phone: '+60123456789',
            fullAddress: '1 Jalan Bench',
            city: 'Kuala Lumpur',
            state: 'WP',
            postalCode: '50450',
            country: 'MY',
          },
          lines: [
            {
              lineId: 'l1',
              sku: 'SP-1',
              sellerSku: 'BENCH-1',
              name: 'Bench item',
              quantity: 1,
              unitPrice: '10.00',
              masterCodeId: 'bench-mc',
              combo: false,
            },
          ],
        },
      },
      {
        type: 'OrderAccepted',
        data: { stock: { warehouseId: 'bench-warehouse', from: 'none', lines: [line] } },
      },
      {
        type: 'OrderShipmentArranged',
        data: {
          trackingNumber: `MYB${String(i).padStart(9, '0')}`,
          shippingProvider: 'J&T',
          rearranged: false,
        },
      },
    ];
    await store.append(
      orderStreamId(tenantId, orderId),
      events.map((event) => ({ ...event, metadata: { tenantId, occurredAt } })),
      { expectedRevision: 'no_stream' },
    );
    ids.push(orderId);
  };
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < work.length) await append(work[next++]!);
    }),
  );
  return ids;
}

/**
 * The whole live path as `npm start` runs it, in two processes: this one is the API (the command handler, its
 * websocket, the live hub listening for other processes' changes); a forked one (projector-process.ts) is the
 * background process, with the order board projection following the log live and publishing its changes through
 * the hub's NOTIFY. A second client follows `orderCounts`; scans are issued on a fixed schedule (`rate` a second,
 * 200 by default), each timed from its command until that client hears of its order.
 */
export async function measureScanToBoard(
  url: string,
  attempt = 0,
  rate = SCANS_PER_SEC,
): Promise<ScanToBoard> {
  // A fresh account per attempt and rate: the orders of an earlier attempt are scanned already.
  const tenantId = `${SCAN_TENANT}-${rate}-${attempt}`;
  const pool = createPool(url, 24);
  const db = createDb(pool);
  const store = new PostgresEventStore(pool, new EventSchemaRegistry().registerAll(eventSchemas));
  const hub = new LiveHub(pool);
  // The API holds an engine it never starts (for the status of projections), as api/main.ts does.
  const engine = new ProjectionEngine({ db, store, projections: [ordersProjection], hub });
  const app = buildApp({
    logLevel: 'silent',
    version: 'bench',
    db,
    store,
    engine,
    temporal: {
      address: 'not-started',
      check: async () => {
        throw new Error('Temporal is not started in the bench');
      },
    },
    auth: { ...CLIENT, tokenTtlSeconds: 3600 },
    mailer: createMailer(db, { from: 'Kedai <bench@kedai.test>' }, { info() {}, error() {} }),
    hub,
    publicUrl: 'http://kedai.bench',
    workflows: {
      client: new Client({ connection: Connection.lazy({ address: '127.0.0.1:1' }) }),
      taskQueue: 'bench',
    },
  });
  const projector = await forkProjector(url);
  let socket: WebSocket | undefined;
  try {
    // Start from a settled server. The section before (the million-order seed, ~2 GB of WAL) leaves a checkpoint
    // running, and its final flush fell inside the 10 s window: every commit, scans included, then waited 100-400 ms
    // on a WAL fsync queued behind it. That measured the seed's I/O, not the scan's path; so finish that checkpoint
    // first, before this section's own seed (which then also takes the first-touch full-page writes, as a server
    // that has been running does). Durability is unchanged: each scan still commits and flushes as before.
    await sql`CHECKPOINT`.execute(db);
    // Both processes' pools open their connections at start, as openInfrastructure has them do.
    await warmPool(pool);
    await ensurePackages(db);
    const owner = { email: `bench-${randomUUID()}@kedai.test`, password: 'bench password 1' };
    await createTenantWithOwner(db, {
      tenantId,
      name: 'Bench scans',
      country: 'MY',
      packageId: 'growth',
      status: 'active',
      owner: { ...owner, firstName: 'Bench', lastName: 'Picker', phone: '+60123456789' },
    });
    const total = rate * SCAN_SECONDS;
    const warm = rate * WARM_SECONDS;
    const seeded = await timed(async () => {
      const ids = await seedUnscanOrders(store, tenantId, warm + total);
      await projector.ask('catch-up');
      return ids;
    });
    await hub.listen();
    await app.listen({ host: '127.0.0.1', port: 0 });
    const token = await signIn(app, owner.email, owner.password);
    const port = (app.server.address() as AddressInfo).port;
    await projector.ask('start');

    const issued = new Map<string, number>();
    const heard = new Map<string, number>();
    const commandEnded = new Map<string, number>();
    const times: number[] = [];
    let resolveAll: () => void = () => undefined;
    const allHeard = new Promise<void>((resolve) => {
      resolveAll = resolve;
    });
    socket = new WebSocket(`ws://127.0.0.1:${port}/api/live`, {
      headers: { authorization: `Bearer ${token}` },
    });
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString()) as { type: string; view?: string; ids?: string[] };
      if (message.type !== 'change' || message.view !== ORDER_COUNTS_VIEW) return;
      const now = performance.now();
      for (const id of message.ids ?? []) {
        const at = issued.get(id);
        if (at === undefined) continue;
        issued.delete(id);
        heard.set(id, now);
        times.push(now - at);
      }
      if (times.length === total) resolveAll();
    });
    await new Promise<void>((resolve, reject) => {
      socket!.once('open', () => resolve());
      socket!.once('error', reject);
    });
    await new Promise<void>((resolve) => {
      socket!.once('message', () => resolve());
      socket!.send(JSON.stringify({ type: 'subscribe', views: [ORDER_COUNTS_VIEW] }));
    });

    // One schedule: the warm-up's scans, then without a pause the measured ones.
    const scheduled = performance.now();
    let started = scheduled;
    const commands: Promise<unknown>[] = [];
    const commandTimes: number[] = [];
    for (let i = 0; i < warm + total; i++) {
      const due = scheduled + (i * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const orderId = seeded.value[i]!;
      const measured = i >= warm;
      const at = performance.now();
      if (i === warm) started = at;
      if (measured) issued.set(orderId, at);
      commands.push(
        handleOrderCommand(
          store,
          orderId,
          { type: 'ScanOrder' },
          {
            tenantId,
            commandId: `bench-scan:${orderId}`,
            occurredAt: new Date().toISOString(),
          },
        ).then(() => {
          if (!measured) return;
          const ended = performance.now();
          commandEnded.set(orderId, ended);
          commandTimes.push(ended - at);
        }),
      );
    }
    await Promise.all(commands);
    const scansPerSec = total / ((performance.now() - started) / 1000);
    await Promise.race([
      allHeard,
      new Promise((_, reject) =>
        setTimeout(
          () => reject(new Error(`only ${times.length} of ${total} scans reached the board`)),
          30_000,
        ),
      ),
    ]);
    // The projector's batch times are on the clock both processes share; this process's on its own origin.
    const origin = performance.timeOrigin;
    const stopped = await projector.ask('stop');
    const batched = new Map(
      stopped.batches.map(([stream, from, to]) => [stream, { from: from - origin, to: to - origin }]),
    );
    const legs = { toBatch: [] as number[], batch: [] as number[], toSocket: [] as number[] };
    for (const [orderId, ended] of commandEnded) {
      const batch = batched.get(orderStreamId(tenantId, orderId));
      const at = heard.get(orderId);
      if (!batch || at === undefined) continue;
      legs.toBatch.push(batch.from - ended);
      legs.batch.push(batch.to - batch.from);
      legs.toSocket.push(at - batch.to);
    }
    return {
      ...latencies(times),
      scansPerSec,
      seedSeconds: seeded.seconds,
      command: latencies(commandTimes),
      projectorCpuSeconds: stopped.cpuSeconds,
      legs: {
        toBatchP99Ms: latencies(legs.toBatch).p99Ms,
        batchP99Ms: latencies(legs.batch).p99Ms,
        toSocketP99Ms: latencies(legs.toSocket).p99Ms,
      },
    };
  } finally {
    socket?.terminate();
    projector.kill();
    await app.close();
    await hub.close();
    await store.close();
    await db.destroy();
  }
}

interface Projector {
  ask(kind: 'catch-up' | 'start'): Promise<ToBench>;
  ask(kind: 'stop'): Promise<Extract<ToBench, { kind: 'stopped' }>>;
  kill(): void;
}

/** Forks the bench's background process (projector-process.ts) on `url` and waits until it is ready. */
async function forkProjector(url: string): Promise<Projector> {
  const child = fork(fileURLToPath(new URL('./projector-process.ts', import.meta.url)), [], {
    execArgv: process.execArgv,
    env: { ...process.env, BENCH_PROJECTOR_URL: url },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = () =>
    new Promise<ToBench>((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`the bench projector exited (${code})`));
      child.once('exit', onExit);
      child.once('message', (message: ToBench) => {
        child.off('exit', onExit);
        if (message.kind === 'failed') reject(new Error(`the bench projector failed: ${message.error}`));
        else resolve(message);
      });
    });
  await next();
  return {
    ask: ((kind: 'catch-up' | 'start' | 'stop') => {
      const answer = next();
      child.send({ kind });
      return answer;
    }) as Projector['ask'],
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}

async function signIn(app: ReturnType<typeof buildApp>, username: string, password: string): Promise<string> {
  const response = await app.inject({
    method: 'POST',
    url: '/oauth/token',
    payload: {
      grant_type: 'password',
      client_id: CLIENT.clientId,
      client_secret: CLIENT.clientSecret,
      username,
      password,
    },
  });
  if (response.statusCode !== 200) throw new Error(`bench sign-in failed: ${response.body}`);
  return response.json<{ access_token: string }>().access_token;
}
