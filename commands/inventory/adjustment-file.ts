import { ADJUSTMENT_COLUMNS } from '@domain/inventory/stock-upload';
import { type FileProblem, fileHash, MAX_BYTES, readSheet } from '@infra/sheets/read';

/**
 * A bulk stock adjustment file (spec §5 uploads): CSV in UTF-8 (a BOM, as Excel's "CSV UTF-8" writes, is
 * skipped), or XLSX; the first row is a header and is ignored; every other row has exactly the five columns below;
 * at most MAX_ROWS rows and MAX_BYTES bytes. The well-formed rows come back beside the format problems of the others,
 * so that the caller checks their codes too and answers every bad row at once. The file's hash and the
 * row number make each row's idempotency key: the same file uploaded twice moves stock once.
 */

export { ADJUSTMENT_COLUMNS };
export const MAX_ROWS = 10_000;
export { type FileProblem, MAX_BYTES };
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

/** A row's code cells, each '' when it is malformed: the codes of a row with other problems are checked too. */
export type CodedRow = Pick<AdjustmentRow, 'row' | 'masterCode' | 'warehouseCode'>;

export interface RowError {
  row: number;
  column?: (typeof ADJUSTMENT_COLUMNS)[number];
  problem: RowProblem;
}

export type ParsedAdjustmentFile =
  | { ok: true; hash: string; rows: AdjustmentRow[]; problems: RowError[]; malformed: CodedRow[] }
  | { ok: false; file: FileProblem };

export async function parseAdjustmentFile(bytes: Buffer, filename: string): Promise<ParsedAdjustmentFile> {
  const sheet = await readSheet(bytes, filename, { maxRows: MAX_ROWS, dates: 'instant' });
  if (!sheet.ok) return { ok: false, file: sheet.problem };

  const rows: AdjustmentRow[] = [];
  const errors: RowError[] = [];
  const malformed: CodedRow[] = [];
  for (const { row, cells } of sheet.rows) {
    const checked = checkRow(cells, row);
    if ('problems' in checked) {
      errors.push(...checked.problems);
      if (checked.codes) malformed.push(checked.codes);
    } else rows.push(checked);
  }
  return { ok: true, hash: fileHash(bytes), rows, problems: errors, malformed };
}

function checkRow(cells: string[], row: number): AdjustmentRow | { problems: RowError[]; codes?: CodedRow } {
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
  if (problems.length > 0) {
    const bad = new Set(problems.map((problem) => problem.column));
    return {
      problems,
      codes: {
        row,
        masterCode: bad.has('master_code') ? '' : masterCode,
        warehouseCode: bad.has('warehouse_code') ? '' : warehouseCode,
      },
    };
  }
  return { row, masterCode, warehouseCode, mode: modeValue as AdjustmentRow['mode'], quantity, reason };
}
