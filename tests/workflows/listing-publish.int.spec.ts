import { randomUUID } from 'node:crypto';
import type { CategoryChoice, ListingDetail } from '@api/contracts/listings';
import { type ChannelItem, channelFor } from '@integrations/channel';
import type { ShopeeSandbox } from '@integrations/shopee';
import { findStore, type StoreSettings, StoreTokenStore } from '@integrations/stores';
import { listingCalls, PIXEL_PNG, twoTierListing, uploadImage } from '@tests/api/listings-support';
import { startStoreSandbox } from '@tests/api/stores-support';
import { createSeller, createTestApi, type TestApi, type TestSeller } from '@tests/support/api';
import { waitFor } from '@tests/support/wait';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stockCalls } from '../api/inventory/stock-api';

/**
 * Issue 15, publishing as a saga against the Shopee sandbox with the real worker: a listing with two tiers goes to
 * two stores, each by a workflow of its own, and both shops hold the item with its four models, the store's ids
 * written to channel_skus with the listing and the master code; a channel failure inside the creation, retried,
 * leaves one item, not two; a store failing for good is marked and leaves the other store's publication alone.
 */
describe('listing publish saga', () => {
  let api: TestApi;
  let seller: TestSeller;
  let sandbox: ShopeeSandbox;
  let settings: StoreSettings;
  let restore: () => void;
  const l = listingCalls(() => api);
  const shops: { id: string; shopId: number }[] = [];
  let image: { id: string };
  /** A listing of `prefix` SKUs for `storeIds`, its picture uploaded to Kedai (the channel gets its bytes). */
  const listing = (storeIds: string[], prefix: string, masterCodeId: string | null = null) => ({
    ...twoTierListing(storeIds, prefix, masterCodeId),
    images: [image],
  });

  beforeAll(async () => {
    ({ sandbox, settings, restore } = await startStoreSandbox());
    api = await createTestApi({ workflows: true });
    seller = await createSeller(api);
    for (const name of ['Sandbox A', 'Sandbox B']) {
      const shop = sandbox.createShop({ name });
      const id = randomUUID();
      await api.database.db
        .insertInto('stores')
        .values({
          id,
          tenant_id: seller.tenantId,
          platform: 'shopee',
          name,
          shop_id: shop.shopId,
          region: 'MY',
          status: 'connected',
          connected_at: new Date(),
        })
        .execute();
      await new StoreTokenStore(api.database.db, {
        tenantId: seller.tenantId,
        storeId: id,
        shopId: shop.shopId,
      }).save(shop.shopId, sandbox.issueTokens(settings.shopee.partnerId, shop.shopId));
      shops.push({ id, shopId: shop.shopId });
    }
    image = { id: (await uploadImage(api, seller.token, PIXEL_PNG)).json().data.id };
  });
  afterAll(async () => {
    await api?.close();
    await sandbox?.stop();
    restore?.();
  });

  /** The shop's items selling any of `skus`, as the channel reads them back. */
  async function itemsWith(storeId: string, skus: string[]): Promise<ChannelItem[]> {
    const store = (await findStore(api.database.db, seller.tenantId, storeId))!;
    const channel = channelFor(api.database.db, store);
    const found: ChannelItem[] = [];
    let page: string | undefined;
    do {
      const listed = await channel.listItems(page);
      if (listed.items.length > 0) {
        const items = await channel.getItems(listed.items.map((item) => item.itemId));
        found.push(...items.filter((item) => item.models.some((model) => skus.includes(model.sellerSku))));
      }
      page = listed.next;
    } while (page);
    return found;
  }

  const settled = async (id: string) =>
    waitFor(
      async () => {
        const detail = l.detail(await l.get(seller.token, id)) as ListingDetail;
        return detail.stores.every((store) => store.running === null) ? detail : undefined;
      },
      { timeoutMs: 60_000 },
    );

  it('publishes a listing with two tiers to two stores, each with its four models, linked in channel_skus', async () => {
    const code = await stockCalls(() => api).masterCode(seller.token, 'BATIK-RED-M');
    const id = randomUUID();
    const body = listing(
      shops.map((shop) => shop.id),
      'PUB',
      code.id,
    );
    expect((await l.save(seller.token, id, body)).statusCode).toBe(200);
    const started = await l.publish(seller.token, id);
    expect(started.statusCode, started.body).toBe(200);
    expect(l.detail(started).stores.map((store) => store.running)).toEqual(['publish', 'publish']);
    // Asked again while running (a double click): the same run, by its id, so nothing is published twice.
    const again = await l.publish(seller.token, id, { store_ids: [shops[0]!.id] });
    expect(again.statusCode, again.body).toBe(200);

    const done = await settled(id);
    expect(done.stores.map((store) => [store.listed, store.error])).toEqual([
      [true, null],
      [true, null],
    ]);
    const skus = body.skus.map((sku) => sku.seller_sku);
    for (const shop of shops) {
      const items = await itemsWith(shop.id, skus);
      expect(items).toHaveLength(1);
      const [item] = items;
      expect(item!.tiers).toEqual([
        { name: 'Colour', options: ['Red', 'Blue'] },
        { name: 'Size', options: ['M', 'L'] },
      ]);
      expect(
        item!.models.map((model) => [model.sellerSku, model.tierIndex, model.price, model.stock]).sort(),
      ).toEqual([
        ['PUB-BL', [1, 1], '39.90', 10],
        ['PUB-BM', [1, 0], '39.90', 10],
        ['PUB-RL', [0, 1], '39.90', 10],
        ['PUB-RM', [0, 0], '39.90', 10],
      ]);
      const rows = await api.database.db
        .selectFrom('channel_skus')
        .selectAll()
        .where('tenant_id', '=', seller.tenantId)
        .where('store_id', '=', shop.id)
        .where('listing_id', '=', id)
        .orderBy('seller_sku')
        .execute();
      expect(rows.map((row) => [row.seller_sku, row.item_id, row.master_code_id])).toEqual(
        ['PUB-BL', 'PUB-BM', 'PUB-RL', 'PUB-RM'].map((sku) => [
          sku,
          item!.itemId,
          sku === 'PUB-RM' ? code.id : null,
        ]),
      );
      expect(new Set(rows.map((row) => row.model_id))).toEqual(
        new Set(item!.models.map((model) => model.modelId)),
      );
    }
  });

  it('retries a creation the channel failed half-way and ends with one item, not two', async () => {
    const id = randomUUID();
    const body = listing([shops[0]!.id], 'ONCE');
    expect((await l.save(seller.token, id, body)).statusCode).toBe(200);
    // The item is added, then its variants fail once with a server error: the activity is tried again.
    sandbox.failNext({ kind: '5xx', path: '/api/v2/product/init_tier_variation' });
    expect((await l.publish(seller.token, id)).statusCode).toBe(200);
    const done = await settled(id);
    expect(done.stores[0]).toMatchObject({ listed: true, error: null });
    const items = await itemsWith(
      shops[0]!.id,
      body.skus.map((sku) => sku.seller_sku),
    );
    expect(items).toHaveLength(1);
    expect(items[0]!.models).toHaveLength(4);
  });

  it('takes the item a lost run left on the shop (by seller SKU) rather than adding another, with its attributes and brand', async () => {
    const shop = shops[1]!;
    const snacks = (
      await l.call('GET', `/api/listings/category?store_id=${shop.id}&category_id=100631`, seller.token)
    ).json().data as CategoryChoice;
    const chosen = snacks.attributes
      .filter((attribute) => attribute.mandatory)
      .map((attribute) => ({ id: attribute.id, value: attribute.values[0]! }));
    const mamee = snacks.brands.find((brand) => brand.name === 'Mamee')!;
    const id = randomUUID();
    const body = {
      ...listing([shop.id], 'LOST'),
      category_id: '100631',
      brand: mamee.name,
      brand_id: mamee.id,
      attributes: chosen.map(({ id, value }) => ({
        attribute_id: id,
        values: [{ value_id: value.id, name: value.name }],
      })),
    };
    expect((await l.save(seller.token, id, body)).statusCode).toBe(200);
    // A run that died once Shopee's add_item had answered: the item is on the shop, never recorded by Kedai.
    const channel = channelFor(
      api.database.db,
      (await findStore(api.database.db, seller.tenantId, shop.id))!,
    );
    const lost = await channel.createItem({
      name: 'Batik shirt',
      description: 'half made',
      categoryId: '100631',
      brand: mamee.name,
      brandId: mamee.id,
      attributes: chosen.map(({ id, value }) => ({
        attributeId: id,
        values: [{ valueId: value.id, name: value.name }],
      })),
      images: [`data:image/png;base64,${PIXEL_PNG.toString('base64')}`],
      weightKg: 0.3,
      logistics: ['20011'],
      sellerSku: body.skus[0]!.seller_sku,
      price: '39.90',
      stock: 0,
      tiers: [],
      models: [],
    });
    expect((await l.publish(seller.token, id)).statusCode).toBe(200);
    const done = await settled(id);
    expect(done.stores[0]).toMatchObject({ listed: true, error: null, item_id: lost.itemId });
    const items = await itemsWith(
      shop.id,
      body.skus.map((sku) => sku.seller_sku),
    );
    expect(items.map((item) => [item.itemId, item.brand, item.models.length])).toEqual([
      [lost.itemId, 'Mamee', 4],
    ]);
  });

  it('marks a store that fails for good and leaves the other store published', async () => {
    const id = randomUUID();
    const body = listing(
      shops.map((shop) => shop.id),
      'HALF',
    );
    expect((await l.save(seller.token, id, body)).statusCode).toBe(200);
    // Shopee refuses every price update (a request error: not worth retrying), on whichever store asks first.
    sandbox.failNext({
      kind: 'error',
      path: '/api/v2/product/update_price',
      error: 'error_param',
      status: 400,
      message: 'price refused',
    });
    expect((await l.publish(seller.token, id)).statusCode).toBe(200);
    const done = await settled(id);
    const failed = done.stores.filter((store) => store.error !== null);
    const published = done.stores.filter((store) => store.error === null);
    expect(failed).toHaveLength(1);
    expect(published).toHaveLength(1);
    expect(published[0]).toMatchObject({ listed: true });
    // The half-made item was deleted from the failed store (the undo), so nothing is left there.
    expect(failed[0]).toMatchObject({ item_left: null, item_id: null, actions: ['publish'] });
    const skus = body.skus.map((sku) => sku.seller_sku);
    expect(await itemsWith(failed[0]!.store_id, skus)).toHaveLength(0);
    expect(await itemsWith(published[0]!.store_id, skus)).toHaveLength(1);
  });

  it("imports a store's item into a draft listing, its SKUs linked to the master codes they sell", async () => {
    const [item] = await itemsWith(shops[0]!.id, ['PUB-RM']);
    const code = await api.database.db
      .selectFrom('master_codes')
      .select('id')
      .where('tenant_id', '=', seller.tenantId)
      .where('code', '=', 'BATIK-RED-M')
      .executeTakeFirstOrThrow();
    const imported = await l.call('POST', '/api/listings/import', seller.token, {
      store_id: shops[0]!.id,
      item_id: item!.itemId,
      logistics: ['20011'],
    });
    expect(imported.statusCode, imported.body).toBe(200);
    const draft = l.detail(imported);
    expect(draft).toMatchObject({ status: 'draft', product_name: 'Batik shirt', store_ids: [shops[0]!.id] });
    expect(draft.tiers.map((tier) => tier.name)).toEqual(['Colour', 'Size']);
    expect(draft.skus.map((sku) => [sku.seller_sku, sku.master_code?.id ?? null]).sort()).toEqual([
      ['PUB-BL', null],
      ['PUB-BM', null],
      ['PUB-RL', null],
      ['PUB-RM', code.id],
    ]);
    // Another account's store is not found.
    const other = await createSeller(api);
    const refused = await l.call('POST', '/api/listings/import', other.token, {
      store_id: shops[0]!.id,
      item_id: item!.itemId,
      logistics: ['20011'],
    });
    expect(refused.json()).toMatchObject({ code: 718 });
  });
});
