import { randomBytes, randomUUID } from 'node:crypto';
import { createStockPushReactor } from '@commands/channels/stock-push-reactor';
import { handleStockCommand } from '@commands/inventory/stock';
import type { Database } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import { createMailer } from '@infra/mail';
import { createKedaiWorker } from '@infra/temporal';
import { type ChannelOf, channelFor } from '@integrations/channel';
import type { ShopeeSandbox } from '@integrations/shopee';
import { findStore, StoreTokenStore } from '@integrations/stores';
import { ReactorRunner } from '@projections/runtime/reactor';
import { Client, Connection } from '@temporalio/client';
import { PARTNER } from '@tests/api/stores-support';
import type { TestApi } from '@tests/support/api';
import { sharedTemporal } from '@tests/support/temporal';
import { createActivities } from '@workflows/activities';
import type { PushTiming } from '@workflows/stock-push-protocol';
import type { Kysely } from 'kysely';

/** What the stock push tests share: a connected store and channel SKUs linked to master codes, and stock moves. */

export async function seedStore(
  db: Kysely<Database>,
  tenantId: string,
  opts: { id?: string; name?: string; shopId?: number; warehouseId?: string | null } = {},
): Promise<string> {
  const id = opts.id ?? randomUUID();
  await db
    .insertInto('stores')
    .values({
      id,
      tenant_id: tenantId,
      platform: 'shopee',
      name: opts.name ?? `Shop ${id.slice(0, 6)}`,
      shop_id: opts.shopId ?? Math.floor(Math.random() * 1e9),
      region: 'MY',
      status: 'connected',
      warehouse_id: opts.warehouseId ?? null,
      connected_at: new Date(),
    })
    .execute();
  return id;
}

/**
 * A store of the sandbox's first shop, its tokens saved, and a SKU of one of the shop's items linked to
 * `masterCodeId`: the real adapter's path from a stock change to the sandbox.
 */
export async function linkSandboxSku(
  db: Kysely<Database>,
  sandbox: ShopeeSandbox,
  tenantId: string,
  masterCodeId: string,
): Promise<{ storeId: string; shopId: number; itemId: string; modelId: string }> {
  const shopId = sandbox.shops[0]!.shopId;
  const storeId = await seedStore(db, tenantId, { name: 'Sandbox shop', shopId });
  await new StoreTokenStore(db, { tenantId, storeId, shopId }).save(
    shopId,
    sandbox.issueTokens(PARTNER.partnerId, shopId),
  );
  const channel = channelFor(db, (await findStore(db, tenantId, storeId))!);
  const { items } = await channel.listItems();
  const full = await channel.getItems(items.map((entry) => entry.itemId));
  const item = full.find((entry) => entry.models.length > 0) ?? full[0]!;
  const modelId = item.models[0]?.modelId ?? '';
  await linkSku(db, tenantId, storeId, {
    itemId: item.itemId,
    modelId,
    sellerSku: item.models[0]?.sellerSku ?? item.sellerSku,
    masterCodeId,
  });
  return { storeId, shopId, itemId: item.itemId, modelId };
}

export async function linkSku(
  db: Kysely<Database>,
  tenantId: string,
  storeId: string,
  sku: { itemId: string; modelId?: string; sellerSku: string; masterCodeId: string },
): Promise<void> {
  await db
    .insertInto('channel_skus')
    .values({
      tenant_id: tenantId,
      store_id: storeId,
      item_id: sku.itemId,
      model_id: sku.modelId ?? '',
      seller_sku: sku.sellerSku,
      item_name: sku.sellerSku,
      master_code_id: sku.masterCodeId,
    })
    .execute();
}

/** Sets the quantity on hand of a master code in a warehouse (a stock count), as the adjustment screen does. */
export function setStock(
  store: EventStore,
  tenantId: string,
  target: { masterCodeId: string; warehouseId: string },
  quantity: number,
  reason = 'Stock count',
) {
  return handleStockCommand(
    store,
    { type: 'AdjustStock', mode: 'set', quantity, refuseNegative: false, reason, ...target },
    { tenantId, commandId: randomUUID(), occurredAt: new Date().toISOString() },
  );
}

/** Reserves stock as an accepted order does. */
export function reserveStock(
  store: EventStore,
  tenantId: string,
  target: { masterCodeId: string; warehouseId: string },
  quantity: number,
) {
  return handleStockCommand(
    store,
    { type: 'ReserveStock', quantity, reason: 'Order accepted', ...target },
    { tenantId, commandId: randomUUID(), occurredAt: new Date().toISOString() },
  );
}

/** A Temporal client on the run's dev server and a task queue of the test's own, with the push's timing. */
export async function connectPushWorkflows(prefix: string, pushTiming: PushTiming) {
  const shared = sharedTemporal();
  const connection = await Connection.connect({ address: shared.address });
  const workflows = {
    client: new Client({ connection, namespace: shared.namespace }),
    taskQueue: `${prefix}-${randomBytes(4).toString('hex')}`,
    pushTiming,
  };
  return { connection, workflows };
}

/**
 * A worker polling the test's task queue, its activities on the test API's database and event store (the channel
 * adapter `channelOf`, else each store's real one), and the stock push reactor following the log live.
 */
export async function startPushWorker(
  api: TestApi,
  workflows: Awaited<ReturnType<typeof connectPushWorkflows>>['workflows'],
  channelOf?: ChannelOf,
): Promise<{ reactors: ReactorRunner; stop(): Promise<void> }> {
  const shared = sharedTemporal();
  const db = api.database.systemDb;
  const worker = await createKedaiWorker({
    address: shared.address,
    namespace: shared.namespace,
    taskQueue: workflows.taskQueue,
    activities: createActivities({
      engine: api.engine,
      db,
      store: api.store,
      mailer: createMailer(db, { from: 'Kedai <no-reply@kedai.test>' }, { info() {}, error() {} }),
      ...(channelOf ? { channelOf } : {}),
      pushTiming: workflows.pushTiming,
    }),
    bundlePath: shared.bundlePath,
  });
  const running = worker.run();
  const reactors = new ReactorRunner({
    db,
    store: api.store,
    reactors: [createStockPushReactor({ db, store: api.store, workflows })],
    retryMs: 50,
  });
  reactors.start();
  return {
    reactors,
    async stop() {
      await reactors.stop();
      await worker.shutdown();
      await running.catch(() => undefined);
    },
  };
}
