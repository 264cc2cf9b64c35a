import { randomUUID } from 'node:crypto';
import type { PushLogRow } from '@api/contracts/stock-push';
import { pushPromotionToChannel } from '@commands/promotions/channel-push';
import { promotions } from '@commands/promotions/support';
import { channelFor } from '@integrations/channel';
import type { ShopeeSandbox } from '@integrations/shopee';
import { findStore, type StoreSettings, StoreTokenStore } from '@integrations/stores';
import { createSeller, createTestApi, type TestApi, type TestSeller } from '@tests/support/api';
import { waitFor } from '@tests/support/wait';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { data } from './inventory/inventory-api';
import { stockCalls } from './inventory/stock-api';
import { startStoreSandbox } from './stores-support';

/**
 * Issue 15 item 6 against the Shopee sandbox, through the channel port and the push workflows on the run's Temporal
 * dev server: a store's prices pushed by its rule and logged per SKU with the channel's answer in the store's push
 * log beside its stock pushes (a busy answer retried with backoff, each try on the log); a discount and a
 * gift-with-purchase promotion created on the shop, a stopped discount removed from it; and a retried push that
 * finds the discount recorded creating none twice.
 */

interface Detail {
  id: string;
  channel: { state: string; id: string | null; error: string | null };
  channel_end: { state: string } | null;
}

const BASE = '/api/promotions';
const hour = 60 * 60 * 1000;
const later = (ms: number) => new Date(Date.now() + ms).toISOString();

