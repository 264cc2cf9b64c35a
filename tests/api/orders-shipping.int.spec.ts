import { loadOrder } from '@commands/orders/order';
import type { ShopeeOrder } from '@integrations/shopee';
import {
  pickSlot,
  type StoreSettings,
  setStoreSettings,
  shopeeToMarketplaceOrder,
} from '@integrations/stores';
import {
  connectedClient,
  START,
  startTestSandbox,
  type TestSandbox,
} from '@tests/integrations/shopee/support';
import { createSeller, createTestApi, type TestApi, type TestSeller } from '@tests/support/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importOrder, line, marketplaceOrder, seedCatalogue } from './orders-support';
import { connectSandboxStore, pointStoresAt } from './stores-support';

/**
 * Shipments the marketplace arranges, against the Shopee sandbox: an order of a connected Shopee store is arranged
 * by drop-off or pickup through ship_order and records the tracking number Shopee gives (a retry records nothing
 * new and asks Shopee for no second shipment); an order of no connected store needs the tracking number typed; a
 * refusal of Shopee's is the order's answer (588, "Pickup request failed"), and the order is left as it was. A
 * seller's cancel goes to Shopee's cancel_order too (589 when Shopee refuses).
 */

interface Answer<T = unknown> {
  statusCode: number;
  body: { code: number; msg: string; data: T; errors?: { path: string; message: string }[] };
}

interface ActionData {
  succeeded: number;
  failed: number;
  results: { order_id: string; ok: boolean; code: number; msg: string; unchanged: boolean }[];
}

