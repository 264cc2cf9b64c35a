import { randomUUID } from 'node:crypto';
import type { UploadDetail, UploadSummary } from '@api/contracts/sheet-uploads';
import {
  bearer,
  createSeller,
  createSubUser,
  createTestApi,
  type TestApi,
  type TestSeller,
} from '@tests/support/api';
import { waitFor } from '@tests/support/wait';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { data, gridParams } from './inventory-api';
import { expectRefusal, stockCalls } from './stock-api';

const HEADER = 'master_code,warehouse_code,mode,quantity,reason';
const csv = (...rows: string[]) => Buffer.from(`${[HEADER, ...rows].join('\n')}\n`, 'utf8');

/**
 * The stock adjustment upload history (domains.md §2 "upload history"): every file sent is listed with who sent it,
 * when, its status (pending → in progress → complete, or failed) and its counts; a refused file is listed as failed
 * with every bad row and why; an upload whose process stopped reads as failed, never in progress forever; the file
 * can be downloaded as sent. Behind the upload's own key, and only to its own account.
 */
describe('stock adjustment upload history', () => {
  let api: TestApi;
  let owner: TestSeller;
  let other: TestSeller;
  const stock = stockCalls(() => api);

  beforeAll(async () => {
    api = await createTestApi();
    owner = await createSeller(api, { packageId: 'growth' });
    other = await createSeller(api, { packageId: 'growth' });
    await stock.masterCode(owner.token, 'HIST-A');
    await stock.masterCode(owner.token, 'HIST-B');
    await stock.warehouse(owner.token, 'HWH');
  });
  afterAll(async () => {
    await api?.close();
  });

  const upload = (body: Buffer, filename: string, token = owner.token) =>
    api.app.inject({
      method: 'POST',
      url: `/api/inventory/stock/upload?filename=${encodeURIComponent(filename)}`,
      headers: { ...bearer(token), 'content-type': 'text/csv' },
      payload: body,
    });

  const list = async (query: Record<string, unknown> = {}, token = owner.token) =>
    data<{ rows: UploadSummary[]; lastRow: number }>(
      await stock.call('GET', `/api/inventory/stock/uploads?${gridParams(query)}`, token),
    );
  const detail = async (id: string, token = owner.token) =>
    data<UploadDetail>(await stock.call('GET', `/api/inventory/stock/upload/${id}`, token));
  const finished = (id: string) =>
    waitFor(
      async () => {
        const now = await detail(id);
        return (now.status === 'complete' || now.status === 'failed') && now;
      },
      { what: 'the upload to finish' },
    );

  let goodId: string;
  let refusedId: string;
  const goodFile = csv('HIST-A,HWH,add,4,Opening', 'HIST-B,HWH,add,2,Opening', 'HIST-A,HWH,deduct,1,Sold');

  it('lists a good file as pending when accepted, then complete with its rows applied', async () => {
    const response = await upload(goodFile, 'opening.csv');
    expect(response.statusCode, response.body).toBe(202);
    const started = (response.json() as { data: { upload_id: string; status: string } }).data;
    expect(started.status).toBe('pending');
    goodId = started.upload_id;
    const done = await finished(goodId);
    expect(done).toMatchObject({
      id: goodId,
      filename: 'opening.csv',
      status: 'complete',
      total: 3,
      applied: 3,
      replayed: 0,
      failed: 0,
      processed: 3,
      errors: [],
      message: null,
      has_file: true,
      user: { id: owner.userId },
    });
    expect(done.started_at).not.toBeNull();
    expect(done.finished_at).not.toBeNull();
    const row = (await list()).rows.find((upload) => upload.id === goodId);
    expect(row).toMatchObject({ filename: 'opening.csv', status: 'complete', applied: 3, failed: 0 });
  });

  it('lists a refused file as failed with every bad row and why, nothing applied', async () => {
    const events = await stock.eventCount(owner.tenantId);
    const response = await upload(
      csv('HIST-A,HWH,add,1,ok', 'NOPE,HWH,add,1,x', 'HIST-B,MARS,double,1,x'),
      'typos.csv',
    );
    expectRefusal(response, 400, 455);
    expect(await stock.eventCount(owner.tenantId)).toBe(events);
    const refused = (await list({ status: 'failed' })).rows.find((upload) => upload.filename === 'typos.csv');
    expect(refused).toMatchObject({ status: 'failed', total: 3, applied: 0, replayed: 0, failed: 2 });
    refusedId = refused!.id;
    const shown = await detail(refusedId);
    expect(shown.started_at).toBeNull();
    expect(shown.message).toBe(
      'Nothing was applied: 2 rows of the file have errors. Correct them and upload the file again.',
    );
    expect(shown.errors).toEqual([
      { row: 3, column: 'master_code', message: 'Master code [NOPE] not found' },
      { row: 4, column: 'warehouse_code', message: 'Warehouse [MARS] not found' },
      { row: 4, column: 'mode', message: expect.any(String) },
    ]);
    // In the reader's language.
    const thai = await api.app.inject({
      method: 'GET',
      url: `/api/inventory/stock/upload/${refusedId}`,
      headers: bearer(owner.token, 'th-th'),
    });
    expect((thai.json() as { data: UploadDetail }).data.errors[0]!.message).toBe('ไม่พบมาสเตอร์โค้ด [NOPE]');

    // A file that cannot be read at all: failed, with why.
    expectRefusal(await upload(Buffer.from(`${HEADER}\n`), 'empty.csv'), 400, 456);
    const empty = (await list()).rows.find((upload) => upload.filename === 'empty.csv')!;
    expect(empty).toMatchObject({ status: 'failed', total: 0, failed: 0 });
    expect((await detail(empty.id)).message).toBeTruthy();
  });

  it('filters by status and date, newest first', async () => {
    const all = await list();
    expect(all.lastRow).toBeGreaterThanOrEqual(3);
    const times = all.rows.map((row) => row.created_at);
    expect(times).toEqual([...times].sort().reverse());
    const complete = await list({ status: 'complete' });
    expect(complete.rows.every((row) => row.status === 'complete')).toBe(true);
    expect(complete.rows.map((row) => row.id)).toContain(goodId);
    expect(complete.rows.map((row) => row.id)).not.toContain(refusedId);
    const failed = await list({ status: 'failed' });
    expect(failed.rows.map((row) => row.id)).toContain(refusedId);
    expect(failed.rows.map((row) => row.id)).not.toContain(goodId);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const later = await list({ filterModel: { created_at: { type: 'greaterThan', dateFrom: tomorrow } } });
    expect(later.lastRow).toBe(0);
    const byName = await list({ filterModel: { filename: { type: 'contains', filter: 'typo' } } });
    expect(byName.rows.map((row) => row.id)).toEqual([refusedId]);
    const unknown = await stock.call(
      'GET',
      `/api/inventory/stock/uploads?${gridParams({ status: 'done' })}`,
      owner.token,
    );
    expect(unknown.statusCode, unknown.body).toBe(400);
  });

  it('shows an upload whose process stopped as failed, never in progress forever', async () => {
    const id = randomUUID();
    await api.database.db
      .insertInto('sheet_uploads')
      .values({
        id,
        kind: 'stock_adjustment',
        tenant_id: owner.tenantId,
        user_id: owner.userId,
        filename: 'stopped.csv',
        file_hash: 'f'.repeat(64),
        status: 'in_progress',
        total: 10,
        applied: 4,
        started_at: new Date(Date.now() - 10 * 60_000),
        updated_at: new Date(Date.now() - 5 * 60_000),
      })
      .execute();
    const stopped = await detail(id);
    expect(stopped).toMatchObject({ status: 'failed', applied: 4, processed: 4, has_file: false });
    expect(stopped.message).toBe(
      'The upload stopped before it finished. Upload the same file again to apply the rest: rows already applied are not applied twice.',
    );
    expect((await list({ status: 'failed' })).rows.map((row) => row.id)).toContain(id);
    expect((await list({ status: 'in_progress' })).rows.map((row) => row.id)).not.toContain(id);
    // Still reporting: in progress.
    await api.database.db
      .updateTable('sheet_uploads')
      .set({ updated_at: new Date() })
      .where('id', '=', id)
      .execute();
    expect((await detail(id)).status).toBe('in_progress');
    expect((await list({ status: 'in_progress' })).rows.map((row) => row.id)).toContain(id);
    await api.database.db.deleteFrom('sheet_uploads').where('id', '=', id).execute();
    // No file was kept for it.
    expect((await stock.call('GET', `/api/inventory/stock/upload/${id}/file`, owner.token)).statusCode).toBe(
      404,
    );
  });

  it('gives the file back as it was sent', async () => {
    const response = await api.app.inject({
      method: 'GET',
      url: `/api/inventory/stock/upload/${goodId}/file`,
      headers: bearer(owner.token),
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/csv/);
    expect(response.headers['content-disposition']).toContain('filename="opening.csv"');
    expect(response.rawPayload.equals(goodFile)).toBe(true);
  });

  it('needs the stock adjustment key, and shows uploads to their own account only', async () => {
    const viewer = await createSubUser(api, owner.tenantId, ['inventory-master-code', 'purchases-manage']);
    for (const url of [
      '/api/inventory/stock/uploads',
      `/api/inventory/stock/upload/${goodId}`,
      `/api/inventory/stock/upload/${goodId}/file`,
    ]) {
      expectRefusal(await stock.call('GET', url, viewer.token), 403, 403);
      const foreign = await stock.call('GET', url, other.token);
      if (url.endsWith('/uploads')) {
        const theirs = data<{ rows: UploadSummary[]; lastRow: number }>(foreign);
        expect(theirs).toEqual({ rows: [], lastRow: 0 });
      } else expectRefusal(foreign, 404, 404);
    }
    const clerk = await createSubUser(api, owner.tenantId, ['inventory-stock-adjustment']);
    expect((await list({}, clerk.token)).rows.map((row) => row.id)).toContain(goodId);
    // Purchase uploads are another list.
    expect((await stock.call('GET', `/api/purchases/upload/${goodId}`, owner.token)).statusCode).toBe(404);
  });
});
