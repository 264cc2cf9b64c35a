import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import Papa from 'papaparse';
import { inflatedSize } from './zip';

/**
 * Reading a bulk file (spec §5 uploads): CSV in UTF-8 (a leading BOM, as Excel's "CSV UTF-8" saves it, is skipped),
 * or XLSX (its first sheet); the first row is a header and is ignored. Answers the cells of the other rows as text, or why the file cannot be read.
 */

export const MAX_BYTES = 5 * 1024 * 1024;

export type FileProblem =
  | 'too_large'
  | 'too_large_unpacked'
  | 'type'
  | 'encoding'
  | 'empty'
  | 'too_many_rows'
  | 'unreadable';

/** What a file problem's message names: the row cap, or the size cap (packed, or unpacked for an XLSX), in MB. */
export const fileProblemParams = (problem: FileProblem, maxRows: number) => ({
  max: problem === 'too_many_rows' ? maxRows : MAX_BYTES / 1024 / 1024,
  unpacked: MAX_INFLATED_BYTES / 1024 / 1024,
});

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
    let text: string;
    try {
      // The decoder drops a leading BOM (ignoreBOM is false by default).
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      return { ok: false, problem: 'encoding' };
    }
    const parsed = Papa.parse<string[]>(text, { skipEmptyLines: 'greedy' });
    cells = parsed.data.map((row) => row.map((cell) => cell ?? ''));
  } else if (extension === 'xlsx') {
    // The header, the rows allowed, and one more to know there are too many.
    const read = await xlsxRows(bytes, options.dates, options.maxRows + 2);
    if (!read) return { ok: false, problem: 'unreadable' };
    if (read === 'too_large_unpacked') return { ok: false, problem: 'too_large_unpacked' };
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

/** What a workbook may inflate to, all its entries together: far above 10,000 rows of text, far below a zip bomb. */
export const MAX_INFLATED_BYTES = 32 * 1024 * 1024;

/**
 * Reads the first sheet as a stream, so neither a zip bomb nor a sheet of far too many rows is held in memory:
 * every entry is first inflated into a byte counter that stops past MAX_INFLATED_BYTES (the sizes a zip declares
 * can lie), then the rows are read one by one and reading stops at `lastRow`.
 */
export async function xlsxRows(
  bytes: Buffer,
  dates: SheetOptions['dates'],
  lastRow: number,
): Promise<string[][] | 'too_large_unpacked' | undefined> {
  const inflated = await inflatedSize(bytes, MAX_INFLATED_BYTES);
  if (inflated === undefined) return undefined;
  if (inflated > MAX_INFLATED_BYTES) return 'too_large_unpacked';
  try {
    const workbook = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([bytes]), {
      sharedStrings: 'cache',
      // Date cells are numbers with a date format: the styles tell them apart.
      styles: 'cache',
      hyperlinks: 'ignore',
      worksheets: 'emit',
      entries: 'ignore',
    });
    const rows: string[][] = [];
    for await (const sheet of workbook) {
      for await (const row of sheet) {
        if (!row.hasValues) continue;
        const values: string[] = [];
        // Column count is what the row holds up to its last cell with a value.
        for (let column = 1; column <= row.cellCount; column++)
          values.push(cellText(row.getCell(column).value, dates));
        rows.push(values);
        if (rows.length >= lastRow) break;
      }
      break;
    }
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
