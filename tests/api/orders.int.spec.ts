import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { LiveServerMessage } from '@api/live';
import { ORDER_STOCK_REACTOR } from '@commands/orders/stock-reactor';
import { orderStreamId } from '@domain/orders/order';
import { TEXT_LIMITS } from '@domain/shared/limits';
import { ORDER_COUNTS_VIEW, ORDERS_PROJECTION } from '@projections/orders';
import {
  type Catalogue,
  importOrder,
  line,
  marketplaceOrder,
  seedCatalogue,
  settle,
  stockOf,
} from '@tests/api/orders-support';
import {
  bearer,
  caller,
  createSeller,
  createSubUser,
  createTestApi,
  type TestApi,
  type TestSeller,
} from '@tests/support/api';
import { waitFor } from '@tests/support/wait';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';

/**
 * The order board API (api/orders): lists, counts, filters and search over the read model; the detail; the actions
 * of spec §4 and their refusals (a shipped order cancelled, another account's order, a split into nothing: clear
 * 4xx, nothing recorded); idempotency keys; many pickers scanning at once; and the board's counts moving live in a
 * websocket client as orders are scanned through the API.
 */

interface ListAnswer {
  rows: {
    id: string;
    order_number: string;
    status: string;
    tracking_number: string | null;
    store_id: string;
  }[];
  lastRow: number;
}

