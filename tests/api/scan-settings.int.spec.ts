import { randomUUID } from 'node:crypto';
import type { BulkAnswer, ScanSettingsAnswer } from '@api/contracts/scan';
import { loadOrder } from '@commands/orders/order';
import {
  type BatchAnswer,
  callerOf,
  count,
  data,
  makeOrders,
  orderEvents,
  refusal,
  type ScanAnswer,
} from '@tests/api/batches-support';
import { type Catalogue, line, seedCatalogue } from '@tests/api/orders-support';
import {
  createSeller,
  createSubUser,
  createTestApi,
  type TestApi,
  type TestSeller,
} from '@tests/support/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Bulk scan control (spec shell.md §2 /settings/ "bulk scan control"; domain/scan/settings.ts): the account's
 * options, read by whoever scans and changed by batch managers, and enforced by the scan itself — a quantity with an
 * item scan, the order number in place of the tracking number, and one scan for every single-item order of an item
 * in a batch. Each is refused while off.
 */
describe('bulk scan control', () => {
  let api: TestApi;
  let seller: TestSeller;
  let catalogue: Catalogue;
  const call = callerOf(() => api);
  const tracking = () => `MY${randomUUID().replace(/-/g, '').slice(0, 12).toUpperCase()}`;
  const ALL_OFF = { quantity_entry: false, order_number_scan: false, bulk_single_items: false };

  beforeAll(async () => {
    api = await createTestApi();
    seller = await createSeller(api);
    catalogue = await seedCatalogue(api, seller.tenantId, 1000);
  });
  afterAll(async () => {
    await api?.close();
  });

  const settings = (body: Record<string, unknown>, token = seller.token) =>
    call('PUT', '/api/orders/scan-settings', token, body);
  const turnOn = (options: Partial<typeof ALL_OFF>) =>
    data<ScanSettingsAnswer>(settings({ ...ALL_OFF, ...options }));

  it('starts all off; batch managers change it, whoever scans reads it, bad input is refused', async () => {
    const other = await createSeller(api);
    const first = await data<ScanSettingsAnswer>(call('GET', '/api/orders/scan-settings', other.token));
    expect(first).toEqual({ ...ALL_OFF, updated_at: null });

    const packer = await createSubUser(api, other.tenantId, ['orders-unscan']);
    expect((await settings({ ...ALL_OFF, quantity_entry: true }, packer.token)).statusCode).toBe(403);
    expect(await refusal(settings({ ...ALL_OFF, quantity_entry: 'yes' }, other.token))).toEqual({
      status: 400,
      code: 400,
      msg: 'Each bulk scan control option is on or off',
    });
    expect(await refusal(settings({ quantity_entry: true }, other.token))).toMatchObject({ status: 400 });

    const manager = await createSubUser(api, other.tenantId, ['orders-batch']);
    const saved = await settings({ ...ALL_OFF, bulk_single_items: true }, manager.token);
    expect(saved.json<{ msg: string }>().msg).toBe('Bulk scan control saved');
    const read = await data<ScanSettingsAnswer>(call('GET', '/api/orders/scan-settings', packer.token));
    expect(read).toMatchObject({ ...ALL_OFF, bulk_single_items: true });
    expect(read.updated_at).not.toBeNull();
    const logged = await api.database.db
      .selectFrom('activity_log')
      .select(['action', 'user_id'])
      .where('tenant_id', '=', other.tenantId)
      .where('action', '=', 'scan_settings.updated')
      .execute();
    expect(logged).toEqual([{ action: 'scan_settings.updated', user_id: manager.userId }]);

    // Each account its own.
    expect(
      await data<ScanSettingsAnswer>(call('GET', '/api/orders/scan-settings', seller.token)),
    ).toMatchObject(ALL_OFF);
  });

  it('counts a quantity with an item scan only when quantity entry is on, never beyond what the order needs', async () => {
    await turnOn({});
    const [order] = await makeOrders(api, seller.tenantId, catalogue, [
      { tracking: tracking(), lines: [line('BATIK-01', 5)] },
    ]);
    await data<ScanAnswer>(
      call('POST', '/api/orders/scan/tracking', seller.token, { tracking_number: order!.tracking }),
    );
    const scan = (quantity: unknown) =>
      call('POST', '/api/orders/scan/item', seller.token, {
        order_id: order!.orderId,
        item_code: 'BATIK',
        quantity,
      });
    expect(await refusal(scan(3))).toEqual({
      status: 400,
      code: 649,
      msg: 'Entering a quantity is off: scan each unit, or turn it on in the bulk scan control settings',
    });
    // One at a time still works.
    expect((await data<ScanAnswer>(scan(1))).check.scanned).toBe(1);

    await turnOn({ quantity_entry: true });
    expect(await refusal(scan(0))).toEqual({
      status: 400,
      code: 400,
      msg: 'The quantity is a whole number from 1 to 10000',
    });
    expect(await refusal(scan(1.5))).toMatchObject({ status: 400, code: 400 });
    // Five needed, one scanned: five more is an over-scan.
    expect(await refusal(scan(5))).toEqual({ status: 400, code: 622, msg: 'Item Code [BATIK] invalid' });
    const done = await data<ScanAnswer>(scan(4));
    expect(done.check).toMatchObject({ scanned: 5, required: 5, completed: true });
    expect(done.order.status).toBe('scanned');
    expect(count(await orderEvents(api, seller.tenantId, order!.orderId), 'OrderScanned')).toBe(1);
  });

  it('opens an order by its order number only when order number scan is on', async () => {
    await turnOn({});
    const [order] = await makeOrders(api, seller.tenantId, catalogue, [{ tracking: tracking() }]);
    const open = () =>
      call('POST', '/api/orders/scan/tracking', seller.token, { tracking_number: order!.orderNumber });
    expect(await refusal(open())).toMatchObject({ status: 404 });
    await turnOn({ order_number_scan: true });
    const opened = await data<ScanAnswer>(open());
    expect(opened.order).toMatchObject({ id: order!.orderId, tracking_number: order!.tracking });
    expect(opened.check.status).toBe('open');
  });

  it('scans every single-item order of an item in a batch with one scan, only when bulk scan is on', async () => {
    await turnOn({});
    const orders = await makeOrders(api, seller.tenantId, catalogue, [
      { tracking: tracking(), lines: [line('BATIK-01', 1)] },
      { tracking: tracking(), lines: [line('BATIK-01', 1)] },
      { tracking: tracking(), lines: [line('BATIK-01', 1)] },
      // Not single-unit, another item, not yet arranged: left alone.
      { tracking: tracking(), lines: [line('BATIK-01', 2)] },
      { tracking: tracking(), lines: [line('BATIK-01', 1), line('SONGKET-01', 1)] },
      { tracking: tracking(), lines: [line('SONGKET-01', 1)] },
      { lines: [line('BATIK-01', 1)] },
    ]);
    const [outside] = await makeOrders(api, seller.tenantId, catalogue, [
      { tracking: tracking(), lines: [line('BATIK-01', 1)] },
    ]);
    const created = await data<{ batches: BatchAnswer[] }>(
      call('POST', '/api/orders/batches', seller.token, { order_ids: orders.map((order) => order.orderId) }),
    );
    const batch = created.batches[0]!;
    const bulk = (code: string, batchId: unknown = batch.id) =>
      call('POST', '/api/orders/scan/bulk', seller.token, { batch_id: batchId, item_code: code });

    expect(await refusal(bulk('BATIK'))).toEqual({
      status: 409,
      code: 648,
      msg: 'Bulk scan is off: turn it on in the bulk scan control settings',
    });
    await turnOn({ bulk_single_items: true });
    expect(await refusal(bulk(''))).toEqual({ status: 400, code: 621, msg: 'Item Code is required' });
    expect(await refusal(bulk('BATIK', ''))).toEqual({
      status: 400,
      code: 400,
      msg: 'Choose the batch to scan',
    });
    expect(await refusal(bulk('BATIK', randomUUID()))).toMatchObject({ status: 404 });
    expect(await refusal(bulk('KOPI-99'))).toEqual({
      status: 400,
      code: 622,
      msg: 'Item Code [KOPI-99] invalid',
    });

    const response = await bulk('batik-01');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<{ msg: string }>().msg).toBe('batik-01: 3 orders scanned');
    const answer = response.json<{ data: BulkAnswer }>().data;
    expect(answer.orders.map((order) => order.id).sort()).toEqual(
      orders
        .slice(0, 3)
        .map((order) => order.orderId)
        .sort(),
    );
    expect(answer.batch).toMatchObject({ id: batch.id, total_orders: 7, scanned_orders: 3 });
    for (const order of orders.slice(0, 3)) {
      expect((await loadOrder(api.store, seller.tenantId, order.orderId)).status).toBe('scanned');
      expect(count(await orderEvents(api, seller.tenantId, order.orderId), 'OrderScanned')).toBe(1);
    }
    for (const order of [...orders.slice(3), outside!]) {
      expect(count(await orderEvents(api, seller.tenantId, order.orderId), 'OrderScanned')).toBe(0);
    }
    // Nothing of BATIK is left waiting as a single-item order: a second scan finds none.
    expect(await refusal(bulk('BATIK'))).toMatchObject({ status: 400, code: 622 });
    const songket = await data<BulkAnswer>(bulk('SONGKET'));
    expect(songket.orders.map((order) => order.id)).toEqual([orders[5]!.orderId]);
  });
});
