import { randomBytes } from 'node:crypto';
import { createStockPushReactor } from '@commands/channels/stock-push-reactor';
import { type ChannelUpdatePushed, pushLogStreamId } from '@domain/channels/push-log';
import type { ShopeeSandbox } from '@integrations/shopee';
import { SHOPEE_PATHS } from '@integrations/shopee/schemas';
import { setStoreSettings } from '@integrations/stores';
import { ReactorRunner } from '@projections/runtime/reactor';
import { Client, Connection } from '@temporalio/client';
import { type Catalogue, seedCatalogue } from '@tests/api/orders-support';
import { PARTNER, startStoreSandbox } from '@tests/api/stores-support';
import { createSeller, createTestApi, type TestApi } from '@tests/support/api';
import { type Child, startSharedWorkerChild } from '@tests/support/child';
import { sharedTemporal } from '@tests/support/temporal';
import { waitFor } from '@tests/support/wait';
import type { PushTiming } from '@workflows/stock-push-protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkSandboxSku, setStock } from './stock-push-support';

/**
 * Issue 15, "Bad input and failure": the worker is SIGKILLed while the channel holds a stock push call. A new worker
 * takes the store's workflow over: the call is made again with the same call id (logged once), the figure that came
 * meanwhile follows it, and the Shopee sandbox ends at the last quantity.
 */

const TIMING: PushTiming = { coalesceMs: 50, backoffMs: 200, maxBackoffMs: 1_000, maxAttempts: 5 };

describe('the stock push survives a killed worker', () => {
  const taskQueue = `stock-push-crash-${randomBytes(4).toString('hex')}`;
  const tokenKey = randomBytes(32);
  const children: Child[] = [];
  let sandbox: ShopeeSandbox;
  let restore: () => void;
  let connection: Connection;
  let client: Client;
  let api: TestApi;
  let reactors: ReactorRunner;
  let tenantId: string;
  let storeId: string;
  let catalogue: Catalogue;
  let item: { itemId: string; modelId: string; shopId: number };

  beforeAll(async () => {
    let settings: Awaited<ReturnType<typeof startStoreSandbox>>['settings'];
    ({ sandbox, settings, restore } = await startStoreSandbox({ timeoutHoldMs: 30_000 }));
    // The worker processes seal and open the store's tokens with the same key as this one.
    setStoreSettings({ ...settings, tokenKey });
    const shared = sharedTemporal();
    connection = await Connection.connect({ address: shared.address });
    client = new Client({ connection, namespace: shared.namespace });
    const workflows = { client, taskQueue, pushTiming: TIMING };
    api = await createTestApi({ overrides: { workflows } });
    const db = api.database.systemDb;
    tenantId = (await createSeller(api)).tenantId;
    catalogue = await seedCatalogue(api, tenantId);
    const linked = await linkSandboxSku(db, sandbox, tenantId, catalogue.batik);
    storeId = linked.storeId;
    item = { shopId: linked.shopId, itemId: linked.itemId, modelId: linked.modelId };
    reactors = new ReactorRunner({
      db,
      store: api.store,
      reactors: [createStockPushReactor({ db, store: api.store, workflows })],
      retryMs: 50,
    });
    reactors.start();
  });

  afterAll(async () => {
    await reactors?.stop();
    for (const child of children) child.kill('SIGKILL');
    await Promise.all(children.map((child) => child.exited));
    await api?.close();
    await connection?.close();
    await sandbox?.stop();
    restore?.();
  });

  const startWorker = () =>
    startSharedWorkerChild(api.database.url, taskQueue, children, {
      SHOPEE_BASE_URL: sandbox.url,
      SHOPEE_PARTNER_ID: String(PARTNER.partnerId),
      SHOPEE_PARTNER_KEY: PARTNER.partnerKey,
      STORE_TOKEN_KEY: tokenKey.toString('hex'),
    });

  const batik = () => ({ masterCodeId: catalogue.batik, warehouseId: catalogue.warehouseId });
  const shown = () =>
    sandbox.stockOf(item.shopId, Number(item.itemId), item.modelId ? Number(item.modelId) : undefined)?.stock;

  it('makes the held call again on the next worker, logs it once, and ends at the last quantity', async () => {
    const first = await startWorker();
    // The channel holds the first update_stock and never answers it.
    sandbox.failNext({ kind: 'timeout', path: SHOPEE_PATHS.updateStock });
    await setStock(api.store, tenantId, batik(), 10);
    // The sandbox records a held call as it starts holding it.
    await waitFor(
      () =>
        sandbox.requests.some(
          (request) => request.path === SHOPEE_PATHS.updateStock && request.error === 'timeout',
        ),
      { what: 'the push call held by the channel' },
    );
    first.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');
    // A newer figure while no worker runs.
    await setStock(api.store, tenantId, batik(), 11);
    await startWorker();
    await waitFor(() => shown() === 11, { timeoutMs: 60_000, what: 'the sandbox at 11' });
    // The log line of a call is written once the channel has answered it: wait for the line of the last figure.
    const logged = async () => {
      const lines: [number | undefined, string][] = [];
      for await (const event of api.store.readStream(pushLogStreamId(tenantId, storeId)))
        for (const line of (event.data as ChannelUpdatePushed).lines)
          lines.push([line.quantity, line.outcome]);
      return lines;
    };
    const told = await waitFor(
      async () => {
        const lines = await logged();
        return lines.at(-1)?.[0] === 11 ? lines : undefined;
      },
      { timeoutMs: 60_000, what: 'the push log line of 11' },
    );
    // The held call once (made by the second worker), then the newer figure: nothing twice, 11 last.
    expect(told).toEqual([
      [10, 'ok'],
      [11, 'ok'],
    ]);
  }, 120_000);
});