describe('arranging shipments with the marketplace', () => {
  let test: TestSandbox;
  let api: TestApi;
  let seller: TestSeller;
  let warehouseId: string;
  let storeId: string;
  let previousSettings: StoreSettings | undefined;

  const call = async <T>(
    method: 'GET' | 'POST',
    url: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Answer<T>> => {
    const response = await api.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${seller.token}`, ...headers },
      ...(body === undefined ? {} : { payload: body as object }),
    });
    return { statusCode: response.statusCode, body: response.json() };
  };

  /** A Kedai order of a sandbox order waiting to ship, imported into the connected store as the import does. */
  async function kedaiOrderOf(order: ShopeeOrder): Promise<string> {
    return importOrder(api, seller.tenantId, warehouseId, shopeeToMarketplaceOrder(order), storeId);
  }

  const ready = () =>
    test.sandbox.orders(test.shopId).filter((order) => order.order_status === 'READY_TO_SHIP');
  const sandboxOrder = (sn: string) => test.sandbox.order(sn)!;
  /** What Shopee itself says of the order's tracking number, and of the shop's pickup address. */
  const shopee = () => connectedClient(test).client;
  const trackingAtShopee = async (sn: string) =>
    (await shopee().getTrackingNumber(test.shopId, { order_sn: sn })).tracking_number;
  const shopAddress = async (sn: string) =>
    (await shopee().getShippingParameter(test.shopId, { order_sn: sn })).pickup!.address_list[0]!.address;

  beforeAll(async () => {
    test = await startTestSandbox();
    test.sandbox.generateOrders(30);
    test.clock.advance(30 * 60_000);
    api = await createTestApi();
    seller = await createSeller(api);
    ({ warehouseId } = await seedCatalogue(api, seller.tenantId));
    previousSettings = pointStoresAt(test);
    storeId = await connectSandboxStore(api, seller.tenantId, test, test.shopId, 'Batik Official');
  });
  afterAll(async () => {
    if (previousSettings) setStoreSettings(previousSettings);
    await api?.close();
    await test?.sandbox.stop();
  });

  it('says which orders the marketplace arranges, with the shop’s pickup addresses', async () => {
    const marketplace = await kedaiOrderOf(ready().at(-1)!);
    const manual = await importOrder(
      api,
      seller.tenantId,
      warehouseId,
      marketplaceOrder([line('BATIK-01', 1)]),
    );
    const answer = await call<{
      orders: { order_id: string; marketplace: boolean }[];
      pickup_addresses: { id: number; address: string; is_default: boolean }[];
    }>('GET', `/api/orders/shipping?order_ids=${marketplace},${manual}`);
    expect(answer.statusCode).toBe(200);
    expect(answer.body.data.orders).toEqual([
      { order_id: marketplace, marketplace: true },
      { order_id: manual, marketplace: false },
    ]);
    expect(answer.body.data.pickup_addresses).toHaveLength(1);
    expect(answer.body.data.pickup_addresses[0]).toMatchObject({ is_default: true });
    expect(answer.body.data.pickup_addresses[0]!.address).toContain(await shopAddress(ready()[0]!.order_sn));

    // Another account's order is nobody's to arrange here.
    const other = await createSeller(api);
    const theirs = await call<{ orders: { marketplace: boolean }[] }>(
      'GET',
      `/api/orders/shipping?order_ids=${marketplace}`,
      undefined,
      { authorization: `Bearer ${other.token}` },
    );
    expect(theirs.body.data.orders).toEqual([{ order_id: marketplace, marketplace: false }]);
  });

  it('arranges a drop-off with Shopee and records the tracking number Shopee gave, once', async () => {
    const order = ready()[0]!;
    const orderId = await kedaiOrderOf(order);
    const body = { action: 'arrange_shipment', shipments: [{ order_id: orderId }] };
    const key = { 'idempotency-key': `arrange-${orderId}` };
    const first = await call<ActionData>('POST', '/api/orders/actions', body, key);
    expect(first.statusCode).toBe(200);
    expect(first.body.data.results[0]).toMatchObject({ ok: true, unchanged: false });

    const shopee = sandboxOrder(order.order_sn);
    expect(shopee.order_status).toBe('PROCESSED');
    const state = await loadOrder(api.store, seller.tenantId, orderId);
    expect(state.trackingNumber).toBeTruthy();
    expect(state.trackingNumber).toBe(await trackingAtShopee(order.order_sn));
    expect(state.shippingProvider).toBe(shopee.shipping_carrier);
    // Arranged, a new order moves on to unscan.
    expect(state.status).toBe('unscan');

    // A retry: Shopee is not asked for a second shipment, and nothing new is recorded.
    const again = await call<ActionData>('POST', '/api/orders/actions', body, key);
    expect(again.statusCode).toBe(200);
    expect(again.body.data.results[0]).toMatchObject({ ok: true, unchanged: true });
    expect((await loadOrder(api.store, seller.tenantId, orderId)).trackingNumber).toBe(state.trackingNumber);
  });

  it('sends the seller’s own tracking number to Shopee as a parcel of a non-integrated carrier', async () => {
    const order = ready()[0]!;
    const orderId = await kedaiOrderOf(order);
    const answer = await call<ActionData>('POST', '/api/orders/actions', {
      action: 'arrange_shipment',
      shipments: [{ order_id: orderId, tracking_number: 'OWNCARRIER123', shipping_provider: 'Own van' }],
    });
    expect(answer.statusCode).toBe(200);
    expect(await trackingAtShopee(order.order_sn)).toBe('OWNCARRIER123');
    expect((await loadOrder(api.store, seller.tenantId, orderId)).trackingNumber).toBe('OWNCARRIER123');
  });

  it('books a pickup at the shop’s address on the day and time asked for', async () => {
    const order = ready()[0]!;
    const orderId = await kedaiOrderOf(order);
    const answer = await call<ActionData>('POST', '/api/orders/actions', {
      action: 'request_pickup',
      order_ids: [orderId],
      provider: order.shipping_carrier,
      pickup_address: 'the shop’s default',
      pickup_day: 'after_1_day',
      pickup_time: 'latest',
    });
    expect(answer.statusCode).toBe(200);
    expect(sandboxOrder(order.order_sn).order_status).toBe('PROCESSED');
    const state = await loadOrder(api.store, seller.tenantId, orderId);
    expect(state.trackingNumber).toBe(await trackingAtShopee(order.order_sn));
    const detail = await call<{ timeline: { type: string; data: Record<string, unknown> }[] }>(
      'GET',
      `/api/orders/${orderId}`,
    );
    const pickup = detail.body.data.timeline.find((entry) => entry.type === 'OrderPickupRequested');
    expect(pickup?.data.pickupAddress).toContain(await shopAddress(ready()[0]!.order_sn));
    expect(pickup?.data.pickupDay).toBe('after_1_day');
  });

  it('answers Shopee’s refusal for the order and leaves it as it was', async () => {
    // Cancelled at Shopee after Kedai imported it: Shopee will not ship it.
    const order = ready()[0]!;
    const orderId = await kedaiOrderOf(order);
    test.sandbox.setOrderStatus(order.order_sn, 'CANCELLED', 'OUT_OF_STOCK');
    const arrange = await call<ActionData>('POST', '/api/orders/actions', {
      action: 'arrange_shipment',
      shipments: [{ order_id: orderId }],
    });
    expect(arrange.statusCode).toBe(409);
    expect(arrange.body.code).toBe(588);
    expect(arrange.body.msg).toContain('The marketplace did not arrange the shipment:');
    expect(arrange.body.msg).toContain('logistics.invalid_status');
    const pickup = await call<ActionData>('POST', '/api/orders/actions', {
      action: 'request_pickup',
      order_ids: [orderId],
      provider: 'J&T Express',
      pickup_address: 'Shop',
    });
    expect(pickup.statusCode).toBe(409);
    expect(pickup.body.code).toBe(581);
    expect(pickup.body.msg).toMatch(/^Pickup request failed: /);
    const state = await loadOrder(api.store, seller.tenantId, orderId);
    expect(state.trackingNumber).toBeNull();
    expect(state.status).toBe('new');
  });

  it('tries ship_order again after a passing failure, and answers the failure that lasts', async () => {
    const path = '/api/v2/logistics/ship_order';
    const order = ready()[0]!;
    const orderId = await kedaiOrderOf(order);
    const body = { action: 'arrange_shipment', shipments: [{ order_id: orderId }] };
    test.sandbox.failNext({ kind: '5xx', times: 3, path });
    const failed = await call<ActionData>('POST', '/api/orders/actions', body);
    expect(failed.statusCode).toBe(409);
    expect(failed.body.code).toBe(588);
    expect(sandboxOrder(order.order_sn).order_status).toBe('READY_TO_SHIP');
    expect((await loadOrder(api.store, seller.tenantId, orderId)).trackingNumber).toBeNull();

    test.sandbox.failNext({ kind: '5xx', times: 2, path });
    const arranged = await call<ActionData>('POST', '/api/orders/actions', body);
    expect(arranged.statusCode).toBe(200);
    expect(sandboxOrder(order.order_sn).order_status).toBe('PROCESSED');
    expect((await loadOrder(api.store, seller.tenantId, orderId)).trackingNumber).toBe(
      await trackingAtShopee(order.order_sn),
    );
  });

  it('cancels an order of the connected store at Shopee too, once, and answers Shopee’s refusal', async () => {
    const order = ready()[0]!;
    const orderId = await kedaiOrderOf(order);
    const body = {
      action: 'cancel',
      order_ids: [orderId],
      reason: 'No stock left',
      marketplace_reason: 'out_of_stock',
    };
    const key = { 'idempotency-key': `cancel-${orderId}` };
    const cancelled = await call<ActionData>('POST', '/api/orders/actions', body, key);
    expect(cancelled.statusCode, JSON.stringify(cancelled.body)).toBe(200);
    const atShopee = sandboxOrder(order.order_sn);
    expect(atShopee.order_status).toBe('CANCELLED');
    expect(atShopee.cancel_by).toBe('seller');
    expect(atShopee.cancel_reason).toBe('OUT_OF_STOCK');
    expect((await loadOrder(api.store, seller.tenantId, orderId)).status).toBe('cancelled');
    // A retry: Shopee has it cancelled already, and nothing new is recorded.
    const again = await call<ActionData>('POST', '/api/orders/actions', body, key);
    expect(again.statusCode).toBe(200);
    expect(again.body.data.results[0]).toMatchObject({ ok: true, unchanged: true });

    // Shipment arranged at Shopee: Shopee will not cancel it, and the order stays as it was.
    const arranged = ready()[0]!;
    const arrangedId = await kedaiOrderOf(arranged);
    await shopee().shipOrder(test.shopId, { order_sn: arranged.order_sn, dropoff: {} });
    const refused = await call<ActionData>('POST', '/api/orders/actions', {
      action: 'cancel',
      order_ids: [arrangedId],
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.body.code).toBe(589);
    expect(refused.body.msg).toContain('The marketplace did not cancel the order:');
    expect(refused.body.msg).toContain('order.order_status_error');
    expect((await loadOrder(api.store, seller.tenantId, arrangedId)).status).toBe('new');
    expect(sandboxOrder(arranged.order_sn).order_status).toBe('PROCESSED');
  });

  it('still needs the tracking number typed for an order no connected store arranges', async () => {
    const orderId = await importOrder(
      api,
      seller.tenantId,
      warehouseId,
      marketplaceOrder([line('BATIK-01', 1)]),
    );
    const answer = await call<ActionData>('POST', '/api/orders/actions', {
      action: 'arrange_shipment',
      shipments: [{ order_id: orderId, tracking_number: '   ' }],
    });
    expect(answer.statusCode).toBe(400);
    expect(answer.body.code).toBe(579);
    expect(answer.body.msg).toBe('Tracking Number is required');
    expect((await loadOrder(api.store, seller.tenantId, orderId)).trackingNumber).toBeNull();
  });

  it('picks the pickup slot of the day asked for, in Malaysian time', () => {
    const day = 86_400;
    // START is 10:00 in Malaysia; slots at 09:00 and 15:00 of the next three days.
    const base = Math.floor(START / 1000) + day - 3600;
    const slots = [0, 1, 2].flatMap((n) => [
      { date: base + n * day, id: `${n}-am` },
      { date: base + n * day + 6 * 3600, id: `${n}-pm` },
    ]);
    expect(pickSlot(slots, 'today', 'none', START)?.id).toBe('0-am');
    expect(pickSlot(slots, 'after_1_day', 'earliest', START)?.id).toBe('0-am');
    expect(pickSlot(slots, 'after_1_day', 'latest', START)?.id).toBe('0-pm');
    expect(pickSlot(slots, 'after_2_days', 'latest', START)?.id).toBe('1-pm');
    expect(pickSlot(slots, 'after_2_days', 'none', START + 5 * day * 1000)?.id).toBe('2-pm');
    expect(pickSlot([], 'today', 'none', START)).toBeNull();
  });
});
