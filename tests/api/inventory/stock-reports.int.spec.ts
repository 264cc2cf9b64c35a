import { randomUUID } from 'node:crypto';
import {
  bearer,
  createSeller,
  createSubUser,
  createTestApi,
  type TestApi,
  type TestSeller,
} from '@tests/support/api';
import { waitFor } from '@tests/support/wait';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { data, gridParams } from './inventory-api';
import { expectRefusal, type StockMovementData, stockCalls } from './stock-api';

interface StockRow {
  key: string;
  master_code_id: string;
  code: string;
  type: string;
  warehouse_id: string;
  warehouse_code: string;
  on_hand: number | null;
  reserved: number | null;
  available: number;
  negative: boolean;
  low: boolean;
}
interface MovementRow {
  id: string;
  master_code: { id: string; code: string | null; name: string | null };
  warehouse: { id: string; code: string | null; name: string | null };
  revision: number;
  occurred_at: string;
  action: string;
  mode: string | null;
  previous_stock: number;
  change: number;
  stock_in: number;
  stock_out: number;
  new_stock: number;
  description: string | null;
  source: { type: string; id: string } | null;
  created_by: { id: string; name: string } | null;
}
interface Figures {
  on_hand: number;
  reserved: number;
  available: number;
  as_of_movement: MovementRow | null;
}

