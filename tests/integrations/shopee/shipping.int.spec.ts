import { type ShopeeClient, type ShopeeOrder, ShopeeRequestError } from '@integrations/shopee';
import { imageCount, isPdf, mediaBoxes, pageCount, textLines } from '@tests/api/inventory/pdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectedClient, startTestSandbox, type TestSandbox } from './support';

const mm = (points: number) => Math.round((points * 25.4) / 72);

describe('shipping an order: parameters → ship_order → tracking number → air waybill', () => {
  let test: TestSandbox;
  let client: ShopeeClient;
  let ready: ShopeeOrder[];

  beforeAll(async () => {
    test = await startTestSandbox({ documentDelayMs: 3000 });
    ({ client } = connectedClient(test));
    test.sandbox.generateOrders(60);
    test.clock.advance(30 * 60_000);
    ready = test.sandbox.orders().filter((order) => order.order_status === 'READY_TO_SHIP');
    expect(ready.length).toBeGreaterThan(4);
  });
  afterAll(async () => {
    await test?.sandbox.stop();
  });

  it('arranges a pickup, gets the tracking number, and downloads an AWB carrying it as text and barcode', async () => {
    const order = ready[0]!;
    const before = await client.getTrackingNumber(test.shopId, { order_sn: order.order_sn });
    expect(before).toEqual({ tracking_number: '', hint: expect.stringContaining('arrange shipment') });

    const parameters = await client.getShippingParameter(test.shopId, { order_sn: order.order_sn });
    expect(parameters.info_needed.pickup).toEqual(['address_id', 'pickup_time_id']);
    const address = parameters.pickup!.address_list[0]!;
    expect(address).toMatchObject({
      region: 'MY',
      state: 'Selangor',
      address_flag: expect.arrayContaining(['pickup_address']),
    });
    expect(address.time_slot_list).toHaveLength(3);
    const slot = address.time_slot_list[0]!;
    expect(slot.date * 1000).toBeGreaterThan(test.clock.now());

    await client.shipOrder(test.shopId, {
      order_sn: order.order_sn,
      pickup: { address_id: address.address_id, pickup_time_id: slot.pickup_time_id },
    });
    const shipped = (await client.getOrderDetail(test.shopId, { order_sn_list: [order.order_sn] }))
      .order_list[0]!;
    expect(shipped.order_status).toBe('PROCESSED');
    expect(shipped.update_time).toBeGreaterThan(order.update_time);
    const { tracking_number } = await client.getTrackingNumber(test.shopId, { order_sn: order.order_sn });
    expect(tracking_number).toMatch(/^[0-9A-Z]{10,20}$/);
    expect(await client.getTrackingNumber(test.shopId, { order_sn: order.order_sn })).toEqual({
      tracking_number,
    });

    // The document is made in the background: PROCESSING, then READY.
    const created = await client.createShippingDocument(test.shopId, {
      order_list: [
        { order_sn: order.order_sn, tracking_number, shipping_document_type: 'THERMAL_AIR_WAYBILL' },
      ],
    });
    expect(created.result_list).toEqual([
      { order_sn: order.order_sn, package_number: shipped.package_list![0]!.package_number },
    ]);
    const result = () =>
      client.getShippingDocumentResult(test.shopId, { order_list: [{ order_sn: order.order_sn }] });
    expect((await result()).result_list[0]!.status).toBe('PROCESSING');
    await expect(
      client.downloadShippingDocument(test.shopId, { order_list: [{ order_sn: order.order_sn }] }),
    ).rejects.toMatchObject({
      code: 'logistics.shipping_document_not_ready',
    });
    test.clock.advance(3000);
    expect((await result()).result_list[0]!.status).toBe('READY');

    const pdf = await client.downloadShippingDocument(test.shopId, {
      shipping_document_type: 'THERMAL_AIR_WAYBILL',
      order_list: [{ order_sn: order.order_sn }],
    });
    expect(isPdf(pdf)).toBe(true);
    expect(pageCount(pdf)).toBe(1);
    expect(mediaBoxes(pdf).map((box) => [mm(box.width), mm(box.height)])).toEqual([[100, 150]]);
    // Two barcodes, the tracking number's and the order number's, each a PNG bringing its soft mask along.
    expect(imageCount(pdf)).toBe(4);
    const lines = textLines(pdf);
    expect(lines).toContain(tracking_number);
    expect(lines).toContain(shipped.shipping_carrier);
    expect(lines.join('\n')).toContain(`Order ID: ${order.order_sn}`);
    expect(lines.join('\n')).toContain(order.recipient_address!.name);
    expect(lines).toContain(order.cod ? 'COD' : 'NON-COD');
  });

  it('prints several orders in one document, on A4 for the normal type', async () => {
    const orders = ready.slice(1, 4);
    const numbers: string[] = [];
    for (const order of orders) {
      await client.shipOrder(test.shopId, { order_sn: order.order_sn, dropoff: {} });
      numbers.push(
        (await client.getTrackingNumber(test.shopId, { order_sn: order.order_sn })).tracking_number,
      );
    }
    const list = orders.map((order) => ({
      order_sn: order.order_sn,
      shipping_document_type: 'NORMAL_AIR_WAYBILL' as const,
    }));
    const created = await client.createShippingDocument(test.shopId, { order_list: list });
    expect(created.result_list.every((entry) => !entry.fail_error)).toBe(true);
    test.clock.advance(3000);
    const pdf = await client.downloadShippingDocument(test.shopId, {
      order_list: orders.map((order) => ({ order_sn: order.order_sn })),
    });
    expect(pageCount(pdf)).toBe(3);
    expect(mediaBoxes(pdf).map((box) => [mm(box.width), mm(box.height)])).toEqual([
      [210, 297],
      [210, 297],
      [210, 297],
    ]);
    const lines = textLines(pdf);
    for (const number of numbers) expect(lines).toContain(number);
  });

  it('refuses what Shopee refuses: shipping twice or unready orders, printing before shipping, unknown orders', async () => {
    const shippedAlready = ready[0]!.order_sn;
    const twice = await client
      .shipOrder(test.shopId, { order_sn: shippedAlready, dropoff: {} })
      .catch((e: unknown) => e);
    expect(twice).toBeInstanceOf(ShopeeRequestError);
    expect(twice).toMatchObject({ message: expect.stringContaining('logistic status not ready to ship') });

    const unshipped = ready[4]!.order_sn;
    const early = await client.createShippingDocument(test.shopId, { order_list: [{ order_sn: unshipped }] });
    expect(early.result_list[0]).toMatchObject({
      fail_error: 'logistics.package_can_not_print',
      fail_message: 'Order status does not support awb printing',
    });
    await expect(
      client.shipOrder(test.shopId, { order_sn: unshipped, pickup: { address_id: 1, pickup_time_id: '1' } }),
    ).rejects.toMatchObject({ code: 'error_param', message: expect.stringContaining('address_id') });
    await expect(
      client.shipOrder(test.shopId, {
        order_sn: unshipped,
        dropoff: {},
        non_integrated: { tracking_number: 'X1' },
      }),
    ).rejects.toBeInstanceOf(ShopeeRequestError);
    await expect(
      client.shipOrder(test.shopId, { order_sn: '2411210000NOPE', dropoff: {} }),
    ).rejects.toMatchObject({
      message: expect.stringContaining('the order is not found'),
    });

    const unpaid = test.sandbox.generateOrders(30).find((order) => order.order_status === 'UNPAID')!;
    await expect(
      client.getShippingParameter(test.shopId, { order_sn: unpaid.order_sn }),
    ).rejects.toBeInstanceOf(ShopeeRequestError);

    // Another shop's order is "not found" for this one.
    const other = test.sandbox.createShop({ name: 'Someone Else' });
    const [theirs] = test.sandbox.generateOrders(1, { shopId: other.shopId });
    await expect(
      client.getOrderDetail(test.shopId, { order_sn_list: [theirs!.order_sn] }),
    ).rejects.toMatchObject({
      message: expect.stringContaining('the order is not found'),
    });
  });

  it('a non-integrated shipment takes the seller’s own tracking number and is handed over at once', async () => {
    const order = ready[5]!;
    await client.shipOrder(test.shopId, {
      order_sn: order.order_sn,
      non_integrated: { tracking_number: 'MYOWN12345' },
    });
    expect(await client.getTrackingNumber(test.shopId, { order_sn: order.order_sn })).toEqual({
      tracking_number: 'MYOWN12345',
    });
    test.clock.advance(1000);
    expect(test.sandbox.order(order.order_sn)!.order_status).toBe('SHIPPED');
  });
});
