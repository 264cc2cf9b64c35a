import { createHash } from 'node:crypto';
import ExcelJS from 'exceljs';
import Papa from 'papaparse';

/**
 * Reading a bulk file of purchasing (spec §5 uploads): CSV in UTF-8 without a BOM, or XLSX (its first sheet); the
 * first row is a header and is ignored. Answers the cells of the other rows as text, or why the file cannot be read.
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

/** The rows after the header, each a list of trimmed cells, with their line in the file (the header is line 1). */
export async function readSheet(
  bytes: Buffer,
  filename: string,
  maxRows: number,
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
    const read = await readXlsx(bytes);
    if (!read) return { ok: false, problem: 'unreadable' };
    cells = read;
  } else {
    return { ok: false, problem: 'type' };
  }
  const body = cells.slice(1);
  if (body.length === 0) return { ok: false, problem: 'empty' };
  if (body.length > maxRows) return { ok: false, problem: 'too_many_rows' };
  return {
    ok: true,
    rows: body.map((row, index) => ({ row: index + 2, cells: row.map((cell) => cell.trim()) })),
  };
}

async function readXlsx(bytes: Buffer): Promise<string[][] | undefined> {
  try {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    if (!sheet) return [];
    const rows: string[][] = [];
    sheet.eachRow({ includeEmpty: false }, (row) => {
      const values: string[] = [];
      for (let column = 1; column <= row.cellCount; column++)
        values.push(cellText(row.getCell(column).value));
      rows.push(values);
    });
    return rows;
  } catch {
    return undefined;
  }
}

function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') {
    // A date cell: the calendar day it shows.
    if (value instanceof Date) return value.toISOString().slice(0, 10);
    if ('result' in value) return cellText(value.result as ExcelJS.CellValue);
    if ('text' in value) return String(value.text);
    if ('richText' in value) return value.richText.map((part) => part.text).join('');
    return '';
  }
  return String(value);
}
