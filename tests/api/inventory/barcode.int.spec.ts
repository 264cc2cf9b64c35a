import { randomUUID } from 'node:crypto';
import { mmToPt } from '@commands/printing/labels';
import { BarcodeCode } from '@domain/printing/labels';
import {
  bearer,
  createSeller,
  createSubUser,
  createTestApi,
  type TestApi,
  type TestSeller,
} from '@tests/support/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller, data, refusal } from './inventory-api';
import { fontNames, imageCount, isPdf, mediaBoxes, pageCount, textLines } from './pdf';

describe('barcode labels', () => {
  let api: TestApi;
  let owner: TestSeller;
  let other: TestSeller;
  /** Master codes of the owner: with a price and an SGD list price; without a price; another account's. */
  let kopi: string;
  let teh: string;
  let foreign: string;
  const call = caller(() => api);
  const url = '/api/inventory/barcode/print';

  const createMasterCode = async (seller: TestSeller, body: Record<string, unknown>) =>
    data<{ id: string }>(await call('POST', '/api/inventory/master-code', seller.token, body)).id;

  beforeAll(async () => {
    api = await createTestApi();
    owner = await createSeller(api, { packageId: 'growth' });
    other = await createSeller(api, { packageId: 'growth' });
    kopi = await createMasterCode(owner, {
      code: 'KOPI-001',
      name: 'Kopi O 500g',
      unit_price: '12.50',
      prices: [{ currency: 'SGD', unit_price: '4.20' }],
    });
    teh = await createMasterCode(owner, { code: 'TEH-002', name: 'Teh Tarik' });
    foreign = await createMasterCode(other, { code: 'KOPI-001', name: 'Not yours', unit_price: '9.90' });
  });
  afterAll(async () => {
    await api?.close();
  });

  const print = (body: Record<string, unknown>, token = owner.token, language?: string) =>
    call('POST', url, token, body, language);
  const pdfOf = (response: {
    statusCode: number;
    body: string;
    rawPayload: Buffer;
    headers: Record<string, unknown>;
  }) => {
    expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(isPdf(response.rawPayload)).toBe(true);
    return response.rawPayload;
  };
  const size = (widthMm: number, heightMm: number) => ({
    width: expect.closeTo(mmToPt(widthMm), 3),
    height: expect.closeTo(mmToPt(heightMm), 3),
  });

  it('answers a PDF to download, named for the day', async () => {
    const response = await print({ master_codes: [{ id: kopi }] });
    const pdf = pdfOf(response);
    expect(response.headers['content-disposition']).toMatch(
      new RegExp(`^attachment; filename="labels-${new Date().toISOString().slice(0, 10)}\\.pdf";`),
    );
    // The defaults: one A4 sheet of 50 × 30 mm Code 128 labels with the name and code.
    expect(pageCount(pdf)).toBe(1);
    expect(mediaBoxes(pdf)).toEqual([size(210, 297)]);
    expect(textLines(pdf)).toEqual(['Kopi O 500g', 'KOPI-001']);
  });

  it('prints Chinese, Thai and Vietnamese names as they are written', async () => {
    const names = ['无线耳机', 'หูฟังไร้สาย', 'Tai nghe không dây'];
    const ids: string[] = [];
    for (const [index, name] of names.entries())
      ids.push(await createMasterCode(owner, { code: `EAR-00${index + 1}`, name }));
    const pdf = pdfOf(await print({ master_codes: ids.map((id) => ({ id })) }));
    expect(textLines(pdf)).toEqual(names.flatMap((name, index) => [name, `EAR-00${index + 1}`]));
    expect(fontNames(pdf)).toEqual(['NotoSans-Regular', 'NotoSansSC-Regular', 'NotoSansThai-Regular']);
  });

  it('is described in the OpenAPI document as a PDF answer', async () => {
    type Doc = {
      paths: Record<string, Record<string, { responses: Record<string, { content?: object }> }>>;
    };
    const doc = (await api.app.inject({ method: 'GET', url: '/docs/json' })).json<Doc>();
    const operation = doc.paths[url]?.post;
    expect(Object.keys(operation?.responses['200']?.content ?? {})).toEqual(['application/pdf']);
    expect(Object.keys(operation?.responses['400']?.content ?? {})).toEqual(['application/json']);
  });

  it('fills A4 sheets with the number per sheet asked for, each master code its copies', async () => {
    const body = {
      master_codes: [
        { id: kopi, copies: 12 },
        { id: teh, copies: 13 },
      ],
      paper: 'a4',
      width_mm: 50,
      height_mm: 30,
    };
    const tenPerSheet = pdfOf(await print({ ...body, per_sheet: 10 }));
    expect(pageCount(tenPerSheet)).toBe(3);
    const lines = textLines(tenPerSheet);
    expect(lines.filter((line) => line === 'KOPI-001')).toHaveLength(12);
    expect(lines.filter((line) => line === 'TEH-002')).toHaveLength(13);
    // As many as fit: 3 × 9 = 27 labels of 50 × 30 mm on a portrait A4 sheet.
    expect(pageCount(pdfOf(await print(body)))).toBe(1);
    expect(pageCount(pdfOf(await print({ ...body, master_codes: [{ id: kopi, copies: 28 }] })))).toBe(2);
  });

  it('turns the sheet in landscape, which holds 5 × 6 labels of 50 × 30 mm', async () => {
    const body = { master_codes: [{ id: kopi, copies: 30 }] };
    const landscape = pdfOf(await print({ ...body, orientation: 'landscape' }));
    expect(pageCount(landscape)).toBe(1);
    expect(mediaBoxes(landscape)).toEqual([size(297, 210)]);
    expect(pageCount(pdfOf(await print({ ...body, orientation: 'portrait' })))).toBe(2);

    const letter = pdfOf(await print({ ...body, paper: 'letter', orientation: 'landscape' }));
    expect(mediaBoxes(letter)[0]).toEqual({ width: expect.closeTo(792, 3), height: expect.closeTo(612, 3) });
  });

  it('prints a continuous roll one label per page of the label size, swapped in landscape', async () => {
    const body = {
      master_codes: [
        { id: kopi, copies: 3 },
        { id: teh, copies: 2 },
      ],
      paper: 'continuous',
      width_mm: 60,
      height_mm: 40,
      per_sheet: 20,
    };
    const portrait = pdfOf(await print(body));
    expect(pageCount(portrait)).toBe(5);
    expect(mediaBoxes(portrait)).toEqual(Array(5).fill(size(60, 40)));
    const landscape = pdfOf(await print({ ...body, orientation: 'landscape' }));
    expect(pageCount(landscape)).toBe(5);
    expect(mediaBoxes(landscape)).toEqual(Array(5).fill(size(40, 60)));
  });

  it('draws Code 128 and QR codes, one image per master code', async () => {
    for (const symbology of ['code128', 'qrcode']) {
      const one = imageCount(pdfOf(await print({ symbology, master_codes: [{ id: kopi, copies: 5 }] })));
      expect(one, symbology).toBeGreaterThan(0);
      const two = imageCount(
        pdfOf(await print({ symbology, master_codes: [{ id: kopi }, { id: teh, copies: 5 }] })),
      );
      expect(two, symbology).toBe(2 * one);
    }
    const qr = pdfOf(await print({ symbology: 'qrcode', master_codes: [{ id: teh }] }));
    expect(textLines(qr)).toEqual(['Teh Tarik', 'TEH-002']);
  });

  it('prints the unit price in the account currency, or a price list entry', async () => {
    const both = { master_codes: [{ id: kopi }, { id: teh }], show_price: true };
    // Teh has no price (0.00): no price line.
    expect(textLines(pdfOf(await print(both)))).toEqual([
      'Kopi O 500g',
      'KOPI-001',
      'MYR 12.50',
      'Teh Tarik',
      'TEH-002',
    ]);
    expect(textLines(pdfOf(await print({ ...both, currency: 'SGD', show_name: false })))).toEqual([
      'KOPI-001',
      'SGD 4.20',
      'TEH-002',
    ]);
    // No HKD list price, and HKD is not the account's own currency: no price line at all.
    expect(textLines(pdfOf(await print({ ...both, currency: 'HKD', show_name: false })))).toEqual([
      'KOPI-001',
      'TEH-002',
    ]);
    // MYR is: the unit price stands in for a missing MYR list price.
    expect(textLines(pdfOf(await print({ ...both, currency: 'MYR', show_name: false })))).toEqual([
      'KOPI-001',
      'MYR 12.50',
      'TEH-002',
    ]);
  });

  it('refuses more labels per sheet than fit, saying how many do', async () => {
    const body = { master_codes: [{ id: kopi }], width_mm: 50, height_mm: 30, per_sheet: 28 };
    expect(refusal(await print(body))).toEqual({
      status: 400,
      code: BarcodeCode.doesNotFit,
      msg: '28 labels of 50 × 30 mm do not fit on one A4 sheet in portrait layout: at most 27 fit.',
    });
    expect(refusal(await print(body, owner.token, 'zh-cn')).msg).toBe(
      '50 × 30 毫米的标签无法在一张纵向 A4 纸上放下 28 张：最多可放 27 张。',
    );
    expect(refusal(await print({ ...body, paper: 'letter', per_sheet: 25 })).msg).toBe(
      '25 labels of 50 × 30 mm do not fit on one Letter sheet in portrait layout: at most 24 fit.',
    );
    // Landscape holds 30.
    pdfOf(await print({ ...body, orientation: 'landscape' }));
  });

  it('refuses Code 128 for a code it cannot carry (one stored before codes were checked), and prints it as QR', async () => {
    const old = await createMasterCode(owner, { code: 'OLD-1', name: 'Old stock' });
    await api.database.db.updateTable('master_codes').set({ code: 'CAFÉ-1' }).where('id', '=', old).execute();
    expect(refusal(await print({ master_codes: [{ id: kopi }, { id: old }] }))).toEqual({
      status: 400,
      code: BarcodeCode.notEncodable,
      msg: 'The master code CAFÉ-1 cannot be printed as Code 128, which takes only letters, digits, spaces and symbols. Print it as a QR code instead.',
    });
    const qr = pdfOf(await print({ master_codes: [{ id: old }], symbology: 'qrcode' }));
    expect(textLines(qr)).toEqual(['Old stock', 'CAFÉ-1']);
  });

  it("answers 404 for a missing master code or another account's, printing nothing", async () => {
    const missing = refusal(await print({ master_codes: [{ id: randomUUID() }] }));
    expect(missing).toMatchObject({ status: 404, code: 404 });
    expect(refusal(await print({ master_codes: [{ id: kopi }, { id: foreign }] }))).toEqual(missing);
    expect(refusal(await print({ master_codes: [{ id: 'not-a-uuid' }] }))).toEqual(missing);
    // The other account prints its own.
    expect(textLines(pdfOf(await print({ master_codes: [{ id: foreign }] }, other.token)))).toEqual([
      'Not yours',
      'KOPI-001',
    ]);
  });

  it('needs the master code permission', async () => {
    const body = { master_codes: [{ id: kopi }] };
    const without = await createSubUser(api, owner.tenantId, ['inventory-stock-adjustment']);
    expect(refusal(await print(body, without.token)).status).toBe(403);
    const holder = await createSubUser(api, owner.tenantId, ['inventory-master-code']);
    pdfOf(await print(body, holder.token));
    const anonymous = await api.app.inject({ method: 'POST', url, payload: body });
    expect(anonymous.statusCode).toBe(401);
  });

  it('refuses malformed bodies with their own codes', async () => {
    const one = [{ id: randomUUID() }];
    const cases: [Record<string, unknown>, number][] = [
      [{}, BarcodeCode.noItems],
      [{ master_codes: [] }, BarcodeCode.noItems],
      [{ master_codes: 'all' }, BarcodeCode.noItems],
      [{ master_codes: [kopi] }, 400],
      [{ master_codes: [{ id: kopi, copies: 0 }] }, BarcodeCode.copiesInvalid],
      [{ master_codes: [{ id: kopi, copies: 501 }] }, BarcodeCode.copiesInvalid],
      [{ master_codes: [{ id: kopi, copies: 1.5 }] }, BarcodeCode.copiesInvalid],
      [{ master_codes: [{ id: kopi, copies: '2' }] }, BarcodeCode.copiesInvalid],
      [{ master_codes: Array(11).fill({ id: kopi, copies: 500 }) }, BarcodeCode.tooManyLabels],
      [{ master_codes: Array(501).fill({ id: kopi }) }, BarcodeCode.tooManyLabels],
      [{ master_codes: one, width_mm: 19 }, BarcodeCode.sizeInvalid],
      [{ master_codes: one, height_mm: 151 }, BarcodeCode.sizeInvalid],
      [{ master_codes: one, width_mm: '50' }, BarcodeCode.sizeInvalid],
      [{ master_codes: one, paper: 'a3' }, BarcodeCode.optionInvalid],
      [{ master_codes: one, orientation: 'upside-down' }, BarcodeCode.optionInvalid],
      [{ master_codes: one, symbology: 'ean13' }, BarcodeCode.optionInvalid],
      [{ master_codes: one, per_sheet: 0 }, BarcodeCode.optionInvalid],
      [{ master_codes: one, per_sheet: 501 }, BarcodeCode.optionInvalid],
      [{ master_codes: one, show_name: 'yes' }, BarcodeCode.optionInvalid],
      [{ master_codes: one, show_price: 1 }, BarcodeCode.optionInvalid],
      [{ master_codes: one, currency: 'USD' }, BarcodeCode.optionInvalid],
      [{ master_codes: one, colour: 'red' }, 400],
      [{ master_codes: [{ id: kopi, extra: true }] }, 400],
    ];
    for (const [body, code] of cases) {
      const answer = refusal(await print(body));
      expect(answer, JSON.stringify(body).slice(0, 100)).toMatchObject({ status: 400, code });
    }
    const tooMany = refusal(await print({ master_codes: Array(11).fill({ id: kopi, copies: 500 }) }));
    expect(tooMany.msg).toBe('At most 5000 labels can be printed at once; this print has 5500.');
    expect(refusal(await print({ master_codes: [] }, owner.token, 'th-th')).msg).toBe('ไม่ได้เลือกสินค้า');

    const notJson = await api.app.inject({
      method: 'POST',
      url,
      headers: { ...bearer(owner.token), 'content-type': 'application/json' },
      payload: '{"master_codes": [',
    });
    expect(notJson.statusCode).toBe(400);
  });

  it('prints the largest allowed run: 5,000 labels', async () => {
    const pdf = pdfOf(
      await print({
        master_codes: Array.from({ length: 10 }, (_, i) => ({ id: i % 2 ? kopi : teh, copies: 500 })),
        paper: 'a4',
        width_mm: 20,
        height_mm: 10,
      }),
    );
    // 9 × 24 = 216 per A4 sheet of 20 × 10 mm labels.
    expect(pageCount(pdf)).toBe(Math.ceil(5000 / 216));
  }, 60_000);
});
