import { PassThrough, Readable } from 'node:stream';
import ExcelJS from 'exceljs';

/**
 * Writing an export file (spec §5 exports): CSV in UTF-8 with a BOM, or XLSX (one sheet), streamed: the rows are
 * read as the file is written, so a large export never holds them all in memory. The caller gives the columns'
 * headers (already in the reader's language) and each row's cells in the same order.
 */

export type Cell = string | number | Date;
export type SheetFormat = 'csv' | 'xlsx';

export const SHEET_TYPES: Record<SheetFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

export interface SheetColumn {
  header: string;
  /** In characters (XLSX only); 14 unless given. */
  width?: number;
  /** Date cells shown with the time of day (XLSX only; CSV writes an ISO instant). */
  dateTime?: boolean;
}

export interface Sheet {
  /** The XLSX sheet's name. */
  name: string;
  columns: readonly SheetColumn[];
}

/** A BOM so that spreadsheets read the UTF-8 (names in Chinese or Thai) as UTF-8. */
const BOM = '\ufeff';

/**
 * One CSV field: quoted when it holds a quote, comma or line break (quotes doubled). Text that a spreadsheet would
 * run as a formula (=, +, -, @, tab, CR first) is prefixed with an apostrophe; numbers are written as they are.
 */
export function csvField(value: Cell): string {
  if (typeof value === 'number') return String(value);
  let text = value instanceof Date ? value.toISOString() : value;
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const csvLine = (cells: readonly Cell[]) => `${cells.map(csvField).join(',')}\r\n`;

/** A whole CSV file as text: the BOM, the header line, a line per row, each ended by CRLF (small files only). */
export function csvText(headers: readonly string[], rows: Iterable<readonly Cell[]>): string {
  let text = `${BOM}${csvLine(headers)}`;
  for (const row of rows) text += csvLine(row);
  return text;
}

/** The same CSV, as chunks of 500 lines while the rows come. */
async function* csvChunks(
  headers: readonly string[],
  rows: AsyncIterable<readonly Cell[]>,
): AsyncGenerator<string> {
  yield `${BOM}${csvLine(headers)}`;
  let batch = '';
  let count = 0;
  for await (const row of rows) {
    batch += csvLine(row);
    if (++count % 500 === 0) {
      yield batch;
      batch = '';
    }
  }
  if (batch) yield batch;
}

/** An XLSX workbook of one sheet, each row committed (written out) as it comes. */
function xlsxStream(sheet: Sheet, rows: AsyncIterable<readonly Cell[]>, onError: (error: unknown) => void) {
  const out = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useStyles: true,
    useSharedStrings: false,
  });
  const worksheet = workbook.addWorksheet(sheet.name);
  worksheet.columns = sheet.columns.map((column, index) => ({
    header: column.header,
    key: String(index),
    width: column.width ?? 14,
    ...(column.dateTime ? { style: { numFmt: 'yyyy-mm-dd hh:mm:ss' } } : {}),
  }));
  void (async () => {
    for await (const row of rows) worksheet.addRow([...row]).commit();
    worksheet.commit();
    await workbook.commit();
  })().catch((error: unknown) => {
    onError(error);
    out.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  return out;
}

/**
 * An export file in `format`, streamed from `rows`: its content type and its body. `onError` hears a failure
 * while the XLSX is written (the body then ends in error); a CSV's failure ends its body in error.
 */
export function sheetFile(
  format: SheetFormat,
  sheet: Sheet,
  rows: AsyncIterable<readonly Cell[]>,
  onError: (error: unknown) => void,
): { type: string; body: Readable } {
  const body =
    format === 'csv'
      ? Readable.from(
          csvChunks(
            sheet.columns.map((column) => column.header),
            rows,
          ),
        )
      : xlsxStream(sheet, rows, onError);
  return { type: SHEET_TYPES[format], body };
}