describe('promotions and prices on the Shopee sandbox', () => {
  let api: TestApi;
  let seller: TestSeller;
  let sandbox: ShopeeSandbox;
  let settings: StoreSettings;
  let restore: () => void;
  let storeId: string;
  let shopId: number;
  /** The shop's first two items without variants, as the channel holds them. */
  const items: { itemId: string }[] = [];
  const stock = stockCalls(() => api);
  const call = stock.call;

  beforeAll(async () => {
    ({ sandbox, settings, restore } = await startStoreSandbox());
    api = await createTestApi({ workflows: true });
    seller = await createSeller(api, { packageId: 'growth' });
    shopId = sandbox.shops[0]!.shopId;
    storeId = randomUUID();
    await api.database.db
      .insertInto('stores')
      .values({
        id: storeId,
        tenant_id: seller.tenantId,
        platform: 'shopee',
        name: 'Sandbox shop',
        shop_id: shopId,
        region: 'MY',
        status: 'connected',
        connected_at: new Date(),
      })
      .execute();
    await new StoreTokenStore(api.database.db, { tenantId: seller.tenantId, storeId, shopId }).save(
      shopId,
      sandbox.issueTokens(settings.shopee.partnerId, shopId),
    );
    // What download would write: the shop's SKUs, linked to master codes (download is another part of issue 15).
    const channel = channelFor(
      api.database.db,
      (await findStore(api.database.db, seller.tenantId, storeId))!,
    );
    const listed = await channel.listItems();
    const full = await channel.getItems(listed.items.map((item) => item.itemId));
    const warehouse = await stock.warehouse(seller.token, 'SANDBOXWH');
    for (const item of full.filter((found) => found.models.length === 0).slice(0, 2)) {
      const code = await stock.masterCode(seller.token, `M-${item.itemId}`, { unit_price: '10.00' });
      data(
        await stock.receive(seller.token, {
          master_code_id: code.id,
          warehouse_id: warehouse.id,
          quantity: 20,
        }),
      );
      await api.database.db
        .insertInto('channel_skus')
        .values({
          tenant_id: seller.tenantId,
          store_id: storeId,
          item_id: item.itemId,
          seller_sku: item.sellerSku || `SKU-${item.itemId}`,
          item_name: item.name,
          price: item.price,
          master_code_id: code.id,
        })
        .execute();
      items.push({ itemId: item.itemId });
    }
    expect(items).toHaveLength(2);
    await stock.settle(seller.tenantId);
  });
  afterAll(async () => {
    await api?.close();
    await sandbox?.stop();
    restore?.();
  });

  const priceOnShop = (itemId: string) => sandbox.stockOf(shopId, Number(itemId))?.price;
  const detail = async (id: string) => data<Detail>(await call('GET', `${BASE}/${id}`, seller.token));
  const pushedDetail = (id: string) =>
    waitFor(
      async () => {
        const found = await detail(id);
        return found.channel.state === 'pending' ? undefined : found;
      },
      { what: 'the channel to answer the promotion', timeoutMs: 60_000 },
    );

  it("pushes the store's prices by its rule, retrying a busy answer, each try on the store's push log", async () => {
    data(
      await call('PUT', `${BASE}/pricing/${storeId}`, seller.token, {
        markup_percent: 10,
        fixed_amount: '0.50',
        rounding: 'ninety',
        overrides: { [`${items[1]!.itemId}:`]: '15.00' },
      }),
    );
    await api.engine.catchUp('promotions');
    // 10.00 + 10 % + 0.50 = 11.50, up to .90: 11.90; the second SKU has its own price.
    sandbox.failNext({
      kind: 'error',
      error: 'error_busy',
      message: 'busy',
      status: 429,
      path: '/api/v2/product/update_price',
    });
    const pushed = data<{ push_id: string; skus: number }>(
      await call('POST', `${BASE}/pricing/${storeId}/push`, seller.token),
    );
    expect(pushed.skus).toBe(2);
    await waitFor(
      async () => priceOnShop(items[0]!.itemId) === 11.9 && priceOnShop(items[1]!.itemId) === 15,
      {
        what: 'the sandbox to hold the new prices',
        timeoutMs: 60_000,
      },
    );
    const log = await waitFor(
      async () => {
        await api.engine.catchUp('push_log');
        const page = data<{ rows: PushLogRow[] }>(
          await call('GET', `${BASE}/pricing/${storeId}/log`, seller.token),
        );
        return page.rows.filter((row) => row.outcome === 'ok').length === 2 ? page.rows : undefined;
      },
      { what: "the store's price pushes in the push log", timeoutMs: 30_000 },
    );
    const mine = log.filter((row) => row.trigger_event_id === pushed.push_id);
    expect(mine.length).toBe(log.length);
    expect(
      mine
        .filter((row) => row.outcome === 'ok')
        .map((row) => row.price)
        .sort(),
    ).toEqual(['11.90', '15.00']);
    // Shopee's update_price is per item: the busy answer hit one item, the other took its price at once, and the
    // retry sent the busy one alone.
    expect(mine.filter((row) => row.outcome === 'retrying').map((row) => row.attempt)).toEqual([1]);
    expect(
      mine
        .filter((row) => row.outcome === 'ok')
        .map((row) => row.attempt)
        .sort(),
    ).toEqual([1, 2]);
  });

  it('answers what price the shop was told for a SKU, when, why and its answer, in the push log beside stock', async () => {
    const logOf = async (query: string) =>
      data<{ rows: PushLogRow[] }>(
        await call('GET', `/api/logistic/sync-qty-log?store_id=${storeId}${query}`, seller.token),
      ).rows;
    const busy = (await logOf('')).find((row) => row.outcome === 'retrying')!;
    expect(busy).toBeDefined();
    const prices = (await logOf(`&field=price&sku=${encodeURIComponent(busy.seller_sku)}`)).filter(
      (row) => row.seller_sku === busy.seller_sku,
    );
    // The busy try, then the retry the shop took: each with the price told, why, which try and the shop's answer.
    expect(
      prices.map((row) => [row.field, row.price, row.quantity, row.origin, row.attempt, row.outcome]),
    ).toEqual([
      ['price', busy.price, null, 'pricing', 2, 'ok'],
      ['price', busy.price, null, 'pricing', 1, 'retrying'],
    ]);
    expect(['11.90', '15.00']).toContain(busy.price);
    expect(prices.map((row) => row.answer)).toEqual(['', expect.stringMatching(/busy/)]);
    expect(prices[0]!.trigger_event_id).toBe(prices[1]!.trigger_event_id);
    expect(prices[0]!.store_name).toBe('Sandbox shop');
    // One log, filtered by what was pushed: asking for stock leaves the prices out.
    expect((await logOf('&field=stock')).filter((row) => row.field === 'price')).toEqual([]);
  });

  it('creates a discount on the shop, and removes it when stopped before it starts', async () => {
    const created = data<Detail>(
      await call('POST', `${BASE}/discounts`, seller.token, {
        store_id: storeId,
        name: 'Sandbox sale',
        start_at: later(2 * hour),
        end_at: later(5 * hour),
        items: [{ item_id: items[0]!.itemId, discount: 20, purchase_limit: 3, promo_stock: 5 }],
      }),
    );
    const pushed = await pushedDetail(created.id);
    expect(pushed.channel.state, pushed.channel.error ?? '').toBe('pushed');
    const onShop = sandbox.discountOf(shopId, Number(pushed.channel.id));
    expect(onShop?.status).toBe('active');
    expect(onShop?.items).toEqual([
      expect.objectContaining({
        item_id: Number(items[0]!.itemId),
        // 20 % off the price the channel shows now (the price push above set it).
        promotion_price: Math.round(priceOnShop(items[0]!.itemId)! * 80) / 100,
        purchase_limit: 3,
        promotion_stock: 5,
      }),
    ]);

    data(await call('POST', `${BASE}/${created.id}/stop`, seller.token));
    await waitFor(async () => (await detail(created.id)).channel_end?.state === 'done', {
      what: 'the discount ended on the shop',
      timeoutMs: 60_000,
    });
    expect(sandbox.discountOf(shopId, Number(pushed.channel.id))?.status).toBe('deleted');
  });

  it('creates a gift-with-purchase promotion on the shop (an add-on deal with a gift)', async () => {
    const created = data<Detail>(
      await call('POST', `${BASE}/gifts`, seller.token, {
        store_id: storeId,
        name: 'Spend 100, get a gift',
        start_at: later(2 * hour),
        end_at: later(26 * hour),
        gift_type: 'order_spend',
        spending_type: 'exclude_total',
        min_spend: '100.00',
        order_limit: 50,
        sku_selection: 'selected',
        main_skus: [{ item_id: items[0]!.itemId }],
        gifts: [{ item_id: items[1]!.itemId, quantity: 1 }],
      }),
    );
    const pushed = await pushedDetail(created.id);
    expect(pushed.channel.state, pushed.channel.error ?? '').toBe('pushed');
    const deal = sandbox.addOnDealOf(shopId, Number(pushed.channel.id));
    expect(deal).toMatchObject({
      status: 'active',
      main_items: [Number(items[0]!.itemId)],
      purchase_min_spend: 100,
    });
  });

  it('never creates a discount twice: a retried push finds the channel id recorded', async () => {
    const created = data<Detail>(
      await call('POST', `${BASE}/discounts`, seller.token, {
        store_id: storeId,
        name: 'Once only',
        start_at: later(2 * hour),
        end_at: later(4 * hour),
        items: [{ item_id: items[1]!.itemId, discount: 10 }],
      }),
    );
    const pushed = await pushedDetail(created.id);
    const creations = () =>
      sandbox.requests.filter((request) => request.path.endsWith('/discount/add_discount')).length;
    const before = creations();
    // What a worker restarted mid-push runs again: the same activity, for the same promotion.
    const again = await pushPromotionToChannel(
      { db: api.database.db, store: api.store, channelOf: (store) => channelFor(api.database.db, store) },
      { tenantId: seller.tenantId, promotionId: created.id, attempt: 2, last: false },
    );
    expect(again).toBe('pushed');
    expect(creations()).toBe(before);
    const { state } = await promotions.load(api.store, seller.tenantId, created.id);
    expect(state.channel.id).toBe(pushed.channel.id);
  });
});
