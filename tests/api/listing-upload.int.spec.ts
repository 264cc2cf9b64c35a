import { randomUUID } from 'node:crypto';
import type { CopyListingsAnswer, ListingDetail, ListingUploadResult } from '@api/contracts/listings';
import { LISTING_FILE_COLUMNS } from '@domain/listings/listing-file';
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
import { addStore, listingCalls, twoTierListing } from './listings-support';

/**
 * Issue 15, the listings bulk upload and copy (spec §5 "Bulk upload"): one row per SKU, rows sharing a handle make
 * one draft with its variant tiers, the header row ignored; a CSV with a BOM or not UTF-8 is refused with its code;
 * every bad row is named with its code and nothing of its listing is saved while the good listings are; the same
 * file again saves nothing twice; every file is in the upload history; copy makes new drafts for other stores;
 * another account sees none of it; every route checks listings-manage.
 */

const HEADER = LISTING_FILE_COLUMNS.join(',');
/** A row by column name, the others empty. */
const row = (cells: Partial<Record<(typeof LISTING_FILE_COLUMNS)[number], string>>) =>
  LISTING_FILE_COLUMNS.map((column) => cells[column] ?? '').join(',');
const csv = (rows: string[], header = HEADER) => Buffer.from([header, ...rows].join('\r\n'));
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

const own = (name: string, store: string) => ({
  product_name: name,
  stores: store,
  category_id: '100017',
  logistics: '20011',
  images: `https://img.kedai.test/${name.replace(/\W/g, '')}-1.jpg|https://img.kedai.test/${name.replace(/\W/g, '')}-2.jpg`,
});

/** A shirt in two colours and two sizes: four rows of one handle, the listing's columns on the first only. */
const shirtRows = (handle: string, store: string, sku = handle.toUpperCase()) =>
  [
    ['Red', 'M'],
    ['Red', 'L'],
    ['Blue', 'M'],
    ['Blue', 'L'],
  ].map(([colour, size], index) =>
    row({
      handle,
      seller_sku: `${sku}-${colour![0]}${size}`,
      price: '39.90',
      stock: '10',
      ...(index === 0
        ? { ...own('Batik shirt', store), variant_1_name: 'Colour', variant_2_name: 'Size' }
        : {}),
      variant_1_option: colour,
      variant_2_option: size,
    }),
  );

