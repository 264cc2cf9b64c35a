import {
  CONTACT_NUMBER,
  CURRENCY,
  EMAIL,
  REQUIRED_SUPPLIER_COLUMNS,
  SUPPLIER_COLUMNS,
  SUPPLIER_LIMITS,
  type SupplierColumn,
} from '@domain/purchases/supplier';
import { type FileProblem, fileHash, readSheet } from '@infra/sheets/read';

/**
 * The supplier bulk file (spec §5: "Supplier CSV requires name, company, contact number, address, city, postal
 * code, state, country; UTF-8 without BOM; fixed column order"): CSV (UTF-8; a BOM, which Excel's "CSV UTF-8"
 * writes, is skipped rather than refused) or XLSX, the first row a header (ignored), then one supplier a row in the
 * fixed column order below — the eight required columns first, then the optional ones (a row may stop after the last
 * value it has). A file with any bad row is refused whole, with every bad row listed.
 */

export const MAX_SUPPLIER_ROWS = 5_000;

export type SupplierFields = Record<SupplierColumn, string>;

export interface SupplierRow extends SupplierFields {
  row: number;
}

export type SupplierProblem =
  | 'column_count'
  | 'required'
  | 'too_long'
  | 'contact_invalid'
  | 'email_invalid'
  | 'currency_invalid'
  | 'code_repeated';

export interface SupplierRowError {
  row: number;
  column?: SupplierColumn;
  problem: SupplierProblem;
}

export type ParsedSupplierFile =
  | { ok: true; hash: string; rows: SupplierRow[] }
  | { ok: false; file?: FileProblem; rows: SupplierRowError[] };

/** The problems of one supplier's fields (the form's rules too). */
export function supplierProblems(
  fields: SupplierFields,
): { column: SupplierColumn; problem: SupplierProblem }[] {
  const problems: { column: SupplierColumn; problem: SupplierProblem }[] = [];
  SUPPLIER_COLUMNS.forEach((column, index) => {
    const value = fields[column];
    if (index < REQUIRED_SUPPLIER_COLUMNS && value === '') problems.push({ column, problem: 'required' });
    else if (value.length > SUPPLIER_LIMITS[column]) problems.push({ column, problem: 'too_long' });
  });
  const failed = new Set(problems.map((problem) => problem.column));
  if (!failed.has('contact_number') && !CONTACT_NUMBER.test(fields.contact_number))
    problems.push({ column: 'contact_number', problem: 'contact_invalid' });
  if (fields.email !== '' && !failed.has('email') && !EMAIL.test(fields.email))
    problems.push({ column: 'email', problem: 'email_invalid' });
  if (fields.currency !== '' && !CURRENCY.test(fields.currency))
    problems.push({ column: 'currency', problem: 'currency_invalid' });
  return problems;
}

export async function parseSupplierFile(bytes: Buffer, filename: string): Promise<ParsedSupplierFile> {
  const sheet = await readSheet(bytes, filename, { maxRows: MAX_SUPPLIER_ROWS, dates: 'day' });
  if (!sheet.ok) return { ok: false, file: sheet.problem, rows: [] };
  const rows: SupplierRow[] = [];
  const errors: SupplierRowError[] = [];
  const codes = new Set<string>();
  for (const { row, cells } of sheet.rows) {
    // Trailing empty cells (a spreadsheet's padding) do not count as columns.
    while (cells.length > REQUIRED_SUPPLIER_COLUMNS && cells.at(-1) === '') cells.pop();
    if (cells.length < REQUIRED_SUPPLIER_COLUMNS || cells.length > SUPPLIER_COLUMNS.length) {
      errors.push({ row, problem: 'column_count' });
      continue;
    }
    const fields = Object.fromEntries(
      SUPPLIER_COLUMNS.map((column, index) => [column, cells[index] ?? '']),
    ) as SupplierFields;
    fields.currency = fields.currency.toUpperCase();
    const problems = supplierProblems(fields);
    const code = fields.code.toLowerCase();
    if (code !== '' && codes.has(code)) problems.push({ column: 'code', problem: 'code_repeated' });
    if (code !== '') codes.add(code);
    if (problems.length > 0) errors.push(...problems.map((problem) => ({ row, ...problem })));
    else rows.push({ row, ...fields });
  }
  if (errors.length > 0) return { ok: false, rows: errors };
  return { ok: true, hash: fileHash(bytes), rows };
}
