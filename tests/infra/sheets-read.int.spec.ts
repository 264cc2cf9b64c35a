import { crc32, deflateRawSync } from 'node:zlib';
import { MAX_BYTES, MAX_INFLATED_BYTES, readSheet, xlsxRows } from '@infra/sheets/read';
import { inflatedSize } from '@infra/sheets/zip';
import { bearer, createSeller, createTestApi, type TestApi, type TestSeller } from '@tests/support/api';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Issue 13, item 5: an XLSX upload is read as a stream. A zip bomb is refused while it is being inflated, and a
 * sheet of far too many rows while its rows are read, so neither is ever held in memory whole.
 */

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const RELS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const DOC = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** A zip of deflated entries, written field by field (APPNOTE.TXT), so a test can make one any shape it likes. */
function zip(entries: Record<string, Buffer>): Buffer {
  const locals: Buffer[] = [];
  const directory: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of Object.entries(entries)) {
    const data = deflateRawSync(content, { level: 9 });
    const fileName = Buffer.from(name);
    // The two headers describe the entry with the same fields, from byte 8 of one and byte 10 of the other.
    const describeEntry = (header: Buffer, at: number) => {
      header.writeUInt16LE(8, at);
      header.writeUInt32LE(crc32(content), at + 6);
      header.writeUInt32LE(data.length, at + 10);
      header.writeUInt32LE(content.length, at + 14);
      header.writeUInt16LE(fileName.length, at + 18);
    };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    describeEntry(local, 8);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    describeEntry(central, 10);
    central.writeUInt32LE(offset, 42);
    locals.push(local, fileName, data);
    directory.push(central, fileName);
    offset += local.length + fileName.length + data.length;
  }
  const size = directory.reduce((sum, part) => sum + part.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(directory.length / 2, 8);
  end.writeUInt16LE(directory.length / 2, 10);
  end.writeUInt32LE(size, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, ...directory, end]);
}

/** A real workbook of one sheet with a header and one row, `padding` bytes of blank XML inside its sheet data. */
function workbook(padding: number): Buffer {
  const xml = (text: string) =>
    Buffer.from(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n${text}`);
  const cell = (ref: string, text: string) => `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`;
  return zip({
    '[Content_Types].xml': xml(
      '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
        '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
        '</Types>',
    ),
    '_rels/.rels': xml(
      `<Relationships xmlns="${RELS}"><Relationship Id="rId1" Type="${DOC}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ),
    'xl/workbook.xml': xml(
      `<workbook xmlns="${MAIN}" xmlns:r="${DOC}"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ),
    'xl/_rels/workbook.xml.rels': xml(
      `<Relationships xmlns="${RELS}"><Relationship Id="rId1" Type="${DOC}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
    ),
    'xl/worksheets/sheet1.xml': Buffer.concat([
      xml(
        `<worksheet xmlns="${MAIN}"><sheetData><row r="1">${cell('A1', 'code')}${cell('B1', 'name')}</row>`,
      ),
      Buffer.alloc(padding, ' '),
      Buffer.from(`<row r="2">${cell('A2', 'KOPI')}${cell('B2', 'Coffee')}</row></sheetData></worksheet>`),
    ]),
  });
}

async function rowsWorkbook(count: number): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Adjustments');
  sheet.addRow(['master_code', 'warehouse_code', 'mode', 'quantity', 'reason']);
  for (let row = 0; row < count; row++) sheet.addRow(['KOPI', 'KL', 'add', 1, `r${row}`]);
  return Buffer.from(await book.xlsx.writeBuffer());
}

const BOMB_INFLATED = 48 * 1024 * 1024;

describe('reading an XLSX as a stream', () => {
  let bomb: Buffer;
  let sixtyThousand: Buffer;

  beforeAll(async () => {
    bomb = workbook(BOMB_INFLATED);
    sixtyThousand = await rowsWorkbook(60_000);
  });

  it('reads a small workbook written by hand, so the bomb below is a real workbook too', async () => {
    expect(await readSheet(workbook(1_000), 'small.xlsx', { maxRows: 10, dates: 'day' })).toEqual({
      ok: true,
      rows: [{ row: 2, cells: ['KOPI', 'Coffee'] }],
    });
  });

  it('stops inflating a zip bomb just past the cap and refuses it', async () => {
    expect(bomb.length).toBeLessThan(100 * 1024);
    expect(MAX_INFLATED_BYTES).toBeLessThan(BOMB_INFLATED);
    const counted = await inflatedSize(bomb, MAX_INFLATED_BYTES);
    expect(counted).toBeGreaterThan(MAX_INFLATED_BYTES);
    // One inflated chunk past the cap at most: the rest of the 48 MB was never produced.
    expect(counted).toBeLessThanOrEqual(MAX_INFLATED_BYTES + 64 * 1024);
    expect(await readSheet(bomb, 'bomb.xlsx', { maxRows: 10_000, dates: 'day' })).toEqual({
      ok: false,
      problem: 'too_large_unpacked',
    });
  });

  it('stops reading rows one past the cap and refuses the sheet', async () => {
    expect(sixtyThousand.length).toBeLessThan(MAX_BYTES);
    const read = await xlsxRows(sixtyThousand, 'day', 10_002);
    expect(read).toHaveLength(10_002);
    expect(await readSheet(sixtyThousand, 'many.xlsx', { maxRows: 10_000, dates: 'day' })).toEqual({
      ok: false,
      problem: 'too_many_rows',
    });
  });

  describe('through the stock upload', () => {
    let api: TestApi;
    let owner: TestSeller;

    beforeAll(async () => {
      api = await createTestApi();
      owner = await createSeller(api, { packageId: 'growth' });
    });
    afterAll(async () => {
      await api?.close();
    });

    const upload = (body: Buffer) =>
      api.app.inject({
        method: 'POST',
        url: '/api/inventory/stock/upload?filename=stock.xlsx',
        headers: { ...bearer(owner.token), 'content-type': XLSX },
        payload: body,
      });

    it('refuses the zip bomb and the 60,000 rows with the file refusal, and still takes a normal file', async () => {
      const refusedBomb = await upload(bomb);
      expect(refusedBomb.statusCode).toBe(400);
      expect(refusedBomb.json()).toMatchObject({
        code: 456,
        msg: 'The workbook holds far more data than its size suggests (more than 32 MB unpacked), so it is not read.',
      });
      const refusedRows = await upload(sixtyThousand);
      expect(refusedRows.statusCode).toBe(400);
      expect(refusedRows.json()).toMatchObject({ code: 456, msg: 'The file has more than 10000 rows.' });
      // A normal workbook is read: its row is checked (an unknown master code), not the file refused.
      const normal = await upload(await rowsWorkbook(1));
      expect(normal.statusCode).toBe(400);
      const problems: { row: number }[] = normal.json().rows;
      expect(new Set(problems.map((problem) => problem.row))).toEqual(new Set([2]));
    });
  });
});
