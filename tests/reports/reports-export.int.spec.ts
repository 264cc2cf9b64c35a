import { refusalOf } from '@domain/shared/errors';
import { EXPORT_BATCH, reportRowsForExport } from '@projections/reports/reports.queries';
import { gridParams, refusal } from '@tests/api/inventory/inventory-api';
import { bearer, createSeller, createTestApi, type TestApi, type TestSeller } from '@tests/support/api';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type KnownOrders, seedKnownOrders } from './reports-support';

/**
 * Report exports (GET /api/reports/<report>/export): the CSV and the XLSX hold the grid's rows in its order with the
 * headers in the reader's language; "Report cannot be exported" with why (no rows; over the row cap), nothing
 * written; and the rows streamed through a cursor a batch at a time, whatever their number.
 */

describe('report exports', () => {
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

  const download = (
    report: string,
    query: Record<string, unknown>,
    token = seller.token,
    language?: string,
  ) =>
    api.app.inject({
      method: 'GET',
      url: `/api/reports/${report}/export?${gridParams(query)}`,
      headers: bearer(token, language),
    });

  it('writes the CSV of a report with its headers and rows in the grid order', async () => {
    const response = await download('paid-orders', { ...january, format: 'csv' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="report-paid-orders-\d{8}\.csv"/,
    );
    const lines = response.body
      .replace(/^\ufeff/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines).toEqual([
      'Paid at,Order number,Store,Status,Items,Total amount',
      `2026-01-06T17:00:00.000Z,${known.orderNumbers.d},store-b,new,3,45`,
      `2026-01-05T02:00:00.000Z,${known.orderNumbers.a},store-a,returned,8,85`,
    ]);
    // In the reader's language.
    const chinese = await download('paid-orders', { ...january, format: 'csv' }, seller.token, 'zh-cn');
    expect(chinese.body.replace(/^\ufeff/, '').split('\r\n')[0]).toBe(
      '付款时间,订单号,店铺,状态,件数,总金额',
    );
  });

  it('writes the XLSX of a report, amounts as numbers', async () => {
    const response = await download('sales', { ...january, format: 'xlsx' });
    expect(response.statusCode, response.body).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.name).toBe('Sales');
    expect(sheet.getRow(1).values).toEqual([
      undefined,
      'Day',
      'Store',
      'Orders',
      'Paid orders',
      'Items',
      'Revenue',
      'Shipping fee',
      'Cancelled orders',
      'Returned amount',
    ]);
    expect(sheet.getRow(4).values).toEqual([undefined, '2026-01-05', 'store-a', 1, 1, 8, 85, 4.5, 1, 20]);
    expect(sheet.rowCount).toBe(4);
  });

  it('refuses a report with no rows: "Report cannot be exported", and why', async () => {
    const empty = await download('paid-orders', { from: '2025-01-01', to: '2025-02-01', format: 'csv' });
    expect(refusal(empty)).toEqual({
      status: 400,
      code: 800,
      msg: 'Report cannot be exported: it has no rows for these filters.',
    });
    expect(empty.headers['content-disposition']).toBeUndefined();
    expect(refusal(await download('paid-orders', { ...january, format: 'pdf' }))).toMatchObject({
      status: 400,
      code: 804,
    });
  });

  it('refuses a report over the row cap before writing anything', async () => {
    const refused = await reportRowsForExport(
      api.database.db,
      seller.tenantId,
      'paid-orders',
      { ...{ from: new Date('2026-01-01'), to: new Date('2026-02-01') }, sortModel: [] },
      1,
    ).catch((error: unknown) => error);
    expect(refusalOf(refused, 'EXPORT_TOO_LARGE')).toMatchObject({
      params: { max: 1 },
      refusal: { status: 400, code: 801, key: 'reports.export_too_large' },
    });
  });

  describe('a large report', () => {
    let tenantId: string;
    let token: string;
    const ORDERS = 2 * EXPORT_BATCH + 1;

    beforeAll(async () => {
      const big = await createSeller(api);
      tenantId = big.tenantId;
      token = big.token;
      // Rows straight into the read model: the stream, not the orders, is under test.
      await sql`
        INSERT INTO report_orders (tenant_id, order_id, order_number, store_id, platform, warehouse_id, status,
          currency, payment_method, cod, replacement, total_amount, item_count, ordered_at, paid_at)
        SELECT ${tenantId}, 'o-' || n, 'N' || lpad(n::text, 6, '0'), 'store-a', 'shopee', 'wh', 'new', 'MYR',
          'Online banking', false, false, 10, 1, timestamptz '2026-03-01T00:00:00Z' + n * interval '1 second',
          timestamptz '2026-03-01T00:00:00Z' + n * interval '1 second'
        FROM generate_series(1, ${ORDERS}) n`.execute(api.database.systemDb);
    });

    it('streams its rows through a cursor a batch at a time, and lets go of it when the reader stops', async () => {
      const query = { from: new Date('2026-03-01'), to: new Date('2026-04-01'), sortModel: [] };
      const sizes: number[] = [];
      for await (const batch of await reportRowsForExport(api.database.db, tenantId, 'paid-orders', query))
        sizes.push(batch.length);
      expect(sizes).toEqual([EXPORT_BATCH, EXPORT_BATCH, 1]);

      // A reader that stops after the first batch ends the cursor's transaction: none is left open.
      for await (const batch of await reportRowsForExport(api.database.db, tenantId, 'paid-orders', query)) {
        expect(batch).toHaveLength(EXPORT_BATCH);
        expect(batch[0]!.order_number).toBe(`N${String(ORDERS).padStart(6, '0')}`);
        break;
      }
      const open = await sql<{ n: number }>`
        SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND state LIKE 'idle in transaction%' AND query LIKE 'FETCH%'`.execute(
        api.database.systemDb,
      );
      expect(open.rows[0]!.n).toBe(0);

      const file = await download(
        'paid-orders',
        {
          from: '2026-03-01',
          to: '2026-04-01',
          format: 'csv',
          sortModel: [{ colId: 'paid_at', sort: 'asc' }],
        },
        token,
      );
      expect(file.statusCode).toBe(200);
      const lines = file.body.trimEnd().split('\r\n');
      expect(lines).toHaveLength(ORDERS + 1);
      expect(lines[1]).toMatch(/^2026-03-01T00:00:01.000Z,N000001,store-a,new,1,10$/);
    });
  });
});
