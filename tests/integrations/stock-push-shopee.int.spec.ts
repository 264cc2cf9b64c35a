import type { ShopeeSandbox } from '@integrations/shopee';
import { PUSH_LOG_PROJECTION } from '@projections/push-log';
import type { Connection } from '@temporalio/client';
import { type Catalogue, seedCatalogue } from '@tests/api/orders-support';
import { startStoreSandbox } from '@tests/api/stores-support';
import { createSeller, createTestApi, type TestApi } from '@tests/support/api';
import { waitFor } from '@tests/support/wait';
import {
  connectPushWorkflows,
  linkSandboxSku,
  setStock,
  startPushWorker,
} from '@tests/workflows/stock-push-support';
import type { PushTiming } from '@workflows/stock-push-protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The stock push against the Shopee sandbox through the real adapter (`channelFor`, update_stock with
 * `seller_stock`, signed calls with the store's tokens): a stock adjustment moves the sandbox model's stock; the
 * sandbox failing and then recovering is retried, each try in the push log; two quick changes end at the later one.
 */

const TIMING: PushTiming = { coalesceMs: 50, backoffMs: 200, maxBackoffMs: 1_000, maxAttempts: 5 };

describe('stock push to the Shopee sandbox', () => {
  let sandbox: ShopeeSandbox;
  let restore: () => void;
  let api: TestApi;
  let connection: Connection;
  let worker: Awaited<ReturnType<typeof startPushWorker>>;
  let tenantId: string;
  let catalogue: Catalogue;
  let shopId: number;
  let item: { itemId: string; modelId: string };

  beforeAll(async () => {
    ({ sandbox, restore } = await startStoreSandbox());
    let workflows: Awaited<ReturnType<typeof connectPushWorkflows>>['workflows'];
    ({ connection, workflows } = await connectPushWorkflows('stock-push-shopee', TIMING));
    api = await createTestApi({ overrides: { workflows } });
    const db = api.database.systemDb;
    // The real adapter of each store: no channel given.
    worker = await startPushWorker(api, workflows);

    tenantId = (await createSeller(api)).tenantId;
    catalogue = await seedCatalogue(api, tenantId);
    const linked = await linkSandboxSku(db, sandbox, tenantId, catalogue.batik);
    shopId = linked.shopId;
    item = { itemId: linked.itemId, modelId: linked.modelId };
  });

  afterAll(async () => {
    await worker?.stop();
    await api?.close();
    await connection?.close();
    await sandbox?.stop();
    restore?.();
  });

  const batik = () => ({ masterCodeId: catalogue.batik, warehouseId: catalogue.warehouseId });
  const sandboxStock = () =>
    sandbox.stockOf(shopId, Number(item.itemId), item.modelId ? Number(item.modelId) : undefined)?.stock;
  const tries = async (quantity: number) => {
    await api.engine.catchUp(PUSH_LOG_PROJECTION);
    return api.database.systemDb
      .selectFrom('channel_push_log')
      .select(['attempt', 'outcome', 'answer'])
      .where('tenant_id', '=', tenantId)
      .where('item_id', '=', item.itemId)
      .where('quantity', '=', quantity)
      .orderBy('pushed_at')
      .orderBy('attempt')
      .execute();
  };

  it("moves the sandbox model's stock when the stock is adjusted", async () => {
    await setStock(api.store, tenantId, batik(), 17);
    await waitFor(() => sandboxStock() === 17, { what: 'the sandbox model at 17' });
    expect(await waitFor(async () => (await tries(17)).length > 0 && tries(17))).toEqual([
      { attempt: 1, outcome: 'ok', answer: '' },
    ]);
  });

  it('retries while the sandbox fails, and the log shows each try', async () => {
    sandbox.failNext({ kind: '5xx', path: '/api/v2/product/update_stock', times: 2 });
    await setStock(api.store, tenantId, batik(), 23);
    await waitFor(() => sandboxStock() === 23, { what: 'the sandbox model at 23 after the failures' });
    const logged = await waitFor(async () => {
      const rows = await tries(23);
      return rows.length === 3 && rows;
    });
    expect(logged.map((row) => [row.attempt, row.outcome])).toEqual([
      [1, 'retrying'],
      [2, 'retrying'],
      [3, 'ok'],
    ]);
    expect(logged[0]!.answer).not.toBe('');
  });

  it('ends at the later of two quick changes, even while the first call lags', async () => {
    sandbox.failNext({ kind: 'lag', path: '/api/v2/product/update_stock', delayMs: 800 });
    await setStock(api.store, tenantId, batik(), 31);
    await setStock(api.store, tenantId, batik(), 29);
    await waitFor(async () => (await tries(29)).some((row) => row.outcome === 'ok'), {
      what: 'the later figure taken',
    });
    expect(sandboxStock()).toBe(29);
  });
});
