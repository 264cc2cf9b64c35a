import { loadOrder } from '@commands/orders/order';
import { FULFILMENT_PROJECTION } from '@projections/print-log';
import { RETURNS_PROJECTION } from '@projections/returns';
import {
  bearer,
  createSeller,
  createSubUser,
  createTestApi,
  type TestApi,
  type TestSeller,
} from '@tests/support/api';
import bwipjs from 'bwip-js/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { data, gridParams, refusal } from './inventory/inventory-api';
import {
  type Catalogue,
  importOrder,
  line,
  marketplaceOrder,
  seedCatalogue,
  settle,
  stockOf,
} from './orders-support';
import { arrange, type Loose, ship, shippedStock } from './printing-support';

/**
 * Returns of marketplace orders (api/orders/returns.ts): spec §5's validation messages, stock back into the
 * order's warehouse exactly once for reusable items returned to stock (a combo's components), nothing for a
 * write-off or an unusable item, refusals for an order not shipped or already returned, another account's order as
 * a missing one, image attachments, the list and the order lookup.
 */

describe('returns', () => {
  let api: TestApi;
  let seller: TestSeller;
  let catalogue: Catalogue;

  /** A shipped order of BATIK-01 ×2, GIFT-SET ×1 (1 batik + 2 songket) and SONGKET-01 ×1. */
  async function shippedOrder(tracking: string) {
    const order = marketplaceOrder([line('BATIK-01', 2), line('GIFT-SET', 1), line('SONGKET-01', 1)]);
    const orderId = await importOrder(api, seller.tenantId, catalogue.warehouseId, order);
    await settle(api);
    await arrange(api, seller.tenantId, orderId, tracking);
    await ship(api, seller.tenantId, orderId);
    await settle(api);
    await shippedStock(api, seller.tenantId, orderId, catalogue.warehouseId, [
      catalogue.batik,
      catalogue.songket,
    ]);
    const lineIds = order.lines.map((entry) => entry.lineKey) as [string, string, string];
    return { orderId, orderNumber: order.orderNumber, lineIds };
  }

  const stock = async () => ({
    batik: (await stockOf(api, seller.tenantId, catalogue.batik, catalogue.warehouseId)).onHand,
    songket: (await stockOf(api, seller.tenantId, catalogue.songket, catalogue.warehouseId)).onHand,
  });

  const body = (orderId: string, lineIds: string[], changes: Record<string, unknown> = {}) => ({
    order_id: orderId,
    lines: [
      { line_id: lineIds[0], quantity: 2, condition: 'reusable' },
      { line_id: lineIds[1], quantity: 1, condition: 'reusable' },
      { line_id: lineIds[2], quantity: 1, condition: 'unusable' },
    ],
    action: 'return_to_stock',
    reason: 'Wrong colour',
    refund_to_buyer: '35.50',
    include_shipping: true,
    refund_reason: 'Buyer returned the parcel unopened',
    ...changes,
  });

  const post = (token: string, payload: unknown, key?: string, language?: string) =>
    api.app.inject({
      method: 'POST',
      url: '/api/orders/returns',
      headers: { ...bearer(token, language), ...(key ? { 'idempotency-key': key } : {}) },
      payload: payload as object,
    });

  beforeAll(async () => {
    api = await createTestApi();
    seller = await createSeller(api);
    catalogue = await seedCatalogue(api, seller.tenantId);
  });
  afterAll(async () => {
    await api?.close();
  });

  it('answers spec §5’s messages: an item selected; refund to buyer, include shipping and refund reason required', async () => {
    const { orderId, lineIds } = await shippedOrder('SPXRET0001');
    const before = await stock();
    const without = (field: string) => {
      const payload: Record<string, unknown> = body(orderId, lineIds);
      delete payload[field];
      return payload;
    };
    expect(refusal(await post(seller.token, body(orderId, lineIds, { lines: [] })))).toMatchObject({
      status: 400,
      code: 662,
      msg: 'At least one item must be selected',
    });
    expect(refusal(await post(seller.token, without('refund_to_buyer')))).toMatchObject({
      status: 400,
      code: 663,
      msg: 'Refund to buyer is required',
    });
    expect(refusal(await post(seller.token, body(orderId, lineIds, { refund_to_buyer: '' })))).toMatchObject({
      code: 663,
    });
    expect(refusal(await post(seller.token, without('include_shipping')))).toMatchObject({
      status: 400,
      code: 664,
      msg: 'Include shipping is required',
    });
    expect(refusal(await post(seller.token, without('refund_reason')))).toMatchObject({
      status: 400,
      code: 665,
      msg: 'Refund reason is required',
    });
    expect(refusal(await post(seller.token, body(orderId, lineIds, { refund_reason: '  ' })))).toMatchObject({
      code: 665,
    });
    expect(refusal(await post(seller.token, without('refund_reason'), undefined, 'zh-cn')).msg).toBe(
      '退款原因为必填项',
    );
    expect(refusal(await post(seller.token, without('include_shipping'), undefined, 'th-th')).msg).toBe(
      'ต้องระบุว่ารวมค่าจัดส่งหรือไม่',
    );
    // Other checks of the lines and amounts.
    expect(
      refusal(await post(seller.token, body(orderId, lineIds, { refund_to_buyer: '12.345' }))),
    ).toMatchObject({
      code: 667,
    });
    expect(
      refusal(
        await post(
          seller.token,
          body(orderId, lineIds, { lines: [{ line_id: lineIds[0], quantity: 3, condition: 'reusable' }] }),
        ),
      ),
    ).toMatchObject({ status: 400, code: 668, msg: 'At most 2 of Item BATIK-01 can be returned' });
    expect(
      refusal(
        await post(
          seller.token,
          body(orderId, lineIds, { lines: [{ line_id: 'nope', quantity: 1, condition: 'reusable' }] }),
        ),
      ),
    ).toMatchObject({ code: 668, msg: 'The order has no item nope' });
    expect(refusal(await post(seller.token, body(orderId, lineIds, { action: 'burn' })))).toMatchObject({
      code: 666,
    });
    expect(refusal(await post(seller.token, { ...body(orderId, lineIds), extra: 1 })).status).toBe(400);
    // Nothing was recorded or moved by any of these.
    expect(await stock()).toEqual(before);
    expect((await loadOrder(api.store, seller.tenantId, orderId)).status).toBe('shipped');
  });

  it('puts reusable items returned to stock back into the order’s warehouse once, a combo as its components', async () => {
    const { orderId, orderNumber, lineIds } = await shippedOrder('SPXRET0002');
    const before = await stock();
    const first = await post(seller.token, body(orderId, lineIds), 'return-key-0002');
    const created = data<Loose>(first);
    expect(first.json().msg).toBe(`Return of order ${orderNumber} recorded`);
    expect(created).toMatchObject({
      order_id: orderId,
      order_number: orderNumber,
      tracking_number: 'SPXRET0002',
      action: 'return_to_stock',
      refund_to_buyer: '35.50',
      include_shipping: true,
      // 2 × 10.00 + 1 × 10.00 + 1 × 10.00.
      reversal_item_price: '40.00',
      completed: true,
      warehouse: { id: catalogue.warehouseId, code: 'MAIN' },
      created_by: { id: seller.userId, name: 'Siti Aminah' },
    });
    expect(created.lines.map((entry: Record<string, unknown>) => [entry.condition, entry.restocked])).toEqual(
      [
        ['reusable', 2],
        ['reusable', 1],
        ['unusable', 0],
      ],
    );
    // Batik: 2 + 1 in the gift set; songket: 2 in the gift set, the unusable one not.
    expect(await stock()).toEqual({ batik: before.batik + 3, songket: before.songket + 2 });
    expect(await loadOrder(api.store, seller.tenantId, orderId)).toMatchObject({
      status: 'returned',
      returned: true,
    });

    // The same request again: the same return, no more stock.
    const again = data<Loose>(await post(seller.token, body(orderId, lineIds), 'return-key-0002'));
    expect(again.id).toBe(created.id);
    expect(await stock()).toEqual({ batik: before.batik + 3, songket: before.songket + 2 });
    // Another return of the same order is refused.
    expect(refusal(await post(seller.token, body(orderId, lineIds), 'return-key-0002-b'))).toEqual({
      status: 409,
      code: 670,
      msg: 'This order has already been returned',
    });
    // Two at once with one key: one return, stock moved once.
    const raced = await shippedOrder('SPXRET0003');
    const racedBefore = await stock();
    const answers = await Promise.all([
      post(seller.token, body(raced.orderId, raced.lineIds), 'return-key-0003'),
      post(seller.token, body(raced.orderId, raced.lineIds), 'return-key-0003'),
    ]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
    expect(new Set(answers.map((answer) => answer.json().data.id)).size).toBe(1);
    expect(await stock()).toEqual({ batik: racedBefore.batik + 3, songket: racedBefore.songket + 2 });
    await expect(stockOf(api, seller.tenantId, catalogue.gift, catalogue.warehouseId)).resolves.toMatchObject(
      {
        onHand: 0,
      },
    );
  });

  it('moves no stock for a write-off, and records it', async () => {
    const { orderId, lineIds } = await shippedOrder('SPXRET0004');
    const before = await stock();
    const written = data<Loose>(
      await post(seller.token, body(orderId, lineIds, { action: 'write_off', reversal_item_price: 12 })),
    );
    expect(written).toMatchObject({ action: 'write_off', completed: true, reversal_item_price: '12.00' });
    expect(written.lines.every((entry: Record<string, unknown>) => entry.restocked === 0)).toBe(true);
    expect(await stock()).toEqual(before);
    expect((await loadOrder(api.store, seller.tenantId, orderId)).status).toBe('returned');
  });

  it('refuses an order not shipped, and answers 404 for another account’s order', async () => {
    const order = marketplaceOrder([line('BATIK-01', 1)]);
    const orderId = await importOrder(api, seller.tenantId, catalogue.warehouseId, order);
    await settle(api);
    const lineIds = order.lines.map((entry) => entry.lineKey);
    const before = await stock();
    expect(
      refusal(
        await post(
          seller.token,
          body(orderId, lineIds, { lines: [{ line_id: lineIds[0], quantity: 1, condition: 'reusable' }] }),
        ),
      ),
    ).toEqual({ status: 409, code: 669, msg: 'Only a shipped or delivered order can be returned' });
    expect(await stock()).toEqual(before);
    expect((await loadOrder(api.store, seller.tenantId, orderId)).status).toBe('new');

    const other = await createSeller(api);
    const theirCatalogue = await seedCatalogue(api, other.tenantId);
    const theirOrder = marketplaceOrder([line('BATIK-01', 1)]);
    const theirs = await importOrder(api, other.tenantId, theirCatalogue.warehouseId, theirOrder);
    await arrange(api, other.tenantId, theirs, 'SPXTHEIRS01');
    await ship(api, other.tenantId, theirs);
    const payload = body(theirs, [theirOrder.lines[0]!.lineKey], {
      lines: [{ line_id: theirOrder.lines[0]!.lineKey, quantity: 1, condition: 'reusable' }],
    });
    const missing = await post(seller.token, payload);
    const unknown = await post(seller.token, {
      ...payload,
      order_id: '00000000-0000-5000-8000-000000000000',
    });
    expect(missing.statusCode).toBe(404);
    expect(refusal(missing)).toEqual(refusal(unknown));
    expect((await loadOrder(api.store, other.tenantId, theirs)).status).toBe('shipped');
    const lookup = await api.app.inject({
      method: 'GET',
      url: `/api/orders/returns/lookup?order_id=${theirs}`,
      headers: bearer(seller.token),
    });
    expect(lookup.statusCode).toBe(404);
  });

  it('attaches uploaded images (PNG, JPEG, WebP up to 2 MB) and refuses others', async () => {
    const png = await bwipjs.toBuffer({ bcid: 'qrcode', text: 'damaged box', scale: 3 });
    const upload = (payload: Buffer, type = 'image/png', token = seller.token) =>
      api.app.inject({
        method: 'POST',
        url: '/api/orders/returns/images',
        headers: { ...bearer(token), 'content-type': type },
        payload,
      });
    const image = data<{ id: string; content_type: string; bytes: number }>(await upload(png));
    expect(image).toMatchObject({ content_type: 'image/png', bytes: png.length });
    expect(refusal(await upload(Buffer.from('GIF89a....'), 'image/png'))).toMatchObject({
      status: 400,
      code: 671,
    });
    const jpegHeader = Buffer.from([0xff, 0xd8, 0xff, 0xe0]);
    expect(
      refusal(await upload(Buffer.concat([jpegHeader, Buffer.alloc(2 * 1024 * 1024)]), 'image/jpeg')),
    ).toMatchObject({
      status: 400,
      code: 672,
      msg: 'An image may be at most 2 MB',
    });
    expect(refusal(await upload(Buffer.from('just text'), 'text/plain'))).toMatchObject({
      status: 400,
      code: 671,
    });

    const { orderId, lineIds } = await shippedOrder('SPXRET0005');
    const other = await createSeller(api);
    const theirImage = data<{ id: string }>(await upload(png, 'image/png', other.token));
    expect(
      refusal(await post(seller.token, body(orderId, lineIds, { images: [theirImage.id] }))),
    ).toMatchObject({ status: 400, code: 673 });
    const created = data<Loose>(await post(seller.token, body(orderId, lineIds, { images: [image.id] })));
    expect(created.images).toEqual([{ id: image.id, content_type: 'image/png', bytes: png.length }]);
    const served = await api.app.inject({
      method: 'GET',
      url: `/api/orders/returns/images/${image.id}`,
      headers: bearer(seller.token),
    });
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload.equals(png)).toBe(true);
    const notTheirs = await api.app.inject({
      method: 'GET',
      url: `/api/orders/returns/images/${image.id}`,
      headers: bearer(other.token),
    });
    expect(notTheirs.statusCode).toBe(404);
  });

  it('lists returns, finds an order by tracking number, and takes orders-view-all', async () => {
    const { orderId, orderNumber, lineIds } = await shippedOrder('SPXRET0006');
    await api.engine.catchUp(FULFILMENT_PROJECTION);
    const found = data<Loose>(
      await api.app.inject({
        method: 'GET',
        url: '/api/orders/returns/lookup?q=spxret0006',
        headers: bearer(seller.token),
      }),
    );
    expect(found).toMatchObject({
      order_id: orderId,
      order_number: orderNumber,
      status: 'shipped',
      returnable: true,
    });
    expect(found.lines).toHaveLength(3);
    expect(found.lines[1]).toMatchObject({ seller_sku: 'GIFT-SET', combo: true, mapped: true });
    const byNumber = data<Loose>(
      await api.app.inject({
        method: 'GET',
        url: `/api/orders/returns/lookup?q=${orderNumber}`,
        headers: bearer(seller.token),
      }),
    );
    expect(byNumber.order_id).toBe(orderId);

    const created = data<{ id: string }>(await post(seller.token, body(orderId, lineIds)));
    await api.engine.catchUp(RETURNS_PROJECTION);
    const list = data<{ rows: Loose[]; lastRow: number }>(
      await api.app.inject({
        method: 'GET',
        url: `/api/orders/returns?${gridParams({ search: 'SPXRET0006' })}`,
        headers: bearer(seller.token),
      }),
    );
    expect(list.lastRow).toBe(1);
    expect(list.rows[0]).toMatchObject({
      id: created.id,
      order_number: orderNumber,
      total_quantity: 4,
      restocked_quantity: 3,
      completed: true,
      refund_to_buyer: '35.50',
      created_by: { id: seller.userId, name: 'Siti Aminah' },
    });
    const writeOffs = data<{ rows: unknown[] }>(
      await api.app.inject({
        method: 'GET',
        url: `/api/orders/returns?${gridParams({ filterModel: { action: { filterType: 'set', values: ['write_off'] } } })}`,
        headers: bearer(seller.token),
      }),
    );
    expect(writeOffs.rows.length).toBeGreaterThanOrEqual(1);
    const detail = data<Loose>(
      await api.app.inject({
        method: 'GET',
        url: `/api/orders/returns/${created.id}`,
        headers: bearer(seller.token),
      }),
    );
    expect(detail.id).toBe(created.id);
    const after = data<Loose>(
      await api.app.inject({
        method: 'GET',
        url: `/api/orders/returns/lookup?order_id=${orderId}`,
        headers: bearer(seller.token),
      }),
    );
    expect(after).toMatchObject({ status: 'returned', returnable: false, return_id: created.id });

    const staff = await createSubUser(api, seller.tenantId, ['orders-unscan']);
    expect(
      (await api.app.inject({ method: 'GET', url: '/api/orders/returns', headers: bearer(staff.token) }))
        .statusCode,
    ).toBe(403);
    expect((await post(staff.token, body(orderId, lineIds))).statusCode).toBe(403);
  });
});
