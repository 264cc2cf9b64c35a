import { createHash } from 'node:crypto';
import ExcelJS from 'exceljs';
import Papa from 'papaparse';

/**
 * A bulk stock adjustment file (spec §5 uploads): CSV in UTF-8 without a BOM, or XLSX; the first row is a header and
 * is ignored; every other row has exactly the five columns below; at most MAX_ROWS rows and MAX_BYTES bytes. A file
 * with any bad row is refused whole, with every bad row listed, so nothing is half applied. The file's hash and the
 * row number make each row's idempotency key: the same file uploaded twice moves stock once.
 */

export const ADJUSTMENT_COLUMNS = ['master_code', 'warehouse_code', 'mode', 'quantity', 'reason'] as const;
export const MAX_ROWS = 10_000;
export const MAX_BYTES = 5 * 1024 * 1024;
export const ADJUSTMENT_MODES = ['add', 'deduct', 'set'] as const;

export interface AdjustmentRow {
  /** The row's line in the file, counting the header as 1. */
  row: number;
  masterCode: string;
  warehouseCode: string;
  mode: (typeof ADJUSTMENT_MODES)[number];
  quantity: number;
  reason: string;
}

export type RowProblem =
  | 'column_count'
  | 'master_code_required'
  | 'master_code_too_long'
  | 'warehouse_code_required'
  | 'warehouse_code_too_long'
  | 'mode_invalid'
  | 'quantity_invalid'
  | 'reason_too_long';

export interface RowError {
  row: number;
  column?: (typeof ADJUSTMENT_COLUMNS)[number];
  problem: RowProblem;
}

export type FileProblem =
  | 'too_large'
  | 'type'
  | 'bom'
  | 'encoding'
  | 'empty'
  | 'too_many_rows'
  | 'unreadable';

export type ParsedAdjustmentFile =
  | { ok: true; hash: string; rows: AdjustmentRow[] }
  | { ok: false; file?: FileProblem; rows: RowError[] };

export const fileHash = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

export async function parseAdjustmentFile(bytes: Buffer, filename: string): Promise<ParsedAdjustmentFile> {
  if (bytes.length > MAX_BYTES) return { ok: false, file: 'too_large', rows: [] };
  const extension = filename.toLowerCase().split('.').pop();
  let cells: string[][];
  if (extension === 'csv') {
    const text = decodeCsv(bytes);
    if (typeof text !== 'string') return { ok: false, file: text.problem, rows: [] };
    const parsed = Papa.parse<string[]>(text, { skipEmptyLines: 'greedy' });
    cells = parsed.data.map((row) => row.map((cell) => cell ?? ''));
  } else if (extension === 'xlsx') {
    const read = await readXlsx(bytes);
    if (!read) return { ok: false, file: 'unreadable', rows: [] };
    cells = read;
  } else {
    return { ok: false, file: 'type', rows: [] };
  }

  const body = cells.slice(1);
  if (body.length === 0) return { ok: false, file: 'empty', rows: [] };
  if (body.length > MAX_ROWS) return { ok: false, file: 'too_many_rows', rows: [] };

  const rows: AdjustmentRow[] = [];
  const errors: RowError[] = [];
  body.forEach((cellsOfRow, index) => {
    const row = index + 2;
    const checked = checkRow(cellsOfRow, row);
    if ('problems' in checked) errors.push(...checked.problems);
    else rows.push(checked);
  });
  if (errors.length > 0) return { ok: false, rows: errors };
  return { ok: true, hash: fileHash(bytes), rows };
}

function decodeCsv(bytes: Buffer): string | { problem: FileProblem } {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { problem: 'bom' };
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { problem: 'encoding' };
  }
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
      // Column count is what the row holds up to its last cell with a value.
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
    if (value instanceof Date) return value.toISOString();
    if ('result' in value) return cellText(value.result as ExcelJS.CellValue);
    if ('text' in value) return String(value.text);
    if ('richText' in value) return value.richText.map((part) => part.text).join('');
    return '';
  }
  return String(value);
}

function checkRow(cells: string[], row: number): AdjustmentRow | { problems: RowError[] } {
  if (cells.length !== ADJUSTMENT_COLUMNS.length) return { problems: [{ row, problem: 'column_count' }] };
  const [masterCode, warehouseCode, mode, quantityText, reason] = cells.map((cell) => cell.trim()) as [
    string,
    string,
    string,
    string,
    string,
  ];
  const problems: RowError[] = [];
  if (!masterCode) problems.push({ row, column: 'master_code', problem: 'master_code_required' });
  else if (masterCode.length > 100)
    problems.push({ row, column: 'master_code', problem: 'master_code_too_long' });
  if (!warehouseCode) problems.push({ row, column: 'warehouse_code', problem: 'warehouse_code_required' });
  else if (warehouseCode.length > 50)
    problems.push({ row, column: 'warehouse_code', problem: 'warehouse_code_too_long' });
  const modeValue = mode.toLowerCase();
  const knownMode = (ADJUSTMENT_MODES as readonly string[]).includes(modeValue);
  if (!knownMode) problems.push({ row, column: 'mode', problem: 'mode_invalid' });
  const quantity = /^\d{1,10}$/.test(quantityText) ? Number(quantityText) : Number.NaN;
  const least = modeValue === 'set' ? 0 : 1;
  if (!Number.isInteger(quantity) || quantity < least || quantity > 1_000_000_000) {
    problems.push({ row, column: 'quantity', problem: 'quantity_invalid' });
  }
  if (reason.length > 500) problems.push({ row, column: 'reason', problem: 'reason_too_long' });
  if (problems.length > 0) return { problems };
  return { row, masterCode, warehouseCode, mode: modeValue as AdjustmentRow['mode'], quantity, reason };
}
