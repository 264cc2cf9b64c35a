import { REPORT_FACTS_PROJECTION } from '@projections/reports/facts';
import { data, gridParams, refusal } from '@tests/api/inventory/inventory-api';
import {
  bearer,
  createSeller,
  createSubUser,
  createTestApi,
  type TestApi,
  type TestSeller,
} from '@tests/support/api';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type KnownOrders, seedKnownOrders } from './reports-support';

/**
 * The reports (api/reports/reports.ts) over a known set of orders imported and moved through the real commands
 * (tests/reports/reports-support.ts): each group's figures, the date range, store and warehouse filters, the totals
 * row, sorting, a rebuild of the facts landing on the rows built live, permissions and tenants kept apart.
 */

type Row = Record<string, string | number | null>;

describe('reports', () => {
  let api: TestApi;
  let seller: TestSeller;
  let known: KnownOrders;
  const january = { from: '2026-01-01T00:00:00+08:00', to: '2026-02-01T00:00:00+08:00' };

  beforeAll(async () => {
    api = await createTestApi();
    seller = await createSeller(api);
    known = await seedKnownOrders(api, seller);
  });
  afterAll(async () => {
    await api?.close();
  });

  const get = (url: string, query: Record<string, unknown> = {}, token = seller.token) =>
    api.app.inject({ method: 'GET', url: `${url}?${gridParams(query)}`, headers: bearer(token) });
  const page = async (report: string, query: Record<string, unknown> = {}) =>
    data<{ rows: Row[]; lastRow: number }>(await get(`/api/reports/${report}`, { ...january, ...query }));
  /** The hours around now: when the scans and the return were recorded. */
  const today = () => ({
    from: new Date(Date.now() - 3_600_000).toISOString(),
    to: new Date(Date.now() + 3_600_000).toISOString(),
  });
  const totals = async (report: string, query: Record<string, unknown> = {}) =>
    data<{ rows: number; totals: Row }>(await get(`/api/reports/${report}/totals`, { ...january, ...query }));

  describe('sales', () => {
    it('sums orders per local order day and store from the daily sales, cancelled and returned apart', async () => {
      const sales = await page('sales');
      const day = (values: Row) => ({
        shipping_fee: '0.00',
        cancelled_orders: 0,
        returned_amount: '0.00',
        ...values,
      });
      expect(sales).toEqual({
        rows: [
          day({ day: '2026-01-07', store: 'store-b', orders: 1, paid_orders: 1, items: 3, revenue: '45.00' }),
          day({ day: '2026-01-06', store: 'store-a', orders: 1, paid_orders: 0, items: 2, revenue: '30.00' }),
          day({
            day: '2026-01-05',
            store: 'store-a',
            orders: 1,
            paid_orders: 1,
            items: 8,
            revenue: '85.00',
            shipping_fee: '4.50',
            cancelled_orders: 1,
            returned_amount: '20.00',
          }),
        ],
        lastRow: 3,
      });
      expect(await totals('sales')).toEqual({
        rows: 3,
        totals: {
          orders: 3,
          paid_orders: 2,
          items: 13,
          revenue: '160.00',
          shipping_fee: '4.50',
          cancelled_orders: 1,
          returned_amount: '20.00',
        },
      });
      // The store filter, and a period that ends at local midnight before D was ordered.
      expect((await page('sales', { store_id: 'store-b' })).rows.map((r) => r.day)).toEqual(['2026-01-07']);
      expect((await page('sales', { to: '2026-01-07T00:00:00+08:00' })).rows.map((r) => r.revenue)).toEqual([
        '30.00',
        '85.00',
      ]);
    });

    it('ranks SKUs by revenue or by quantity', async () => {
      const byRevenue = await page('top-sku');
      expect(byRevenue.rows).toEqual([
        { seller_sku: 'SONGKET-01', name: 'Item SONGKET-01', quantity: 6, revenue: '90.00', orders: 3 },
        { seller_sku: 'BATIK-01', name: 'Item BATIK-01', quantity: 7, revenue: '70.00', orders: 1 },
      ]);
      const byQuantity = await page('top-sku', { sortModel: [{ colId: 'quantity', sort: 'desc' }] });
      expect(byQuantity.rows.map((r) => r.seller_sku)).toEqual(['BATIK-01', 'SONGKET-01']);
    });

    it('takes the cost of sales at the moving average cost of the moment each unit left and came back', async () => {
      // A shipped today: 7 batik at 2.00 and 1 songket at 3.00 out, 2 batik at 2.00 back: 13.00 of cost against
      // (7 − 2) × 10.00 + 15.00 = 65.00 of revenue.
      expect((await page('gross-profit', today())).rows).toEqual([
        {
          day: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
          store: 'store-a',
          orders: 1,
          revenue: '65.00',
          cost_of_sales: '13.00',
          gross_profit: '52.00',
          margin: 80,
        },
      ]);
      // Nothing was shipped in January.
      expect((await page('gross-profit')).rows).toEqual([]);
    });

    it('lists postage, transactions, refunds and statements', async () => {
      expect((await page('postage-fee')).rows).toEqual([
        { day: '2026-01-05', shipping_provider: 'SPX Express', orders: 1, shipping_fee: '4.50' },
      ]);
      const transactions = await page('transaction');
      expect(transactions.rows.map((r) => [r.order_number, r.amount])).toEqual([
        [known.orderNumbers.d, '45.00'],
        [known.orderNumbers.b, '10.00'],
        [known.orderNumbers.a, '85.00'],
      ]);
      // The return was recorded today, not in January.
      expect((await page('refund')).rows).toEqual([]);
      const refunds = await page('refund', today());
      expect(refunds.rows).toEqual([
        expect.objectContaining({
          order_number: known.orderNumbers.a,
          action: 'return_to_stock',
          quantity: 2,
          refund_to_buyer: '20.00',
          reversal_item_price: '20.00',
        }),
      ]);
      expect((await page('statements')).rows).toEqual([
        {
          month: '2026-01',
          store: 'store-a',
          orders: 1,
          revenue: '85.00',
          shipping_fee: '4.50',
          refunds: '0.00',
        },
        {
          month: '2026-01',
          store: 'store-b',
          orders: 1,
          revenue: '45.00',
          shipping_fee: '0.00',
          refunds: '0.00',
        },
      ]);
    });
  });

  describe('orders', () => {
    it('tells unpaid from paid orders, and counts orders per day', async () => {
      expect((await page('unpaid-orders')).rows).toEqual([
        expect.objectContaining({
          order_number: known.orderNumbers.c,
          status: 'unpaid',
          total_amount: '30.00',
        }),
      ]);
      expect((await page('paid-orders')).rows.map((r) => r.order_number)).toEqual([
        known.orderNumbers.d,
        known.orderNumbers.a,
      ]);
      expect((await page('order-count')).rows).toEqual([
        { day: '2026-01-07', store: 'store-b', orders: 1, paid: 1, cancelled: 0, shipped: 0, returned: 0 },
        { day: '2026-01-06', store: 'store-a', orders: 1, paid: 0, cancelled: 0, shipped: 0, returned: 0 },
        { day: '2026-01-05', store: 'store-a', orders: 2, paid: 2, cancelled: 1, shipped: 1, returned: 1 },
      ]);
    });

    it('reconciles a return: what came back, what was refunded, what went back on the shelf', async () => {
      expect((await page('return-reconciliation', today())).rows).toEqual([
        expect.objectContaining({
          order_number: known.orderNumbers.a,
          returned: 2,
          returned_value: '20.00',
          refund_to_buyer: '20.00',
          restocked: 2,
          not_restocked: 0,
          completed: 'yes',
        }),
      ]);
    });
  });

  describe('fulfilment and stock', () => {
    it('times paid → scanned → shipped, and counts the packer’s orders', async () => {
      const performance = await page('fulfillment-performance');
      expect(performance.rows.map((r) => [r.day, r.warehouse, r.paid, r.scanned, r.shipped])).toEqual([
        ['2026-01-07', 'MAIN', 1, 0, 0],
        ['2026-01-05', 'MAIN', 2, 1, 1],
      ]);
      // Scanned now, paid in January: the hours between are many, and never negative.
      expect(performance.rows[1]!.paid_to_shipped).toBeGreaterThan(24);
      expect((await page('packer-throughput', today())).rows).toEqual([
        { packer: 'Siti Aminah', orders: 1, hours: 1, orders_per_hour: 1 },
      ]);
    });

    it('forecasts days of cover from the sales velocity and the stock on hand', async () => {
      const forecast = await page('forecasting', { warehouse_id: known.warehouseId });
      // Batik: 200 − 7 shipped + 2 returned = 195 on hand; 7 sold over 31 days.
      expect(forecast.rows.find((r) => r.master_code === 'BATIK')).toMatchObject({
        sold: 7,
        per_day: 0.23,
        on_hand: 195,
        days_of_cover: 863.6,
      });
    });
  });

  describe('stock', () => {
    it('values the stock at its average cost, and finds what has not gone out', async () => {
      const costs = await page('average-cost');
      expect(costs.rows).toEqual([
        {
          master_code: 'SONGKET',
          name: 'Songket scarf',
          on_hand: 199,
          average_cost: '3.00',
          value: '597.00',
        },
        { master_code: 'BATIK', name: 'Batik sarong', on_hand: 195, average_cost: '2.00', value: '390.00' },
      ]);
      // Nothing went out in January; today batik and songket both did.
      expect((await page('dead-stock')).rows.map((r) => [r.master_code, r.on_hand])).toEqual([
        ['SONGKET', 199],
        ['BATIK', 195],
      ]);
      expect((await page('dead-stock', today())).rows).toEqual([]);
    });

    it('closes each day of each stock with what came in and went out', async () => {
      const days = await page('daily-stock', today());
      expect(
        days.rows.map((r) => [r.master_code, r.warehouse, r.stock_in, r.stock_out, r.closing_stock]),
      ).toEqual([
        ['BATIK', 'MAIN', 202, 7, 195],
        ['SONGKET', 'MAIN', 200, 1, 199],
      ]);
    });

    it('carries each stock from its opening balance through the period to its closing one', async () => {
      const balances = async (range: { from: string; to: string }) =>
        (await page('stock-balance-history', range)).rows.map((r) => [
          r.master_code,
          r.warehouse,
          r.opening_stock,
          r.stock_in,
          r.stock_out,
          r.closing_stock,
        ]);
      // Every movement is of today: nothing before the period, all of it in.
      expect(await balances(today())).toEqual([
        ['SONGKET', 'MAIN', 0, 200, 1, 199],
        ['BATIK', 'MAIN', 0, 202, 7, 195],
      ]);
      // A later period opens and closes where today ended, nothing moving in it.
      const later = {
        from: new Date(Date.now() + 2 * 3_600_000).toISOString(),
        to: new Date(Date.now() + 26 * 3_600_000).toISOString(),
      };
      expect(await balances(later)).toEqual([
        ['SONGKET', 'MAIN', 199, 0, 0, 199],
        ['BATIK', 'MAIN', 195, 0, 0, 195],
      ]);
      // January ended before any of it: nothing to show.
      expect((await page('stock-balance-history')).rows).toEqual([]);
    });
  });

  it('rebuilds the facts into exactly the rows built live', async () => {
    const dump = async () => {
      const tables = ['report_orders', 'report_order_lines', 'report_returns'] as const;
      const rows: Record<string, unknown[]> = {};
      for (const table of tables) {
        rows[table] = (
          await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(table)} ORDER BY 1, 2, 3`.execute(
            api.database.db,
          )
        ).rows;
      }
      return rows;
    };
    const live = await dump();
    expect(live.report_orders).toHaveLength(4);
    await api.engine.rebuild(REPORT_FACTS_PROJECTION, { rebuildId: 'reports-r1', batchSize: 3 });
    expect(await dump()).toEqual(live);
  });

  it('refuses a period that ends before it starts, an unknown report, and a user without the report key', async () => {
    expect(refusal(await get('/api/reports/sales', { from: '2026-02-01', to: '2026-01-01' }))).toEqual({
      status: 400,
      code: 802,
      msg: 'The start of the period must not be after its end.',
    });
    expect(refusal(await get('/api/reports/sales', { from: 'yesterday' }))).toMatchObject({
      status: 400,
      code: 803,
    });
    expect(refusal(await get('/api/reports/payroll'))).toMatchObject({ status: 400, code: 805 });
    const clerk = await createSubUser(api, seller.tenantId, ['inventory-master-code']);
    expect((await get('/api/reports/sales', january, clerk.token)).statusCode).toBe(403);
    const viewer = await createSubUser(api, seller.tenantId, ['pos-view-print-report']);
    expect(data<{ rows: Row[] }>(await get('/api/reports/sales', january, viewer.token)).rows).toHaveLength(
      3,
    );
  });

  it('shows another account none of these rows', async () => {
    const other = await createSeller(api);
    expect(data<{ rows: Row[] }>(await get('/api/reports/sales', january, other.token)).rows).toEqual([]);
    expect(
      data<{ rows: number }>(await get('/api/reports/paid-orders/totals', january, other.token)).rows,
    ).toBe(0);
  });
});
