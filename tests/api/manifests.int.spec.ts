import { randomUUID } from 'node:crypto';
import { handleOrderCommand } from '@commands/orders/order';
import { FULFILMENT_PROJECTION } from '@projections/print-log';
import {
  bearer,
  createSeller,
  createSubUser,
  createTestApi,
  type TestApi,
  type TestSeller,
} from '@tests/support/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { data, refusal } from './inventory/inventory-api';
import { importOrder, line, marketplaceOrder, seedCatalogue } from './orders-support';
import type { Loose } from './printing-support';

/**
 * Carrier manifests (api/orders/manifests.ts): a month's shipped orders per carrier, counted in the account's
 * time zone (Malaysia, UTC+8, for an MY account), counted again when created again, listed, exported as CSV.
 */

describe('carrier manifests', () => {
  let api: TestApi;
  let seller: TestSeller;
  let warehouseId: string;

  /** An order arranged with `provider` and shipped at `at` (the command's time is the event's). */
  async function shippedAt(at: string, provider: string, tenant = seller, warehouse = warehouseId) {
    const order = marketplaceOrder([line('BATIK-01', 1)]);
    const orderId = await importOrder(api, tenant.tenantId, warehouse, order);
    const tracking = `TRK${randomUUID().slice(0, 8).toUpperCase()}`;
    const context = () => ({ tenantId: tenant.tenantId, commandId: randomUUID(), occurredAt: at });
    await handleOrderCommand(
      api.store,
      orderId,
      { type: 'ArrangeShipment', trackingNumber: tracking, shippingProvider: provider },
      context(),
    );
    await handleOrderCommand(api.store, orderId, { type: 'ShipOrder', byMarketplace: false }, context());
    return { orderNumber: order.orderNumber, tracking };
  }

  const create = (month: unknown, token = seller.token) =>
    api.app.inject({
      method: 'POST',
      url: '/api/orders/carrier-manifests',
      headers: bearer(token),
      payload: { month },
    });

  let march: { orderNumber: string; tracking: string }[];
  let aprilFirst: { orderNumber: string; tracking: string };

  beforeAll(async () => {
    api = await createTestApi();
    seller = await createSeller(api, { country: 'MY' });
    ({ warehouseId } = await seedCatalogue(api, seller.tenantId));
    march = [
      await shippedAt('2026-03-10T02:00:00.000Z', 'SPX Express'),
      // 23:00 on 31 March in Kuala Lumpur: still March.
      await shippedAt('2026-03-31T15:00:00.000Z', 'J&T Express'),
      // 07:30 on 1 March in Kuala Lumpur, though still February in UTC.
      await shippedAt('2026-02-28T23:30:00.000Z', 'SPX Express'),
    ];
    // 01:00 on 1 April in Kuala Lumpur.
    aprilFirst = await shippedAt('2026-03-31T17:00:00.000Z', 'SPX Express');
    // First seen already shipped by the marketplace in March.
    const imported = marketplaceOrder([line('BATIK-01', 1)], {
      status: 'shipped',
      updatedAt: '2026-03-15T04:00:00.000Z',
      shippingProvider: 'Ninja Van',
      trackingNumber: 'NVMY000123',
    });
    await importOrder(api, seller.tenantId, warehouseId, imported);
    march.push({ orderNumber: imported.orderNumber, tracking: 'NVMY000123' });
    // Not shipped: not counted.
    await importOrder(api, seller.tenantId, warehouseId, marketplaceOrder([line('BATIK-01', 1)]));
    // Another account's March order: not counted.
    const other = await createSeller(api);
    const otherCatalogue = await seedCatalogue(api, other.tenantId);
    await shippedAt('2026-03-12T02:00:00.000Z', 'SPX Express', other, otherCatalogue.warehouseId);
    await api.engine.catchUp(FULFILMENT_PROJECTION);
  });
  afterAll(async () => {
    await api?.close();
  });

  it('counts a month’s shipped orders per carrier in the account’s time zone', async () => {
    const answer = await create('2026-03');
    expect(answer.json().msg).toBe('Carrier manifest of 2026-03: 4 shipped orders');
    expect(data(answer)).toMatchObject({
      month: '2026-03',
      total_shipped: 4,
      carriers: [
        { provider: 'SPX Express', count: 2 },
        { provider: 'J&T Express', count: 1 },
        { provider: 'Ninja Van', count: 1 },
      ],
      created_by: { id: seller.userId, name: 'Siti Aminah' },
    });
    expect(data(await create('2026-04'))).toMatchObject({
      total_shipped: 1,
      carriers: [{ provider: 'SPX Express', count: 1 }],
    });
    expect(data(await create('2026-02'))).toMatchObject({ total_shipped: 0, carriers: [] });
  });

  it('counts again when a month is created again, keeping one manifest per month', async () => {
    const before = data<{ id: string }>(await create('2026-03'));
    const late = await shippedAt('2026-03-20T06:00:00.000Z', 'J&T Express');
    await api.engine.catchUp(FULFILMENT_PROJECTION);
    const staff = await createSubUser(api, seller.tenantId, ['orders-manifest-export-v1']);
    const after = data<Loose>(await create('2026-03', staff.token));
    expect(after).toMatchObject({
      id: before.id,
      total_shipped: 5,
      carriers: [
        { provider: 'J&T Express', count: 2 },
        { provider: 'SPX Express', count: 2 },
        { provider: 'Ninja Van', count: 1 },
      ],
      created_by: { id: staff.userId },
    });
    march.push(late);
    const list = data<{ rows: Loose[]; lastRow: number }>(
      await api.app.inject({
        method: 'GET',
        url: '/api/orders/carrier-manifests',
        headers: bearer(seller.token),
      }),
    );
    expect(list.lastRow).toBe(3);
    expect(list.rows.map((row) => [row.month, row.total_shipped])).toEqual([
      ['2026-04', 1],
      ['2026-03', 5],
      ['2026-02', 0],
    ]);
  });

  it('exports the month’s shipped orders as CSV', async () => {
    const manifest = data<{ id: string }>(await create('2026-03'));
    const exported = await api.app.inject({
      method: 'GET',
      url: `/api/orders/carrier-manifests/${manifest.id}/export`,
      headers: bearer(seller.token),
    });
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(exported.headers['content-disposition']).toContain('carrier-manifest-2026-03.csv');
    const rows = exported.body
      .replace(/^\ufeff/, '')
      .trimEnd()
      .split('\r\n');
    expect(rows[0]).toBe('Order number,Tracking number,Carrier,Store,Marketplace,Shipped at');
    expect(rows).toHaveLength(1 + march.length);
    for (const order of march) expect(exported.body).toContain(`${order.orderNumber},${order.tracking}`);
    expect(exported.body).not.toContain(aprilFirst.orderNumber);
    // Shipped times in Kuala Lumpur time.
    expect(exported.body).toContain('2026-03-31 23:00:00');
    expect(exported.body).toContain('2026-03-01 07:30:00');
  });

  it('refuses a month that is malformed or has not started, users without the key, and another account’s manifest', async () => {
    expect(refusal(await create('2026-13'))).toMatchObject({
      status: 400,
      code: 675,
      msg: 'The month must be written YYYY-MM',
    });
    expect(refusal(await create('March'))).toMatchObject({ code: 675 });
    expect(refusal(await create(202603))).toMatchObject({ code: 675 });
    // A year Postgres has no date for is malformed too, not a 500.
    expect(refusal(await create('0000-01'))).toMatchObject({ status: 400, code: 675 });
    expect(refusal(await create('2999-01'))).toEqual({
      status: 400,
      code: 676,
      msg: 'The month 2999-01 has not started yet',
    });
    const staff = await createSubUser(api, seller.tenantId, ['orders-view-all']);
    expect((await create('2026-03', staff.token)).statusCode).toBe(403);
    const manifest = data<{ id: string }>(await create('2026-03'));
    const other = await createSeller(api);
    const theirs = await api.app.inject({
      method: 'GET',
      url: `/api/orders/carrier-manifests/${manifest.id}/export`,
      headers: bearer(other.token),
    });
    expect(theirs.statusCode).toBe(404);
    const listed = data<{ lastRow: number }>(
      await api.app.inject({
        method: 'GET',
        url: '/api/orders/carrier-manifests',
        headers: bearer(other.token),
      }),
    );
    expect(listed.lastRow).toBe(0);
  });

  it('answers an empty page for a window past the end, as every list does', async () => {
    await create('2026-02');
    const past = await api.app.inject({
      method: 'GET',
      url: '/api/orders/carrier-manifests?startRow=200',
      headers: bearer(seller.token),
    });
    expect(past.statusCode, past.body).toBe(200);
    expect(data<{ rows: unknown[]; lastRow: number }>(past)).toMatchObject({
      rows: [],
      lastRow: expect.any(Number),
    });
  });
});
