import { createHash } from 'node:crypto';
import ExcelJS from 'exceljs';
import Papa from 'papaparse';

/**
 * Reading a bulk file (spec §5 uploads): CSV in UTF-8 without a BOM, or XLSX (its first sheet); the first row is a
 * header and is ignored. Answers the cells of the other rows as text, or why the file cannot be read.
 */

export const MAX_BYTES = 5 * 1024 * 1024;

export type FileProblem =
  | 'too_large'
  | 'type'
  | 'bom'
  | 'encoding'
  | 'empty'
  | 'too_many_rows'
  | 'unreadable';

export const fileHash = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

export interface SheetOptions {
  maxRows: number;
  /** How a date cell of an XLSX reads: its calendar day (yyyy-mm-dd), or the whole ISO instant. */
  dates: 'day' | 'instant';
}

/** The rows after the header, each a list of trimmed cells, with their line in the file (the header is line 1). */
export async function readSheet(
  bytes: Buffer,
  filename: string,
  options: SheetOptions,
): Promise<{ ok: true; rows: { row: number; cells: string[] }[] } | { ok: false; problem: FileProblem }> {
  if (bytes.length > MAX_BYTES) return { ok: false, problem: 'too_large' };
  const extension = filename.toLowerCase().split('.').pop();
  let cells: string[][];
  if (extension === 'csv') {
    if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { ok: false, problem: 'bom' };
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      return { ok: false, problem: 'encoding' };
    }
    const parsed = Papa.parse<string[]>(text, { skipEmptyLines: 'greedy' });
    cells = parsed.data.map((row) => row.map((cell) => cell ?? ''));
  } else if (extension === 'xlsx') {
    const read = await readXlsx(bytes, options.dates);
    if (!read) return { ok: false, problem: 'unreadable' };
    cells = read;
  } else {
    return { ok: false, problem: 'type' };
  }
  const body = cells.slice(1);
  if (body.length === 0) return { ok: false, problem: 'empty' };
  if (body.length > options.maxRows) return { ok: false, problem: 'too_many_rows' };
  return {
    ok: true,
    rows: body.map((row, index) => ({ row: index + 2, cells: row.map((cell) => cell.trim()) })),
  };
}

async function readXlsx(bytes: Buffer, dates: SheetOptions['dates']): Promise<string[][] | undefined> {
  try {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    if (!sheet) return [];
    const rows: string[][] = [];
    sheet.eachRow({ includeEmpty: false }, (row) => {
      const values: string[] = [];
      // Column count is what the row holds up to its last cell with a value.
      for (let column = 1; column <= row.cellCount; column++)
        values.push(cellText(row.getCell(column).value, dates));
      rows.push(values);
    });
    return rows;
  } catch {
    return undefined;
  }
}

function cellText(value: ExcelJS.CellValue, dates: SheetOptions['dates']): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') {
    if (value instanceof Date)
      return dates === 'day' ? value.toISOString().slice(0, 10) : value.toISOString();
    if ('result' in value) return cellText(value.result as ExcelJS.CellValue, dates);
    if ('text' in value) return String(value.text);
    if ('richText' in value) return value.richText.map((part) => part.text).join('');
    return '';
  }
  return String(value);
}