describe('order board API', () => {
  let api: TestApi;
  let seller: TestSeller;
  let other: TestSeller;
  let catalogue: Catalogue;
  const call = caller(() => api);

  beforeAll(async () => {
    api = await createTestApi();
    seller = await createSeller(api);
    other = await createSeller(api);
    catalogue = await seedCatalogue(api, seller.tenantId, 1000);
  });
  afterAll(async () => {
    await api?.close();
  });

  const importMine = (lines = [line('BATIK-01', 1)], changes = {}, storeId = 'store-a') =>
    importOrder(api, seller.tenantId, catalogue.warehouseId, marketplaceOrder(lines, changes), storeId);
  const list = async (query: Record<string, string | number>, token = seller.token) => {
    const params = new URLSearchParams(
      Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]),
    );
    const response = await call('GET', `/api/orders?${params}`, token);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ data: ListAnswer }>().data;
  };
  const counts = async (query = '') => {
    const response = await call('GET', `/api/orders/counts${query}`, seller.token);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ data: { tabs: Record<string, number>; statuses: Record<string, number> } }>().data;
  };
  const act = (body: Record<string, unknown>, token = seller.token, key?: string) =>
    api.app.inject({
      method: 'POST',
      url: '/api/orders/actions',
      headers: { ...bearer(token), ...(key ? { 'idempotency-key': key } : {}) },
      payload: body,
    });
  const streamLength = async (tenantId: string, orderId: string) => {
    let n = 0;
    for await (const _ of api.store.readStream(orderStreamId(tenantId, orderId))) n += 1;
    return n;
  };
  const arrange = async (orderId: string, tracking = `MY${orderId.slice(0, 10).toUpperCase()}`) => {
    const response = await act({
      action: 'arrange_shipment',
      shipments: [{ order_id: orderId, tracking_number: tracking, shipping_provider: 'J&T Express' }],
    });
    expect(response.statusCode, response.body).toBe(200);
    return tracking;
  };

  describe('lists, counts, filters and search', () => {
    let orders: Record<string, string>;
    let numbers: Record<string, string>;

    beforeAll(async () => {
      const made = {
        fresh: marketplaceOrder([line('BATIK-01', 1)], { paidAt: '2026-02-01T10:00:00.000Z' }),
        older: marketplaceOrder([line('BATIK-01', 1)], { paidAt: '2026-01-15T10:00:00.000Z' }),
        unpaid: marketplaceOrder([line('BATIK-01', 1)], { status: 'unpaid', paidAt: null }),
        unknown: marketplaceOrder([line('NOT-A-SKU', 1)], { paidAt: '2026-01-20T10:00:00.000Z' }),
        preOrder: marketplaceOrder([line('BATIK-01', 1)], { preOrder: true, cod: true, paidAt: null }),
        lazada: marketplaceOrder([line('BATIK-01', 2)], {
          platform: 'lazada',
          paidAt: '2026-01-10T10:00:00.000Z',
        }),
        delivered: marketplaceOrder([line('BATIK-01', 1)], { status: 'completed' }),
      };
      orders = {};
      numbers = {};
      for (const [name, order] of Object.entries(made)) {
        numbers[name] = order.orderNumber;
        orders[name] = await importOrder(
          api,
          seller.tenantId,
          catalogue.warehouseId,
          order,
          name === 'lazada' ? 'store-b' : 'store-a',
        );
      }
      await settle(api);
      await arrange(orders.older!, 'MYTRACK0001');
      await settle(api);
      // Another account's order never shows.
      await importOrder(api, other.tenantId, randomUUID(), marketplaceOrder([line('BATIK-01', 1)]));
      await settle(api);
    });

    it('counts each tab and status', async () => {
      const all = await counts();
      expect(all.tabs).toEqual({ all: 7, new: 4, unscan: 1, scan: 0, rts: 0, shipped: 1, cancel: 1 });
      expect(all.statuses).toMatchObject({ unpaid: 1, new: 4, unscan: 1, delivered: 1, trash: 0 });
      expect((await counts('?store_id=store-b')).tabs).toMatchObject({ all: 1, new: 1 });
      expect((await counts('?platform=lazada')).tabs.all).toBe(1);
    });

    it('lists a tab newest paid first, with its row count, and pages', async () => {
      const page = await list({ tab: 'new' });
      expect(page.lastRow).toBe(4);
      // Paid 1 February, 20 January, 10 January; cash on delivery, not paid yet, last.
      const newest = [orders.fresh, orders.unknown, orders.lazada, orders.preOrder];
      expect(page.rows.map((row) => row.id)).toEqual(newest);
      const second = await list({ tab: 'new', startRow: 2, endRow: 4 });
      expect(second.rows.map((row) => row.id)).toEqual(newest.slice(2, 4));
      expect(second.lastRow).toBe(4);
      expect((await list({ tab: 'unscan' })).rows.map((row) => row.id)).toEqual([orders.older]);
      expect((await list({ tab: 'cancel' })).rows.map((row) => row.id)).toEqual([orders.unpaid]);
      expect((await list({ tab: 'shipped' })).rows.map((row) => row.id)).toEqual([orders.delivered]);
      expect((await list({ tab: 'all' })).lastRow).toBe(7);
    });

    it('filters by the lists of spec §4, store, platform, payment and dates', async () => {
      const ids = async (query: Record<string, string>) =>
        (await list(query)).rows.map((row) => row.id).sort();
      expect(await ids({ filter: 'unpaid' })).toEqual([orders.unpaid]);
      expect(await ids({ filter: 'item_not_found' })).toEqual([orders.unknown]);
      expect(await ids({ filter: 'pre_order' })).toEqual([orders.preOrder]);
      expect(await ids({ filter: 'delivered' })).toEqual([orders.delivered]);
      expect(await ids({ filter: 'to_process' })).toEqual([orders.older]);
      expect(await ids({ tab: 'new', filter: 'pending' })).toHaveLength(4);
      expect(await ids({ store_id: 'store-b' })).toEqual([orders.lazada]);
      expect(await ids({ platform: 'lazada' })).toEqual([orders.lazada]);
      expect(await ids({ payment: 'cod' })).toEqual([orders.preOrder]);
      // An order the buyer has not paid is "unpaid", never "paid".
      expect(await ids({ payment: 'unpaid' })).toEqual([orders.unpaid]);
      expect(await ids({ payment: 'paid' })).toEqual(
        [orders.fresh, orders.older, orders.unknown, orders.lazada, orders.delivered].sort(),
      );
      expect(await ids({ tab: 'new', paid_from: '2026-01-15', paid_to: '2026-01-31' })).toEqual([
        orders.unknown,
      ]);
      expect(
        await ids({
          filterModel: JSON.stringify({ status: { filterType: 'set', values: ['unscan', 'unpaid'] } }),
        }),
      ).toEqual([orders.older, orders.unpaid].sort());
    });

    it('searches by the start of an order number or a tracking number', async () => {
      expect((await list({ search: numbers.fresh! })).rows.map((row) => row.id)).toEqual([orders.fresh]);
      expect((await list({ search: 'mytrack00' })).rows.map((row) => row.id)).toEqual([orders.older]);
      expect((await list({ search: 'NO-SUCH-NUMBER' })).rows).toEqual([]);
    });

    it('shows the stores the account has orders of', async () => {
      const response = await call('GET', '/api/orders/stores', seller.token);
      expect(response.json().data).toEqual([
        { store_id: 'store-a', name: null, platform: 'shopee', orders: 6 },
        { store_id: 'store-b', name: null, platform: 'lazada', orders: 1 },
      ]);
    });

    it('answers an order with its lines, actions and timeline; another account’s order is missing', async () => {
      const response = await call('GET', `/api/orders/${orders.older}`, seller.token);
      expect(response.statusCode, response.body).toBe(200);
      const detail = response.json().data;
      expect(detail).toMatchObject({
        id: orders.older,
        order_number: numbers.older,
        status: 'unscan',
        tracking_number: 'MYTRACK0001',
        shipping_provider: 'J&T Express',
        stock_stage: 'reserved',
        address: { city: 'Kuala Lumpur', country: 'MY' },
        lines: [{ seller_sku: 'BATIK-01', quantity: 1, master_code: { id: catalogue.batik, code: 'BATIK' } }],
      });
      expect(detail.actions).toContain('scan');
      expect(detail.actions).not.toContain('set_delivered');
      expect(detail.timeline.map((entry: { type: string }) => entry.type)).toEqual([
        'OrderImported',
        'OrderAccepted',
        'OrderShipmentArranged',
      ]);
      expect(detail.timeline[2].user).toEqual({ id: seller.userId, name: 'Siti Aminah' });

      const theirs = await call('GET', `/api/orders/${orders.older}`, other.token);
      const missing = await call('GET', `/api/orders/${randomUUID()}`, seller.token);
      expect(theirs.statusCode).toBe(404);
      expect(theirs.json()).toEqual(missing.json());
      expect(missing.json()).toEqual({ code: 570, msg: 'The order was not found.' });
      expect((await list({ tab: 'all' }, other.token)).rows.map((row) => row.id)).not.toContain(orders.older);
    });

    it('needs an order key of spec §6', async () => {
      const nobody = await createSubUser(api, seller.tenantId, []);
      expect((await call('GET', '/api/orders', nobody.token)).statusCode).toBe(403);
      const picker = await createSubUser(api, seller.tenantId, ['orders-view-all-task']);
      expect((await call('GET', '/api/orders?tab=new', picker.token)).statusCode).toBe(200);
      const refused = await act({ action: 'move_to_trash', order_ids: [orders.fresh] }, picker.token);
      expect(refused.statusCode).toBe(403);
    });
  });

  describe('actions and refusals', () => {
    it('walks an order through the lists of spec §4', async () => {
      const orderId = await importMine();
      const step = async (body: Record<string, unknown>, status: string) => {
        const response = await act(body);
        expect(response.statusCode, response.body).toBe(200);
        expect(response.json().data.results).toEqual([
          { order_id: orderId, ok: true, code: 0, msg: 'OK', unchanged: false },
        ]);
        const detail = await call('GET', `/api/orders/${orderId}`, seller.token);
        expect(detail.json().data.status).toBe(status);
      };
      const ids = { order_ids: [orderId] };
      await step({ action: 'move_to_unscan', ...ids }, 'unscan');
      await step({ action: 'put_back_to_new', ...ids }, 'new');
      await arrange(orderId);
      await step({ action: 'scan', ...ids }, 'scanned');
      await step({ action: 'undo_scan', ...ids }, 'unscan');
      await step({ action: 'scan', ...ids }, 'scanned');
      await step({ action: 'reset_scan', ...ids }, 'unscan');
      await step({ action: 'scan', ...ids }, 'scanned');
      await step({ action: 'mark_processed', ...ids }, 'processed');
      await step({ action: 'reset', ...ids }, 'new');
      expect(
        (await call('GET', `/api/orders/${orderId}`, seller.token)).json().data.tracking_number,
      ).toBeNull();
      await arrange(orderId, 'MYRE0001');
      await step(
        {
          action: 'request_pickup',
          ...ids,
          provider: 'J&T Express',
          pickup_address: 'Lot 5, Jalan Utas 15/7, Shah Alam',
          pickup_day: 'after_1_day',
          pickup_time: 'earliest',
        },
        'unscan',
      );
      await step({ action: 'ship', ...ids }, 'shipped');
      await step({ action: 'set_delivered', ...ids }, 'delivered');
      await step({ action: 'set_refunded', ...ids }, 'refunded');
    });

    it('cancelling a shipped order, another account’s order, a split into nothing: clear 4xx, nothing recorded', async () => {
      const orderId = await importMine();
      await arrange(orderId);
      await act({ action: 'ship', order_ids: [orderId] });
      const before = await streamLength(seller.tenantId, orderId);

      const cancel = await act({ action: 'cancel', order_ids: [orderId], reason: 'Too late' });
      expect(cancel.statusCode).toBe(409);
      expect(cancel.json()).toMatchObject({
        code: 572,
        msg: 'This order has already shipped: it cannot be cancelled or shipped again.',
      });

      const theirs = await act({ action: 'cancel', order_ids: [orderId] }, other.token);
      expect(theirs.statusCode).toBe(404);
      expect(theirs.json()).toMatchObject({ code: 570, msg: 'The order was not found.' });

      const open = await importMine([line('BATIK-01', 2)]);
      const openBefore = await streamLength(seller.tenantId, open);
      const detail = (await call('GET', `/api/orders/${open}`, seller.token)).json().data;
      const zero = await call('POST', `/api/orders/${open}/split`, seller.token, {
        lines: [{ line_id: detail.lines[0].line_id, quantity: 0 }],
      });
      expect(zero.statusCode).toBe(400);
      expect(zero.json()).toEqual({ code: 576, msg: 'Choose at least one item to split off.' });
      const none = await call('POST', `/api/orders/${open}/split`, seller.token, { lines: [] });
      expect(none.json().code).toBe(576);
      const all = await call('POST', `/api/orders/${open}/split`, seller.token, {
        lines: [{ line_id: detail.lines[0].line_id, quantity: 2 }],
      });
      expect([all.statusCode, all.json().code]).toEqual([400, 577]);
      const theirSplit = await call('POST', `/api/orders/${open}/split`, other.token, {
        lines: [{ line_id: detail.lines[0].line_id, quantity: 1 }],
      });
      expect([theirSplit.statusCode, theirSplit.json().code]).toEqual([404, 570]);

      expect(await streamLength(seller.tenantId, orderId)).toBe(before);
      expect(await streamLength(seller.tenantId, open)).toBe(openBefore);
    });

    it('answers each order of a bulk action for itself', async () => {
      const a = await importMine();
      const b = await importMine();
      const shipped = await importMine();
      await arrange(shipped);
      await act({ action: 'ship', order_ids: [shipped] });
      const missing = randomUUID();
      const response = await act({ action: 'cancel', order_ids: [a, b, shipped, missing] });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toMatchObject({
        code: 0,
        msg: 'Done for 2 of 4 orders; 2 could not be changed.',
        data: {
          action: 'cancel',
          succeeded: 2,
          failed: 2,
          results: [
            { order_id: a, ok: true },
            { order_id: b, ok: true },
            { order_id: shipped, ok: false, code: 572 },
            { order_id: missing, ok: false, code: 570 },
          ],
        },
      });
    });

    it('marks orders printed by hand and holds them in preview, each said on the order and its timeline', async () => {
      const order = await importMine();
      const shipped = await importMine();
      await arrange(shipped);
      await act({ action: 'ship', order_ids: [shipped] });

      const printed = await act({ action: 'mark_printed', order_ids: [order, shipped], document: 'DO' });
      expect(printed.statusCode, printed.body).toBe(200);
      expect(printed.json().data.succeeded).toBe(2);
      const refused = await act({ action: 'mark_printed', order_ids: [order], document: 'LABEL' });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({
        code: 585,
        msg: 'Choose the document printed: one of AWB, INV, PL, CL, DO.',
      });

      expect((await act({ action: 'set_preview', order_ids: [order] })).statusCode).toBe(200);
      const again = await act({ action: 'set_preview', order_ids: [order] });
      expect(again.json().data.results[0]).toMatchObject({ ok: true, unchanged: true });
      // A shipped order is past looking at before packing.
      const late = await act({ action: 'set_preview', order_ids: [shipped] });
      expect(late.statusCode).toBe(409);
      expect(late.json().code).toBe(571);
      // Spec §8's words, with the order's own reason beside them (issue 14).
      expect(late.json().msg).toBe('Failed Set To Preview');
      expect(late.json().errors[0].message).toContain('shipped');

      const detail = async (id: string) =>
        (await call('GET', `/api/orders/${id}`, seller.token)).json().data as {
          preview: boolean;
          printed: string[];
          timeline: { type: string }[];
        };
      await waitFor(async () => (await detail(order)).preview, { what: 'the order in preview' });
      expect((await detail(order)).printed).toEqual(['DO']);
      expect((await detail(shipped)).printed).toEqual(['DO']);
      expect((await detail(order)).timeline.map((entry) => entry.type)).toEqual(
        expect.arrayContaining(['OrderPrinted', 'OrderPreviewSet']),
      );
      expect((await act({ action: 'clear_preview', order_ids: [order] })).statusCode).toBe(200);
      await waitFor(async () => !(await detail(order)).preview, { what: 'the order out of preview' });
    });

    it('refuses a missing tracking number, pickup details, and a pickup the order cannot have', async () => {
      const orderId = await importMine();
      const noTracking = await act({
        action: 'arrange_shipment',
        shipments: [{ order_id: orderId, tracking_number: ' ', shipping_provider: 'J&T' }],
      });
      expect([noTracking.statusCode, noTracking.json().code, noTracking.json().msg]).toEqual([
        400,
        579,
        'Tracking Number is required',
      ]);
      const noProvider = await act({
        action: 'request_pickup',
        order_ids: [orderId],
        provider: '',
        pickup_address: 'Lot 5',
      });
      expect([noProvider.statusCode, noProvider.json().code]).toEqual([400, 580]);
      await act({ action: 'cancel', order_ids: [orderId] });
      const failed = await act({
        action: 'request_pickup',
        order_ids: [orderId],
        provider: 'J&T',
        pickup_address: 'Lot 5',
      });
      expect([failed.statusCode, failed.json().code, failed.json().msg]).toEqual([
        409,
        581,
        'Pickup request failed',
      ]);
      const none = await act({ action: 'cancel', order_ids: [] });
      expect([none.statusCode, none.json().code]).toEqual([400, 583]);
    });

    it('arranging orders of two stores needs the multi-store key', async () => {
      const a = await importMine([line('BATIK-01', 1)], {}, 'store-x');
      const b = await importMine([line('BATIK-01', 1)], {}, 'store-y');
      await settle(api);
      const clerk = await createSubUser(api, seller.tenantId, ['orders-new-order']);
      const shipments = [
        { order_id: a, tracking_number: 'MYX1', shipping_provider: 'J&T' },
        { order_id: b, tracking_number: 'MYY1', shipping_provider: 'J&T' },
      ];
      const refused = await act({ action: 'arrange_shipment', shipments }, clerk.token);
      expect([refused.statusCode, refused.json().code]).toEqual([403, 586]);
      const arranger = await createSubUser(api, seller.tenantId, [
        'orders-new-order',
        'orders-multi-store-arrange',
      ]);
      expect((await act({ action: 'arrange_shipment', shipments }, arranger.token)).statusCode).toBe(200);
    });

    it('records an action once per idempotency key', async () => {
      const orderId = await importMine();
      const key = `trash-${randomUUID()}`;
      const first = await act({ action: 'move_to_trash', order_ids: [orderId] }, seller.token, key);
      expect(first.json().data.results[0]).toMatchObject({ ok: true, unchanged: false });
      const length = await streamLength(seller.tenantId, orderId);
      const again = await act({ action: 'move_to_trash', order_ids: [orderId] }, seller.token, key);
      expect(again.statusCode).toBe(200);
      expect(again.json().data.results[0]).toMatchObject({ ok: true, unchanged: true });
      expect(await streamLength(seller.tenantId, orderId)).toBe(length);
      const bad = await act(
        { action: 'move_to_trash', order_ids: [orderId] },
        seller.token,
        'bad key with spaces',
      );
      expect([bad.statusCode, bad.json().code]).toEqual([400, 584]);
    });

    it("answers the seller's remark, who fulfils the order and its packages", async () => {
      const orderId = await importMine([line('BATIK-01', 1)], {
        sellerRemark: 'Pack with bubble wrap',
        fulfilmentType: 'fulfilled_by_local_seller',
        packageNumbers: ['OFG1001', 'OFG1002'],
      });
      const plain = await importMine();
      expect((await call('GET', `/api/orders/${orderId}`, seller.token)).json().data).toMatchObject({
        seller_remark: 'Pack with bubble wrap',
        fulfilment_type: 'fulfilled_by_local_seller',
        package_numbers: ['OFG1001', 'OFG1002'],
      });
      expect((await call('GET', `/api/orders/${plain}`, seller.token)).json().data).toMatchObject({
        seller_remark: null,
        fulfilment_type: null,
        package_numbers: [],
      });
    });

    it("remembers a mapping per store and SKU: the store's waiting orders and its next orders map by it", async () => {
      const mine = (sku: string, storeId: string) => importMine([line(sku, 1)], {}, storeId);
      const first = await mine('KAIN-LAMA', 'store-m');
      const waiting = await mine('KAIN-LAMA', 'store-m');
      const elsewhere = await mine('KAIN-LAMA', 'store-n');
      await settle(api);
      const lineOf = async (orderId: string) =>
        (await call('GET', `/api/orders/${orderId}`, seller.token)).json().data as {
          item_not_found: boolean;
          lines: { line_id: string; master_code: { id: string } | null }[];
          timeline: { type: string; data: { stock?: { lines: unknown[] } } }[];
        };
      const before = await lineOf(first);
      // Accepted with nothing to reserve: the timeline's record names no line.
      expect(before.timeline.find((entry) => entry.type === 'OrderAccepted')?.data.stock?.lines).toEqual([]);
      const mapped = await call(
        'POST',
        `/api/orders/${first}/lines/${before.lines[0]!.line_id}/map`,
        seller.token,
        { master_code_id: catalogue.batik },
      );
      expect(mapped.statusCode, mapped.body).toBe(200);
      await settle(api);
      expect((await lineOf(waiting)).lines[0]!.master_code?.id).toBe(catalogue.batik);
      expect((await lineOf(waiting)).item_not_found).toBe(false);
      // Another store's SKU is its own.
      expect((await lineOf(elsewhere)).item_not_found).toBe(true);
      const next = await mine('KAIN-LAMA', 'store-m');
      await settle(api);
      expect((await lineOf(next)).lines[0]!.master_code?.id).toBe(catalogue.batik);

      // Changed: the next order follows the new mapping.
      const changed = await call(
        'POST',
        `/api/orders/${next}/lines/${(await lineOf(next)).lines[0]!.line_id}/map`,
        seller.token,
        { master_code_id: catalogue.songket },
      );
      expect(changed.statusCode, changed.body).toBe(200);
      const later = await mine('KAIN-LAMA', 'store-m');
      await settle(api);
      expect((await lineOf(later)).lines[0]!.master_code?.id).toBe(catalogue.songket);
      // Another account never sees this account's mappings.
      const theirs = await importOrder(
        api,
        other.tenantId,
        randomUUID(),
        marketplaceOrder([line('KAIN-LAMA', 1)]),
        'store-m',
      );
      await settle(api);
      const their = (await call('GET', `/api/orders/${theirs}`, other.token)).json().data;
      expect(their.item_not_found).toBe(true);
    });

    it('splits an order, changes its address, maps an unmapped line and removes an out-of-stock line', async () => {
      const orderId = await importMine([line('BATIK-01', 3), line('MYSTERY', 2), line('SONGKET-01', 1)]);
      const detail = (await call('GET', `/api/orders/${orderId}`, seller.token)).json().data;
      const [batik, mystery, songket] = detail.lines as { line_id: string; item_not_found: boolean }[];
      expect(mystery!.item_not_found).toBe(true);
      expect(detail.item_not_found).toBe(true);

      const mapped = await call(
        'POST',
        `/api/orders/${orderId}/lines/${mystery!.line_id}/map`,
        seller.token,
        {
          master_code_id: catalogue.gift,
        },
      );
      expect(mapped.statusCode, mapped.body).toBe(200);
      expect(mapped.json()).toMatchObject({
        msg: 'The line is mapped to GIFT.',
        data: {
          item_not_found: false,
          lines: [{}, { master_code: { id: catalogue.gift, type: 'combo' } }, {}],
        },
      });
      const theirCode = await call(
        'POST',
        `/api/orders/${orderId}/lines/${batik!.line_id}/map`,
        seller.token,
        {
          master_code_id: randomUUID(),
        },
      );
      expect([theirCode.statusCode, theirCode.json().code]).toEqual([404, 582]);
      // A mapped line's mapping can be changed, its reservation moving with it (and changed back).
      await settle(api);
      const reservedOf = async () =>
        Promise.all(
          [catalogue.batik, catalogue.songket].map(
            async (id) => (await stockOf(api, seller.tenantId, id, catalogue.warehouseId)).reserved,
          ),
        );
      const [batikBefore, songketBefore] = await reservedOf();
      const again = await call('POST', `/api/orders/${orderId}/lines/${batik!.line_id}/map`, seller.token, {
        master_code_id: catalogue.songket,
      });
      expect(again.statusCode, again.body).toBe(200);
      expect(again.json().data.lines[0]).toMatchObject({ master_code: { id: catalogue.songket } });
      await settle(api);
      expect(await reservedOf()).toEqual([batikBefore! - 3, songketBefore! + 3]);
      const back = await call('POST', `/api/orders/${orderId}/lines/${batik!.line_id}/map`, seller.token, {
        master_code_id: catalogue.batik,
      });
      expect(back.statusCode, back.body).toBe(200);
      await settle(api);
      expect(await reservedOf()).toEqual([batikBefore, songketBefore]);

      const removed = await call(
        'POST',
        `/api/orders/${orderId}/lines/${songket!.line_id}/remove`,
        seller.token,
        {
          mark: 'out_of_stock',
        },
      );
      expect(removed.statusCode, removed.body).toBe(200);
      expect(removed.json().data.lines[2]).toMatchObject({ removed: true });
      expect(removed.json().data.item_count).toBe(5);

      // A name as long as any name may be (domain/shared/limits.ts) is kept whole.
      const longName = `Tan Mei Ling ${'binti Abdullah '.repeat(20)}`.slice(0, TEXT_LIMITS.name);
      const address = await call('POST', `/api/orders/${orderId}/address`, seller.token, {
        name: longName,
        phone: '+60198765432',
        full_address: '88 Lebuh Chulia, 10200 George Town',
        city: 'George Town',
        state: 'Pulau Pinang',
        postal_code: '10200',
        country: 'my',
      });
      expect(address.statusCode, address.body).toBe(200);
      expect(address.json().data.address).toMatchObject({
        name: longName,
        city: 'George Town',
        country: 'MY',
      });
      const badAddress = await call('POST', `/api/orders/${orderId}/address`, seller.token, {
        name: 'x',
        phone: '',
        full_address: 'y',
        city: 'z',
        postal_code: '1',
        country: 'MY',
      });
      expect([badAddress.statusCode, badAddress.json().code]).toEqual([400, 587]);
      const longCity = await call('POST', `/api/orders/${orderId}/address`, seller.token, {
        name: 'Tan Mei Ling',
        phone: '+60198765432',
        full_address: '88 Lebuh Chulia, 10200 George Town',
        city: 'G'.repeat(TEXT_LIMITS.name + 1),
        postal_code: '10200',
        country: 'MY',
      });
      expect(longCity.statusCode, longCity.body).toBe(400);
      expect(longCity.json()).toMatchObject({
        msg: `This entry is too long (maximum is ${TEXT_LIMITS.name} characters).`,
        errors: [{ path: 'body/city' }],
      });

      const split = await call('POST', `/api/orders/${orderId}/split`, seller.token, {
        lines: [
          { line_id: batik!.line_id, quantity: 2 },
          { line_id: mystery!.line_id, quantity: 0 },
        ],
      });
      expect(split.statusCode, split.body).toBe(200);
      const { order, child_order_id: childId } = split.json().data;
      expect(order.item_count).toBe(3);
      const child = (await call('GET', `/api/orders/${childId}`, seller.token)).json().data;
      expect(child).toMatchObject({
        order_number: `${order.order_number}-1`,
        split_from: orderId,
        status: 'new',
        item_count: 2,
        address: { city: 'George Town' },
      });
    });
  });

  describe('many pickers at once', () => {
    it('50 scans of different orders and 2 of the same order: each order scanned once, stock moved once', async () => {
      // The baseline after the live reactor has answered the earlier tests' orders (their reservations), not before.
      await api.reactors.catchUp(ORDER_STOCK_REACTOR);
      const before = await stockOf(api, seller.tenantId, catalogue.batik, catalogue.warehouseId);
      const orders: string[] = [];
      for (let i = 0; i < 50; i++) orders.push(await importMine([line('BATIK-01', 2)]));
      await Promise.all(
        orders.map((orderId) =>
          act({
            action: 'arrange_shipment',
            shipments: [
              { order_id: orderId, tracking_number: `MYC${orderId.slice(0, 8)}`, shipping_provider: 'J&T' },
            ],
          }),
        ),
      );
      // Every order by its own picker, and the first order by a second picker too, each with their own key.
      const scans = await Promise.all(
        [...orders, orders[0]!].map((orderId) =>
          act({ action: 'scan', order_ids: [orderId] }, seller.token, `scan-${randomUUID()}`),
        ),
      );
      const codes = scans.map((response) => response.statusCode);
      expect(codes.filter((code) => code === 200)).toHaveLength(50);
      expect(codes.filter((code) => code === 409)).toHaveLength(1);
      for (const orderId of orders) {
        const types: string[] = [];
        for await (const event of api.store.readStream(orderStreamId(seller.tenantId, orderId)))
          types.push(event.type);
        expect(types.filter((type) => type === 'OrderScanned')).toHaveLength(1);
      }
      await api.reactors.catchUp(ORDER_STOCK_REACTOR);
      await api.reactors.catchUp(ORDER_STOCK_REACTOR);
      expect(await stockOf(api, seller.tenantId, catalogue.batik, catalogue.warehouseId)).toEqual({
        onHand: before.onHand,
        reserved: before.reserved,
        inProcess: before.inProcess + 100,
      });
      await api.engine.catchUp(ORDERS_PROJECTION);
      const scanned = await list({ tab: 'scan', search: '' });
      expect(orders.every((id) => scanned.rows.some((row) => row.id === id))).toBe(true);
    });
  });

  describe('live', () => {
    it('a websocket client sees the tab counts change when an order is scanned through the API', async () => {
      await api.app.listen({ port: 0, host: '127.0.0.1' });
      const url = `ws://127.0.0.1:${(api.app.server.address() as AddressInfo).port}/api/live`;
      const orderId = await importMine();
      await arrange(orderId);
      await settle(api);
      api.engine.start();
      const socket = new WebSocket(url, { headers: bearer(seller.token) });
      const messages: LiveServerMessage[] = [];
      socket.on('message', (data) => messages.push(JSON.parse(data.toString()) as LiveServerMessage));
      await new Promise((resolve) => socket.once('open', resolve));
      socket.send(JSON.stringify({ type: 'subscribe', views: [ORDER_COUNTS_VIEW] }));
      await waitFor(() => messages.some((m) => m.type === 'subscribed'), { what: 'the subscription' });

      const before = await counts();
      const response = await act({ action: 'scan', order_ids: [orderId] });
      expect(response.statusCode, response.body).toBe(200);
      const change = await waitFor(
        () =>
          messages.find(
            (m) => m.type === 'change' && m.view === ORDER_COUNTS_VIEW && m.ids.includes(orderId),
          ),
        { what: 'the orderCounts change' },
      );
      expect(change).toMatchObject({ type: 'change', view: ORDER_COUNTS_VIEW });
      const after = await counts();
      expect(after.tabs.scan).toBe(before.tabs.scan! + 1);
      expect(after.tabs.unscan).toBe(before.tabs.unscan! - 1);
      socket.terminate();
    });
  });
});
