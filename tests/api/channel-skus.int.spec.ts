import { randomUUID } from 'node:crypto';
import { recordChannelSkus } from '@commands/channels/channel-skus';
import { beginDownload, downloadItemPage, finishDownload, skusOfItem } from '@commands/channels/download';
import type { ChannelItem, ChannelPort } from '@integrations/channel/port';
import {
  type Catalogue,
  importOrder,
  line,
  marketplaceOrder,
  seedCatalogue,
  settle,
} from '@tests/api/orders-support';
import {
  caller,
  createSeller,
  createSubUser,
  createTestApi,
  type TestApi,
  type TestSeller,
} from '@tests/support/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Issue 15: a store's channel SKUs linked to master codes by the order import's rule and kept right when that
 * rule's inputs change (a mapping, a master code created or edited, a link by hand), the master code's bound flag,
 * the link grid, and a download's last step mapping the store's waiting "item not found" orders.
 */
describe('channel SKUs and their links', () => {
  let api: TestApi;
  let seller: TestSeller;
  let other: TestSeller;
  let catalogue: Catalogue;
  let storeId: string;
  const call = caller(() => api);

  const addStore = async (tenantId: string, name: string) => {
    const id = randomUUID();
    await api.database.db
      .insertInto('stores')
      .values({
        id,
        tenant_id: tenantId,
        platform: 'shopee',
        name,
        shop_id: Math.floor(Math.random() * 1e9),
        region: 'MY',
        status: 'connected',
        connected_at: new Date(),
      })
      .execute();
    return id;
  };

  const linkOf = async (itemId: string, modelId = '', store = storeId) =>
    (
      await api.database.db
        .selectFrom('channel_skus')
        .select('master_code_id')
        .where('tenant_id', '=', seller.tenantId)
        .where('store_id', '=', store)
        .where('item_id', '=', itemId)
        .where('model_id', '=', modelId)
        .executeTakeFirstOrThrow()
    ).master_code_id;

  const sku = (sellerSku: string, modelId?: string) => ({
    ...(modelId ? { modelId } : {}),
    sellerSku,
    price: '12.90',
    stock: 5,
  });

  const record = (itemId: string, models: ReturnType<typeof sku>[], store = storeId) =>
    recordChannelSkus(
      { db: api.database.db, store: api.store },
      {
        tenantId: seller.tenantId,
        storeId: store,
        itemId,
        itemName: `Item ${itemId}`,
        models,
      },
    );

  beforeAll(async () => {
    api = await createTestApi();
    seller = await createSeller(api, { packageId: 'growth' });
    other = await createSeller(api, { packageId: 'growth' });
    catalogue = await seedCatalogue(api, seller.tenantId);
    storeId = await addStore(seller.tenantId, 'Kedai Batik');
  });
  afterAll(async () => {
    await api?.close();
  });

  it('links each SKU by seller SKU, then code; an unknown SKU stays unlinked; a model gone is removed', async () => {
    const counted = await record('100', [
      sku('BATIK-01', 'm1'),
      sku('SONGKET', 'm2'),
      sku('NOBODY', 'm3'),
      sku('GIFT-SET', 'm4'),
    ]);
    expect(counted).toEqual({ skus: 4, linked: 3 });
    expect(await linkOf('100', 'm1')).toBe(catalogue.batik);
    expect(await linkOf('100', 'm2')).toBe(catalogue.songket);
    expect(await linkOf('100', 'm3')).toBeNull();
    expect(await linkOf('100', 'm4')).toBe(catalogue.gift);

    expect(await record('100', [sku('BATIK-01', 'm1')])).toEqual({ skus: 1, linked: 1 });
    // Another account's rows are its own: a SKU of theirs never links to this seller's master codes.
    const theirs = await addStore(other.tenantId, 'Theirs');
    await recordChannelSkus(
      { db: api.database.db, store: api.store },
      {
        tenantId: other.tenantId,
        storeId: theirs,
        itemId: '1',
        itemName: 'x',
        models: [sku('BATIK-01')],
      },
    );
    const row = await api.database.db
      .selectFrom('channel_skus')
      .select('master_code_id')
      .where('tenant_id', '=', other.tenantId)
      .executeTakeFirstOrThrow();
    expect(row.master_code_id).toBeNull();
  });

  it("follows a master code created or edited, and shows it bound on the master code's list", async () => {
    await record('200', [sku('TENUN-01')]);
    expect(await linkOf('200')).toBeNull();
    const created = await call('POST', '/api/inventory/master-code', seller.token, {
      code: 'TENUN',
      name: 'Tenun cloth',
      type: 'standard',
      seller_sku: 'TENUN-01',
    });
    expect(created.statusCode, created.body).toBe(200);
    const tenun = created.json().data.id as string;
    expect(await linkOf('200')).toBe(tenun);
    const detail = await call('GET', `/api/inventory/master-code/${tenun}`, seller.token);
    expect(detail.json().data.bound).toBe(true);

    const list = async (values: string[]) => {
      const filterModel = JSON.stringify({ bound: { filterType: 'set', values } });
      const answer = await call(
        'GET',
        `/api/inventory/master-code?filterModel=${encodeURIComponent(filterModel)}`,
        seller.token,
      );
      expect(answer.statusCode, answer.body).toBe(200);
      return (answer.json().data.rows as { code: string; bound: boolean }[]).map((row) => row.code).sort();
    };
    expect(await list(['bound'])).toEqual(['BATIK', 'TENUN']);
    expect(await list(['unbound'])).toEqual(['GIFT', 'SONGKET']);

    // Bound: its code no longer changes; its seller SKU may, and the link follows.
    const recode = await call('PUT', `/api/inventory/master-code/${tenun}`, seller.token, {
      code: 'TENUN-X',
    });
    expect(recode.statusCode).toBe(409);
    const moved = await call('PUT', `/api/inventory/master-code/${tenun}`, seller.token, {
      seller_sku: 'TENUN-02',
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(await linkOf('200')).toBeNull();
    expect(moved.json().data.bound).toBe(false);
    expect(await list(['unbound'])).toEqual(['GIFT', 'SONGKET', 'TENUN']);
  });

  it('follows a mapping made on an order line ("item not found")', async () => {
    await record('300', [sku('KAIN-LAMA')]);
    const orderId = await importOrder(
      api,
      seller.tenantId,
      catalogue.warehouseId,
      marketplaceOrder([line('KAIN-LAMA', 1)]),
      storeId,
    );
    await settle(api);
    const order = (await call('GET', `/api/orders/${orderId}`, seller.token)).json().data;
    const mapped = await call(
      'POST',
      `/api/orders/${orderId}/lines/${order.lines[0].line_id}/map`,
      seller.token,
      {
        master_code_id: catalogue.songket,
      },
    );
    expect(mapped.statusCode, mapped.body).toBe(200);
    expect(await linkOf('300')).toBe(catalogue.songket);
  });

  it('links and unlinks by hand, mapping the waiting orders of that SKU; a SKU match cannot be unlinked', async () => {
    await record('400', [sku('RARE-1')]);
    const orderId = await importOrder(
      api,
      seller.tenantId,
      catalogue.warehouseId,
      marketplaceOrder([line('RARE-1', 2)]),
      storeId,
    );
    await settle(api);
    const lineOf = async () => (await call('GET', `/api/orders/${orderId}`, seller.token)).json().data;
    expect((await lineOf()).item_not_found).toBe(true);

    const key = { store_id: storeId, item_id: '400' };
    const linked = await call('POST', '/api/products/channel-skus/link', seller.token, {
      ...key,
      master_code_id: catalogue.batik,
    });
    expect(linked.statusCode, linked.body).toBe(200);
    expect(linked.json().data).toMatchObject({
      orders_mapped: 1,
      sku: {
        seller_sku: 'RARE-1',
        master_code: { id: catalogue.batik, code: 'BATIK' },
        linked_by: 'mapping',
      },
    });
    await settle(api);
    expect((await lineOf()).item_not_found).toBe(false);
    expect((await lineOf()).lines[0].master_code.id).toBe(catalogue.batik);

    const grid = async (values: string[]) => {
      const filterModel = JSON.stringify({ linked: { filterType: 'set', values } });
      const answer = await call(
        'GET',
        `/api/products/channel-skus?filterModel=${encodeURIComponent(filterModel)}`,
        seller.token,
      );
      expect(answer.statusCode, answer.body).toBe(200);
      return (answer.json().data.rows as { seller_sku: string }[]).map((row) => row.seller_sku).sort();
    };
    expect(await grid(['unlinked'])).toEqual(['TENUN-01']);
    expect(await grid(['linked'])).toContain('RARE-1');

    const unlinked = await call('POST', '/api/products/channel-skus/unlink', seller.token, key);
    expect(unlinked.statusCode, unlinked.body).toBe(200);
    expect(unlinked.json().data.sku.master_code).toBeNull();
    expect(await linkOf('400')).toBeNull();

    const bySku = await call('POST', '/api/products/channel-skus/unlink', seller.token, {
      store_id: storeId,
      item_id: '100',
      model_id: 'm1',
    });
    expect(bySku.statusCode).toBe(409);
    expect(bySku.json()).toMatchObject({ code: 735 });
    expect(bySku.json().msg).toContain('BATIK');
    expect(await linkOf('100', 'm1')).toBe(catalogue.batik);
  });

  it('refuses bad input with the 73x codes and changes nothing', async () => {
    const cases: [string, unknown, number, number][] = [
      [
        '/api/products/channel-skus/link',
        { store_id: storeId, item_id: 'none', master_code_id: catalogue.batik },
        404,
        730,
      ],
      [
        '/api/products/channel-skus/link',
        { store_id: storeId, item_id: '400', master_code_id: randomUUID() },
        404,
        734,
      ],
      ['/api/products/channel-skus/link', { store_id: storeId, item_id: '400' }, 400, 736],
      ['/api/products/download-status', { store_ids: [] }, 400, 733],
      ['/api/products/download-status', { store_ids: [storeId, storeId] }, 400, 733],
      [
        '/api/products/download-status',
        { store_ids: Array.from({ length: 21 }, () => randomUUID()) },
        400,
        733,
      ],
      ['/api/products/download-status', { store_ids: [randomUUID()] }, 404, 731],
    ];
    for (const [url, body, status, code] of cases) {
      const answer = await call('POST', url, seller.token, body);
      expect(answer.statusCode, `${url} ${JSON.stringify(body)}: ${answer.body}`).toBe(status);
      expect(answer.json().code).toBe(code);
    }
    // Another account's store is missing to this one.
    const theirs = await addStore(other.tenantId, 'Not yours');
    const foreign = await call('POST', '/api/products/download-status', seller.token, {
      store_ids: [theirs],
    });
    expect(foreign.statusCode).toBe(404);
    expect(await linkOf('400')).toBeNull();
  });

  it('needs listings-index to read and listings-manage to link', async () => {
    const reader = await createSubUser(api, seller.tenantId, ['listings-index']);
    expect((await call('GET', '/api/products/channel-skus', reader.token)).statusCode).toBe(200);
    expect((await call('GET', '/api/products/download-status', reader.token)).statusCode).toBe(200);
    const link = await call('POST', '/api/products/channel-skus/link', reader.token, {
      store_id: storeId,
      item_id: '400',
      master_code_id: catalogue.batik,
    });
    expect(link.statusCode).toBe(403);
    expect(await linkOf('400')).toBeNull();
  });

  it("a download records the channel's items, drops what it no longer has and maps the waiting orders", async () => {
    const store = await addStore(seller.tenantId, 'Kedai Songket');
    const items: ChannelItem[] = [
      {
        itemId: '900',
        name: 'Songket scarf',
        sellerSku: '',
        status: 'normal',
        categoryId: '1',
        description: '',
        images: [],
        price: '0',
        stock: 0,
        tiers: [{ name: 'Colour', options: ['Red', 'Gold', 'Blue'] }],
        models: [
          { modelId: '901', tierIndex: [0], sellerSku: 'SONGKET-01', price: '59.00', stock: 3 },
          { modelId: '902', tierIndex: [1], sellerSku: 'SONGKET-GOLD', price: '69.00', stock: 1 },
          { modelId: '903', tierIndex: [2], sellerSku: 'SONGKET-BLUE', price: '69.00', stock: 0 },
        ],
        updatedAt: 0,
      },
      {
        itemId: '910',
        name: 'Batik sarong',
        sellerSku: 'BATIK-01',
        status: 'unlisted',
        categoryId: '1',
        description: '',
        images: [],
        price: '25.00',
        stock: 7,
        tiers: [],
        models: [],
        updatedAt: 0,
      },
    ];
    expect(skusOfItem(items[0]!).map((each) => each.modelName)).toEqual(['Red', 'Gold', 'Blue']);
    // The channel as the port gives it: two pages of one item each.
    const channel = {
      listItems: async (page?: string) =>
        page === undefined
          ? { items: [{ itemId: '900', updatedAt: 0 }], next: 'p2' }
          : { items: [{ itemId: '910', updatedAt: 0 }] },
      getItems: async (ids: string[]) => items.filter((item) => ids.includes(item.itemId)),
    } as Pick<ChannelPort, 'listItems' | 'getItems'> as ChannelPort;
    // An order of a SKU no master code had when it came in: "item not found", waiting.
    const waiting = await importOrder(
      api,
      seller.tenantId,
      catalogue.warehouseId,
      marketplaceOrder([line('SONGKET-GOLD', 1, { sku: '' })]),
      store,
    );
    await settle(api);
    const board = async () => (await call('GET', `/api/orders/${waiting}`, seller.token)).json().data;
    expect((await board()).item_not_found).toBe(true);
    // The seller adds its master code (as a catalogue upload would, without touching the channel SKUs).
    const gold = randomUUID();
    await api.database.db
      .insertInto('master_codes')
      .values({
        id: gold,
        tenant_id: seller.tenantId,
        code: 'SONGKET-G',
        name: 'Songket gold',
        type: 'standard',
        seller_sku: 'SONGKET-GOLD',
      })
      .execute();
    // A SKU the channel had before and no longer has.
    await record('800', [sku('OLD-1')], store);
    const { startedAt } = await beginDownload(api.database.db, seller.tenantId, store);
    const ids = { tenantId: seller.tenantId, storeId: store };
    const first = await downloadItemPage({ db: api.database.db, store: api.store }, channel, {
      ...ids,
      cursor: '',
    });
    expect(first).toEqual({ next: 'p2', items: 1 });
    expect(
      await downloadItemPage({ db: api.database.db, store: api.store }, channel, { ...ids, cursor: 'p2' }),
    ).toEqual({ items: 1 });
    const done = await finishDownload({ db: api.database.db, store: api.store }, { ...ids, startedAt });
    expect(done).toEqual({ counts: { items: 2, skus: 4, linked: 3, unlinked: 1 }, ordersMapped: 1 });
    await settle(api);
    expect((await board()).item_not_found).toBe(false);
    expect((await board()).lines[0].master_code.id).toBe(gold);

    const status = (await call('GET', '/api/products/download-status', seller.token)).json().data as {
      store: { id: string };
      status: string;
      skus: number;
    }[];
    expect(status.find((each) => each.store.id === store)).toMatchObject({ status: 'completed', skus: 4 });
    expect(status.find((each) => each.store.id === storeId)).toMatchObject({ status: 'new', skus: 0 });
    expect(await linkOf('901', '', store).catch(() => 'absent')).toBe('absent');
    expect(await linkOf('900', '901', store)).toBe(catalogue.songket);
    expect(await linkOf('910', '', store)).toBe(catalogue.batik);
    expect(await linkOf('800', '', store).catch(() => 'absent')).toBe('absent');
  });
});