/** The stock reports: the stock list (combos derived), the movement report and its export, and stock in time. */
describe('stock reports', () => {
  let api: TestApi;
  let owner: TestSeller;
  let other: TestSeller;
  const stock = stockCalls(() => api);
  let cup: { id: string; code: string };
  let lid: { id: string; code: string };
  let straw: { id: string; code: string };
  let set: { id: string };
  let w1: { id: string; code: string };
  let w2: { id: string; code: string };
  /** The movements of cup in w1, as the adjust/receive calls answered them, with the instant just after each. */
  const history: { movement: StockMovementData; after: Date }[] = [];

  /** Waits for the clock to pass `instant`, so that the next movement is recorded strictly later. */
  const tick = (instant: Date) => waitFor(() => Date.now() > instant.getTime() + 1);

  beforeAll(async () => {
    api = await createTestApi();
    owner = await createSeller(api, { packageId: 'growth' });
    other = await createSeller(api, { packageId: 'growth' });
    cup = await stock.masterCode(owner.token, 'CUP', { seller_sku: 'SKU-CUP', soft_threshold: 5 });
    lid = await stock.masterCode(owner.token, 'LID');
    straw = await stock.masterCode(owner.token, 'STRAW');
    set = await stock.combo(owner.token, 'SET', [
      { component_id: cup.id, quantity: 2 },
      { component_id: lid.id, quantity: 1 },
    ]);
    w1 = await stock.warehouse(owner.token, 'W1');
    w2 = await stock.warehouse(owner.token, 'W2');

    const move = async (response: ReturnType<typeof stock.receive>) => {
      const movement = data<StockMovementData>(await response);
      const after = new Date();
      history.push({ movement, after });
      await tick(after);
    };
    await move(
      stock.receive(owner.token, {
        master_code_id: cup.id,
        warehouse_id: w1.id,
        quantity: 10,
        reason: 'PO-1',
      }),
    );
    await move(
      stock.adjust(owner.token, {
        master_code_id: cup.id,
        warehouse_id: w1.id,
        mode: 'deduct',
        quantity: 3,
        reason: 'Broken, "two" =SUM(A1)\nsecond line',
      }),
    );
    await move(
      stock.adjust(owner.token, { master_code_id: cup.id, warehouse_id: w1.id, mode: 'set', quantity: 9 }),
    );
    data(await stock.receive(owner.token, { master_code_id: cup.id, warehouse_id: w2.id, quantity: 3 }));
    data(await stock.receive(owner.token, { master_code_id: lid.id, warehouse_id: w1.id, quantity: 4 }));
    data(await stock.receive(owner.token, { master_code_id: straw.id, warehouse_id: w2.id, quantity: 1 }));
    await stock.setRefuseNegative(owner.token, false);
    data(
      await stock.adjust(owner.token, {
        master_code_id: straw.id,
        warehouse_id: w2.id,
        mode: 'deduct',
        quantity: 3,
      }),
    );
    await stock.setRefuseNegative(owner.token, true);
    await stock.settle(owner.tenantId);
  });
  afterAll(async () => {
    await api?.close();
  });

  const list = async (query: Record<string, unknown>, token = owner.token) =>
    data<{ rows: StockRow[]; lastRow: number }>(
      await stock.call('GET', `/api/inventory/stock?${gridParams(query)}`, token),
    );
  const figures = (rows: StockRow[]) =>
    rows.map((row) => [row.code, row.warehouse_code, row.on_hand, row.reserved, row.available]);

  it('lists stock per master code per warehouse, with a combo derived from its components', async () => {
    const inW1 = await list({ warehouse_id: w1.id });
    expect(figures(inW1.rows)).toEqual([
      ['CUP', 'W1', 9, 0, 9],
      ['LID', 'W1', 4, 0, 4],
      // min(floor(9 / 2), floor(4 / 1)) = 4
      ['SET', 'W1', null, null, 4],
    ]);
    expect(inW1.lastRow).toBe(3);
    expect(inW1.rows[0]).toMatchObject({
      key: `${cup.id}@${w1.id}`,
      type: 'standard',
      negative: false,
      low: false,
      seller_sku: 'SKU-CUP',
      warehouse_name: 'Warehouse W1',
      warehouse_kind: 'warehouse',
    });
    expect(inW1.rows[2]).toMatchObject({ master_code_id: set.id, type: 'combo' });

    const inW2 = await list({ warehouse_id: w2.id, sortModel: [{ colId: 'available', sort: 'asc' }] });
    expect(figures(inW2.rows)).toEqual([
      ['STRAW', 'W2', -2, 0, -2],
      // A missing component counts 0: min(floor(3 / 2), 0) = 0.
      ['SET', 'W2', null, null, 0],
      ['CUP', 'W2', 3, 0, 3],
    ]);
    expect(inW2.rows[0]!.negative).toBe(true);
    expect(inW2.rows[2]!.low).toBe(true); // 3 at or below CUP's soft threshold of 5

    const all = await list({ sortModel: [{ colId: 'available', sort: 'desc' }] });
    expect(all.rows.map((row) => row.available)).toEqual([9, 4, 4, 3, 0, -2]);
    expect(all.lastRow).toBe(6);
  });

  it('searches, filters, sorts and pages the stock list', async () => {
    expect(
      figures(
        (
          await list({
            search: 'sku-cup',
            sortModel: [
              { colId: 'code', sort: 'asc' },
              { colId: 'warehouse', sort: 'asc' },
            ],
          })
        ).rows,
      ),
    ).toEqual([
      ['CUP', 'W1', 9, 0, 9],
      ['CUP', 'W2', 3, 0, 3],
    ]);
    expect((await list({ negative_only: 'true' })).rows.map((row) => row.code)).toEqual(['STRAW']);
    expect(
      (
        await list({
          filterModel: { type: { filterType: 'set', values: ['combo'] } },
          sortModel: [{ colId: 'warehouse', sort: 'asc' }],
        })
      ).rows.map((row) => row.warehouse_code),
    ).toEqual(['W1', 'W2']);
    expect(
      (
        await list({ filterModel: { code: { filterType: 'text', type: 'startsWith', filter: 'l' } } })
      ).rows.map((row) => row.code),
    ).toEqual(['LID']);
    const byOnHand = await list({ sortModel: [{ colId: 'on_hand', sort: 'desc' }] });
    expect(byOnHand.rows.map((row) => row.on_hand)).toEqual([9, 4, 3, -2, null, null]);
    const page = await list({ startRow: 0, endRow: 2, sortModel: [{ colId: 'name', sort: 'asc' }] });
    expect(page.rows).toHaveLength(2);
    expect(page.lastRow).toBe(6);
    const next = await list({ startRow: 2, endRow: 4, sortModel: [{ colId: 'name', sort: 'asc' }] });
    expect(next.rows.map((row) => row.key)).not.toContain(page.rows[0]!.key);
    expect(next.lastRow).toBe(6);

    const theirs = await stock.warehouse(other.token, 'THEIRS');
    const foreign = await stock.call('GET', `/api/inventory/stock?warehouse_id=${theirs.id}`, owner.token);
    const missing = await stock.call('GET', `/api/inventory/stock?warehouse_id=${randomUUID()}`, owner.token);
    expectRefusal(foreign, 404, 404);
    expect(foreign.body).toBe(missing.body);
    expect((await stock.call('GET', '/api/inventory/stock?negative_only=yes', owner.token)).statusCode).toBe(
      400,
    );
    expect(
      (
        await stock.call(
          'GET',
          `/api/inventory/stock?${gridParams({ sortModel: [{ colId: 'cost', sort: 'asc' }] })}`,
          owner.token,
        )
      ).statusCode,
    ).toBe(400);
  });

  it('leaves the row count open past 10,000 rows, and gives it once the last page comes back short', async () => {
    const big = await createSeller(api, { packageId: 'growth' });
    const place = await stock.warehouse(big.token, 'BIG');
    await sql`
      INSERT INTO master_codes (id, tenant_id, code, name, type)
      SELECT gen_random_uuid(), ${big.tenantId}, 'BIG-' || lpad(n::text, 5, '0'), 'Big ' || n, 'standard'
      FROM generate_series(1, 10050) AS n`.execute(api.database.db);
    await sql`
      INSERT INTO stock_levels (tenant_id, master_code_id, warehouse_id, on_hand, reserved, in_process, on_hold,
        pos_on_hold, supplier_on_hold, incoming, last_movement_at, movements, last_revision, last_position)
      SELECT ${big.tenantId}, m.id::text, ${place.id}, n.k % 97, 0, 0, 0, 0, 0, 0, now(), 1, 0, 0
      FROM (SELECT id, row_number() OVER (ORDER BY code) AS k FROM master_codes WHERE tenant_id = ${big.tenantId}) m
      CROSS JOIN LATERAL (SELECT m.k AS k) n`.execute(api.database.db);
    // What autovacuum does after a bulk load: the planner's statistics.
    await sql`ANALYZE master_codes, stock_levels`.execute(api.database.db);
    const first = await list({ sortModel: [{ colId: 'available', sort: 'desc' }] }, big.token);
    expect(first.rows).toHaveLength(100);
    expect(first.rows[0]!.available).toBe(96);
    expect(first.lastRow).toBe(-1);
    expect((await list({ search: 'BIG-', endRow: 50 }, big.token)).lastRow).toBe(-1);
    expect((await list({ search: 'BIG-0', endRow: 50 }, big.token)).lastRow).toBe(9_999);
    const last = await list(
      { startRow: 10_000, endRow: 10_100, sortModel: [{ colId: 'available', sort: 'desc' }] },
      big.token,
    );
    expect(last.rows).toHaveLength(50);
    expect(last.lastRow).toBe(10_050);
    const filtered = await list({ search: 'BIG-1000' }, big.token);
    expect(filtered.rows.map((row) => row.code)).toEqual([
      'BIG-10000',
      'BIG-10001',
      'BIG-10002',
      'BIG-10003',
      'BIG-10004',
      'BIG-10005',
      'BIG-10006',
      'BIG-10007',
      'BIG-10008',
      'BIG-10009',
    ]);
    expect(filtered.lastRow).toBe(10);
  });

  const movements = async (query: Record<string, unknown>, token = owner.token) =>
    data<{ rows: MovementRow[]; lastRow: number }>(
      await stock.call('GET', `/api/inventory/stock/movements?${gridParams(query)}`, token),
    );

  it('reports movements newest first with the figures, names and filters of the movement report', async () => {
    const report = await movements({ master_code_id: cup.id, warehouse_id: w1.id });
    expect(report.lastRow).toBe(3);
    expect(
      report.rows.map((row) => [
        row.action,
        row.mode,
        row.previous_stock,
        row.change,
        row.stock_in,
        row.stock_out,
        row.new_stock,
      ]),
    ).toEqual([
      ['StockAdjusted', 'set', 7, 2, 2, 0, 9],
      ['StockAdjusted', 'deduct', 10, -3, 0, 3, 7],
      ['StockReceived', null, 0, 10, 10, 0, 10],
    ]);
    expect(report.rows[2]).toMatchObject({
      id: `${cup.id}@${w1.id}#0`,
      master_code: { id: cup.id, code: 'CUP', name: 'Item CUP' },
      warehouse: { id: w1.id, code: 'W1', name: 'Warehouse W1' },
      description: 'PO-1',
      created_by: { id: owner.userId, name: 'Siti Aminah' },
      occurred_at: expect.any(String),
    });

    const all = await movements({});
    expect(all.lastRow).toBe(7);
    expect(all.rows.map((row) => row.occurred_at)).toEqual(
      [...all.rows.map((row) => row.occurred_at)].sort().reverse(),
    );
    expect((await movements({ warehouse_id: w2.id })).rows).toHaveLength(3);
    expect((await movements({ action: 'StockAdjusted' })).rows).toHaveLength(3);
    expect(
      (await movements({ action: 'StockReceived,StockAdjusted', master_code_id: straw.id })).rows,
    ).toHaveLength(2);
    expect((await movements({ search: 'broken' })).rows.map((row) => row.change)).toEqual([-3]);
    const window = await movements({
      master_code_id: cup.id,
      warehouse_id: w1.id,
      from: new Date(history[0]!.after.getTime() + 1).toISOString(),
      to: history[1]!.after.toISOString(),
    });
    expect(window.rows.map((row) => row.revision)).toEqual([1]);
    const oldestFirst = await movements({
      master_code_id: cup.id,
      sortModel: [{ colId: 'occurred_at', sort: 'asc' }],
    });
    expect(oldestFirst.rows[0]!.new_stock).toBe(10);
    const paged = await movements({ startRow: 0, endRow: 3 });
    expect(paged.rows).toHaveLength(3);
    expect(paged.lastRow).toBe(7);

    expect(
      (await stock.call('GET', '/api/inventory/stock/movements?action=Teleported', owner.token)).statusCode,
    ).toBe(400);
    expect(
      (await stock.call('GET', '/api/inventory/stock/movements?from=yesterday', owner.token)).statusCode,
    ).toBe(400);
    expectRefusal(
      await stock.call('GET', '/api/inventory/stock/movements?from=2026-02-01&to=2026-01-01', owner.token),
      400,
      459,
    );
    expectRefusal(
      await stock.call('GET', `/api/inventory/stock/movements?master_code_id=${randomUUID()}`, owner.token),
      404,
      404,
    );
  });

  const exportOf = (query: Record<string, unknown>, token = owner.token, language?: string) =>
    api.app.inject({
      method: 'GET',
      url: `/api/inventory/stock/movements/export?${gridParams(query)}`,
      headers: bearer(token, language),
    });

  it("exports the stock list as CSV and XLSX, with the list's filters and sort, combos from their components", async () => {
    const query = { warehouse_id: w1.id, sortModel: [{ colId: 'code', sort: 'asc' }] };
    const shown = (await list(query)).rows;
    const csv = await api.app.inject({
      method: 'GET',
      url: `/api/inventory/stock/export?${gridParams({ ...query, format: 'csv' })}`,
      headers: bearer(owner.token),
    });
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-disposition']).toMatch(/^attachment; filename="stock-list-\d{8}\.csv";/);
    const parsed = Papa.parse<string[]>(csv.body.slice(1), { skipEmptyLines: true });
    expect(parsed.data[0]!.slice(0, 5)).toEqual([
      'Master code',
      'Name',
      'Seller SKU',
      'Warehouse',
      'On hand',
    ]);
    // The same rows as the list shows, in its order; a combo has no on hand of its own, only available.
    expect(parsed.data.slice(1).map((row) => [row[0], row[3], row[4], row[10]])).toEqual(
      shown.map((row) => [row.code, row.warehouse_code, String(row.on_hand ?? ''), String(row.available)]),
    );
    const xlsx = await api.app.inject({
      method: 'GET',
      url: `/api/inventory/stock/export?${gridParams({ ...query, format: 'xlsx' })}`,
      headers: bearer(owner.token, 'zh-cn'),
    });
    expect(xlsx.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.name).toBe('库存列表');
    expect(sheet.rowCount).toBe(shown.length + 1);
    expect((sheet.getRow(2).values as unknown[])[1]).toBe(shown[0]!.code);
    expectRefusal(
      await stock.call('GET', `/api/inventory/stock/export?format=pdf&warehouse_id=${w1.id}`, owner.token),
      400,
      400,
    );
  });

  it('exports the movement report as CSV, escaped, and as XLSX, with the same filters', async () => {
    const response = await exportOf({ format: 'csv', master_code_id: cup.id, warehouse_id: w1.id });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="stock-movements-\d{8}\.csv";/,
    );
    expect(response.body.startsWith('\ufeff')).toBe(true);
    const parsed = Papa.parse<string[]>(response.body.slice(1), { skipEmptyLines: true });
    expect(parsed.errors).toEqual([]);
    expect(parsed.data[0]).toEqual([
      'Time',
      'Master code',
      'Name',
      'Warehouse',
      'Action',
      'Quantity type',
      'Quantity',
      'Previous stock',
      'Change',
      'Stock in',
      'Stock out',
      'New stock',
      'Reserved',
      'In process',
      'On hold',
      'Smart POS on hold',
      'Supplier on hold',
      'Incoming',
      'Available online',
      'Description',
      'Source',
      'Created by',
    ]);
    // The figures after each movement: reserved, in process, the three holds, incoming, available online.
    expect(parsed.data.slice(1).map((row) => row.slice(13, 19))).toEqual([
      ['0', '0', '0', '0', '0', '9'],
      ['0', '0', '0', '0', '0', '7'],
      ['0', '0', '0', '0', '0', '10'],
    ]);
    const withoutFigures = (row: string[]) => [...row.slice(1, 13), ...row.slice(19, 20)];
    expect(parsed.data.slice(1).map(withoutFigures)).toEqual([
      ['CUP', 'Item CUP', 'W1', 'Adjusted', 'Set to', '9', '7', '2', '2', '0', '9', '0', ''],
      [
        'CUP',
        'Item CUP',
        'W1',
        'Adjusted',
        'Deduct',
        '3',
        '10',
        '-3',
        '0',
        '3',
        '7',
        '0',
        'Broken, "two" =SUM(A1)\nsecond line',
      ],
      ['CUP', 'Item CUP', 'W1', 'Received', '', '10', '0', '10', '10', '0', '10', '0', 'PO-1'],
    ]);
    expect(parsed.data[1]![21]).toBe('Siti Aminah');
    // The quote is doubled inside a quoted field; a field that starts like a formula is defused.
    expect(response.body).toContain('"Broken, ""two"" =SUM(A1)\nsecond line"');
    const formula = data<StockMovementData>(
      await stock.adjust(owner.token, {
        master_code_id: lid.id,
        warehouse_id: w2.id,
        mode: 'add',
        quantity: 1,
        reason: '=HYPERLINK("x")',
      }),
    );
    expect(formula.reason).toBe('=HYPERLINK("x")');
    await stock.settle(owner.tenantId);
    const defused = await exportOf({ format: 'csv', master_code_id: lid.id, warehouse_id: w2.id });
    expect(defused.body).toContain(`"'=HYPERLINK(""x"")"`);

    const chinese = await exportOf(
      { format: 'csv', master_code_id: cup.id, warehouse_id: w1.id },
      owner.token,
      'zh-cn',
    );
    expect(chinese.body.split('\r\n')[0]).toContain('主编码');
    expect(chinese.body).toContain('入库');

    const xlsx = await exportOf({
      format: 'xlsx',
      master_code_id: cup.id,
      warehouse_id: w1.id,
      action: 'StockAdjusted',
    });
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.name).toBe('Stock movements');
    const values = (row: number) => (sheet.getRow(row).values as unknown[]).slice(1);
    expect(values(1)[0]).toBe('Time');
    expect(sheet.rowCount).toBe(3);
    expect(values(2).slice(1, 13)).toEqual([
      'CUP',
      'Item CUP',
      'W1',
      'Adjusted',
      'Set to',
      9,
      7,
      2,
      2,
      0,
      9,
      0,
    ]);
    expect(values(2).slice(13, 19)).toEqual([0, 0, 0, 0, 0, 9]);
    expect(values(3)[19]).toBe('Broken, "two" =SUM(A1)\nsecond line');
    expect(values(2)[0]).toBeInstanceOf(Date);

    expect((await exportOf({})).statusCode).toBe(400);
    expect((await exportOf({ format: 'pdf' })).statusCode).toBe(400);
  });

  it('refuses an export of more than 100,000 movements, asking to narrow the filters', async () => {
    const big = await createSeller(api, { packageId: 'growth' });
    await sql`
      INSERT INTO stock_movements (tenant_id, master_code_id, warehouse_id, revision, event_id, occurred_at, action,
        quantity, previous_stock, change, stock_in, stock_out, new_stock, reserved, in_process, on_hold, pos_on_hold,
        supplier_on_hold, incoming, global_position)
      SELECT ${big.tenantId}, 'mc', 'wh', n, gen_random_uuid(), now() - n * interval '1 second', 'StockReceived',
        1, n, 1, 1, 0, n + 1, 0, 0, 0, 0, 0, 0, n
      FROM generate_series(0, 100000) AS n`.execute(api.database.db);
    const refused = expectRefusal(await exportOf({ format: 'csv' }, big.token), 400, 458);
    expect(refused.msg).toBe(
      'The report has more than 100000 rows. Narrow the filters (period, warehouse, master code) and export again.',
    );
    const report = data<{ rows: unknown[]; lastRow: number }>(
      await stock.call('GET', '/api/inventory/stock/movements?startRow=0&endRow=100', big.token),
    );
    expect(report.rows).toHaveLength(100);
    expect(report.lastRow).toBe(-1);
  });

  it('answers the stock at a past instant, and the movements that led to it', async () => {
    const target = `master_code_id=${cup.id}&warehouse_id=${w1.id}`;
    const at = async (instant: Date) =>
      data<Figures>(
        await stock.call('GET', `/api/inventory/stock/at?${target}&at=${instant.toISOString()}`, owner.token),
      );
    const before = await at(new Date('2020-01-01T00:00:00Z'));
    expect(before).toEqual({
      on_hand: 0,
      reserved: 0,
      in_process: 0,
      on_hold: 0,
      pos_on_hold: 0,
      supplier_on_hold: 0,
      incoming: 0,
      available: 0,
      as_of_movement: null,
    });
    const afterFirst = await at(history[0]!.after);
    expect(afterFirst).toMatchObject({
      on_hand: 10,
      available: 10,
      as_of_movement: { revision: 0, new_stock: 10 },
    });
    expect((await at(history[1]!.after)).on_hand).toBe(7);
    expect((await at(history[2]!.after)).on_hand).toBe(9);
    expect((await at(new Date())).as_of_movement?.description).toBeNull();

    const replay = data<Figures & { movements: MovementRow[]; total: number }>(
      await stock.call(
        'GET',
        `/api/inventory/stock/history?${target}&until=${history[1]!.after.toISOString()}`,
        owner.token,
      ),
    );
    expect(replay.on_hand).toBe(7);
    expect(replay.total).toBe(2);
    expect(replay.movements.map((row) => [row.revision, row.new_stock])).toEqual([
      [0, 10],
      [1, 7],
    ]);
    expect(replay.movements[1]).toMatchObject({
      created_by: { name: 'Siti Aminah' },
      master_code: { code: 'CUP' },
      warehouse: { code: 'W1' },
    });
    const lastPage = data<{ movements: MovementRow[]; total: number }>(
      await stock.call('GET', `/api/inventory/stock/history?${target}&limit=1`, owner.token),
    );
    expect(lastPage.total).toBe(3);
    expect(lastPage.movements.map((row) => row.revision)).toEqual([2]);
    const pageBefore = data<{ movements: MovementRow[] }>(
      await stock.call(
        'GET',
        `/api/inventory/stock/history?${target}&limit=1&before_revision=2`,
        owner.token,
      ),
    );
    expect(pageBefore.movements.map((row) => row.revision)).toEqual([1]);

    const combo = await stock.call(
      'GET',
      `/api/inventory/stock/at?master_code_id=${set.id}&warehouse_id=${w1.id}&at=2026-01-01`,
      owner.token,
    );
    expectRefusal(combo, 409, 475);
    expectRefusal(
      await stock.call('GET', `/api/inventory/stock/at?${target}&at=noon`, owner.token),
      400,
      459,
    );
    expect((await stock.call('GET', `/api/inventory/stock/at?${target}`, owner.token)).statusCode).toBe(400);
  });

  it('gives a series for the chart: every movement when few, else the stock sampled at even instants', async () => {
    const target = `master_code_id=${cup.id}&warehouse_id=${w1.id}`;
    const steps = data<{ kind: string; points: { at: string; on_hand: number }[] }>(
      await stock.call('GET', `/api/inventory/stock/series?${target}`, owner.token),
    );
    expect(steps.kind).toBe('movements');
    expect(steps.points.map((point) => point.on_hand)).toEqual([0, 10, 7, 9, 9]);
    const from = new Date(steps.points[1]!.at);
    const sampled = data<{
      kind: string;
      points: { at: string; on_hand: number }[];
      from: string;
      to: string;
    }>(
      await stock.call(
        'GET',
        `/api/inventory/stock/series?${target}&from=${from.toISOString()}&to=${history[2]!.after.toISOString()}&points=2`,
        owner.token,
      ),
    );
    expect(sampled.kind).toBe('sampled');
    expect(sampled.points.map((point) => point.on_hand)).toEqual([10, 9]);
    expect(sampled.points[0]!.at).toBe(from.toISOString());
    expect(
      (await stock.call('GET', `/api/inventory/stock/series?${target}&points=1`, owner.token)).statusCode,
    ).toBe(400);
  });

  it('needs the right permission for each report', async () => {
    const viewer = await createSubUser(api, owner.tenantId, ['inventory-master-code']);
    const auditor = await createSubUser(api, owner.tenantId, ['inventory-stock-movement']);
    const exporter = await createSubUser(api, owner.tenantId, ['inventory-list-export']);
    const target = `master_code_id=${cup.id}&warehouse_id=${w1.id}`;
    expect((await list({}, viewer.token)).rows.length).toBeGreaterThan(0);
    expectRefusal(await stock.call('GET', '/api/inventory/stock', auditor.token), 403, 403);
    expectRefusal(await stock.call('GET', '/api/inventory/stock/movements', viewer.token), 403, 403);
    expectRefusal(
      await stock.call('GET', `/api/inventory/stock/at?${target}&at=2026-01-01`, viewer.token),
      403,
      403,
    );
    expectRefusal(
      await stock.call('GET', `/api/inventory/stock/history?${target}`, exporter.token),
      403,
      403,
    );
    expectRefusal(await stock.call('GET', `/api/inventory/stock/series?${target}`, viewer.token), 403, 403);
    expect((await movements({}, auditor.token)).rows.length).toBeGreaterThan(0);
    expectRefusal(await exportOf({ format: 'csv' }, auditor.token), 403, 403);
    expect((await exportOf({ format: 'csv' }, exporter.token)).statusCode).toBe(200);
    expect((await stock.call('GET', '/api/inventory/stock', 'bad-token')).statusCode).toBe(401);
  });

  it('keeps tenants apart: another account sees none of this stock, and its ids answer as missing', async () => {
    expect(await list({}, other.token)).toEqual({ rows: [], lastRow: 0 });
    expect(await movements({}, other.token)).toEqual({ rows: [], lastRow: 0 });
    const exported = await exportOf({ format: 'csv' }, other.token);
    expect(exported.body.trim().split('\r\n')).toHaveLength(1);
    const theirs = await stock.warehouse(other.token, 'OTHER-W1');
    const foreign = await stock.call(
      'GET',
      `/api/inventory/stock/at?master_code_id=${cup.id}&warehouse_id=${theirs.id}&at=2026-01-01`,
      other.token,
    );
    const missing = await stock.call(
      'GET',
      `/api/inventory/stock/at?master_code_id=${randomUUID()}&warehouse_id=${theirs.id}&at=2026-01-01`,
      other.token,
    );
    expectRefusal(foreign, 404, 404);
    expect(foreign.body).toBe(missing.body);
    expectRefusal(
      await stock.call('GET', `/api/inventory/stock/movements?warehouse_id=${w1.id}`, other.token),
      404,
      404,
    );
  });
});
