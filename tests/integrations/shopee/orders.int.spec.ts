import { createHmac } from 'node:crypto';
import {
  DEFAULT_SKUS,
  MALAYSIAN_STATES,
  ORDER_STATUSES,
  type OrderListPage,
  type ShopeeClient,
  ShopeeRequestError,
} from '@integrations/shopee';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectedClient, PARTNER, START, signedUrl, startTestSandbox, type TestSandbox } from './support';

const DAY = 86_400;
const HOUR_MS = 3_600_000;
const startSeconds = START / 1000;

async function allPages(
  client: ShopeeClient,
  shopId: number,
  request: Parameters<ShopeeClient['getOrderList']>[1],
) {
  const pages: OrderListPage[] = [];
  for await (const page of client.orderListPages(shopId, request)) pages.push(page);
  return pages;
}

describe('orders from the sandbox through the signed protocol', () => {
  let test: TestSandbox;
  let client: ShopeeClient;

  beforeAll(async () => {
    test = await startTestSandbox();
    ({ client } = connectedClient(test));
  });
  afterAll(async () => {
    await test?.sandbox.stop();
  });

  it('pages through a window with the cursor: every order once, in a stable order', async () => {
    const made = test.sandbox.generateOrders(250);
    test.clock.advance(1000);
    const request = {
      time_range_field: 'create_time' as const,
      time_from: startSeconds - 60,
      time_to: startSeconds + 60,
      page_size: 100,
      response_optional_fields: ['order_status' as const],
    };
    const pages = await allPages(client, test.shopId, request);
    expect(pages.map((page) => page.order_list.length)).toEqual([100, 100, 50]);
    expect(pages.map((page) => page.more)).toEqual([true, true, false]);
    expect(pages[2]!.next_cursor).toBe('');
    const listed = pages.flatMap((page) => page.order_list);
    expect(new Set(listed.map((order) => order.order_sn)).size).toBe(250);
    expect(listed.map((order) => order.order_sn).sort()).toEqual(made.map((order) => order.order_sn).sort());
    expect(listed.every((order) => ORDER_STATUSES.includes(order.order_status!))).toBe(true);

    // The same window again: the same numbers, page by page.
    const again = await allPages(client, test.shopId, request);
    expect(again.map((page) => page.order_list.map((o) => o.order_sn))).toEqual(
      pages.map((page) => page.order_list.map((o) => o.order_sn)),
    );
    // Without response_optional_fields, no status.
    const bare = await client.getOrderList(test.shopId, { ...request, response_optional_fields: undefined });
    expect(Object.keys(bare.order_list[0]!)).toEqual(['order_sn']);
    // Filtered by status.
    const unpaid = await allPages(client, test.shopId, { ...request, order_status: 'UNPAID' });
    const unpaidSns = unpaid.flatMap((page) => page.order_list.map((o) => o.order_sn));
    expect(unpaidSns.length).toBe(made.filter((order) => order.order_status === 'UNPAID').length);
    // Outside the window, nothing.
    const before = await client.getOrderList(test.shopId, {
      ...request,
      time_from: startSeconds - 3 * DAY,
      time_to: startSeconds - DAY,
    });
    expect(before).toEqual({ more: false, next_cursor: '', order_list: [] });
  });

  it('holds the platform limits: a 15-day window, 100 a page, 50 orders a detail call', async () => {
    const ok = {
      time_range_field: 'update_time' as const,
      time_from: startSeconds - 15 * DAY,
      time_to: startSeconds,
      page_size: 100,
    };
    await expect(client.getOrderList(test.shopId, ok)).resolves.toBeDefined();
    await expect(
      client.getOrderList(test.shopId, { ...ok, time_from: ok.time_from - 1 }),
    ).rejects.toBeInstanceOf(ShopeeRequestError);
    await expect(
      client.getOrderList(test.shopId, { ...ok, time_from: ok.time_to + 1 }),
    ).rejects.toBeInstanceOf(ShopeeRequestError);

    // Sent anyway, signed by hand: the sandbox refuses with Shopee's error_param.
    const { accessToken } = test.sandbox.issueTokens(PARTNER.partnerId, test.shopId);
    const raw = async (path: string, params: Record<string, string>) => {
      const url = signedUrl(
        test.sandbox.url,
        path,
        {
          partnerId: PARTNER.partnerId,
          key: PARTNER.partnerKey,
          timestamp: Math.floor(test.clock.now() / 1000),
          accessToken,
          shopId: test.shopId,
        },
        (key, base) => createHmac('sha256', key).update(base).digest('hex'),
      );
      for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
      const response = await fetch(url);
      return { status: response.status, body: (await response.json()) as { error: string; message: string } };
    };
    const list = (from: number, size: number) =>
      raw('/api/v2/order/get_order_list', {
        time_range_field: 'create_time',
        time_from: String(from),
        time_to: String(startSeconds),
        page_size: String(size),
      });
    expect((await list(startSeconds - 15 * DAY, 100)).status).toBe(200);
    expect(await list(startSeconds - 15 * DAY - 1, 100)).toEqual({
      status: 400,
      body: expect.objectContaining({ error: 'error_param', message: expect.stringContaining('15 days') }),
    });
    expect((await list(startSeconds - DAY, 101)).body.error).toBe('error_param');
    expect((await list(startSeconds - DAY, 0)).body.error).toBe('error_param');
    const badCursor = await raw('/api/v2/order/get_order_list', {
      time_range_field: 'create_time',
      time_from: String(startSeconds - DAY),
      time_to: String(startSeconds),
      page_size: '10',
      cursor: 'not-a-cursor',
    });
    expect(badCursor.body).toMatchObject({
      error: 'error_param',
      message: expect.stringContaining('cursor'),
    });

    const sns = test.sandbox
      .orders(test.shopId)
      .slice(0, 51)
      .map((order) => order.order_sn);
    const detail = await client.getOrderDetail(test.shopId, { order_sn_list: sns.slice(0, 50) });
    expect(detail.order_list.map((order) => order.order_sn)).toEqual(sns.slice(0, 50));
    await expect(client.getOrderDetail(test.shopId, { order_sn_list: sns })).rejects.toBeInstanceOf(
      ShopeeRequestError,
    );
    expect((await raw('/api/v2/order/get_order_detail', { order_sn_list: sns.join(',') })).body.error).toBe(
      'error_param',
    );
    expect(await raw('/api/v2/order/get_order_detail', { order_sn_list: 'NOPE' })).toMatchObject({
      body: { error: 'error_param', message: 'Wrong parameters, detail: the order is not found.' },
    });
  });

  it('answers order details in Shopee’s shape, with the optional fields asked for', async () => {
    const [order] = test.sandbox.generateOrders(1);
    const base = await client.getOrderDetail(test.shopId, {
      order_sn_list: [order!.order_sn],
      response_optional_fields: [],
    });
    expect(Object.keys(base.order_list[0]!).sort()).toEqual(
      [
        'cod',
        'create_time',
        'currency',
        'days_to_ship',
        'message_to_seller',
        'order_sn',
        'order_status',
        'region',
        'ship_by_date',
        'update_time',
      ].sort(),
    );
    const some = await client.getOrderDetail(test.shopId, {
      order_sn_list: [order!.order_sn],
      response_optional_fields: ['item_list', 'total_amount'],
    });
    expect(some.order_list[0]!.item_list).toEqual(order!.item_list);
    expect(some.order_list[0]!.recipient_address).toBeUndefined();
    const full = await client.getOrderDetail(test.shopId, { order_sn_list: [order!.order_sn] });
    expect(full.order_list[0]).toEqual(order);
  });

  it('makes realistic Malaysian orders from the seller’s SKUs', async () => {
    const orders = test.sandbox.orders(test.shopId);
    expect(orders.length).toBeGreaterThan(250);
    const stateNames = new Set(MALAYSIAN_STATES.map((state) => state.name));
    const skus = new Set(DEFAULT_SKUS.map((sku) => sku.sku));
    for (const order of orders) {
      expect(order.order_sn).toMatch(/^241121[0-9A-Z]{8}$/);
      expect(order).toMatchObject({ region: 'MY', currency: 'MYR' });
      const address = order.recipient_address!;
      expect(stateNames.has(address.state)).toBe(true);
      expect(address.zipcode).toMatch(/^\d{5}$/);
      expect(address.full_address).toContain(`${address.zipcode} ${address.city}, ${address.state}`);
      expect(address.phone).toMatch(/^601\d{8,9}$/);
      expect(order.item_list!.length).toBeGreaterThan(0);
      let goods = 0;
      for (const item of order.item_list!) {
        expect(skus.has(item.model_sku || item.item_sku)).toBe(true);
        expect(item.model_quantity_purchased).toBeGreaterThan(0);
        expect(item.model_discounted_price).toBeLessThanOrEqual(item.model_original_price);
        goods += item.model_discounted_price * item.model_quantity_purchased;
      }
      expect(order.total_amount!).toBeGreaterThanOrEqual(Math.round(goods * 100) / 100 - 0.001);
      if (order.cod) {
        expect(order).toMatchObject({ payment_method: 'Cash on Delivery', order_status: 'READY_TO_SHIP' });
        expect(order.pay_time).toBeUndefined();
      } else {
        expect(order.payment_method).not.toBe('Cash on Delivery');
        expect(order.order_status).toBe('UNPAID');
      }
    }
    // A mix, as a real shop sees: both payment kinds, names of several communities, many states.
    expect(new Set(orders.map((order) => order.cod))).toEqual(new Set([true, false]));
    expect(new Set(orders.map((order) => order.recipient_address!.state)).size).toBeGreaterThan(10);
    const names = orders.map((order) => order.recipient_address!.name);
    expect(names.some((name) => / bin | binti /.test(name))).toBe(true);
    expect(names.some((name) => / a\/l | a\/p /.test(name))).toBe(true);
    // Variations: model_sku is the master code, item_sku the parent.
    const variation = orders
      .flatMap((order) => order.item_list!)
      .find((item) => item.model_sku === 'TSHIRT-BLK-M');
    expect(variation).toMatchObject({
      item_sku: 'TSHIRT',
      model_name: 'Black, M',
      model_original_price: 29.9,
    });
  });

  it('keeps order numbers across calls and moves update_time on every change', async () => {
    const [order] = test.sandbox.generateOrders(1);
    const sn = order!.order_sn;
    const read = async () =>
      (await client.getOrderDetail(test.shopId, { order_sn_list: [sn] })).order_list[0]!;
    const first = await read();
    expect(await read()).toEqual(first);

    // Two changes within one second still get two update times.
    const cancelled = test.sandbox.setOrderStatus(sn, 'IN_CANCEL');
    const again = test.sandbox.setOrderStatus(sn, 'CANCELLED', 'Out of stock');
    expect(cancelled.update_time).toBeGreaterThan(first.update_time);
    expect(again.update_time).toBeGreaterThan(cancelled.update_time);
    const now = await read();
    expect(now).toMatchObject({
      order_sn: sn,
      order_status: 'CANCELLED',
      cancel_by: 'seller',
      cancel_reason: 'Out of stock',
    });
    expect(now.create_time).toBe(first.create_time);

    // A window on update_time starting after the first read finds the order again, by the same number.
    const changed = await allPages(client, test.shopId, {
      time_range_field: 'update_time',
      time_from: first.update_time + 1,
      time_to: now.update_time,
      page_size: 100,
    });
    expect(changed.flatMap((page) => page.order_list.map((o) => o.order_sn))).toContain(sn);
  });

  it('moves orders along over sandbox time: payment, cancellations, ship, pickup, delivery, completion', async () => {
    const fresh = await startTestSandbox({ seed: 'lifecycle' });
    try {
      const made = fresh.sandbox.generateOrders(200);
      const { client: own } = connectedClient(fresh);
      fresh.clock.advance(30 * 60_000);
      const after30 = fresh.sandbox.orders();
      const paid = after30.filter((order) => !order.cod && order.order_status !== 'UNPAID' && order.pay_time);
      expect(paid.length).toBeGreaterThan(0);
      for (const order of paid) expect(order.pay_time!).toBeGreaterThan(order.create_time);

      fresh.clock.advance(12 * HOUR_MS);
      const later = fresh.sandbox.orders();
      const statuses = new Set(later.map((order) => order.order_status));
      expect(statuses.has('READY_TO_SHIP')).toBe(true);
      expect(statuses.has('CANCELLED')).toBe(true);
      expect(statuses.has('UNPAID')).toBe(false);
      const cancelled = later.filter((order) => order.order_status === 'CANCELLED');
      for (const order of cancelled) expect(['buyer', 'system']).toContain(order.cancel_by);
      // Changes stamp update_time after creation; nothing moves create_time.
      for (const order of later) {
        const original = made.find((o) => o.order_sn === order.order_sn)!;
        expect(order.create_time).toBe(original.create_time);
        if (order.order_status !== original.order_status)
          expect(order.update_time).toBeGreaterThan(original.update_time);
      }

      // Ship one by drop-off: PROCESSED now, then SHIPPED within hours, delivered and completed within days.
      const toShip = later.find((order) => order.order_status === 'READY_TO_SHIP')!;
      await own.shipOrder(fresh.shopId, { order_sn: toShip.order_sn, dropoff: {} });
      const statusOf = () => fresh.sandbox.order(toShip.order_sn)!;
      expect(statusOf().order_status).toBe('PROCESSED');
      expect(statusOf().package_list![0]!.logistics_status).toBe('LOGISTICS_REQUEST_CREATED');
      const seen = [statusOf()];
      for (let hour = 0; hour < 10 * 24; hour++) {
        fresh.clock.advance(HOUR_MS);
        const now = statusOf();
        if (now.order_status !== seen.at(-1)!.order_status) seen.push(now);
      }
      expect(seen.map((order) => order.order_status)).toEqual([
        'PROCESSED',
        'SHIPPED',
        'TO_CONFIRM_RECEIVE',
        'COMPLETED',
      ]);
      expect(seen[1]!.pickup_done_time! - seen[0]!.update_time).toBeLessThanOrEqual(6 * 3600);
      const updates = seen.map((order) => order.update_time);
      expect(updates).toEqual([...updates].sort((a, b) => a - b));
      const done = seen[3]!;
      expect(done.package_list![0]!.logistics_status).toBe('LOGISTICS_DELIVERY_DONE');
      if (done.cod) expect(done.pay_time).toBeGreaterThan(done.pickup_done_time!);
    } finally {
      await fresh.sandbox.stop();
    }
  });
});

