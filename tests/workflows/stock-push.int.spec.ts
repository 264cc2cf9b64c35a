import { randomBytes } from 'node:crypto';
import { recordChannelSkus } from '@commands/channels/channel-skus';
import { stockStreamId } from '@domain/inventory/stock';
import {
  ChannelError,
  type ChannelPort,
  type ChannelStock,
  type StockUpdate,
} from '@integrations/channel/port';
import { PUSH_LOG_PROJECTION } from '@projections/push-log';
import type { ReactorRunner } from '@projections/runtime/reactor';
import type { Client, Connection } from '@temporalio/client';
import { type Catalogue, seedCatalogue } from '@tests/api/orders-support';
import { createSeller, createTestApi, type TestApi, type TestSeller } from '@tests/support/api';
import { waitFor } from '@tests/support/wait';
import {
  type PushTiming,
  STOCK_RECONCILE_WORKFLOW,
  stockPushWorkflowId,
} from '@workflows/stock-push-protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectPushWorkflows,
  linkSku,
  reserveStock,
  seedStore,
  setStock,
  startPushWorker,
} from './stock-push-support';

/**
 * The stock push end to end, on the real event store, reactor runner and Temporal dev server: a stock change → the
 * reactor → the store's push workflow → the channel → the push log. The marketplace here is a scripted one that
 * records every call and can be told to refuse or to hold a call; the Shopee sandbox runs the same path in
 * tests/integrations/stock-push-shopee.int.spec.ts.
 */

const TIMING: PushTiming = { coalesceMs: 50, backoffMs: 200, maxBackoffMs: 1_000, maxAttempts: 4 };

/** A marketplace that keeps what it was told per item/model, and can refuse or hold calls. */
function scriptedMarketplace() {
  const shown = new Map<string, number>();
  const calls: StockUpdate[][] = [];
  let refusals = 0;
  let release: (() => void) | undefined;
  let held: Promise<void> | undefined;
  const unsupported = async (): Promise<never> => {
    throw new ChannelError('unsupported', 'not in this test', { retryable: false });
  };
  const port: ChannelPort = {
    platform: 'shopee',
    maxModelsPerCall: 50,
    maxVariantCombinations: 50,
    refresh: async () => undefined,
    listItems: unsupported,
    getItems: unsupported,
    createItem: unsupported,
    findItemBySellerSku: unsupported,
    getCategories: unsupported,
    getAttributes: unsupported,
    getBrands: unsupported,
    updateItem: unsupported,
    setListed: unsupported,
    deleteItem: unsupported,
    updatePrice: unsupported,
    createDiscount: unsupported,
    endDiscount: unsupported,
    createGiftPromotion: unsupported,
    endGiftPromotion: unsupported,
    listOrders: unsupported,
    getOrders: unsupported,
    async updateStock(updates) {
      calls.push(updates);
      if (held) await held;
      if (refusals > 0) {
        refusals--;
        throw new ChannelError('rate_limit', 'Too many requests, try again later', {
          channelCode: 'error_busy',
          retryable: true,
        });
      }
      for (const update of updates) shown.set(`${update.itemId}/${update.modelId ?? ''}`, update.quantity);
      return updates.map((update) => ({ itemId: update.itemId, modelId: update.modelId, ok: true as const }));
    },
    async getStock(itemIds) {
      const answer: ChannelStock[] = [];
      for (const [key, quantity] of shown) {
        const [itemId, modelId] = key.split('/') as [string, string];
        if (itemIds.includes(itemId))
          answer.push({ itemId, ...(modelId ? { modelId } : {}), sellerSku: '', quantity });
      }
      return answer;
    },
  };
  return {
    port,
    calls,
    shows: (itemId: string, modelId = '') => shown.get(`${itemId}/${modelId}`),
    /** Sets what the channel shows behind Kedai's back (a hand edit in Seller Centre). */
    edit: (itemId: string, quantity: number) => shown.set(`${itemId}/`, quantity),
    refuseNext: (count: number) => {
      refusals = count;
    },
    hold: () => {
      held = new Promise((resolve) => {
        release = resolve;
      });
    },
    letGo: () => {
      held = undefined;
      release?.();
    },
    /** Quantities told for one SKU, in call order. */
    toldFor: (itemId: string) =>
      calls.flatMap((call) => call.filter((u) => u.itemId === itemId).map((u) => u.quantity)),
  };
}

