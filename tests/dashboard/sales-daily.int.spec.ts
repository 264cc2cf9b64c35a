import { randomUUID } from 'node:crypto';
import { handleOrderCommand } from '@commands/orders/order';
import { withTenant } from '@infra/db/tenant';
import { SALES_DAILY_PROJECTION, SALES_DAILY_VIEW } from '@projections/reports/sales-daily';
import type { LiveChange } from '@projections/runtime/projection';
import {
  type Catalogue,
  importOrder,
  line,
  marketplaceOrder,
  seedCatalogue,
} from '@tests/api/orders-support';
import { createSeller, createTestApi, type TestApi } from '@tests/support/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The daily sales read model (projections/reports/sales-daily.ts): orders imported as an integration hands them over,
 * across the seller's local days (Malaysia, UTC+8) and two stores; a cancellation, a payment and a return move the
 * order day's figures; a rebuild from the log lands on the same rows.
 */
describe('daily sales projection', () => {
  let api: TestApi;
  let tenantId: string;
  let catalogue: Catalogue;
  const changes: LiveChange[] = [];

  beforeAll(async () => {
    api = await createTestApi();
    tenantId = (await createSeller(api, { country: 'MY' })).tenantId;
    catalogue = await seedCatalogue(api, tenantId, 100);
    api.hub.subscribe((change) => changes.push(change));
  });
  afterAll(async () => {
    await api?.close();
  });

  const catchUp = () => api.engine.catchUp(SALES_DAILY_PROJECTION);
  const days = () =>
    api.database.db
      .selectFrom('sales_daily')
      .select([
        'day',
        'store_id',
        'orders',
        'paid_orders',
        'unpaid_orders',
        'cancelled_orders',
        'units',
        'revenue',
        'shipping',
        'cancelled_amount',
        'returned_units',
        'returned_amount',
      ])
      .where('tenant_id', '=', tenantId)
      .orderBy('day')
      .orderBy('store_id')
      .execute();
  const skus = () =>
    api.database.db
      .selectFrom('sku_sales_daily')
      .select(['day', 'store_id', 'master_code_id', 'seller_sku', 'orders', 'units', 'revenue'])
      .where('tenant_id', '=', tenantId)
      .orderBy('day')
      .orderBy('store_id')
      .orderBy('seller_sku')
      .execute();
  const figures = (
    day: string,
    store: string,
    f: Partial<Record<'orders' | 'paid' | 'unpaid' | 'cancelled' | 'units' | 'returnedUnits', number>> &
      Partial<Record<'revenue' | 'shipping' | 'cancelledAmount' | 'returnedAmount', string>>,
  ) => ({
    day,
    store_id: store,
    orders: f.orders ?? 0,
    paid_orders: f.paid ?? 0,
    unpaid_orders: f.unpaid ?? 0,
    cancelled_orders: f.cancelled ?? 0,
    units: f.units ?? 0,
    revenue: f.revenue ?? '0.00',
    shipping: f.shipping ?? '0.00',
    cancelled_amount: f.cancelledAmount ?? '0.00',
    returned_units: f.returnedUnits ?? 0,
    returned_amount: f.returnedAmount ?? '0.00',
  });

  // 17:30 UTC on 1 March is 01:30 on 2 March in Kuala Lumpur: the order counts on the 2nd.
  const lateNight = marketplaceOrder([line('BATIK-01', 2), line('SONGKET-01', 1, { unitPrice: '25.00' })], {
    orderedAt: '2026-03-01T17:30:00.000Z',
    paidAt: '2026-03-01T17:31:00.000Z',
    shippingFee: '4.90',
  });
  const unpaid = marketplaceOrder([line('BATIK-01', 1)], {
    status: 'unpaid',
    orderedAt: '2026-03-02T02:00:00.000Z',
    paidAt: null,
    updatedAt: '2026-03-02T02:00:00.000Z',
  });
  const toCancel = marketplaceOrder([line('SONGKET-01', 3, { unitPrice: '25.00' })], {
    orderedAt: '2026-03-01T10:00:00.000Z',
    paidAt: '2026-03-01T10:05:00.000Z',
    updatedAt: '2026-03-01T10:05:00.000Z',
  });
  const shipped = marketplaceOrder([line('BATIK-01', 4, { unitPrice: '12.50' })], {
    status: 'shipped',
    orderedAt: '2026-03-02T05:00:00.000Z',
    paidAt: '2026-03-02T05:01:00.000Z',
  });

  it('counts each order on its local order date, per store, paid and unpaid apart, per SKU', async () => {
    await importOrder(api, tenantId, catalogue.warehouseId, lateNight, 'store-a');
    await importOrder(api, tenantId, catalogue.warehouseId, unpaid, 'store-a');
    await importOrder(api, tenantId, catalogue.warehouseId, toCancel, 'store-b');
    await catchUp();

    expect(await days()).toEqual([
      figures('2026-03-01', 'store-b', { orders: 1, paid: 1, units: 3, revenue: '75.00' }),
      figures('2026-03-02', 'store-a', {
        orders: 2,
        paid: 1,
        unpaid: 1,
        units: 4,
        revenue: '55.00',
        shipping: '4.90',
      }),
    ]);
    expect(await skus()).toEqual([
      {
        day: '2026-03-01',
        store_id: 'store-b',
        master_code_id: catalogue.songket,
        seller_sku: 'SONGKET-01',
        orders: 1,
        units: 3,
        revenue: '75.00',
      },
      {
        day: '2026-03-02',
        store_id: 'store-a',
        master_code_id: catalogue.batik,
        seller_sku: 'BATIK-01',
        orders: 2,
        units: 3,
        revenue: '30.00',
      },
      {
        day: '2026-03-02',
        store_id: 'store-a',
        master_code_id: catalogue.songket,
        seller_sku: 'SONGKET-01',
        orders: 1,
        units: 1,
        revenue: '25.00',
      },
    ]);
    expect(changes).toContainEqual({
      tenantId,
      view: SALES_DAILY_VIEW,
      ids: expect.arrayContaining(['2026-03-01', '2026-03-02']),
    });
  });

  it('takes a cancelled order out of its day, and moves an order paid later from unpaid to paid', async () => {
    changes.length = 0;
    await importOrder(
      api,
      tenantId,
      catalogue.warehouseId,
      { ...toCancel, status: 'cancelled', updatedAt: '2026-03-03T09:00:00.000Z' },
      'store-b',
    );
    await importOrder(
      api,
      tenantId,
      catalogue.warehouseId,
      {
        ...unpaid,
        status: 'ready_to_ship',
        paidAt: '2026-03-04T01:00:00.000Z',
        updatedAt: '2026-03-04T01:00:00.000Z',
      },
      'store-a',
    );
    await catchUp();

    expect(await days()).toEqual([
      figures('2026-03-01', 'store-b', { cancelled: 1, cancelledAmount: '75.00' }),
      figures('2026-03-02', 'store-a', { orders: 2, paid: 2, units: 4, revenue: '55.00', shipping: '4.90' }),
    ]);
    // The cancelled order's SKU row is gone: nothing of it was sold.
    expect((await skus()).map((row) => `${row.day} ${row.seller_sku}`)).toEqual([
      '2026-03-02 BATIK-01',
      '2026-03-02 SONGKET-01',
    ]);
    expect(changes.filter((change) => change.view === SALES_DAILY_VIEW)).toEqual([
      { tenantId, view: SALES_DAILY_VIEW, ids: expect.arrayContaining(['2026-03-01', '2026-03-02']) },
    ]);
  });

  it('counts a return on the order day, at the sale price', async () => {
    const orderId = await importOrder(api, tenantId, catalogue.warehouseId, shipped, 'store-a');
    const lineId = shipped.lines[0]!.lineKey;
    await handleOrderCommand(
      api.store,
      orderId,
      { type: 'ReturnOrder', returnId: randomUUID(), lines: [{ lineId, quantity: 1 }] },
      { tenantId, commandId: randomUUID(), occurredAt: '2026-03-09T03:00:00.000Z' },
    );
    await catchUp();

    expect((await days()).find((row) => row.day === '2026-03-02')).toEqual(
      figures('2026-03-02', 'store-a', {
        orders: 3,
        paid: 3,
        units: 8,
        revenue: '105.00',
        shipping: '4.90',
        returnedUnits: 1,
        returnedAmount: '12.50',
      }),
    );
  });

  it('another account sees none of these rows', async () => {
    const other = await createSeller(api);
    const seen = await withTenant(api.database.appDb, other.tenantId, (trx) =>
      trx.selectFrom('sales_daily').selectAll().execute(),
    );
    expect(seen).toEqual([]);
  });

  it('a rebuild from the log lands on the same rows', async () => {
    const before = { days: await days(), skus: await skus() };
    expect(before.days.length).toBeGreaterThan(0);
    await api.engine.rebuild(SALES_DAILY_PROJECTION, { rebuildId: randomUUID(), batchSize: 3 });
    expect({ days: await days(), skus: await skus() }).toEqual(before);
  });
});
