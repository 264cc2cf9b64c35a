import { randomBytes, randomUUID } from 'node:crypto';
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
import { createActivities } from '@workflows/activities';
import type { Kysely } from 'kysely';
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
  const previous = setStoreSettings({
    shopee: {
      baseUrl: sandbox.url,
      partnerId: SANDBOX_DEMO_PARTNER.partnerId,
      partnerKey: SANDBOX_DEMO_PARTNER.partnerKey,
    },
    stateSecret: randomBytes(32),
    importRetry: { initialIntervalMs: 1_000, maximumIntervalMs: 10_000, maximumAttempts: 3 },
  });
  closers.push(async () => previous && setStoreSettings(previous));
  return sandbox;
}

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

/** The first `count` sandbox shops connected as stores of the account, fed by `warehouseId`. */
export async function connectShops(
  db: Kysely<Database>,
  sandbox: ShopeeSandbox,
  owner: { tenantId: string; userId: string },
  count: number,
  warehouseId: string | null,
): Promise<{ id: string; shopId: number }[]> {
  const stores: { id: string; shopId: number }[] = [];
  for (const shop of sandbox.shops.slice(0, count)) {
    const { store: connected } = await connectStore(db, {
      tenantId: owner.tenantId,
      userId: owner.userId,
      platform: 'shopee',
      shopId: shop.shopId,
      name: shop.name,
      region: 'MY',
      tokens: sandbox.issueTokens(SANDBOX_DEMO_PARTNER.partnerId, shop.shopId),
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
    }),
  });
  const running = worker.run();
  closers.push(async () => {
    await worker.shutdown();
    await running.catch(() => undefined);
  });
  return { client: new Client({ connection, namespace: temporal.namespace }), taskQueue };
}