describe('stock push', () => {
  let taskQueue: string;
  const market = scriptedMarketplace();
  let api: TestApi;
  let connection: Connection;
  let client: Client;
  let worker: Awaited<ReturnType<typeof startPushWorker>>;
  let reactors: ReactorRunner;
  let seller: TestSeller;
  let tenantId: string;
  let catalogue: Catalogue;
  let storeId: string;

  beforeAll(async () => {
    let workflows: Awaited<ReturnType<typeof connectPushWorkflows>>['workflows'];
    ({ connection, workflows } = await connectPushWorkflows('stock-push', TIMING));
    client = workflows.client;
    taskQueue = workflows.taskQueue;
    api = await createTestApi({ overrides: { workflows } });
    const db = api.database.systemDb;
    worker = await startPushWorker(api, workflows, () => market.port);
    reactors = worker.reactors;
    seller = await createSeller(api);
    tenantId = seller.tenantId;
    catalogue = await seedCatalogue(api, tenantId);
    storeId = await seedStore(db, tenantId);
    await linkSku(db, tenantId, storeId, {
      itemId: '1001',
      sellerSku: 'BATIK-01',
      masterCodeId: catalogue.batik,
    });
    await linkSku(db, tenantId, storeId, {
      itemId: '1002',
      modelId: '7',
      sellerSku: 'GIFT-SET',
      masterCodeId: catalogue.gift,
    });
  });

  afterAll(async () => {
    await worker?.stop();
    await api?.close();
    await connection?.close();
  });

  const batik = () => ({ masterCodeId: catalogue.batik, warehouseId: catalogue.warehouseId });
  const songket = () => ({ masterCodeId: catalogue.songket, warehouseId: catalogue.warehouseId });
  const logRows = async (itemId: string) => {
    await api.engine.catchUp(PUSH_LOG_PROJECTION);
    return api.database.systemDb
      .selectFrom('channel_push_log')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('item_id', '=', itemId)
      .orderBy('pushed_at')
      .orderBy('id')
      .execute();
  };

  it('tells the channel a changed quantity, and the log says what, why and the answer', async () => {
    await setStock(api.store, tenantId, batik(), 12, 'Stock count after delivery');
    const cause = await api.store.readLastEvent(
      stockStreamId(tenantId, catalogue.batik, catalogue.warehouseId),
    );
    await waitFor(() => market.shows('1001') === 12, { what: 'the channel to show 12' });
    const rows = await waitFor(async () => {
      const found = await logRows('1001');
      return found.length > 0 && found;
    });
    expect(rows.at(-1)).toMatchObject({
      store_id: storeId,
      seller_sku: 'BATIK-01',
      master_code_id: catalogue.batik,
      quantity: 12,
      origin: 'change',
      trigger_event_id: cause!.id,
      trigger_type: 'StockAdjusted',
      reason: 'Stock count after delivery',
      attempt: 1,
      outcome: 'ok',
    });
  });

  it('pushes a combo as the whole sets its scarcest component makes, after reservations', async () => {
    await setStock(api.store, tenantId, batik(), 10);
    await setStock(api.store, tenantId, songket(), 9);
    // A gift set is one batik and two songket: 9 songket make 4 sets.
    await waitFor(() => market.shows('1002', '7') === 4, { what: 'the combo at 4' });
    await reserveStock(api.store, tenantId, songket(), 2);
    await waitFor(() => market.shows('1002', '7') === 3, { what: 'the combo at 3 after a reservation' });
    expect(market.shows('1001')).toBe(10);
  });

  it('retries a refused push with backoff, and the log shows each try', async () => {
    market.refuseNext(2);
    await setStock(api.store, tenantId, batik(), 21);
    await waitFor(() => market.shows('1001') === 21, { what: 'the channel to take 21' });
    const tries = await waitFor(async () => {
      const found = (await logRows('1001')).filter((row) => row.quantity === 21);
      return found.length === 3 && found;
    });
    expect(tries.map((row) => [row.attempt, row.outcome])).toEqual([
      [1, 'retrying'],
      [2, 'retrying'],
      [3, 'ok'],
    ]);
    expect(tries[0]!.answer).toBe('error_busy: Too many requests, try again later');
  });

  it("shows a store's SKUs waiting to retry with the try they wait for, asked of its push workflow", async () => {
    const queue = async (store: string) => {
      const answer = await api.app.inject({
        method: 'GET',
        url: `/api/logistic/sync-qty-log/queue?store_id=${store}`,
        headers: { authorization: `Bearer ${seller.token}` },
      });
      return answer.json() as {
        code: number;
        data: {
          waiting: number;
          retrying: {
            item_id: string;
            model_id: string;
            seller_sku: string;
            quantity: number;
            attempt: number;
          }[];
        };
      };
    };
    await waitFor(() => market.shows('1001') !== undefined);
    market.refuseNext(3);
    await setStock(api.store, tenantId, batik(), 24);
    const seen = new Map<
      number,
      { item_id: string; model_id: string; seller_sku: string; quantity: number }
    >();
    await waitFor(
      async () => {
        const { data } = await queue(storeId);
        for (const { attempt, ...sku } of data.retrying) seen.set(attempt, sku);
        return market.shows('1001') === 24;
      },
      { what: 'the channel to take 24 after three refusals' },
    );
    // Each refusal leaves the SKU waiting for its next try (2, 3, then 4, which the channel took).
    expect(seen.size).toBeGreaterThan(0);
    for (const [attempt, sku] of seen) {
      expect([2, 3, 4]).toContain(attempt);
      expect(sku).toEqual({ item_id: '1001', model_id: '', seller_sku: 'BATIK-01', quantity: 24 });
    }
    await waitFor(async () => (await queue(storeId)).data.waiting === 0, { what: 'the queue to empty' });
    expect((await queue(storeId)).data).toEqual({ waiting: 0, retrying: [] });
    // A store with no push yet waits for nothing; one that is not the account's is not found.
    const quiet = await seedStore(api.database.systemDb, tenantId);
    expect((await queue(quiet)).data).toEqual({ waiting: 0, retrying: [] });
    const other = await createSeller(api);
    const stranger = await api.app.inject({
      method: 'GET',
      url: `/api/logistic/sync-qty-log/queue?store_id=${storeId}`,
      headers: { authorization: `Bearer ${other.token}` },
    });
    expect(stranger.statusCode).toBe(404);
  });

  it('never tells a stale number after a fresh one: a newer figure supersedes one waiting', async () => {
    await setStock(api.store, tenantId, batik(), 30);
    await waitFor(() => market.shows('1001') === 30);
    const before = market.toldFor('1001').length;
    market.hold();
    await setStock(api.store, tenantId, batik(), 31);
    await waitFor(() => market.toldFor('1001').length > before, { what: 'the call for 31 to start' });
    // While 31 is in the channel's hands, two more changes: only the last may follow it.
    await setStock(api.store, tenantId, batik(), 32);
    await setStock(api.store, tenantId, batik(), 33);
    await reactors.catchUp('stockPush');
    market.letGo();
    await waitFor(() => market.shows('1001') === 33, { what: 'the channel to end at 33' });
    const told = market.toldFor('1001').slice(before);
    expect(told[0]).toBe(31);
    expect(told.at(-1)).toBe(33);
    expect(told).not.toContain(32);
    // What gathered during the held call went at once after it, without the pause a first figure waits.
    const events = (await client.workflow.getHandle(stockPushWorkflowId(tenantId, storeId)).fetchHistory())
      .events!;
    const scheduled = events.flatMap((event, at) => (event.activityTaskScheduledEventAttributes ? [at] : []));
    const [held, next] = scheduled.slice(-2) as [number, number];
    expect(events.slice(held, next).some((event) => event.timerStartedEventAttributes)).toBe(false);
  });

  it('answers a burst at once: one signal per store for the batch, each line naming the event that moved it', async () => {
    await setStock(api.store, tenantId, batik(), 60);
    await waitFor(() => market.shows('1001') === 60);
    const workflow = client.workflow.getHandle(stockPushWorkflowId(tenantId, storeId));
    const signals = async () =>
      (await workflow.fetchHistory()).events!.filter(
        (event) => event.workflowExecutionSignaledEventAttributes,
      ).length;
    // The reactor stopped, a burst lands; caught up again, it reads the burst as one batch.
    await reactors.stop();
    const before = await signals();
    await setStock(api.store, tenantId, batik(), 61, 'Recount');
    // Two songket are still reserved (the combo test): 12 available make 6 gift sets.
    await setStock(api.store, tenantId, songket(), 14, 'Songket delivered');
    const batikCause = await api.store.readLastEvent(
      stockStreamId(tenantId, catalogue.batik, catalogue.warehouseId),
    );
    const songketCause = await api.store.readLastEvent(
      stockStreamId(tenantId, catalogue.songket, catalogue.warehouseId),
    );
    await reactors.catchUp('stockPush');
    reactors.start();
    // Per event it would be two: the batik's (the batik and the gift set), then the songket's (the gift set).
    expect(await signals()).toBe(before + 1);
    await waitFor(() => market.shows('1001') === 61 && market.shows('1002', '7') === 6, {
      what: 'the batik at 61 and the gift set at 6',
    });
    const batikLine = (await logRows('1001')).at(-1);
    expect(batikLine).toMatchObject({ quantity: 61, trigger_event_id: batikCause!.id, reason: 'Recount' });
    // The gift set moved by both: its line names the newer, the songket's.
    const giftLine = (await logRows('1002')).at(-1);
    expect(giftLine).toMatchObject({
      quantity: 6,
      trigger_event_id: songketCause!.id,
      reason: 'Songket delivered',
    });
  });

  it('tells the store the quantity of a SKU the moment it is linked, with the link as the reason', async () => {
    await setStock(api.store, tenantId, songket(), 20);
    await waitFor(() => market.shows('1002', '7') !== undefined);
    // A download finds item 1003 of seller SKU SONGKET: linked to the songket by the import's rule, no stock moved.
    await recordChannelSkus(
      { db: api.database.systemDb, store: api.store },
      {
        tenantId,
        storeId,
        itemId: '1003',
        itemName: 'Songket (downloaded)',
        models: [{ sellerSku: 'SONGKET', price: '120.00', stock: 0 }],
      },
    );
    // 20 on hand, 2 reserved (the combo test).
    await waitFor(() => market.shows('1003') === 18, { what: 'the newly linked SKU at 18' });
    const line = (await logRows('1003')).at(-1);
    expect(line).toMatchObject({ quantity: 18, trigger_type: 'ChannelSkusLinked', outcome: 'ok' });
  });

  it('syncs now on request, even a quantity the channel was already told, logged as a manual sync', async () => {
    await setStock(api.store, tenantId, batik(), 50);
    await waitFor(() => market.shows('1001') === 50);
    const before = market.toldFor('1001').length;
    const answer = await api.app.inject({
      method: 'POST',
      url: '/api/inventory/manual-sync',
      headers: { authorization: `Bearer ${seller.token}` },
      payload: { store_id: storeId, master_code_id: catalogue.batik },
    });
    // The batik itself and the gift set it is part of.
    expect(answer.json()).toMatchObject({ code: 0, data: { skus: 2 } });
    await waitFor(() => market.toldFor('1001').length > before, { what: 'the manual push' });
    const row = await waitFor(async () => (await logRows('1001')).find((r) => r.origin === 'manual'));
    expect(row).toMatchObject({ quantity: 50, outcome: 'ok' });
  });

  it('reconciles: a quantity changed on the channel behind Kedai is put right and logged as such', async () => {
    await setStock(api.store, tenantId, batik(), 40);
    await waitFor(() => market.shows('1001') === 40);
    market.edit('1001', 99);
    await client.workflow.execute(STOCK_RECONCILE_WORKFLOW, {
      taskQueue,
      workflowId: `reconcile-${randomBytes(4).toString('hex')}`,
      args: [],
    });
    await waitFor(() => market.shows('1001') === 40, { what: 'the drift corrected' });
    const row = await waitFor(async () => (await logRows('1001')).find((r) => r.origin === 'reconcile'));
    expect(row).toMatchObject({ quantity: 40, reason: 'The channel showed 99', outcome: 'ok' });
  });
});
