import { createHash, randomUUID } from 'node:crypto';
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
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { data } from './inventory-api';
import { expectRefusal, stockCalls } from './stock-api';

const CSV = 'text/csv';
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const HEADER = 'master_code,warehouse_code,mode,quantity,reason';

interface Progress {
  id: string;
  filename: string;
  status: 'pending' | 'in_progress' | 'complete' | 'failed';
  total: number;
  applied: number;
  replayed: number;
  failed: number;
  processed: number;
  errors: { row: number; column: string | null; message: string }[];
  message: string | null;
  finished_at: string | null;
}

type RowList = { row: number; column: string | null; message: string }[];

const csv = (...rows: string[]) => Buffer.from(`${[HEADER, ...rows].join('\n')}\n`, 'utf8');

async function xlsx(rows: (string | number)[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Adjustments');
  sheet.addRow(HEADER.split(','));
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** Bulk stock adjustment by file: checked whole before anything moves, applied once, progress reported. */
describe('stock upload', () => {
  let api: TestApi;
  let owner: TestSeller;
  let other: TestSeller;
  const stock = stockCalls(() => api);
  let kopi: { id: string; code: string };
  let teh: { id: string; code: string };
  let kl: { id: string; code: string };
  let pg: { id: string; code: string };

  beforeAll(async () => {
    api = await createTestApi();
    owner = await createSeller(api, { packageId: 'growth' });
    other = await createSeller(api, { packageId: 'growth' });
    kopi = await stock.masterCode(owner.token, 'KOPI');
    teh = await stock.masterCode(owner.token, 'TEH');
    kl = await stock.warehouse(owner.token, 'KL');
    pg = await stock.branch(owner.token, 'PG');
  });
  afterAll(async () => {
    await api?.close();
  });

  const upload = (body: Buffer, opts: { type?: string; filename?: string; token?: string } = {}) =>
    api.app.inject({
      method: 'POST',
      url: `/api/inventory/stock/upload${opts.filename ? `?filename=${encodeURIComponent(opts.filename)}` : ''}`,
      headers: { ...bearer(opts.token ?? owner.token), 'content-type': opts.type ?? CSV },
      payload: body,
    });

  const uploadCount = async () =>
    (
      await api.database.db
        .selectFrom('sheet_uploads')
        .select('id')
        .where('tenant_id', '=', owner.tenantId)
        .where('kind', '=', 'stock_adjustment')
        .execute()
    ).length;

  const progress = async (id: string, token = owner.token) =>
    data<Progress>(await stock.call('GET', `/api/inventory/stock/upload/${id}`, token));

  /** Uploads, expects 202 (pending), and waits until the upload is complete or failed. */
  const applied = async (body: Buffer, opts: { type?: string; filename?: string } = {}) => {
    const response = await upload(body, opts);
    expect(response.statusCode, response.body).toBe(202);
    const started = (response.json() as { data: { upload_id: string; status: string; total: number } }).data;
    expect(started.status).toBe('pending');
    return waitFor(
      async () => {
        const now = await progress(started.upload_id);
        return (now.status === 'complete' || now.status === 'failed') && now;
      },
      { what: 'the upload to finish' },
    );
  };

  it('applies a good CSV, every row in order, and reports its progress to done', async () => {
    const before = await stock.eventCount(owner.tenantId);
    const done = await applied(
      csv(
        'KOPI,KL,add,10,Opening',
        'KOPI,KL,deduct,3,"Damaged, two bags"',
        'teh,kl,set,8,Stock take',
        'KOPI,PG,add,5,',
        'KOPI,KL,set,20,Recount',
      ),
      { filename: 'march.csv' },
    );
    expect(done).toMatchObject({
      filename: 'march.csv',
      status: 'complete',
      total: 5,
      applied: 5,
      replayed: 0,
      failed: 0,
      processed: 5,
      errors: [],
      message: null,
    });
    expect(done.finished_at).not.toBeNull();
    expect(await stock.onHand(owner.tenantId, kopi.id, kl.id)).toBe(20);
    expect(await stock.onHand(owner.tenantId, teh.id, kl.id)).toBe(8);
    expect(await stock.onHand(owner.tenantId, kopi.id, pg.id)).toBe(5);
    expect(await stock.eventCount(owner.tenantId)).toBe(before + 5);
    const ledger = await api.database.db
      .selectFrom('stock_movements')
      .select(['revision', 'mode', 'change', 'new_stock', 'reason', 'source_type', 'source_id'])
      .where('tenant_id', '=', owner.tenantId)
      .where('master_code_id', '=', kopi.id)
      .where('warehouse_id', '=', kl.id)
      .orderBy('revision')
      .execute();
    expect(ledger.map((m) => [m.mode, Number(m.change), Number(m.new_stock), m.reason])).toEqual([
      ['add', 10, 10, 'Opening'],
      ['deduct', -3, 7, 'Damaged, two bags'],
      ['set', 13, 20, 'Recount'],
    ]);
    expect(ledger[0]).toMatchObject({ source_type: 'file', source_id: 'march.csv' });
  });

  it('moves stock once when the same file is uploaded twice, and says the rows were already applied', async () => {
    const file = csv('TEH,PG,add,7,Twice', 'TEH,PG,deduct,2,Twice');
    const first = await applied(file, { filename: 'twice.csv' });
    expect(first).toMatchObject({ status: 'complete', applied: 2, replayed: 0 });
    const events = await stock.eventCount(owner.tenantId);
    const second = await applied(file, { filename: 'twice-again.csv' });
    expect(second).toMatchObject({ status: 'complete', applied: 0, replayed: 2, failed: 0 });
    expect(await stock.eventCount(owner.tenantId)).toBe(events);
    expect(await stock.onHand(owner.tenantId, teh.id, pg.id)).toBe(5);
  });

  it('applies a CSV saved by Excel as "CSV UTF-8", with its BOM', async () => {
    const before = await stock.onHand(owner.tenantId, kopi.id, kl.id);
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), csv('KOPI,KL,add,2,Excel')]);
    expect(await applied(bom, { filename: 'excel.csv' })).toMatchObject({ status: 'complete', applied: 1 });
    expect(await stock.onHand(owner.tenantId, kopi.id, kl.id)).toBe((before ?? 0) + 2);
  });

  it('applies a good XLSX built by a spreadsheet program', async () => {
    const file = await xlsx([
      ['KOPI', 'PG', 'add', 4, 'From Excel'],
      ['TEH', 'KL', 'deduct', 1, ''],
    ]);
    const done = await applied(file, { type: XLSX, filename: 'stock.xlsx' });
    expect(done).toMatchObject({ status: 'complete', applied: 2 });
    expect(await stock.onHand(owner.tenantId, kopi.id, pg.id)).toBe(9);
    expect(await stock.onHand(owner.tenantId, teh.id, kl.id)).toBe(7);
    // The XLSX type without a filename reads it as XLSX.
    const unnamed = await applied(await xlsx([['KOPI', 'PG', 'add', 1, 'unnamed']]), { type: XLSX });
    expect(unnamed).toMatchObject({ status: 'complete', filename: 'upload.xlsx', applied: 1 });
  });

  it('applies nothing from a file with one bad row, and lists every bad row with its number', async () => {
    const events = await stock.eventCount(owner.tenantId);
    const uploadsBefore = await uploadCount();
    const response = await upload(
      csv(
        'KOPI,KL,add,1,ok',
        'KOPI,KL,add,1,ok',
        'KOPI,KL,add,1,ok',
        'KOPI,KL,add,1,ok',
        'KOPI,KL,add,1,ok',
        'KOPI,KL,add,abc,bad',
        'TEH,KL,add,1,ok',
      ),
    );
    const refused = expectRefusal(response, 400, 455) as ReturnType<typeof expectRefusal> & { rows: RowList };
    expect(refused.msg).toBe(
      'Nothing was applied: 1 row of the file has errors. Correct it and upload the file again.',
    );
    expect(refused.rows).toEqual([
      {
        row: 7,
        column: 'quantity',
        message: 'The quantity must be a whole number (at least 1 to add or deduct, at least 0 to set).',
      },
    ]);
    expect(refused.errors).toEqual([{ path: 'row 7 quantity', message: refused.rows[0]!.message }]);
    // Every bad row is listed, each problem of a row on its own.
    const many = expectRefusal(
      await upload(csv('KOPI,KL,add,1,ok', 'TEH,KL,double,0,bad mode', ',KL,add,1,', 'KOPI,KL,add,1')),
      400,
      455,
    ) as ReturnType<typeof expectRefusal> & { rows: RowList };
    expect(many.rows.map((row) => [row.row, row.column])).toEqual([
      [3, 'mode'],
      [3, 'quantity'],
      [4, 'master_code'],
      [5, null],
    ]);
    expect(many.rows[3]!.message).toBe(
      'The row must have exactly 5 columns: master_code, warehouse_code, mode, quantity, reason.',
    );
    expect(many.errors?.map((e) => e.path)).toEqual([
      'row 3 mode',
      'row 3 quantity',
      'row 4 master_code',
      'row 5',
    ]);
    // Format and unknown codes in one answer: a seller fixes the file once.
    const mixed = expectRefusal(
      await upload(csv('KOPI,KL,add,abc,bad', 'NOPE,KL,add,1,x', 'TEH,MARS,remove,1,x')),
      400,
      455,
    ) as ReturnType<typeof expectRefusal> & { rows: RowList };
    expect(mixed.rows.map((row) => [row.row, row.column])).toEqual([
      [2, 'quantity'],
      [3, 'master_code'],
      [4, 'warehouse_code'],
      [4, 'mode'],
    ]);
    expect(mixed.rows[2]!.message).toBe('Warehouse [MARS] not found');
    expect(mixed.msg).toBe(
      'Nothing was applied: 3 rows of the file have errors. Correct them and upload the file again.',
    );
    const unknown = await upload(
      csv('KOPI,KL,add,1,ok', 'NOPE,KL,add,1,x', 'TEH,MARS,add,1,x', 'TEH,KL,add,1,x', 'nope,mars,set,0,x'),
    );
    const codes = expectRefusal(unknown, 400, 455) as ReturnType<typeof expectRefusal> & { rows: RowList };
    expect(codes.rows).toEqual([
      { row: 3, column: 'master_code', message: 'Master code [NOPE] not found' },
      { row: 4, column: 'warehouse_code', message: 'Warehouse [MARS] not found' },
      { row: 6, column: 'master_code', message: 'Master code [nope] not found' },
      { row: 6, column: 'warehouse_code', message: 'Warehouse [mars] not found' },
    ]);
    expect(codes.errors?.map((e) => e.path)).toEqual([
      'row 3 master_code',
      'row 4 warehouse_code',
      'row 6 master_code',
      'row 6 warehouse_code',
    ]);
    const translated = await api.app.inject({
      method: 'POST',
      url: '/api/inventory/stock/upload',
      headers: { ...bearer(owner.token, 'th-th'), 'content-type': CSV },
      payload: csv('NOPE,KL,add,1,x'),
    });
    expect((translated.json() as { rows: RowList }).rows[0]!.message).toBe('ไม่พบมาสเตอร์โค้ด [NOPE]');
    expect(await stock.eventCount(owner.tenantId)).toBe(events);
    // Each refused file is in the upload history: failed, nothing applied, its bad rows counted.
    expect(await uploadCount()).toBe(uploadsBefore + 5);
    const recorded = await api.database.db
      .selectFrom('sheet_uploads')
      .select(['status', 'applied', 'replayed', 'failed', 'started_at'])
      .where('tenant_id', '=', owner.tenantId)
      .orderBy('created_at', 'desc')
      .limit(5)
      .execute();
    expect(recorded.map((r) => [r.status, r.applied + r.replayed, r.failed, r.started_at])).toEqual([
      ['failed', 0, 1, null],
      ['failed', 0, 3, null],
      ['failed', 0, 3, null],
      ['failed', 0, 3, null],
      ['failed', 0, 1, null],
    ]);
  });

  it('refuses a combo, another tenant’s codes, and a deduction below zero while negative stock is refused', async () => {
    const combo = await stock.combo(owner.token, 'SET-1', [{ component_id: kopi.id, quantity: 2 }]);
    expect(combo.id).toBeTruthy();
    const theirs = await stock.masterCode(other.token, 'THEIRS');
    await stock.warehouse(other.token, 'THEIR-WH');
    const events = await stock.eventCount(owner.tenantId);
    const refused = (await upload(
      csv('SET-1,KL,add,1,combo', `${theirs.code},KL,add,1,foreign`, 'KOPI,THEIR-WH,add,1,foreign'),
    ).then((r) => expectRefusal(r, 400, 455))) as ReturnType<typeof expectRefusal> & { rows: RowList };
    expect(refused.rows).toEqual([
      {
        row: 2,
        column: 'master_code',
        message: 'Master code [SET-1] is a combo and has no stock of its own',
      },
      { row: 3, column: 'master_code', message: 'Master code [THEIRS] not found' },
      { row: 4, column: 'warehouse_code', message: 'Warehouse [THEIR-WH] not found' },
    ]);

    // TEH in PG holds 5: the file's rows are taken in order, so the second deduction is the one that fails.
    await stock.onHand(owner.tenantId, teh.id, pg.id);
    const negative = (await upload(
      csv('TEH,PG,deduct,3,a', 'TEH,PG,deduct,3,b', 'TEH,PG,add,10,c', 'TEH,PG,deduct,12,d'),
    ).then((r) => expectRefusal(r, 400, 455))) as ReturnType<typeof expectRefusal> & { rows: RowList };
    expect(negative.rows).toEqual([
      {
        row: 3,
        column: 'quantity',
        message: 'Not enough stock of [TEH] in [PG]: 2 on hand, deducting 3 would leave -1',
      },
    ]);
    expect(await stock.eventCount(owner.tenantId)).toBe(events);

    // With negative stock allowed, the same file is applied.
    await stock.setRefuseNegative(owner.token, false);
    const done = await applied(csv('TEH,PG,deduct,3,a', 'TEH,PG,deduct,3,b'));
    expect(done).toMatchObject({ status: 'complete', applied: 2 });
    expect(await stock.onHand(owner.tenantId, teh.id, pg.id)).toBe(-1);
    await stock.setRefuseNegative(owner.token, true);
  });

  it('refuses files that are not usable, with a 4xx and nothing applied', async () => {
    const events = await stock.eventCount(owner.tenantId);
    expectRefusal(await upload(Buffer.from([0x4b, 0xff, 0xfe, 0x0a, 0x41])), 400, 456);
    expectRefusal(await upload(Buffer.from(`${HEADER}\n`)), 400, 456);
    expectRefusal(await upload(csv('KOPI,KL,add,1,x'), { filename: 'stock.txt' }), 400, 456);
    expectRefusal(await upload(Buffer.from('not a zip'), { type: XLSX, filename: 'broken.xlsx' }), 400, 456);
    const tooMany = Buffer.from(
      `${HEADER}\n${Array.from({ length: 10_001 }, () => 'KOPI,KL,add,1,x').join('\n')}\n`,
    );
    expect(expectRefusal(await upload(tooMany), 400, 456).msg).toBe('The file has more than 10000 rows.');
    const huge = Buffer.alloc(5 * 1024 * 1024 + 70 * 1024, 0x41);
    expect((await upload(huge)).statusCode).toBe(413);
    const json = await api.app.inject({
      method: 'POST',
      url: '/api/inventory/stock/upload',
      headers: bearer(owner.token),
      payload: { rows: [] },
    });
    expectRefusal(json, 415, 457);
    expect(await stock.eventCount(owner.tenantId)).toBe(events);
  });

  it('applies a long file with many stocks side by side, each stock in file order', async () => {
    const codes = Array.from({ length: 30 }, (_, i) => `BULK-${i}`);
    for (const code of codes) await stock.masterCode(owner.token, code);
    const rows: string[] = [];
    for (let round = 0; round < 20; round++) {
      for (const code of codes)
        rows.push(`${code},KL,${round === 19 ? 'set' : 'add'},${round === 19 ? 100 : 2},r${round}`);
    }
    const done = await applied(csv(...rows), { filename: 'bulk.csv' });
    expect(done).toMatchObject({ status: 'complete', total: 600, applied: 600, processed: 600 });
    const ids = (
      await api.database.db
        .selectFrom('master_codes')
        .select('id')
        .where('tenant_id', '=', owner.tenantId)
        .where('code', 'like', 'BULK-%')
        .execute()
    ).map((r) => r.id);
    await stock.settle(owner.tenantId);
    const onHand = await api.database.db
      .selectFrom('stock_levels')
      .select(['on_hand', 'movements'])
      .where('tenant_id', '=', owner.tenantId)
      .where('warehouse_id', '=', kl.id)
      .where('master_code_id', 'in', ids)
      .execute();
    expect(onHand).toHaveLength(30);
    // The last row of each stock is `set 100`: had rows of one stock run out of order, some would differ.
    expect(onHand.every((level) => Number(level.on_hand) === 100 && Number(level.movements) === 20)).toBe(
      true,
    );
  });

  it('answers the running upload of the same file, and reports an upload whose process stopped as interrupted', async () => {
    const file = csv('KOPI,PG,add,3,resumed');
    const hash = createHash('sha256').update(file).digest('hex');
    const runningId = randomUUID();
    await api.database.db
      .insertInto('sheet_uploads')
      .values({
        id: runningId,
        kind: 'stock_adjustment',
        tenant_id: owner.tenantId,
        user_id: owner.userId,
        filename: 'resumed.csv',
        file_hash: hash,
        status: 'in_progress',
        total: 1,
      })
      .execute();
    const events = await stock.eventCount(owner.tenantId);
    const same = await upload(file, { filename: 'resumed.csv' });
    expect(same.statusCode).toBe(202);
    expect((same.json() as { data: { upload_id: string } }).data.upload_id).toBe(runningId);
    expect(await stock.eventCount(owner.tenantId)).toBe(events);

    // Its process stopped: no progress for longer than a minute.
    await api.database.db
      .updateTable('sheet_uploads')
      .set({ updated_at: new Date(Date.now() - 5 * 60_000) })
      .where('id', '=', runningId)
      .execute();
    const stale = await progress(runningId);
    expect(stale).toMatchObject({ status: 'failed', processed: 0 });
    expect(stale.message).toBe(
      'The upload stopped before it finished. Upload the same file again to apply the rest: rows already applied are not applied twice.',
    );
    // Uploading the same file again finishes it.
    const before = await stock.onHand(owner.tenantId, kopi.id, pg.id);
    const finished = await applied(file, { filename: 'resumed.csv' });
    expect(finished.id).not.toBe(runningId);
    expect(finished).toMatchObject({ status: 'complete', applied: 1 });
    expect(await stock.onHand(owner.tenantId, kopi.id, pg.id)).toBe((before ?? 0) + 3);
  });

  it('needs the stock adjustment key, and shows an upload to its own account only', async () => {
    const response = await upload(csv('KOPI,KL,add,1,x'), { filename: 'mine.csv' });
    const id = (response.json() as { data: { upload_id: string } }).data.upload_id;
    await waitFor(async () => (await progress(id)).status === 'complete');
    const none = await createSubUser(api, owner.tenantId, ['inventory-master-code']);
    expectRefusal(await upload(csv('KOPI,KL,add,1,x'), { token: none.token }), 403, 403);
    expectRefusal(await stock.call('GET', `/api/inventory/stock/upload/${id}`, none.token), 403, 403);
    const foreign = await stock.call('GET', `/api/inventory/stock/upload/${id}`, other.token);
    const missing = await stock.call(
      'GET',
      '/api/inventory/stock/upload/00000000-0000-4000-8000-000000000000',
      other.token,
    );
    expectRefusal(foreign, 404, 404);
    expect(foreign.body).toBe(missing.body);
    expect((await upload(csv('KOPI,KL,add,1,x'), { token: 'bad' })).statusCode).toBe(401);
  });
});
