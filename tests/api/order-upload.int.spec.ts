import { randomUUID } from 'node:crypto';
import { type Catalogue, seedCatalogue, settle } from '@tests/api/orders-support';
import {
  caller,
  createSeller,
  createSubUser,
  createTestApi,
  type TestApi,
  type TestSeller,
} from '@tests/support/api';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The `orders-upload` bulk upload of manual orders (issue 14): a good file (Excel's "CSV UTF-8" with its BOM, or
 * XLSX) creates each order once, its lines mapped and its stock reserved; a bad one is refused with every bad row
 * and every reason in one answer — format problems and unknown stores and SKUs together — and creates nothing.
 */

const HEADER =
  'order_number,store,sku,quantity,unit_price,buyer_name,phone,address,city,state,postcode,paid,payment_method,shipping_fee';
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const csv = (rows: string[]) => Buffer.concat([BOM, Buffer.from([HEADER, ...rows].join('\r\n'))]);

interface OrderDetail {
  order_number: string;
  status: string;
  total_amount: string;
  cod: boolean;
  item_not_found: boolean;
  lines: { seller_sku: string; quantity: number; item_not_found: boolean }[];
}

describe('bulk upload of manual orders', () => {
  let api: TestApi;
  let seller: TestSeller;
  let catalogue: Catalogue;
  const storeId = randomUUID();
  const call = caller(() => api);

  beforeAll(async () => {
    api = await createTestApi();
    seller = await createSeller(api);
    catalogue = await seedCatalogue(api, seller.tenantId, 50);
    await api.database.db
      .insertInto('stores')
      .values({
        id: storeId,
        tenant_id: seller.tenantId,
        platform: 'shopee',
        name: 'Kedai Batik',
        shop_id: '7001',
        region: 'MY',
        status: 'connected',
        warehouse_id: catalogue.warehouseId,
        connected_at: new Date(),
      })
      .execute();
  });
  afterAll(async () => {
    await api?.close();
  });

  const upload = (body: Buffer, filename = 'orders.csv', token = seller.token) =>
    api.app.inject({
      method: 'POST',
      url: `/api/orders/upload?filename=${filename}`,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' },
      payload: body,
    });
  const eventCount = async () =>
    Number(
      (
        await api.database.db
          .selectFrom('es_events')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('stream_id', 'like', `order-${seller.tenantId}.%`)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('creates each order once from a CSV with a BOM: lines mapped, a paid or COD order ready to work', async () => {
    const file = csv([
      'M-100,kedai batik,BATIK-01,2,25.00,Siti Aminah,+60121234567,12 Jalan Ampang,Kuala Lumpur,Wilayah Persekutuan,50450,yes,Online banking,5',
      'M-100,,SONGKET-01,1,40,,,,,,,,,',
      'M-101,Kedai Batik,GIFT-SET,1,99.90,Ah Kow,+60129876543,3 Lorong Maju,Ipoh,Perak,30000,,COD,',
    ]);
    const response = await upload(file);
    expect(response.statusCode, response.body).toBe(200);
    const done = response.json<{ data: { created: number; existing: number; orders: { id: string }[] } }>()
      .data;
    expect([done.created, done.existing]).toEqual([2, 0]);
    await settle(api);
    const detail = async (id: string) => {
      const answer = await call('GET', `/api/orders/${id}`, seller.token);
      expect(answer.statusCode, answer.body).toBe(200);
      return answer.json<{ data: OrderDetail }>().data;
    };
    const first = await detail(done.orders[0]!.id);
    expect(first).toMatchObject({
      order_number: 'M-100',
      status: 'new',
      total_amount: '95.00',
      item_not_found: false,
    });
    expect(first.lines.map((line) => [line.seller_sku, line.quantity, line.item_not_found])).toEqual([
      ['BATIK-01', 2, false],
      ['SONGKET-01', 1, false],
    ]);
    expect(await detail(done.orders[1]!.id)).toMatchObject({
      order_number: 'M-101',
      status: 'new',
      cod: true,
    });

    const again = await upload(file);
    expect(again.json<{ data: { created: number; existing: number } }>().data).toMatchObject({
      created: 0,
      existing: 2,
    });
  });

  it('reads an XLSX file the same way', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Orders');
    sheet.addRow(HEADER.split(','));
    sheet.addRow([
      'X-1',
      'Kedai Batik',
      'SONGKET-01',
      3,
      10,
      'Lim',
      '+6011',
      'Jalan 1',
      'Klang',
      'Selangor',
      '41000',
    ]);
    const bytes = Buffer.from(await workbook.xlsx.writeBuffer());
    const response = await upload(bytes, 'orders.xlsx');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<{ data: { created: number } }>().data.created).toBe(1);
  });

  it('refuses a bad file with every bad row and every reason at once, and creates nothing', async () => {
    const before = await eventCount();
    const response = await upload(
      csv([
        'B-1,Kedai Batik,BATIK-01,0,abc,Siti,+6012,Jalan 2,Shah Alam,Selangor,40000,maybe',
        'B-2,Nowhere Shop,NO-SUCH-SKU,1,10,Siti,+6012,Jalan 2,Shah Alam,Selangor,40000',
        'B-3,Kedai Batik,BATIK-01,1,10,Ana,+6012,Jalan 2,Shah Alam,Selangor,40000',
        'B-3,,SONGKET-01,1,10,Other Name,,,,,,',
        'B-4,Kedai Batik,BATIK-01,1,10,,+6012,Jalan 2,Shah Alam,Selangor,40000',
        'too,few,columns',
        'B-5,Kedai Batik,BATIK-01,1,10,Nul\u0000Name,+6012,Jalan 2,Shah Alam,Selangor,40000',
      ]),
    );
    expect(response.statusCode, response.body).toBe(400);
    const answer = response.json<{
      code: number;
      msg: string;
      rows: { row: number; column: string | null }[];
    }>();
    expect(answer.code).toBe(599);
    expect(answer.rows.map((row) => [row.row, row.column])).toEqual([
      [2, 'quantity'],
      [2, 'unit_price'],
      [2, 'paid'],
      [3, 'store'],
      [3, 'sku'],
      [5, 'buyer_name'],
      [6, 'buyer_name'],
      [7, null],
      [8, 'buyer_name'],
    ]);
    expect(answer.msg).toContain('6');
    expect(await eventCount()).toBe(before);
  });

  it('refuses a file that cannot be read, and a user without the orders-upload key', async () => {
    const unreadable = await upload(Buffer.from('PK\u0003\u0004 not a workbook'), 'orders.xlsx');
    expect([unreadable.statusCode, unreadable.json<{ code: number }>().code]).toEqual([400, 598]);
    const picker = await createSubUser(api, seller.tenantId, ['orders-new-order']);
    expect((await upload(csv([]), 'orders.csv', picker.token)).statusCode).toBe(403);
    const uploader = await createSubUser(api, seller.tenantId, ['orders-upload']);
    const empty = await upload(csv([]), 'orders.csv', uploader.token);
    expect([empty.statusCode, empty.json<{ code: number }>().code]).toEqual([400, 598]);
  });

  it('keeps every file sent in the upload history: complete with its counts, or failed with every bad row', async () => {
    const good = csv([
      'H-1,Kedai Batik,BATIK-01,1,25.00,Siti Aminah,+60121234567,12 Jalan Ampang,Kuala Lumpur,Wilayah Persekutuan,50450,yes,Online banking,5',
      'H-1,,SONGKET-01,1,40,,,,,,,,,',
      'H-2,Kedai Batik,BATIK-01,3,25.00,Ah Kow,+60129876543,3 Lorong Maju,Ipoh,Perak,30000,yes,,',
    ]);
    type Summary = { id: string; filename: string; status: string; total: number; applied: number };
    type Detail = Summary & { replayed: number; failed: number; message: string | null; errors: unknown[] };
    const detail = async (id: string, language?: string) => {
      const answer = await call('GET', `/api/orders/upload/${id}`, seller.token, undefined, language);
      expect(answer.statusCode, answer.body).toBe(200);
      return answer.json<{ data: Detail }>().data;
    };
    const sent = await upload(good, 'history-good.csv');
    expect(sent.statusCode, sent.body).toBe(200);
    const first = sent.json<{ data: { upload_id: string } }>().data.upload_id;
    expect(await detail(first)).toMatchObject({
      filename: 'history-good.csv',
      status: 'complete',
      total: 3,
      applied: 3,
      replayed: 0,
      failed: 0,
      errors: [],
    });
    // The same file again: its rows were applied already.
    const again = (await upload(good, 'history-good.csv')).json<{ data: { upload_id: string } }>().data;
    expect(await detail(again.upload_id)).toMatchObject({ status: 'complete', applied: 0, replayed: 3 });

    const bad = await upload(
      csv(['H-3,Nowhere Shop,BATIK-01,1,10,Siti,+6012,Jalan 2,Shah Alam,Selangor,40000']),
      'history-bad.csv',
    );
    expect(bad.statusCode).toBe(400);
    const list = await call('GET', '/api/orders/uploads?startRow=0&endRow=100', seller.token);
    expect(list.statusCode, list.body).toBe(200);
    const rows = list.json<{ data: { rows: Summary[] } }>().data.rows;
    expect(rows.slice(0, 3).map((row) => [row.filename, row.status])).toEqual([
      ['history-bad.csv', 'failed'],
      ['history-good.csv', 'complete'],
      ['history-good.csv', 'complete'],
    ]);
    const refused = await detail(rows[0]!.id, 'zh-cn');
    expect(refused).toMatchObject({ status: 'failed', total: 1, failed: 1 });
    expect(refused.errors).toHaveLength(1);
    expect(refused.message).toMatch(/[\u4e00-\u9fff]/);

    const file = await call('GET', `/api/orders/upload/${first}/file`, seller.token);
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(good)).toBe(true);
    // Behind the upload's own key, and one account's history only.
    const picker = await createSubUser(api, seller.tenantId, ['orders-new-order']);
    expect((await call('GET', '/api/orders/uploads', picker.token)).statusCode).toBe(403);
    const other = await createSeller(api);
    expect((await call('GET', `/api/orders/upload/${first}`, other.token)).statusCode).toBe(404);
  });
});
