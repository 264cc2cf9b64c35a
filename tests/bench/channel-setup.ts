import { fork } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { createTenantWithOwner, ensurePackages } from '@commands/accounts/seed';
import { eventSchemas } from '@domain/events';
import { createDb, createPool, type Database } from '@infra/db';
import { migrateToLatest } from '@infra/db/migrator';
import { PostgresEventStore } from '@infra/eventstore/postgres';
import { EventSchemaRegistry } from '@infra/eventstore/registry';
import { createMailer } from '@infra/mail';
import { createKedaiWorker } from '@infra/temporal';
import {
  memoryStore,
  SANDBOX_DEMO_PARTNER,
  type ShopeeSandbox,
  type ShopeeSandboxOptions,
  startShopeeSandbox,
} from '@integrations/shopee';
import { connectStore, setStoreSettings } from '@integrations/stores';
import { projections } from '@projections/index';
import { ProjectionEngine } from '@projections/runtime/engine';
import { Client, Connection } from '@temporalio/client';
import { startTestTemporal } from '@tests/support/temporal';
import { type ActivityDeps, createActivities } from '@workflows/activities';
import type { Kysely } from 'kysely';
import type { SandboxToBench } from './sandbox-process';
import type { BenchServer } from './server';

/**
 * What the marketplace benchmarks (stock push, publish) set up alike: a database of their own, the Shopee sandbox
 * with this process's store settings pointed at it, an account with the sandbox's shops connected, and a Temporal
 * dev server with a worker serving every activity. Each adds its undo to `closers`, run in reverse by the caller.
 */

export type Closers = Array<() => Promise<unknown>>;

/** A database of its own on the bench's Postgres, migrated, with the packages. */
export async function benchDatabase(bench: BenchServer, name: string, closers: Closers) {
  await bench.server.createDatabase(name);
  const pool = createPool(bench.server.url(name), 12);
  const db = createDb(pool);
  closers.push(() => db.destroy());
  const store = new PostgresEventStore(pool, new EventSchemaRegistry().registerAll(eventSchemas));
  closers.push(() => store.close());
  await migrateToLatest(db);
  await ensurePackages(db);
  return { db, store };
}

/** The sandbox with `shops`, neither ticking nor making orders, and the store settings pointed at it. */
export async function benchSandbox(
  seed: string,
  shops: ShopeeSandboxOptions['shops'],
  closers: Closers,
): Promise<ShopeeSandbox> {
  const sandbox = await startShopeeSandbox({
    partners: [SANDBOX_DEMO_PARTNER],
    store: memoryStore(),
    seed,
    tickIntervalMs: 0,
    orderRate: 0,
    ...(shops ? { shops } : {}),
  });
  closers.push(() => sandbox.stop());
  pointStoresAt(sandbox.url, closers);
  return sandbox;
}

/**
 * The sandbox in a process of its own (sandbox-process.ts), as Shopee runs on machines of its own: its CPU is not
 * taken from the process measured. `onStock` hears each quantity it sets, and when (on `clock`). The store settings
 * are pointed at it.
 */
export async function benchSandboxProcess(
  shops: { name: string; skus: string[] }[],
  onStock: (sets: Extract<SandboxToBench, { kind: 'stock' }>['sets']) => void,
  closers: Closers,
): Promise<{ url: string; shops: BenchShop[] }> {
  const child = fork(fileURLToPath(new URL('./sandbox-process.ts', import.meta.url)), [], {
    execArgv: process.execArgv,
    env: { ...process.env, BENCH_SANDBOX: JSON.stringify({ shops }) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  closers.push(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  });
  const ready = await new Promise<Extract<SandboxToBench, { kind: 'ready' }>>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the bench sandbox exited (${code})`)));
    child.on('message', (message: SandboxToBench) => {
      if (message.kind === 'ready') resolve(message);
      else onStock(message.sets);
    });
  });
  pointStoresAt(ready.url, closers);
  return ready;
}

/** The clock this process and a forked sandbox share. */
export const clock = () => performance.timeOrigin + performance.now();

/** This process's store settings (the Shopee connection) pointed at the sandbox at `url`. */
function pointStoresAt(url: string, closers: Closers): void {
  const previous = setStoreSettings({
    shopee: {
      baseUrl: url,
      partnerId: SANDBOX_DEMO_PARTNER.partnerId,
      partnerKey: SANDBOX_DEMO_PARTNER.partnerKey,
    },
    stateSecret: randomBytes(32),
    importRetry: { initialIntervalMs: 1_000, maximumIntervalMs: 10_000, maximumAttempts: 3 },
  });
  closers.push(async () => previous && setStoreSettings(previous));
}

/** A sandbox shop with a token pair for it. */
export interface BenchShop {
  shopId: number;
  name: string;
  tokens: { accessToken: string; refreshToken: string; expiresAt: number };
}

/** The first `count` shops of an in-process sandbox, with tokens. */
export const sandboxShops = (sandbox: ShopeeSandbox, count: number): BenchShop[] =>
  sandbox.shops.slice(0, count).map((shop) => ({
    shopId: shop.shopId,
    name: shop.name,
    tokens: sandbox.issueTokens(SANDBOX_DEMO_PARTNER.partnerId, shop.shopId),
  }));

/** An account on the enterprise package (`who`, one word, names it); its owner. */
export function benchAccount(db: Kysely<Database>, who: string) {
  return createTenantWithOwner(db, {
    name: `${who} Bench`,
    country: 'MY',
    packageId: 'enterprise',
    status: 'active',
    owner: {
      email: `${who.toLowerCase()}@shop.test`,
      firstName: who,
      lastName: 'Bench',
      phone: '+60123456789',
      password: 'bench password 1',
    },
  });
}

/** The sandbox shops connected as stores of the account, fed by `warehouseId`. */
export async function connectShops(
  db: Kysely<Database>,
  shops: readonly BenchShop[],
  owner: { tenantId: string; userId: string },
  warehouseId: string | null,
): Promise<{ id: string; shopId: number }[]> {
  const stores: { id: string; shopId: number }[] = [];
  for (const shop of shops) {
    const { store: connected } = await connectStore(db, {
      tenantId: owner.tenantId,
      userId: owner.userId,
      platform: 'shopee',
      shopId: shop.shopId,
      name: shop.name,
      region: 'MY',
      tokens: shop.tokens,
      newStore: { id: randomUUID(), warehouseId },
    });
    stores.push({ id: connected.id, shopId: shop.shopId });
  }
  return stores;
}

/** A Temporal dev server and a worker on `taskQueue` serving every activity; the workflow client for it. */
export async function benchWorker(
  deps: { db: Kysely<Database>; store: PostgresEventStore },
  taskQueue: string,
  closers: Closers,
  /** Activity settings of the measurement's own (webhook targets). */
  settings: Pick<ActivityDeps, 'webhookTargets'> = {},
) {
  const { db, store } = deps;
  const temporal = await startTestTemporal();
  closers.push(() => temporal.stop());
  const connection = await Connection.connect({ address: temporal.address });
  closers.push(() => connection.close());
  const worker = await createKedaiWorker({
    address: temporal.address,
    namespace: temporal.namespace,
    taskQueue,
    activities: createActivities({
      engine: new ProjectionEngine({ db, store, projections }),
      db,
      store,
      mailer: createMailer(db, { from: 'Bench <bench@kedai.test>' }, { info() {}, error() {} }),
      ...settings,
    }),
  });
  const running = worker.run();
  closers.push(async () => {
    await worker.shutdown();
    await running.catch(() => undefined);
  });
  return { client: new Client({ connection, namespace: temporal.namespace }), taskQueue };
}
