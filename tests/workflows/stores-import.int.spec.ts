import { randomUUID } from 'node:crypto';
import { defaultWarehouse } from '@commands/inventory/initial-stock';
import { findOrder, loadOrder, orderIdFor } from '@commands/orders/order';
import { orderStreamId } from '@domain/orders/order';
import type { ShopeeSandbox } from '@integrations/shopee';
import { connectStore, findStore, type Store, type StoreSettings, shopeeClient } from '@integrations/stores';
import { startStoreSandbox } from '@tests/api/stores-support';
import { createSeller, createTestApi, type TestApi, type TestSeller } from '@tests/support/api';
import { waitFor } from '@tests/support/wait';
import {
  ORDER_IMPORT_WORKFLOW,
  type OrderImportResult,
  orderImportKey,
} from '@workflows/order-import-protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Issue 6, the order import workflow on the run's Temporal dev server against our signed Shopee sandbox: orders
 * imported once however often they are read (two runs, two runs at once), a changed order updated, paging past
 * 250 orders, 15-day windows from an old checkpoint, and every failure the sandbox can inject — a 5xx, a timeout, a
 * bad signature, an expired token, a rate limit — retried without a duplicate order; a failure that persists is on
 * the store until the next import succeeds.
 */
describe('the order import', () => {
  let api: TestApi;
  let sandbox: ShopeeSandbox;
  let settings: StoreSettings;
  let restore: () => void;
  let seller: TestSeller;
  let store: Store;
  let shopId: number;
  let runs = 0;

  beforeAll(async () => {
    const started = await startStoreSandbox();
    ({ sandbox, settings, restore } = started);
    shopId = sandbox.shops[0]!.shopId;
    api = await createTestApi({ workflows: true });
    seller = await createSeller(api, { packageId: 'growth' });
    store = await connect(seller);
  });
  afterAll(async () => {
    await api?.close();
    await sandbox?.stop();
    restore?.();
  });

  /** A store of the sandbox shop in the seller's account, connected with tokens the sandbox issued. */
  async function connect(owner: TestSeller, shop = shopId): Promise<Store> {
    const warehouseId = await defaultWarehouse(api.database.db, owner);
    const { store: connected } = await connectStore(api.database.db, {
      tenantId: owner.tenantId,
      userId: owner.userId,
      platform: 'shopee',
      shopId: shop,
      name: 'Kedai Demo Store',
      region: 'MY',
      tokens: sandbox.issueTokens(settings.shopee.partnerId, shop),
      newStore: { id: randomUUID(), warehouseId },
    });
    return connected;
  }

  /** One run of the store's import, as its schedule starts it (a workflow id of its own). */
  const run = (target: Store = store): Promise<OrderImportResult> =>
    api.workflows.client.workflow.execute(ORDER_IMPORT_WORKFLOW, {
      taskQueue: api.workflows.taskQueue,
      workflowId: `${orderImportKey(target.tenantId, target.id)}-test-${++runs}`,
      args: [{ tenantId: target.tenantId, storeId: target.id, retry: settings.importRetry }],
    });

  const events = async (orderSn: string, target: Store = store) => {
    const types: string[] = [];
    for await (const recorded of api.store.readStream(
      orderStreamId(target.tenantId, orderIdFor(target.id, orderSn)),
    ))
      types.push(recorded.type);
    return types;
  };
  const order = (orderSn: string, target: Store = store) =>
    loadOrder(api.store, target.tenantId, orderIdFor(target.id, orderSn));
  /** Whether Kedai has the order. */
  const known = async (orderSn: string, target: Store = store) =>
    (await findOrder(api.store, target.tenantId, orderIdFor(target.id, orderSn))).status !== 'none';
  const current = async (target: Store = store) =>
    (await findStore(api.database.db, target.tenantId, target.id))!;
  /** Waits (on the clock, not a timer) until the orders' last changes are stamped no later than now. */
  const settled = (orderSns: string[]) =>
    waitFor(() => orderSns.every((sn) => sandbox.order(sn)!.update_time * 1000 <= Date.now()));
  /** The order's import events: exactly one per order, however often it was read. */
  const imports = async (orderSn: string, target: Store = store) =>
    (await events(orderSn, target)).filter((type) => type === 'OrderImported');
  const calls = (path: string, since: number) =>
    sandbox.requests.slice(since).filter((request) => request.path === path);

  it('imports the orders once, however many runs read them', async () => {
    const made = sandbox.generateOrders(30);
    const first = await run();
    expect(first.status).toBe('imported');
    expect(first.totals.created).toBe(30);
    expect(first.totals.skipped).toBe(0);
    for (const sn of made.map((o) => o.order_sn)) {
      expect(await known(sn)).toBe(true);
      const state = await order(sn);
      expect(state.orderNumber).toBe(sn);
    }
    const before = await Promise.all(made.map((o) => events(o.order_sn)));
    for (const o of made) expect(await imports(o.order_sn)).toHaveLength(1);

    const second = await run();
    expect(second).toMatchObject({ status: 'imported', totals: { created: 0, updated: 0 } });
    expect(second.totals.unchanged).toBe(30);
    expect(await Promise.all(made.map((o) => events(o.order_sn)))).toEqual(before);

    const books = await current();
    expect(books.status).toBe('connected');
    expect(books.lastImportOrders).toBe(30);
    expect(books.lastError).toBeNull();
    expect(books.importCheckpoint!.getTime()).toBeGreaterThanOrEqual(made[0]!.update_time * 1000);
  });

  it('updates a changed order: cancelled, and shipped with its tracking number', async () => {
    const [cancel, ship] = sandbox.generateOrders(2);
    await run();
    expect((await order(cancel!.order_sn)).marketplaceStatus).not.toBe('cancelled');

    sandbox.setOrderStatus(cancel!.order_sn, 'CANCELLED');
    if (sandbox.order(ship!.order_sn)!.order_status !== 'READY_TO_SHIP')
      sandbox.setOrderStatus(ship!.order_sn, 'READY_TO_SHIP');
    const seller = shopeeClient(settings.shopee, {
      load: async () => sandbox.issueTokens(settings.shopee.partnerId, shopId),
      save: async () => undefined,
    });
    const parameter = await seller.getShippingParameter(shopId, { order_sn: ship!.order_sn });
    const address = parameter.pickup!.address_list[0]!;
    await seller.shipOrder(shopId, {
      order_sn: ship!.order_sn,
      pickup: { address_id: address.address_id, pickup_time_id: address.time_slot_list[0]!.pickup_time_id },
    });
    const { tracking_number } = await seller.getTrackingNumber(shopId, { order_sn: ship!.order_sn });
    expect(tracking_number).not.toBe('');
    // The sandbox stamps each change a second after the last: the import reads up to now.
    await settled([cancel!.order_sn, ship!.order_sn]);

    const result = await run();
    expect(result.totals.updated).toBe(2);
    expect(result.totals.created).toBe(0);
    expect((await order(cancel!.order_sn)).marketplaceStatus).toBe('cancelled');
    const shipped = await order(ship!.order_sn);
    expect(shipped.marketplaceStatus).toBe('processed');
    expect(shipped.trackingNumber).toBe(tracking_number);
  });

  it('pages through more than 250 orders, each imported once', async () => {
    const made = sandbox.generateOrders(260);
    const since = sandbox.requests.length;
    const result = await run();
    expect(result.status).toBe('imported');
    expect(result.totals.created).toBe(260);
    // 100 a page: three pages at least (the overlap reads the earlier orders again), details 50 at a time.
    expect(calls('/api/v2/order/get_order_list', since).length).toBeGreaterThanOrEqual(3);
    expect(calls('/api/v2/order/get_order_detail', since).length).toBeGreaterThanOrEqual(6);
    const sample = [made[0]!, made[99]!, made[100]!, made[200]!, made[259]!];
    for (const o of sample) expect(await imports(o.order_sn)).toHaveLength(1);
  });

  it('never imports an order twice when two runs read it at once', async () => {
    const made = sandbox.generateOrders(40);
    const [a, b] = await Promise.all([run(), run()]);
    expect(a.status).toBe('imported');
    expect(b.status).toBe('imported');
    expect(a.totals.orders).toBeGreaterThanOrEqual(40);
    expect(b.totals.orders).toBeGreaterThanOrEqual(40);
    for (const o of made) expect(await imports(o.order_sn)).toHaveLength(1);
  });

  it('reads an old checkpoint in windows of 15 days at most, and moves the checkpoint to the end', async () => {
    const old = new Date(Date.now() - 40 * 24 * 3600_000);
    await api.database.db
      .updateTable('stores')
      .set({ import_checkpoint: old })
      .where('id', '=', store.id)
      .execute();
    const since = sandbox.requests.length;
    const started = Date.now();
    const result = await run();
    expect(result.status).toBe('imported');
    // Three windows (40 days): no get_order_list the client refused for its range.
    expect(calls('/api/v2/order/get_order_list', since).length).toBeGreaterThanOrEqual(3);
    expect((await current()).importCheckpoint!.getTime()).toBeGreaterThanOrEqual(
      Math.floor(started / 1000) * 1000,
    );
  });

  it.each([
    ['a 5xx', '5xx' as const],
    ['a timeout', 'timeout' as const],
    ['a bad signature', 'signature' as const],
    ['a rate limit', 'rate_limit' as const],
  ])(
    'retries %s with backoff, imports every order once and ends with no error on the store',
    async (_what, kind) => {
      const made = sandbox.generateOrders(5);
      const since = sandbox.requests.length;
      sandbox.failNext({ kind, path: '/api/v2/order/get_order_detail' });
      const result = await run();
      expect(result.status).toBe('imported');
      expect(result.totals.created).toBe(5);
      const details = calls('/api/v2/order/get_order_detail', since);
      expect(details[0]!.status).not.toBe(200);
      expect(details.at(-1)!.status).toBe(200);
      for (const o of made) expect(await imports(o.order_sn)).toHaveLength(1);
      const books = await current();
      expect(books.status).toBe('connected');
      expect(books.lastError).toBeNull();
    },
  );

  it('refreshes an expired token once and goes on, keeping the new tokens', async () => {
    const made = sandbox.generateOrders(3);
    const tokenOf = async () =>
      await api.database.db
        .selectFrom('store_tokens')
        .select(['access_token', 'refresh_token'])
        .where('store_id', '=', store.id)
        .executeTakeFirstOrThrow();
    const before = await tokenOf();
    const since = sandbox.requests.length;
    sandbox.failNext({ kind: 'expired', path: '/api/v2/order/get_order_list' });
    const result = await run();
    expect(result.status).toBe('imported');
    expect(result.totals.created).toBe(3);
    expect(calls('/api/v2/auth/access_token/get', since)).toHaveLength(1);
    const after = await tokenOf();
    expect(after.access_token).not.toBe(before.access_token);
    expect(after.refresh_token).not.toBe(before.refresh_token);
    for (const o of made) expect(await imports(o.order_sn)).toHaveLength(1);
  });

  it('shows a failure that persists on the store, keeps the checkpoint, and clears it at the next success', async () => {
    const made = sandbox.generateOrders(4);
    const checkpoint = (await current()).importCheckpoint;
    // Every attempt of the first page fails (the test settings allow 3).
    sandbox.failNext({
      kind: '5xx',
      times: settings.importRetry.maximumAttempts,
      path: '/api/v2/order/get_order_list',
    });
    const failed = await run();
    expect(failed.status).toBe('failed');
    expect(failed.error?.kind).toBe('server');
    const broken = await current();
    expect(broken.status).toBe('error');
    expect(broken.lastError).toMatchObject({ kind: 'server' });
    expect(broken.lastError!.message).toContain('error_server');
    expect(broken.importCheckpoint).toEqual(checkpoint);
    for (const o of made) expect(await known(o.order_sn)).toBe(false);

    const healed = await run();
    expect(healed.status).toBe('imported');
    expect(healed.totals.created).toBe(4);
    const books = await current();
    expect(books.status).toBe('connected');
    expect(books.lastError).toBeNull();
    expect(books.importCheckpoint!.getTime()).toBeGreaterThan(checkpoint!.getTime());
  });

  it('skips an order the channel cannot translate, names it on the store, and imports the rest', async () => {
    // A shop of its own: the other runs never read the broken order again.
    const shop = sandbox.createShop({ name: 'Broken Orders' });
    const other = await connect(await createSeller(api, { packageId: 'growth' }), shop.shopId);
    const [first, bad, last] = sandbox.generateOrders(3, { shopId: shop.shopId });
    sandbox.dropOrderItems(bad!.order_sn);
    const started = Date.now();
    const result = await run(other);
    expect(result).toMatchObject({ status: 'imported', totals: { orders: 3, created: 2, skipped: 1 } });
    expect(await known(first!.order_sn, other)).toBe(true);
    expect(await known(last!.order_sn, other)).toBe(true);
    expect(await known(bad!.order_sn, other)).toBe(false);
    const books = await current(other);
    expect(books.lastError).toMatchObject({
      kind: 'order',
      message: `order ${bad!.order_sn}: Shopee sent no items`,
    });
    expect(books.lastImportOrders).toBe(3);
    expect(books.importCheckpoint!.getTime()).toBeGreaterThanOrEqual(Math.floor(started / 1000) * 1000);
  });

  it('does not retry a refused authorisation: the store shows it at once', async () => {
    const other = await connect(await createSeller(api));
    await api.database.db.deleteFrom('store_tokens').where('store_id', '=', other.id).execute();
    const since = sandbox.requests.length;
    const result = await run(other);
    expect(result).toMatchObject({ status: 'failed', error: { kind: 'authorization' } });
    expect(calls('/api/v2/order/get_order_list', since)).toHaveLength(0);
    const books = await current(other);
    expect(books.status).toBe('error');
    expect(books.lastError?.kind).toBe('authorization');
  });

  it('reads nothing for a disconnected store', async () => {
    const other = await connect(await createSeller(api));
    await api.database.db
      .updateTable('stores')
      .set({ status: 'disconnected' })
      .where('id', '=', other.id)
      .execute();
    const since = sandbox.requests.length;
    expect(await run(other)).toMatchObject({ status: 'skipped', reason: 'disconnected' });
    expect(sandbox.requests.length).toBe(since);
  });

  it("keeps each account's orders to itself when two accounts connected the same shop", async () => {
    const otherSeller = await createSeller(api);
    const other = await connect(otherSeller);
    const [mine] = sandbox.generateOrders(1);
    await Promise.all([run(), run(other)]);
    const ours = await order(mine!.order_sn);
    const theirs = await order(mine!.order_sn, other);
    expect((await known(mine!.order_sn)) && (await known(mine!.order_sn, other))).toBe(true);
    expect(ours.orderId).not.toBe(theirs.orderId);
    expect(theirs.storeId).toBe(other.id);
    // Another account's stream of our order does not exist.
    const leaked: string[] = [];
    for await (const recorded of api.store.readStream(orderStreamId(otherSeller.tenantId, ours.orderId)))
      leaked.push(recorded.type);
    expect(leaked).toEqual([]);
  });
});
