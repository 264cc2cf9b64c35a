import { randomUUID } from 'node:crypto';
import { PROMOTION_CATEGORY } from '@domain/promotions/promotion';
import {
  bearer,
  createSeller,
  createSubUser,
  createTestApi,
  type TestApi,
  type TestSeller,
} from '@tests/support/api';
import { waitFor } from '@tests/support/wait';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { data, gridParams } from './inventory/inventory-api';
import { expectRefusal, stockCalls } from './inventory/stock-api';

/**
 * Issue 15 item 6 through the API, without a channel (the push to the Shopee sandbox is in
 * promotions-channel.int.spec.ts): every §5 Promotions rule refused with its code and nothing recorded, a discount
 * and a gift promotion created and listed with their status, stopping, the store's price rule and its preview,
 * another tenant's store and promotions out of reach, and each route's permission key.
 */

interface Detail {
  id: string;
  kind: string;
  name: string;
  status: string;
  channel: { state: string };
  discount: {
    items: { seller_sku: string; promo_price: string; discount: number; original_price: string }[];
  } | null;
  gift: { spending_type: string; gifts: { seller_sku: string; quantity: number }[] } | null;
  actions: { stop: boolean };
}

const BASE = '/api/promotions';
const hour = 60 * 60 * 1000;
const later = (ms: number) => new Date(Date.now() + ms).toISOString();