describe('the order generator', () => {
  it('makes orders at its rate over the sandbox clock, without sleeping', async () => {
    const test = await startTestSandbox({ orderRate: 60, seed: 'rate' });
    try {
      expect(test.sandbox.orders()).toHaveLength(0);
      test.clock.advance(10 * 60_000);
      const after10 = test.sandbox.orders();
      test.clock.advance(5 * HOUR_MS - 10 * 60_000);
      const after5h = test.sandbox.orders();
      // About one a minute: 300 expected in five hours (a Poisson count, well within these bounds).
      expect(after5h.length).toBeGreaterThan(240);
      expect(after5h.length).toBeLessThan(360);
      expect(after10.length).toBeLessThan(after5h.length);
      const created = after5h.map((order) => order.create_time);
      expect(created).toEqual([...created].sort((a, b) => a - b));
      expect(created[0]!).toBeGreaterThan(startSeconds);
      expect(created.at(-1)!).toBeLessThanOrEqual(startSeconds + 5 * 3600);
      // Spread over the hours, not in one lump.
      const hours = new Set(created.map((time) => Math.floor((time - startSeconds) / 3600)));
      expect(hours).toEqual(new Set([0, 1, 2, 3, 4]));

      // An importer polling by create_time sees them arrive through the API.
      const { client } = connectedClient(test);
      const listed = await allPages(client, test.shopId, {
        time_range_field: 'create_time',
        time_from: startSeconds,
        time_to: Math.floor(test.clock.now() / 1000),
        page_size: 100,
      });
      expect(listed.flatMap((page) => page.order_list).length).toBe(after5h.length);
    } finally {
      await test.sandbox.stop();
    }
  });

  it('gives the same orders for the same seed, and other orders for another', async () => {
    const run = async (seed: string) => {
      const test = await startTestSandbox({ orderRate: 30, seed });
      try {
        test.sandbox.generateOrders(20);
        test.clock.advance(2 * HOUR_MS);
        return test.sandbox.orders();
      } finally {
        await test.sandbox.stop();
      }
    };
    const [a, b, c] = [await run('same'), await run('same'), await run('other')];
    expect(a.length).toBeGreaterThan(20);
    expect(b).toEqual(a);
    expect(c.map((order) => order.order_sn)).not.toEqual(a.map((order) => order.order_sn));
  });

  it('sells the SKUs it is given: plain codes and variations', async () => {
    const test = await startTestSandbox({
      skus: [
        'MC-0001',
        { sku: 'MC-0002-RED', parentSku: 'MC-0002', name: 'Tumbler 500ml', variation: 'Red', price: 35 },
      ],
    });
    try {
      const items = test.sandbox.generateOrders(40).flatMap((order) => order.item_list!);
      expect(new Set(items.map((item) => item.model_sku || item.item_sku))).toEqual(
        new Set(['MC-0001', 'MC-0002-RED']),
      );
      expect(items.find((item) => item.item_sku === 'MC-0001')).toMatchObject({
        model_id: 0,
        model_sku: '',
        item_name: 'Product MC-0001',
      });
      expect(items.find((item) => item.model_sku === 'MC-0002-RED')).toMatchObject({
        item_sku: 'MC-0002',
        item_name: 'Tumbler 500ml',
        model_name: 'Red',
        model_original_price: 35,
      });
      // Ids are stable per SKU.
      const ids = new Set(items.filter((item) => item.item_sku === 'MC-0001').map((item) => item.item_id));
      expect(ids.size).toBe(1);
    } finally {
      await test.sandbox.stop();
    }
  });
});
