import { loadOrder } from '@commands/orders/order';
import type { ShopeeOrder } from '@integrations/shopee';
import { type StoreSettings, setStoreSettings, shopeeToMarketplaceOrder } from '@integrations/stores';
import { connectedClient, startTestSandbox, type TestSandbox } from '@tests/integrations/shopee/support';
import {
  bearer,
  createSeller,
  createSubUser,
  createTestApi,
  type TestApi,
  type TestSeller,
} from '@tests/support/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Catalogue,
  importOrder,
  line,
  marketplaceOrder,
  seedCatalogue,
  settle,
  stockOf,
} from './orders-support';
import { connectSandboxStore, pointStoresAt } from './stores-support';

/**
 * The order board's follow-ups of spec §4, against the Shopee sandbox: cancel third-party shipment (the order back
 * to pending process; refused while Shopee still holds the shipment, which Shopee gives no call to cancel), process
 * failed (a step the marketplace refused is listed with its reason and tried again as it was asked), waiting assign
 * (a picker assigned), and replacement (a replacement order linked to its original both ways, at no charge, its
 * stock reserved).
 */

interface Answer<T = unknown> {
  statusCode: number;
  body: { code: number; msg: string; data: T; errors?: { path: string; message: string }[] };
}
interface ActionData {
  succeeded: number;
  results: { order_id: string; ok: boolean; code: number; msg: string }[];
}
interface Row {
  id: string;
  order_number: string;
  status: string;
  total_amount: string;
  replacement_of: string | null;
  picker: { id: string; name: string | null } | null;
  process_failure: { step: string; code: number; reason: string } | null;
}
interface Detail extends Row {
  tracking_number: string | null;
  stock_stage: string;
  lines: { line_id: string; quantity: number; unit_price: string }[];
  replacements: { id: string; order_number: string }[];
  replaces: { id: string; order_number: string | null } | null;
  timeline: { type: string; data: Record<string, unknown> }[];
}