describe('listings bulk upload and copy', () => {
  let api: TestApi;
  let seller: TestSeller;
  let other: TestSeller;
  let shopA: { id: string };
  let shopB: { id: string };
  let othersShop: { id: string };
  const call = caller(() => api);
  const l = listingCalls(() => api);

  beforeAll(async () => {
    api = await createTestApi();
    [seller, other] = await Promise.all([createSeller(api), createSeller(api)]);
    shopA = await addStore(api, seller.tenantId, 'Shop A');
    shopB = await addStore(api, seller.tenantId, 'Shop B');
    othersShop = await addStore(api, other.tenantId, 'Elsewhere');
  });
  afterAll(async () => {
    await api?.close();
  });

  const upload = (body: Buffer, filename = 'listings.csv', token = seller.token) =>
    api.app.inject({
      method: 'POST',
      url: `/api/listings/upload?filename=${filename}`,
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': filename.endsWith('.xlsx')
          ? 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'
          : 'text/csv',
      },
      payload: body,
    });
  const result = (response: { json(): unknown }) => (response.json() as { data: ListingUploadResult }).data;
  /** How many listings the account has (each its own stream). */
  const listingCount = async (tenantId = seller.tenantId) =>
    Number(
      (
        await api.database.db
          .selectFrom('es_events')
          .select((eb) => eb.fn.count<string>('stream_id').distinct().as('n'))
          .where('stream_id', 'like', `listing-${tenantId}.%`)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const history = (id: string, token = seller.token) => call('GET', `/api/listings/upload/${id}`, token);

  it('saves one draft per handle with its variant tiers, the header row ignored, and the same file once', async () => {
    const file = csv([
      ...shirtRows('batik-shirt', 'shop a'),
      row({
        handle: 'songket',
        seller_sku: 'SONGKET-01',
        price: '120',
        stock: '3',
        ...own('Songket', 'Shop A|Shop B'),
      }),
    ]);
    const before = await listingCount();
    const response = await upload(file);
    expect(response.statusCode, response.body).toBe(200);
    const done = result(response);
    expect(done).toMatchObject({ saved: 2, existing: 0, refused: [] });
    expect(done.listings.map((listing) => [listing.handle, listing.row, listing.skus])).toEqual([
      ['batik-shirt', 2, 4],
      ['songket', 6, 1],
    ]);
    expect(await listingCount()).toBe(before + 2);

    const shirt = l.detail(await l.get(seller.token, done.listings[0]!.id)) as ListingDetail;
    expect(shirt).toMatchObject({
      status: 'draft',
      product_name: 'Batik shirt',
      store_ids: [shopA.id],
      category_id: '100017',
      logistics: ['20011'],
      tiers: [
        { name: 'Colour', options: ['Red', 'Blue'] },
        { name: 'Size', options: ['M', 'L'] },
      ],
    });
    expect(shirt.images).toHaveLength(2);
    expect(shirt.skus.map((sku) => [sku.seller_sku, sku.price, sku.stock, sku.tier_index])).toEqual([
      ['BATIK-SHIRT-RM', '39.90', 10, [0, 0]],
      ['BATIK-SHIRT-RL', '39.90', 10, [0, 1]],
      ['BATIK-SHIRT-BM', '39.90', 10, [1, 0]],
      ['BATIK-SHIRT-BL', '39.90', 10, [1, 1]],
    ]);
    const songket = l.detail(await l.get(seller.token, done.listings[1]!.id)) as ListingDetail;
    expect(songket).toMatchObject({ store_ids: [shopA.id, shopB.id], tiers: [] });
    expect(songket.skus.map((sku) => sku.price)).toEqual(['120.00']);

    const recorded = await history(done.upload_id);
    expect(recorded.statusCode, recorded.body).toBe(200);
    expect(recorded.json()).toMatchObject({
      data: { status: 'complete', total: 5, applied: 5, failed: 0, errors: [] },
    });

    const again = await upload(file);
    expect(result(again)).toMatchObject({ saved: 0, existing: 2 });
    expect(await listingCount()).toBe(before + 2);
  });

  it('reads an XLSX the same way', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('listings');
    sheet.addRow([...LISTING_FILE_COLUMNS]);
    const cells = (values: Record<string, string | number>) =>
      LISTING_FILE_COLUMNS.map((column) => values[column] ?? null);
    sheet.addRow(
      cells({
        handle: 'kebaya',
        seller_sku: 'KEBAYA-S',
        price: 89.5,
        stock: 4,
        ...own('Kebaya', 'Shop B'),
        variant_1_name: 'Size',
        variant_1_option: 'S',
      }),
    );
    sheet.addRow(
      cells({ handle: 'kebaya', seller_sku: 'KEBAYA-M', price: 89.5, stock: 6, variant_1_option: 'M' }),
    );
    const bytes = Buffer.from(await workbook.xlsx.writeBuffer());
    const response = await upload(bytes, 'listings.xlsx');
    expect(response.statusCode, response.body).toBe(200);
    const [kebaya] = result(response).listings;
    const detail = l.detail(await l.get(seller.token, kebaya!.id)) as ListingDetail;
    expect(detail.tiers).toEqual([{ name: 'Size', options: ['S', 'M'] }]);
    expect(detail.skus.map((sku) => [sku.seller_sku, sku.price, sku.stock])).toEqual([
      ['KEBAYA-S', '89.50', 4],
      ['KEBAYA-M', '89.50', 6],
    ]);
  });

  it('refuses a CSV with a BOM, or not UTF-8, with its code, saving nothing and keeping it in the history', async () => {
    const before = await listingCount();
    const withBom = await upload(Buffer.concat([BOM, csv(shirtRows('bom-shirt', 'Shop A'))]));
    expect(withBom.statusCode, withBom.body).toBe(400);
    expect(withBom.json()).toMatchObject({
      code: 726,
      msg: 'The CSV file starts with a BOM: save it as UTF-8 without BOM.',
    });
    const latin1 = await upload(
      Buffer.concat([csv(shirtRows('latin-shirt', 'Shop A')), Buffer.from([0xe9, 0xff])]),
    );
    expect(latin1.statusCode).toBe(400);
    expect(latin1.json()).toMatchObject({ code: 726, msg: 'The CSV file is not valid UTF-8.' });
    expect(await listingCount()).toBe(before);

    const uploads = await call('GET', '/api/listings/uploads?status=failed', seller.token);
    expect(uploads.statusCode, uploads.body).toBe(200);
    const rows = uploads.json<{ data: { rows: { id: string }[] } }>().data.rows;
    expect(rows.length).toBeGreaterThanOrEqual(2);
    expect((await history(rows[rows.length - 1]!.id)).json()).toMatchObject({
      data: { status: 'failed', message: 'The CSV file starts with a BOM: save it as UTF-8 without BOM.' },
    });
  });

  it("names every bad row with its code and saves nothing of a bad row's listing, the good ones all the same", async () => {
    const before = await listingCount();
    const options = (n: number) => Array.from({ length: n }, (_, i) => `o${i}`);
    const file = csv([
      ...shirtRows('good-shirt', 'Shop A'),
      // No category: the editor's message.
      row({
        handle: 'no-category',
        seller_sku: 'NC-1',
        price: '5',
        stock: '1',
        ...own('No category', 'Shop A'),
        category_id: '',
      }),
      // A store of another account.
      row({
        handle: 'elsewhere',
        seller_sku: 'EL-1',
        price: '5',
        stock: '1',
        ...own('Elsewhere', 'Elsewhere'),
      }),
      // A price that is not one, on the second row of its listing.
      row({
        handle: 'bad-price',
        seller_sku: 'BP-S',
        price: '5',
        stock: '1',
        ...own('Bad price', 'Shop A'),
        variant_1_name: 'Size',
        variant_1_option: 'S',
      }),
      row({ handle: 'bad-price', seller_sku: 'BP-M', price: 'five', stock: '1', variant_1_option: 'M' }),
      // No handle.
      row({ seller_sku: 'ORPHAN', price: '5', stock: '1' }),
      // A later row changing the listing's name.
      row({
        handle: 'renamed',
        seller_sku: 'RN-S',
        price: '5',
        stock: '1',
        ...own('First name', 'Shop A'),
        variant_1_name: 'Size',
        variant_1_option: 'S',
      }),
      row({
        handle: 'renamed',
        seller_sku: 'RN-M',
        price: '5',
        stock: '1',
        product_name: 'Second name',
        variant_1_option: 'M',
      }),
      // 51 combinations.
      ...options(17).flatMap((a, i) =>
        options(3).map((b, j) =>
          row({
            handle: 'too-many',
            seller_sku: `TM-${i}-${j}`,
            price: '5',
            stock: '1',
            ...(i === 0 && j === 0
              ? { ...own('Too many', 'Shop A'), variant_1_name: 'A', variant_2_name: 'B' }
              : {}),
            variant_1_option: a,
            variant_2_option: b,
          }),
        ),
      ),
    ]);
    const response = await upload(file);
    expect(response.statusCode, response.body).toBe(200);
    const done = result(response);
    expect(done.saved).toBe(1);
    expect(done.listings.map((listing) => listing.handle)).toEqual(['good-shirt']);
    expect(await listingCount()).toBe(before + 1);
    const refused = done.refused.map((problem) => [
      problem.row,
      problem.column,
      problem.code,
      problem.message,
    ]);
    expect(refused).toEqual(
      expect.arrayContaining([
        [6, 'category_id', 703, 'No category selected'],
        [7, 'stores', 718, 'A selected store was not found: reselect the stores.'],
        [9, 'price', 712, 'A price is a number with at most 2 decimals (12.90).'],
        [10, 'handle', 728, 'handle is required.'],
        [12, 'product_name', 728, expect.stringContaining('differs from its first row')],
        [13, 'variant_1_name', 707, 'Shopee allows at most 50 variant combinations (51 given).'],
      ]),
    );
    const recorded = (await history(done.upload_id)).json() as {
      data: { status: string; applied: number; failed: number; errors: { row: number; message: string }[] };
    };
    expect(recorded.data).toMatchObject({ status: 'complete', applied: 4 });
    expect(recorded.data.failed).toBe(1 + 1 + 2 + 1 + 2 + 51);
    expect(recorded.data.errors.map((problem) => problem.row)).toEqual(
      expect.arrayContaining([6, 7, 9, 10, 12, 13]),
    );
  });

  it('answers 400 when no listing of the file can be saved', async () => {
    const before = await listingCount();
    const response = await upload(
      csv([
        row({
          handle: 'no-image',
          seller_sku: 'NI-1',
          price: '5',
          stock: '1',
          ...own('No image', 'Shop A'),
          images: '',
        }),
      ]),
    );
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toMatchObject({
      code: 728,
      msg: '1 row of the file is not valid: no listing was saved.',
      rows: [{ row: 2, column: 'images', code: 702, message: 'No image' }],
    });
    expect(await listingCount()).toBe(before);
  });

  it('offers the template as a CSV without BOM and as an XLSX', async () => {
    const asCsv = await call('GET', '/api/listings/upload/template?format=csv', seller.token);
    expect(asCsv.statusCode).toBe(200);
    expect(asCsv.rawPayload.subarray(0, 3).equals(BOM)).toBe(false);
    expect(asCsv.body.trim()).toBe(HEADER);
    const asXlsx = await call('GET', '/api/listings/upload/template?format=xlsx', seller.token);
    expect(asXlsx.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(asXlsx.rawPayload as unknown as ArrayBuffer);
    const header = workbook.worksheets[0]!.getRow(1).values as unknown[];
    expect(header.slice(1)).toEqual([...LISTING_FILE_COLUMNS]);
  });

  it('copies listings into new drafts for another store, refusing what is not the account’s', async () => {
    const source = randomUUID();
    expect((await l.save(seller.token, source, twoTierListing([shopA.id], 'COPY'))).statusCode).toBe(200);
    const theirs = randomUUID();
    expect((await l.save(other.token, theirs, twoTierListing([othersShop.id]))).statusCode).toBe(200);

    const response = await call('POST', '/api/listings/copy', seller.token, {
      listing_ids: [source, theirs],
      store_ids: [shopB.id],
    });
    expect(response.statusCode, response.body).toBe(200);
    const answer = response.json() as { msg: string; data: CopyListingsAnswer };
    expect(answer.msg).toBe('1 listing copied as a draft.');
    expect(answer.data.failed).toEqual([{ id: theirs, code: 722, msg: 'No product found' }]);
    const [copy] = answer.data.copied;
    expect(copy!.source_id).toBe(source);
    const copied = l.detail(await l.get(seller.token, copy!.id)) as ListingDetail;
    const original = l.detail(await l.get(seller.token, source)) as ListingDetail;
    expect(copied).toMatchObject({
      status: 'draft',
      store_ids: [shopB.id],
      product_name: original.product_name,
    });
    expect(copied.skus.map((sku) => sku.seller_sku)).toEqual(original.skus.map((sku) => sku.seller_sku));
    expect(copied.tiers).toEqual(original.tiers);
    // The source is left as it was.
    expect(original.store_ids).toEqual([shopA.id]);

    const toTheirs = await call('POST', '/api/listings/copy', seller.token, {
      listing_ids: [source],
      store_ids: [othersShop.id],
    });
    expect(toTheirs.json()).toMatchObject({ data: { copied: [], failed: [{ id: source, code: 718 }] } });
    const none = await call('POST', '/api/listings/copy', seller.token, { listing_ids: [] });
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({ msg: 'No product selected' });
  });

  it("keeps another account's uploads and drafts out of sight", async () => {
    const response = await upload(csv(shirtRows('private-shirt', 'Shop A')));
    const done = result(response);
    expect((await history(done.upload_id, other.token)).statusCode).toBe(404);
    expect((await call('GET', `/api/listings/upload/${done.upload_id}/file`, other.token)).statusCode).toBe(
      404,
    );
    const theirs = (await call('GET', '/api/listings/uploads', other.token)).json() as {
      data: { rows: { id: string }[] };
    };
    expect(theirs.data.rows.some((upload) => upload.id === done.upload_id)).toBe(false);
    expect((await l.get(other.token, done.listings[0]!.id)).statusCode).toBe(404);
    // Another account naming this account's store by name finds none of its own.
    const refused = await upload(csv(shirtRows('their-shirt', 'Shop A')), 'listings.csv', other.token);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ rows: [{ row: 2, column: 'stores', code: 718 }] });
  });

  it('checks listings-manage on every route', async () => {
    const viewer = await createSubUser(api, seller.tenantId, ['listings-index']);
    const file = csv(shirtRows('viewer-shirt', 'Shop A'));
    expect((await upload(file, 'listings.csv', viewer.token)).statusCode).toBe(403);
    expect((await call('GET', '/api/listings/upload/template', viewer.token)).statusCode).toBe(403);
    expect((await call('GET', '/api/listings/uploads', viewer.token)).statusCode).toBe(403);
    expect(
      (await call('POST', '/api/listings/copy', viewer.token, { listing_ids: [randomUUID()] })).statusCode,
    ).toBe(403);
    const manager = await createSubUser(api, seller.tenantId, ['listings-manage']);
    expect((await upload(file, 'listings.csv', manager.token)).statusCode).toBe(200);
  });
});
