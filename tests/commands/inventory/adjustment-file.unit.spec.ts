import { MAX_BYTES, MAX_ROWS, parseAdjustmentFile } from '@commands/inventory/adjustment-file';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';

const HEADER = 'master_code,warehouse_code,mode,quantity,reason';
const csv = (...lines: string[]) => Buffer.from([HEADER, ...lines].join('\n'), 'utf8');

async function xlsx(rows: (string | number)[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Adjustments');
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

describe('a bulk stock adjustment file', () => {
  it('reads a good CSV, ignoring the header row, and hashes the file', async () => {
    const parsed = await parseAdjustmentFile(
      csv('KOPI-1,KL,add,5,delivery', 'TEH-2,PG,SET,0,"count, aisle 3"'),
      'a.csv',
    );
    expect(parsed).toEqual({
      ok: true,
      hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      problems: [],
      malformed: [],
      rows: [
        { row: 2, masterCode: 'KOPI-1', warehouseCode: 'KL', mode: 'add', quantity: 5, reason: 'delivery' },
        {
          row: 3,
          masterCode: 'TEH-2',
          warehouseCode: 'PG',
          mode: 'set',
          quantity: 0,
          reason: 'count, aisle 3',
        },
      ],
    });
  });

  it('reads the same rows from an XLSX file', async () => {
    const file = await xlsx([HEADER.split(','), ['KOPI-1', 'KL', 'deduct', 2, 'damaged']]);
    const parsed = await parseAdjustmentFile(file, 'stock.XLSX');
    expect(parsed).toMatchObject({
      ok: true,
      rows: [
        { row: 2, masterCode: 'KOPI-1', warehouseCode: 'KL', mode: 'deduct', quantity: 2, reason: 'damaged' },
      ],
    });
  });

  it('lists every bad row beside the good ones, with the code cells of the bad ones', async () => {
    const parsed = await parseAdjustmentFile(
      csv(
        'KOPI-1,KL,add,5,ok',
        ',KL,add,1,',
        'TEH,PG,move,0,',
        'TEH,PG,add,0,',
        'TEH,PG,add,1.5,',
        'TEH,PG,add,x,',
        'A,B,add',
      ),
      'bad.csv',
    );
    expect(parsed).toMatchObject({
      ok: true,
      rows: [{ row: 2, masterCode: 'KOPI-1' }],
      problems: [
        { row: 3, column: 'master_code', problem: 'master_code_required' },
        { row: 4, column: 'mode', problem: 'mode_invalid' },
        { row: 4, column: 'quantity', problem: 'quantity_invalid' },
        { row: 5, column: 'quantity', problem: 'quantity_invalid' },
        { row: 6, column: 'quantity', problem: 'quantity_invalid' },
        { row: 7, column: 'quantity', problem: 'quantity_invalid' },
        { row: 8, problem: 'column_count' },
      ],
      malformed: [
        { row: 3, masterCode: '', warehouseCode: 'KL' },
        { row: 4, masterCode: 'TEH', warehouseCode: 'PG' },
        { row: 5, masterCode: 'TEH', warehouseCode: 'PG' },
        { row: 6, masterCode: 'TEH', warehouseCode: 'PG' },
        { row: 7, masterCode: 'TEH', warehouseCode: 'PG' },
      ],
    });
  });

  it('reads past the BOM of Excel\'s "CSV UTF-8"', async () => {
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), csv('A,B,add,1,')]);
    expect(await parseAdjustmentFile(bom, 'a.csv')).toMatchObject({
      ok: true,
      rows: [{ row: 2, masterCode: 'A', warehouseCode: 'B' }],
      problems: [],
    });
  });

  it('refuses bad UTF-8, an unknown type, an empty file, too many rows and too many bytes', async () => {
    const latin1 = Buffer.concat([csv('A,B,add,1,'), Buffer.from([0xe9])]);
    expect(await parseAdjustmentFile(latin1, 'a.csv')).toEqual({ ok: false, file: 'encoding' });
    expect(await parseAdjustmentFile(csv('A,B,add,1,'), 'a.txt')).toEqual({
      ok: false,
      file: 'type',
    });
    expect(await parseAdjustmentFile(csv(), 'a.csv')).toEqual({ ok: false, file: 'empty' });
    const many = csv(...Array.from({ length: MAX_ROWS + 1 }, (_, i) => `A${i},B,add,1,`));
    expect(await parseAdjustmentFile(many, 'a.csv')).toEqual({ ok: false, file: 'too_many_rows' });
    const huge = Buffer.alloc(MAX_BYTES + 1, 0x41);
    expect(await parseAdjustmentFile(huge, 'a.csv')).toEqual({ ok: false, file: 'too_large' });
    expect(await parseAdjustmentFile(Buffer.from('not a zip'), 'a.xlsx')).toEqual({
      ok: false,
      file: 'unreadable',
    });
  });
});