describe('order follow-ups: cancel third-party shipment, process failed, waiting assign, replacement', () => {
  let test: TestSandbox;
  let api: TestApi;
  let seller: TestSeller;
  let catalogue: Catalogue;
  let storeId: string;
  let previousSettings: StoreSettings | undefined;

  const call = async <T>(method: 'GET' | 'POST', url: string, body?: unknown, token = seller.token) => {
    const response = await api.app.inject({
      method,
      url,
      headers: bearer(token),
      ...(body === undefined ? {} : { payload: body as object }),
    });
    return { statusCode: response.statusCode, body: response.json() } as Answer<T>;
  };
  const act = (body: Record<string, unknown>, token = seller.token) =>
    call<ActionData>('POST', '/api/orders/actions', body, token);
  const detail = async (orderId: string) => (await call<Detail>('GET', `/api/orders/${orderId}`)).body.data;
  const listed = async (filter: string) => {
    await settle(api);
    const answer = await call<{ rows: Row[] }>('GET', `/api/orders?tab=all&filter=${filter}&endRow=500`);
    expect(answer.statusCode, JSON.stringify(answer.body)).toBe(200);
    return answer.body.data.rows;
  };

  const ready = () =>
    test.sandbox.orders(test.shopId).filter((order) => order.order_status === 'READY_TO_SHIP');
  const shopeeOrder = async (order: ShopeeOrder) =>
    importOrder(api, seller.tenantId, catalogue.warehouseId, shopeeToMarketplaceOrder(order), storeId);
  const manualOrder = (quantity = 2) =>
    importOrder(api, seller.tenantId, catalogue.warehouseId, marketplaceOrder([line('BATIK-01', quantity)]));
  const arrangeOwn = async (orderId: string, tracking = `OWN${orderId.slice(0, 8).toUpperCase()}`) => {
    const answer = await act({
      action: 'arrange_shipment',
      shipments: [{ order_id: orderId, tracking_number: tracking, shipping_provider: 'Own van' }],
    });
    expect(answer.statusCode, JSON.stringify(answer.body)).toBe(200);
  };

  beforeAll(async () => {
    test = await startTestSandbox();
    test.sandbox.generateOrders(20);
    test.clock.advance(30 * 60_000);
    api = await createTestApi();
    seller = await createSeller(api);
    catalogue = await seedCatalogue(api, seller.tenantId, 1000);
    previousSettings = pointStoresAt(test);
    storeId = await connectSandboxStore(api, seller.tenantId, test, test.shopId, 'Batik Official');
  });
  afterAll(async () => {
    if (previousSettings) setStoreSettings(previousSettings);
    await api?.close();
    await test?.sandbox.stop();
  });

  describe('cancel third-party shipment', () => {
    it('takes an order back to pending process, its picked stock reserved again, recorded on its timeline', async () => {
      const orderId = await manualOrder();
      await arrangeOwn(orderId);
      expect((await act({ action: 'scan', order_ids: [orderId] })).statusCode).toBe(200);
      await settle(api);
      const picked = await stockOf(api, seller.tenantId, catalogue.batik, catalogue.warehouseId);

      const cancelled = await act({ action: 'cancel_shipment', order_ids: [orderId] });
      expect(cancelled.statusCode, JSON.stringify(cancelled.body)).toBe(200);
      const state = await loadOrder(api.store, seller.tenantId, orderId);
      expect(state).toMatchObject({
        status: 'new',
        trackingNumber: null,
        shippingProvider: null,
        stock: 'reserved',
      });
      await settle(api);
      const after = await stockOf(api, seller.tenantId, catalogue.batik, catalogue.warehouseId);
      expect(after.inProcess).toBe(picked.inProcess - 2);
      expect(after.reserved).toBe(picked.reserved + 2);
      const entry = (await detail(orderId)).timeline.find((e) => e.type === 'OrderShipmentCancelled');
      expect(entry?.data).toMatchObject({
        trackingNumber: `OWN${orderId.slice(0, 8).toUpperCase()}`,
        from: 'scanned',
      });

      // Nothing arranged any more: the spec's refusal, and nothing recorded.
      const again = await act({ action: 'cancel_shipment', order_ids: [orderId] });
      expect(again.statusCode).toBe(409);
      expect(again.body.code).toBe(590);
      expect(again.body.msg).toBe('This order has no shipment arranged to cancel.');
    });

    it('is refused while Shopee holds the shipment, listed as process failed, and goes once Shopee lets it go', async () => {
      const order = ready()[0]!;
      const orderId = await shopeeOrder(order);
      expect((await act({ action: 'arrange_shipment', shipments: [{ order_id: orderId }] })).statusCode).toBe(
        200,
      );
      const tracking = (await loadOrder(api.store, seller.tenantId, orderId)).trackingNumber;
      expect(tracking).toBeTruthy();

      const refused = await act({ action: 'cancel_shipment', order_ids: [orderId] });
      expect(refused.statusCode).toBe(409);
      expect(refused.body.code).toBe(591);
      expect(refused.body.msg).toContain('PROCESSED');
      expect((await loadOrder(api.store, seller.tenantId, orderId)).trackingNumber).toBe(tracking);
      const failed = (await listed('process_failed')).find((row) => row.id === orderId);
      expect(failed?.process_failure).toMatchObject({ step: 'cancel_shipment', code: 591 });
      expect(failed?.process_failure?.reason).toBe(refused.body.msg);

      // The carrier's pickup failed: Shopee asks for the shipment to be arranged again, so Kedai's can go.
      test.sandbox.setOrderStatus(order.order_sn, 'RETRY_SHIP');
      const retried = await act({ action: 'retry_process', order_ids: [orderId] });
      expect(retried.statusCode, JSON.stringify(retried.body)).toBe(200);
      expect(await loadOrder(api.store, seller.tenantId, orderId)).toMatchObject({
        status: 'new',
        trackingNumber: null,
        failure: null,
      });
      expect((await listed('process_failed')).map((row) => row.id)).not.toContain(orderId);

      // Arranged again with Shopee, from its RETRY_SHIP.
      const rearranged = await act({ action: 'arrange_shipment', shipments: [{ order_id: orderId }] });
      expect(rearranged.statusCode, JSON.stringify(rearranged.body)).toBe(200);
      expect(test.sandbox.order(order.order_sn)!.order_status).toBe('PROCESSED');
    });
  });

  describe('process failed', () => {
    it('lists an order whose arrangement Shopee refused, with the reason, and tries it again as it was asked', async () => {
      const path = '/api/v2/logistics/ship_order';
      const order = ready()[0]!;
      const orderId = await shopeeOrder(order);
      test.sandbox.failNext({ kind: '5xx', times: 3, path });
      const refused = await act({ action: 'arrange_shipment', shipments: [{ order_id: orderId }] });
      expect(refused.statusCode).toBe(409);
      expect(refused.body.code).toBe(588);

      const row = (await listed('process_failed')).find((r) => r.id === orderId);
      expect(row?.process_failure).toMatchObject({ step: 'arrange_shipment', code: 588 });
      expect(row?.process_failure?.reason).toContain('The marketplace did not arrange the shipment:');
      const zh = await api.app.inject({
        method: 'GET',
        url: `/api/orders/${orderId}`,
        headers: bearer(seller.token, 'zh-cn'),
      });
      expect(zh.json<{ data: Detail }>().data.process_failure?.reason).toContain('平台');

      const retried = await act({ action: 'retry_process', order_ids: [orderId] });
      expect(retried.statusCode, JSON.stringify(retried.body)).toBe(200);
      expect(test.sandbox.order(order.order_sn)!.order_status).toBe('PROCESSED');
      const state = await loadOrder(api.store, seller.tenantId, orderId);
      expect(state.trackingNumber).toBe(
        (await connectedClient(test).client.getTrackingNumber(test.shopId, { order_sn: order.order_sn }))
          .tracking_number,
      );
      expect((await listed('process_failed')).map((r) => r.id)).not.toContain(orderId);
    });

    it('has nothing to try again on an order that did not fail', async () => {
      const orderId = await manualOrder();
      const answer = await act({ action: 'retry_process', order_ids: [orderId] });
      expect(answer.statusCode).toBe(409);
      expect(answer.body.code).toBe(592);
    });
  });

  describe('waiting assign', () => {
    it('lists accepted orders no picker has, until one is assigned', async () => {
      const orderId = await manualOrder();
      expect((await listed('waiting_assign')).map((row) => row.id)).toContain(orderId);
      const assigned = await act({ action: 'assign', order_ids: [orderId], picker_id: seller.userId });
      expect(assigned.statusCode, JSON.stringify(assigned.body)).toBe(200);
      expect((await listed('waiting_assign')).map((row) => row.id)).not.toContain(orderId);
      expect((await listed('pending')).find((row) => row.id === orderId)?.picker).toEqual({
        id: seller.userId,
        name: 'Siti Aminah',
      });

      // Taken back, it waits again.
      expect((await act({ action: 'assign', order_ids: [orderId], picker_id: null })).statusCode).toBe(200);
      expect((await listed('waiting_assign')).map((row) => row.id)).toContain(orderId);
    });

    it('refuses a picker of another account, and a user without the batch key', async () => {
      const orderId = await manualOrder();
      const stranger = await createSeller(api);
      const answer = await act({ action: 'assign', order_ids: [orderId], picker_id: stranger.userId });
      expect(answer.statusCode).toBe(404);
      expect(answer.body.code).toBe(594);
      const bad = await act({ action: 'assign', order_ids: [orderId], picker_id: 7 });
      expect(bad.statusCode).toBe(400);
      expect(bad.body.code).toBe(594);
      const clerk = await createSubUser(api, seller.tenantId, ['orders-new-order']);
      const forbidden = await act({ action: 'assign', order_ids: [orderId], picker_id: null }, clerk.token);
      expect(forbidden.statusCode).toBe(403);
      expect((await loadOrder(api.store, seller.tenantId, orderId)).pickerId).toBeUndefined();
    });
  });

  describe('replacement', () => {
    async function shippedOrder() {
      const orderId = await manualOrder(3);
      await arrangeOwn(orderId);
      expect((await act({ action: 'ship', order_ids: [orderId] })).statusCode).toBe(200);
      return orderId;
    }

    it('makes a replacement order of chosen items, at no charge, its stock reserved, linked both ways', async () => {
      const orderId = await shippedOrder();
      const original = await detail(orderId);
      await settle(api);
      const before = await stockOf(api, seller.tenantId, catalogue.batik, catalogue.warehouseId);
      const lineId = original.lines[0]!.line_id;
      const answer = await call<{ order: Detail; replacement_order_id: string }>(
        'POST',
        `/api/orders/${orderId}/replacement`,
        { lines: [{ line_id: lineId, quantity: 2 }], idempotency_key: `replace-${orderId}` },
      );
      expect(answer.statusCode, JSON.stringify(answer.body)).toBe(200);
      const replacementId = answer.body.data.replacement_order_id;
      expect(answer.body.data.order.replacements).toEqual([
        { id: replacementId, order_number: `${original.order_number}-R1` },
      ]);
      expect(answer.body.data.order.timeline.some((e) => e.type === 'OrderReplaced')).toBe(true);

      const replacement = await detail(replacementId);
      expect(replacement).toMatchObject({
        order_number: `${original.order_number}-R1`,
        status: 'new',
        total_amount: '0.00',
        tracking_number: null,
        stock_stage: 'reserved',
        replacement_of: orderId,
        replaces: { id: orderId, order_number: original.order_number },
      });
      expect(replacement.lines).toEqual([
        expect.objectContaining({ line_id: lineId, quantity: 2, unit_price: '0.00' }),
      ]);
      await settle(api);
      const after = await stockOf(api, seller.tenantId, catalogue.batik, catalogue.warehouseId);
      expect(after.reserved).toBe(before.reserved + 2);
      const rows = await listed('replacement');
      expect(rows.map((row) => row.id)).toContain(replacementId);
      expect(rows.map((row) => row.id)).not.toContain(orderId);

      // The same request again makes nothing new.
      const again = await call<{ replacement_order_id: string }>(
        'POST',
        `/api/orders/${orderId}/replacement`,
        {
          lines: [{ line_id: lineId, quantity: 2 }],
          idempotency_key: `replace-${orderId}`,
        },
      );
      expect(again.body.data.replacement_order_id).toBe(replacementId);
      expect((await detail(orderId)).replacements).toHaveLength(1);
    });

    it('refuses bad input with the spec’s codes and changes nothing', async () => {
      const orderId = await shippedOrder();
      const lineId = (await detail(orderId)).lines[0]!.line_id;
      const post = (body: unknown, id = orderId) => call('POST', `/api/orders/${id}/replacement`, body);
      const none = await post({ lines: [] });
      expect([none.statusCode, none.body.code]).toEqual([400, 593]);
      const zero = await post({ lines: [{ line_id: lineId, quantity: 0 }] });
      expect([zero.statusCode, zero.body.code]).toEqual([400, 593]);
      const tooMany = await post({ lines: [{ line_id: lineId, quantity: 4 }] });
      expect([tooMany.statusCode, tooMany.body.code]).toEqual([400, 578]);
      const negative = await post({ lines: [{ line_id: lineId, quantity: -1 }] });
      expect([negative.statusCode, negative.body.code]).toEqual([400, 578]);
      const notShipped = await post({ lines: [{ line_id: 'x', quantity: 1 }] }, await manualOrder());
      expect([notShipped.statusCode, notShipped.body.code]).toEqual([409, 571]);
      const stranger = await createSeller(api);
      const theirs = await call(
        'POST',
        `/api/orders/${orderId}/replacement`,
        {
          lines: [{ line_id: lineId, quantity: 1 }],
        },
        stranger.token,
      );
      expect(theirs.statusCode).toBe(404);
      expect((await detail(orderId)).replacements).toEqual([]);
    });
  });
});