describe('promotions and price control', () => {
  let api: TestApi;
  let seller: TestSeller;
  let other: TestSeller;
  const stock = stockCalls(() => api);
  const call = stock.call;
  let storeId: string;
  let otherStoreId: string;
  let manager: string;
  let viewer: string;
  let controller: string;

  /** A connected store of the account with channel SKUs (as download writes them), linked to master codes. */
  async function storeWith(
    tenantId: string,
    skus: {
      item: string;
      model: string;
      sku: string;
      price: string;
      masterCodeId?: string;
      stock?: number;
    }[],
  ) {
    const id = randomUUID();
    await api.database.db
      .insertInto('stores')
      .values({
        id,
        tenant_id: tenantId,
        platform: 'shopee',
        name: `Shop ${id.slice(0, 4)}`,
        shop_id: Math.floor(Math.random() * 1e9),
        region: 'MY',
        status: 'connected',
        connected_at: new Date(),
      })
      .execute();
    if (skus.length > 0)
      await api.database.db
        .insertInto('channel_skus')
        .values(
          skus.map((sku) => ({
            tenant_id: tenantId,
            store_id: id,
            item_id: sku.item,
            model_id: sku.model,
            seller_sku: sku.sku,
            item_name: `Item ${sku.item}`,
            model_name: sku.model,
            price: sku.price,
            channel_stock: sku.stock ?? 0,
            master_code_id: sku.masterCodeId ?? null,
          })),
        )
        .execute();
    return id;
  }

  beforeAll(async () => {
    api = await createTestApi();
    [seller, other] = await Promise.all([createSeller(api, { packageId: 'growth' }), createSeller(api)]);
    const main = await stock.warehouse(seller.token, 'MAIN');
    const batik = await stock.masterCode(seller.token, 'BATIK', { unit_price: '10.00' });
    const songket = await stock.masterCode(seller.token, 'SONGKET', { unit_price: '25.50' });
    data(
      await stock.receive(seller.token, { master_code_id: batik.id, warehouse_id: main.id, quantity: 10 }),
    );
    await stock.settle(seller.tenantId);
    storeId = await storeWith(seller.tenantId, [
      { item: '1001', model: '1', sku: 'BATIK-RED', price: '100.00', masterCodeId: batik.id },
      { item: '1002', model: '', sku: 'SONGKET', price: '30.00', masterCodeId: songket.id },
      { item: '1003', model: '', sku: 'LOOSE', price: '5.00', stock: 4 },
    ]);
    otherStoreId = await storeWith(other.tenantId, [
      { item: '9001', model: '', sku: 'THEIRS', price: '50.00' },
    ]);
    manager = (await createSubUser(api, seller.tenantId, ['listings-manage'])).token;
    viewer = (await createSubUser(api, seller.tenantId, ['listings-index'])).token;
    controller = (await createSubUser(api, seller.tenantId, ['marketplace_control'])).token;
  });
  afterAll(async () => {
    await api?.close();
  });

  const discount = (extra: Record<string, unknown> = {}) => ({
    store_id: storeId,
    name: 'Year-end sale',
    start_at: later(hour),
    end_at: later(3 * hour),
    items: [{ item_id: '1001', model_id: '1', promo_price: '79.90', purchase_limit: 2, promo_stock: 5 }],
    ...extra,
  });
  const promotionEvents = async (tenantId: string) =>
    Number(
      (
        await api.database.db
          .selectFrom('es_events')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('stream_id', 'like', `${PROMOTION_CATEGORY}-${tenantId}.%`)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const list = async (token: string, kind: string, extra: Record<string, unknown> = {}) => {
    await api.engine.catchUp('promotions');
    return data<{ rows: { id: string; status: string; name: string }[]; lastRow: number }>(
      await call('GET', `${BASE}?${gridParams({ kind, ...extra })}`, token),
    );
  };

  describe('§5 Promotions rules: each refused with its code, nothing recorded', () => {
    const cases: [string, Record<string, unknown>, number, string][] = [
      ['name missing', { name: undefined }, 760, 'Promo name is required.'],
      ['name blank', { name: '   ' }, 760, 'Promo name is required.'],
      ['start missing', { start_at: undefined }, 761, 'Start time is required.'],
      ['end missing', { end_at: undefined }, 762, 'End time is required.'],
      ['start not later than now', { start_at: later(-60_000) }, 763, 'Start time must be later than now.'],
      [
        'end before start',
        { start_at: later(3 * hour), end_at: later(2 * hour) },
        764,
        'End time must not be earlier than the start time.',
      ],
      [
        'end equal to start',
        { start_at: later(hour), end_at: later(hour) },
        765,
        'End time must not be the same as the start time.',
      ],
      [
        'promo ending within an hour',
        { start_at: later(hour), end_at: later(hour + 59 * 60_000) },
        766,
        'End time must be at least 1 hour after the start time.',
      ],
      [
        'sale stock above available',
        { items: [{ item_id: '1001', model_id: '1', promo_price: '79.90', promo_stock: 11 }] },
        767,
        'Line 1 (BATIK-RED): the sale stock must not exceed the available stock (10).',
      ],
      [
        'sale price at the original',
        { items: [{ item_id: '1001', model_id: '1', promo_price: '100.00' }] },
        768,
        'Line 1 (BATIK-RED): the sale price must be above 0 and below the original price 100.00.',
      ],
      [
        'discount out of range',
        { items: [{ item_id: '1001', model_id: '1', discount: 100 }] },
        769,
        'Line 1 (BATIK-RED): the discount must be from 1% to 99%.',
      ],
      ['no SKU', { items: [] }, 772, 'Please select at least one SKU.'],
      [
        'a SKU the store does not sell',
        { items: [{ item_id: '9001', promo_price: '1.00' }] },
        771,
        'The SKU 9001 is not sold by this store.',
      ],
    ];
    for (const [what, change, code, msg] of cases)
      it(what, async () => {
        const before = await promotionEvents(seller.tenantId);
        const answer = expectRefusal(
          await call('POST', `${BASE}/discounts`, manager, discount(change)),
          400,
          code,
        );
        expect(answer.msg).toBe(msg);
        expect(await promotionEvents(seller.tenantId)).toBe(before);
      });

    it('names every broken rule of one request at once', async () => {
      const answer = expectRefusal(
        await call('POST', `${BASE}/discounts`, manager, discount({ name: '', start_at: later(-1000) })),
        400,
        760,
      );
      expect(answer.errors?.map((error) => error.path)).toEqual(['body/name', 'body/start_at']);
    });

    it('counts unlinked SKUs by the stock the channel shows', async () => {
      expectRefusal(
        await call(
          'POST',
          `${BASE}/discounts`,
          manager,
          discount({ items: [{ item_id: '1003', promo_price: '4.00', promo_stock: 5 }] }),
        ),
        400,
        767,
      );
    });
  });

  it('creates a discount promotion, upcoming, with the discount worked out; the list shows it', async () => {
    const response = await call(
      'POST',
      `${BASE}/discounts`,
      manager,
      discount({
        items: [
          { item_id: '1001', model_id: '1', promo_price: '79.90', purchase_limit: 2, promo_stock: 10 },
          { item_id: '1002', discount: 10 },
        ],
      }),
    );
    const detail = data<Detail>(response);
    expect(detail).toMatchObject({
      kind: 'discount',
      name: 'Year-end sale',
      status: 'upcoming',
      channel: { state: 'pending' },
    });
    expect(detail.discount?.items).toEqual([
      expect.objectContaining({
        seller_sku: 'BATIK-RED',
        original_price: '100.00',
        promo_price: '79.90',
        discount: 20,
      }),
      expect.objectContaining({
        seller_sku: 'SONGKET',
        original_price: '30.00',
        promo_price: '27.00',
        discount: 10,
      }),
    ]);
    expect(detail.actions.stop).toBe(true);
    await waitFor(async () => (await list(viewer, 'discount')).rows.some((row) => row.id === detail.id), {
      what: 'the promotion in the list',
    });
    const upcoming = await list(viewer, 'discount', {
      filterModel: JSON.stringify({ status: { filterType: 'set', values: ['upcoming'] } }),
    });
    expect(upcoming.rows.map((row) => row.id)).toContain(detail.id);
    expect((await list(viewer, 'gift')).rows.map((row) => row.id)).not.toContain(detail.id);
  });

  it('makes one promotion of a retried create (the same idempotency key)', async () => {
    const key = { 'idempotency-key': `discount-${randomUUID()}` };
    const first = await api.app.inject({
      method: 'POST',
      url: `${BASE}/discounts`,
      headers: { ...bearer(manager), ...key },
      payload: discount(),
    });
    const again = await api.app.inject({
      method: 'POST',
      url: `${BASE}/discounts`,
      headers: { ...bearer(manager), ...key },
      payload: discount(),
    });
    expect(data<Detail>(again).id).toBe(data<Detail>(first).id);
    expect(again.headers['idempotent-replayed']).toBe('true');
  });

  it('stops a promotion; a stopped one shows stopped and offers no stop', async () => {
    const { id } = data<Detail>(await call('POST', `${BASE}/discounts`, manager, discount()));
    const stopped = data<Detail>(await call('POST', `${BASE}/${id}/stop`, manager));
    expect(stopped).toMatchObject({ status: 'stopped', actions: { stop: false } });
    expect(data<Detail>(await call('GET', `${BASE}/${id}`, viewer)).status).toBe('stopped');
  });

  it('creates a gift-with-purchase promotion with the §3 fields', async () => {
    const body = {
      store_id: storeId,
      name: 'Free songket',
      start_at: later(hour),
      end_at: later(49 * hour),
      gift_type: 'order_spend',
      spending_type: 'include_shipping',
      min_spend: '150.00',
      stackable: true,
      order_limit: 100,
      gifts_per_order: 1,
      sku_selection: 'selected',
      main_skus: [{ item_id: '1001', model_id: '1' }],
      gifts: [{ item_id: '1002', quantity: 1 }],
      replacements: [{ item_id: '1003', quantity: 1 }],
    };
    const gift = data<Detail>(await call('POST', `${BASE}/gifts`, manager, body));
    expect(gift).toMatchObject({
      kind: 'gift',
      status: 'upcoming',
      gift: { spending_type: 'include_shipping' },
    });
    expect(gift.gift?.gifts).toEqual([expect.objectContaining({ seller_sku: 'SONGKET', quantity: 1 })]);
    const before = await promotionEvents(seller.tenantId);
    expectRefusal(await call('POST', `${BASE}/gifts`, manager, { ...body, min_spend: '0' }), 400, 774);
    expectRefusal(await call('POST', `${BASE}/gifts`, manager, { ...body, end_at: body.start_at }), 400, 765);
    expect(await promotionEvents(seller.tenantId)).toBe(before);
  });

  it("sets a store's price rule and previews the price of each linked SKU", async () => {
    const saved = data<{ rows: { seller_sku: string; new_price: string | null; overridden: boolean }[] }>(
      await call('PUT', `${BASE}/pricing/${storeId}`, controller, {
        markup_percent: 20,
        fixed_amount: '1.00',
        rounding: 'ninety',
        overrides: { '1002:': '39.00' },
      }),
    );
    expect(saved.rows.map((row) => [row.seller_sku, row.new_price, row.overridden])).toEqual([
      ['BATIK-RED', '13.90', false],
      ['SONGKET', '39.00', true],
      ['LOOSE', null, false],
    ]);
    await api.engine.catchUp('promotions');
    const read = data<{ rule: { markup_percent: number; rounding: string } }>(
      await call('GET', `${BASE}/pricing/${storeId}`, controller),
    );
    expect(read.rule).toMatchObject({ markup_percent: 20, rounding: 'ninety' });
    expectRefusal(
      await call('PUT', `${BASE}/pricing/${storeId}`, controller, { markup_percent: 5000, rounding: 'none' }),
      400,
      776,
    );
  });

  describe('tenants', () => {
    it("never reach another tenant's store or promotion", async () => {
      const mine = data<Detail>(await call('POST', `${BASE}/discounts`, manager, discount()));
      expectRefusal(await call('GET', `${BASE}/${mine.id}`, other.token), 404, 404);
      expectRefusal(await call('POST', `${BASE}/${mine.id}/stop`, other.token), 404, 404);
      expectRefusal(
        await call('POST', `${BASE}/discounts`, seller.token, discount({ store_id: otherStoreId })),
        400,
        770,
      );
      expectRefusal(await call('GET', `${BASE}/skus?store_id=${otherStoreId}`, seller.token), 400, 770);
      expectRefusal(await call('GET', `${BASE}/pricing/${otherStoreId}`, seller.token), 400, 770);
      expect((await list(other.token, 'discount')).rows).toEqual([]);
      const theirs = data<{ id: string }[]>(await call('GET', `${BASE}/stores`, other.token));
      expect(theirs.map((store) => store.id)).toEqual([otherStoreId]);
    });
  });

  describe('permissions (shell.md §6 listings keys)', () => {
    it('lets any listings key read, listings-manage create and stop, marketplace_control price', async () => {
      const nobody = (await createSubUser(api, seller.tenantId, ['sales-index'])).token;
      expect((await call('GET', `${BASE}?${gridParams({ kind: 'discount' })}`, nobody)).statusCode).toBe(403);
      expect((await call('GET', `${BASE}/skus?store_id=${storeId}`, viewer)).statusCode).toBe(200);
      expect((await call('POST', `${BASE}/discounts`, viewer, discount())).statusCode).toBe(403);
      expect((await call('POST', `${BASE}/discounts`, controller, discount())).statusCode).toBe(403);
      expect((await call('GET', `${BASE}/pricing/${storeId}`, manager)).statusCode).toBe(403);
      expect(
        (await call('PUT', `${BASE}/pricing/${storeId}`, viewer, { markup_percent: 1, rounding: 'none' }))
          .statusCode,
      ).toBe(403);
      expect((await call('POST', `${BASE}/pricing/${storeId}/push`, manager)).statusCode).toBe(403);
      expect((await call('GET', `${BASE}/pricing/${storeId}/log`, viewer)).statusCode).toBe(403);
      const { id } = data<Detail>(await call('POST', `${BASE}/discounts`, manager, discount()));
      expect((await call('POST', `${BASE}/${id}/stop`, viewer)).statusCode).toBe(403);
    });
  });
});
