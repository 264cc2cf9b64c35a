import type { DashboardTasks, PeriodFigures, SalesDashboard } from '@api/contracts/dashboard';
import { addDays } from '@projections/dashboard.queries';
import { localDay, SALES_DAILY_PROJECTION } from '@projections/reports/sales-daily';
import { STOCK_PROJECTION } from '@projections/stock';
import {
  type Catalogue,
  importOrder,
  line,
  marketplaceOrder,
  seedCatalogue,
  settle,
} from '@tests/api/orders-support';
import {
  bearer,
  createSeller,
  createSubUser,
  createTestApi,
  type TestApi,
  type TestSeller,
} from '@tests/support/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The dashboard's API (api/dashboard/): a known set of orders on days around the seller's today (Kuala Lumpur), in
 * two stores on two marketplaces, one cancelled; the periods and their comparisons, the chart against the period
 * before, the ranking, the filters, what waits for the seller, another account's view, and the permission.
 */
describe('sales dashboard API', () => {
  let api: TestApi;
  let owner: TestSeller;
  let catalogue: Catalogue;
  const today = localDay('Asia/Kuala_Lumpur', new Date().toISOString());
  // Noon in Kuala Lumpur of a day `ago` days before today.
  const noonOf = (ago: number) => `${addDays(today, -ago)}T04:00:00.000Z`;
  const order = (
    ago: number,
    lines: ReturnType<typeof line>[],
    changes: Parameters<typeof marketplaceOrder>[1] = {},
  ) =>
    marketplaceOrder(lines, {
      orderedAt: noonOf(ago),
      paidAt: noonOf(ago),
      updatedAt: noonOf(ago),
      ...changes,
    });
  const batik = (quantity: number) => line('BATIK-01', quantity);
  const songket = (quantity: number) => line('SONGKET-01', quantity, { unitPrice: '25.00' });

  // The orders: day (days ago), store, revenue.
  const known = [
    { ago: 0, store: 'store-a', revenue: 20, units: 2 },
    { ago: 0, store: 'store-b', revenue: 25, units: 1 },
    { ago: 1, store: 'store-a', revenue: 10, units: 1, unpaid: true },
    { ago: 8, store: 'store-a', revenue: 30, units: 3 },
    { ago: 35, store: 'store-b', revenue: 100, units: 4 },
  ];

  beforeAll(async () => {
    api = await createTestApi();
    owner = await createSeller(api, { country: 'MY' });
    catalogue = await seedCatalogue(api, owner.tenantId, 100);
    const add = (store: string, placed: ReturnType<typeof marketplaceOrder>) =>
      importOrder(api, owner.tenantId, catalogue.warehouseId, placed, store);
    await add('store-a', order(0, [batik(2)]));
    await add('store-b', order(0, [songket(1)], { platform: 'lazada' }));
    await add('store-a', order(1, [batik(1)], { status: 'unpaid', paidAt: null }));
    await add('store-a', order(8, [batik(3)]));
    await add('store-b', order(35, [songket(4)], { platform: 'lazada' }));
    const cancelled = order(0, [batik(5)]);
    await add('store-a', cancelled);
    await add('store-a', { ...cancelled, status: 'cancelled', updatedAt: new Date().toISOString() });
    await settle(api);
    await api.engine.catchUp(SALES_DAILY_PROJECTION);
    await api.engine.catchUp(STOCK_PROJECTION);
  });
  afterAll(async () => {
    await api?.close();
  });

  const get = async <T>(url: string, token = owner.token) => {
    const response = await api.app.inject({ method: 'GET', url, headers: bearer(token) });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ data: T }>().data;
  };
  const period = (answer: SalesDashboard, name: PeriodFigures['period']) =>
    answer.periods.find((figures) => figures.period === name)!;
  /** The known orders' revenue between two days (inclusive), in one store or all. */
  const revenueBetween = (from: string, to: string, store?: string) =>
    known
      .filter(
        (o) =>
          addDays(today, -o.ago) >= from && addDays(today, -o.ago) <= to && (!store || o.store === store),
      )
      .reduce((sum, o) => sum + o.revenue, 0)
      .toFixed(2);

  it('sums the periods and their comparisons on the seller’s days, cancelled orders out', async () => {
    const answer = await get<SalesDashboard>('/api/dashboard/sales');
    expect(answer).toMatchObject({
      today,
      timezone: 'Asia/Kuala_Lumpur',
      currency: 'MYR',
      currencies: ['MYR'],
    });
    expect(period(answer, 'today')).toMatchObject({
      from: today,
      to: today,
      orders: 2,
      paid_orders: 2,
      unpaid_orders: 0,
      cancelled_orders: 1,
      cancelled_amount: '50.00',
      units: 3,
      revenue: '45.00',
    });
    expect(period(answer, 'yesterday')).toMatchObject({ orders: 1, unpaid_orders: 1, revenue: '10.00' });
    expect(period(answer, 'last_7_days')).toMatchObject({ orders: 3, revenue: '55.00', units: 4 });
    expect(period(answer, 'previous_7_days')).toMatchObject({ orders: 1, revenue: '30.00' });
    expect(period(answer, 'last_30_days')).toMatchObject({ orders: 4, revenue: '85.00' });
    expect(period(answer, 'previous_30_days')).toMatchObject({ orders: 1, revenue: '100.00' });
    // Weeks start on Monday and months on the 1st, whatever today is: each sums the known orders of its days.
    for (const name of ['this_week', 'last_week', 'this_month', 'last_month'] as const) {
      const figures = period(answer, name);
      expect(figures.revenue, name).toBe(revenueBetween(figures.from, figures.to));
    }
    const week = period(answer, 'this_week');
    expect(new Date(`${week.from}T00:00:00Z`).getUTCDay()).toBe(1);
    expect(period(answer, 'this_month').from).toBe(`${today.slice(0, 7)}-01`);
  });

  it('draws the chart’s days against the period before, by marketplace, and ranks the products', async () => {
    const answer = await get<SalesDashboard>('/api/dashboard/sales?period=last_7_days');
    const { trend, ranking } = answer;
    expect(trend).toMatchObject({
      period: 'last_7_days',
      from: addDays(today, -6),
      to: today,
      previous_from: addDays(today, -13),
      previous_to: addDays(today, -7),
      platforms: ['lazada', 'shopee'],
    });
    expect(trend.days).toHaveLength(7);
    expect(trend.days[6]).toEqual({
      day: today,
      previous_day: addDays(today, -7),
      revenue: '45.00',
      orders: 2,
      previous_revenue: '0.00',
      previous_orders: 0,
      by_platform: { lazada: '25.00', shopee: '20.00' },
    });
    expect(trend.days[5]).toMatchObject({
      day: addDays(today, -1),
      revenue: '10.00',
      previous_revenue: '30.00',
    });
    expect(ranking.by_revenue.map((p) => [p.code, p.seller_sku, p.units, p.revenue])).toEqual([
      ['BATIK', 'BATIK-01', 3, '30.00'],
      ['SONGKET', 'SONGKET-01', 1, '25.00'],
    ]);
    expect(ranking.by_revenue[0]!.master_code_id).toBe(catalogue.batik);
    expect(ranking.by_units.map((p) => p.seller_sku)).toEqual(['BATIK-01', 'SONGKET-01']);

    const month = await get<SalesDashboard>('/api/dashboard/sales?period=last_30_days');
    expect(month.trend.days).toHaveLength(30);
    expect(month.ranking.by_revenue.map((p) => [p.seller_sku, p.revenue])).toEqual([
      ['BATIK-01', '60.00'],
      ['SONGKET-01', '25.00'],
    ]);
  });

  it('narrows every figure to one store or one marketplace', async () => {
    const store = await get<SalesDashboard>('/api/dashboard/sales?store_id=store-b');
    expect(period(store, 'today')).toMatchObject({ orders: 1, revenue: '25.00', cancelled_orders: 0 });
    expect(period(store, 'last_30_days')).toMatchObject({
      revenue: revenueBetween(addDays(today, -29), today, 'store-b'),
    });
    expect(period(store, 'previous_30_days')).toMatchObject({ revenue: '100.00' });
    expect(store.ranking.by_revenue.map((p) => p.seller_sku)).toEqual(['SONGKET-01']);
    const platform = await get<SalesDashboard>('/api/dashboard/sales?platform=shopee');
    expect(period(platform, 'today')).toMatchObject({ orders: 1, revenue: '20.00', cancelled_orders: 1 });
    expect(platform.trend.platforms).toEqual(['shopee']);
  });

  it('says what waits: unpaid orders (per store too), low stock, returns and approvals', async () => {
    // Batik's soft threshold above what is available in the warehouse: low; songket's unset: never low.
    await api.database.db
      .updateTable('master_codes')
      .set({ soft_threshold: 500 })
      .where('id', '=', catalogue.batik)
      .execute();
    const tasks = await get<DashboardTasks>('/api/dashboard/tasks');
    expect(tasks).toMatchObject({
      unpaid_orders: 1,
      returns: { count: 0, units: 0, refund_to_buyer: '0.00', open: 0 },
      approvals: { transfer_requests: 0, goods_issues: 0, purchases: 0 },
    });
    expect(tasks.low_stock.count).toBe(1);
    expect(tasks.low_stock.items).toEqual([
      expect.objectContaining({
        master_code_id: catalogue.batik,
        code: 'BATIK',
        warehouse_id: catalogue.warehouseId,
        soft_threshold: 500,
      }),
    ]);
    expect(tasks.low_stock.items[0]!.available).toBeLessThan(100);
    expect(await get('/api/dashboard/tasks?store_id=store-b')).toMatchObject({ unpaid_orders: 0 });
  });

  it('shows another account none of it', async () => {
    const other = await createSeller(api);
    const answer = await get<SalesDashboard>('/api/dashboard/sales', other.token);
    expect(answer.periods.every((figures) => figures.orders === 0 && figures.revenue === '0.00')).toBe(true);
    expect(answer.ranking.by_revenue).toEqual([]);
    // Naming the first account's store changes nothing.
    const named = await get<SalesDashboard>('/api/dashboard/sales?store_id=store-a', other.token);
    expect(period(named, 'last_30_days').orders).toBe(0);
    expect(await get('/api/dashboard/tasks', other.token)).toMatchObject({ unpaid_orders: 0 });
  });

  it('refuses a user without dashboard-app-access (403) and a bad filter (400, nothing else)', async () => {
    const staff = await createSubUser(api, owner.tenantId, ['orders-unscan']);
    for (const url of ['/api/dashboard/sales', '/api/dashboard/tasks']) {
      const refused = await api.app.inject({ method: 'GET', url, headers: bearer(staff.token) });
      expect(refused.statusCode).toBe(403);
    }
    const allowed = await createSubUser(api, owner.tenantId, ['dashboard-app-access']);
    expect(period(await get<SalesDashboard>('/api/dashboard/sales', allowed.token), 'today').orders).toBe(2);

    const bad = await api.app.inject({
      method: 'GET',
      url: '/api/dashboard/sales?period=forever',
      headers: bearer(owner.token),
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 880, msg: 'The dashboard filter period is not valid.' });
  });
});
