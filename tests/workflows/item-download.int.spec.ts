import { randomUUID } from 'node:crypto';
import { defaultWarehouse } from '@commands/inventory/initial-stock';
import { DEFAULT_SKUS, type ShopeeSandbox } from '@integrations/shopee';
import { connectStore, type Store, type StoreSettings } from '@integrations/stores';
import { importOrder, line, marketplaceOrder, settle } from '@tests/api/orders-support';
import { startStoreSandbox } from '@tests/api/stores-support';
import { caller, createSeller, createTestApi, type TestApi, type TestSeller } from '@tests/support/api';
import {
  ITEM_DOWNLOAD_WORKFLOW,
  type ItemDownloadResult,
  itemDownloadWorkflowId,
} from '@workflows/item-download-protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Issue 15, downloading a connected store's items on the run's Temporal dev server against our signed Shopee
 * sandbox: two requests run one download, every SKU of the shop lands linked to the seller's master code of that
 * SKU, an order of the store waiting as "item not found" is mapped once its SKU is linked, and a channel that keeps
 * failing leaves the store's download in error with why.
 */
describe('the item download', () => {
  let api: TestApi;
  let sandbox: ShopeeSandbox;
  let settings: StoreSettings;
  let restore: () => void;
  let seller: TestSeller;
  let store: Store;
  const call = caller(() => api);
  /** The SKU left without a master code until the order waits on it. */
  const LATE = 'CABLE-USBC-1M';

  beforeAll(async () => {
    ({ sandbox, settings, restore } = await startStoreSandbox());
    api = await createTestApi({ workflows: true });
    seller = await createSeller(api, { packageId: 'growth' });
    // The demo account's way: a master code per SKU the shop sells, its seller SKU that SKU.
    for (const sku of DEFAULT_SKUS.filter((each) => each.sku !== LATE)) {
      const made = await call('POST', '/api/inventory/master-code', seller.token, {
        code: sku.sku,
        name: sku.name,
        seller_sku: sku.sku,
      });
      expect(made.statusCode, made.body).toBe(200);
    }
    const shopId = sandbox.shops[0]!.shopId;
    ({ store } = await connectStore(api.database.db, {
      tenantId: seller.tenantId,
      userId: seller.userId,
      platform: 'shopee',
      shopId,
      name: 'Kedai Demo Store',
      region: 'MY',
      tokens: sandbox.issueTokens(settings.shopee.partnerId, shopId),
      newStore: { id: randomUUID(), warehouseId: await defaultWarehouse(api.database.db, seller) },
    }));
  });
  afterAll(async () => {
    await api?.close();
    await sandbox?.stop();
    restore?.();
  });

  const statusOf = async () =>
    (
      (await call('GET', '/api/products/download-status', seller.token)).json().data as {
        store: { id: string };
        status: string;
        items: number;
        skus: number;
        linked: number;
        unlinked: number;
        last_error: string | null;
      }[]
    ).find((each) => each.store.id === store.id)!;

  it('downloads the shop once for two requests, links its SKUs and maps the waiting order', async () => {
    expect((await statusOf()).status).toBe('new');
    const warehouseId = await defaultWarehouse(api.database.db, seller);
    const orderId = await importOrder(
      api,
      seller.tenantId,
      warehouseId,
      marketplaceOrder([line(LATE, 1, { sku: '' })]),
      store.id,
    );
    await settle(api);
    const order = async () => (await call('GET', `/api/orders/${orderId}`, seller.token)).json().data;
    expect((await order()).item_not_found).toBe(true);
    const late = await call('POST', '/api/inventory/master-code', seller.token, {
      code: LATE,
      name: 'USB-C cable',
      seller_sku: LATE,
    });
    expect(late.statusCode, late.body).toBe(200);
    // A new master code maps no order by itself: the order still waits.
    expect((await order()).item_not_found).toBe(true);

    const [first, second] = await Promise.all([
      call('POST', '/api/products/download-status', seller.token, { store_ids: [store.id] }),
      call('POST', '/api/products/download-status', seller.token, { store_ids: [store.id] }),
    ]);
    expect(first.statusCode, first.body).toBe(200);
    expect(second.statusCode, second.body).toBe(200);
    const workflowId = itemDownloadWorkflowId(seller.tenantId, store.id);
    const result = (await api.workflows.client.workflow.getHandle(workflowId).result()) as ItemDownloadResult;
    const runs = [];
    for await (const run of api.workflows.client.workflow.list({ query: `WorkflowId="${workflowId}"` }))
      runs.push(run);
    expect(runs).toHaveLength(1);

    const items = new Set(DEFAULT_SKUS.map((sku) => sku.parentSku ?? sku.sku)).size;
    expect(result).toEqual({
      status: 'completed',
      counts: { items, skus: DEFAULT_SKUS.length, linked: DEFAULT_SKUS.length, unlinked: 0 },
      ordersMapped: 1,
    });
    expect(await statusOf()).toMatchObject({ status: 'completed', items, skus: DEFAULT_SKUS.length });

    const grid = (await call('GET', '/api/products/channel-skus?endRow=100', seller.token)).json().data as {
      rows: { seller_sku: string; master_code: { code: string } | null; linked_by: string | null }[];
    };
    expect(grid.rows.map((row) => row.seller_sku).sort()).toEqual(DEFAULT_SKUS.map((sku) => sku.sku).sort());
    for (const row of grid.rows)
      expect(row).toMatchObject({ master_code: { code: row.seller_sku }, linked_by: 'sku' });

    await settle(api);
    expect((await order()).item_not_found).toBe(false);
    const codes = await call('GET', '/api/inventory/master-code?endRow=100', seller.token);
    expect((codes.json().data.rows as { bound: boolean }[]).every((row) => row.bound)).toBe(true);
  });

  it('ends in error with why when the channel keeps failing, and the next download clears it', async () => {
    sandbox.failNext({
      kind: 'error',
      path: '/api/v2/product/get_item_list',
      times: 3,
      message: 'shop is busy',
    });
    const result: ItemDownloadResult = await api.workflows.client.workflow.execute(ITEM_DOWNLOAD_WORKFLOW, {
      taskQueue: api.workflows.taskQueue,
      workflowId: `${itemDownloadWorkflowId(seller.tenantId, store.id)}-failing`,
      args: [
        {
          tenantId: seller.tenantId,
          storeId: store.id,
          retry: { initialIntervalMs: 50, maximumIntervalMs: 100, maximumAttempts: 3 },
        },
      ],
    });
    expect(result.status).toBe('error');
    const failed = await statusOf();
    expect(failed.status).toBe('error');
    expect(failed.last_error).toContain('shop is busy');
    // What the last download found stays until the next one.
    expect(failed.skus).toBe(DEFAULT_SKUS.length);

    sandbox.resetFailures();
    const again = await call('POST', '/api/products/download-status', seller.token, {
      store_ids: [store.id],
    });
    expect(again.statusCode, again.body).toBe(200);
    await api.workflows.client.workflow.getHandle(itemDownloadWorkflowId(seller.tenantId, store.id)).result();
    expect(await statusOf()).toMatchObject({ status: 'completed', last_error: null });
  });

  it('refuses a disconnected store', async () => {
    await api.database.db
      .updateTable('stores')
      .set({ status: 'disconnected' })
      .where('id', '=', store.id)
      .execute();
    const refused = await call('POST', '/api/products/download-status', seller.token, {
      store_ids: [store.id],
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe(732);
  });
});
