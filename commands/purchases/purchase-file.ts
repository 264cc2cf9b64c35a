import { PURCHASE_COLUMNS, type PurchaseColumn } from '@domain/purchases/purchase-file';
import { TEXT_LIMITS } from '@domain/shared/limits';
import { type FileProblem, fileHash, readSheet } from '@infra/sheets/read';

/**
 * The purchase bulk file: CSV (UTF-8, a BOM skipped) or XLSX, the first row a header (ignored), then one item a row
 * in the fixed column order below. Rows sharing a reference make one purchase order; the order's own columns
 * (supplier, warehouse, date, estimated arrival, discount) are read from its first row, and a later row of the same
 * order that states a different value is refused. The orders are created as drafts (`pending`). A file with any bad
 * row is refused whole, with every bad row listed: the well-formed orders come back beside the format problems, so
 * that their codes are checked in the same answer.
 */

export const REQUIRED_PURCHASE_COLUMNS = 6;
export const MAX_PURCHASE_ROWS = 5_000;

export interface PurchaseFileLine {
  row: number;
  masterCode: string;
  quantity: number;
  unitCost: string;
}

export interface PurchaseFileOrder {
  /** The first row of the order. */
  row: number;
  reference: string;
  supplierCode: string;
  warehouseCode: string;
  /** yyyy-mm-dd; empty: today. */
  date: string;
  estimatedArrival: string | null;
  discount: string;
  lines: PurchaseFileLine[];
}

export type PurchaseFileProblem =
  | 'column_count'
  | 'required'
  | 'too_long'
  | 'quantity_invalid'
  | 'unit_cost_invalid'
  | 'date_invalid'
  | 'discount_invalid'
  | 'differs'
  | 'master_code_repeated';

export interface PurchaseRowError {
  row: number;
  column?: PurchaseColumn;
  problem: PurchaseFileProblem;
}

export type ParsedPurchaseFile =
  | { ok: true; hash: string; orders: PurchaseFileOrder[]; problems: PurchaseRowError[] }
  | { ok: false; file: FileProblem };

const amountOf = (text: string): string | null => {
  if (!/^\d{1,14}(\.\d{1,4})?$/.test(text)) return null;
  const [whole = '0', fraction = ''] = text.split('.');
  return `${BigInt(whole)}.${fraction.padEnd(4, '0')}`;
};

export const isDay = (text: string) => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
};

export async function parsePurchaseFile(bytes: Buffer, filename: string): Promise<ParsedPurchaseFile> {
  const sheet = await readSheet(bytes, filename, { maxRows: MAX_PURCHASE_ROWS, dates: 'day' });
  if (!sheet.ok) return { ok: false, file: sheet.problem };
  const errors: PurchaseRowError[] = [];
  const orders = new Map<string, PurchaseFileOrder>();
  for (const { row, cells } of sheet.rows) {
    while (cells.length > REQUIRED_PURCHASE_COLUMNS && cells.at(-1) === '') cells.pop();
    if (cells.length < REQUIRED_PURCHASE_COLUMNS || cells.length > PURCHASE_COLUMNS.length) {
      errors.push({ row, problem: 'column_count' });
      continue;
    }
    const [reference, supplierCode, warehouseCode, masterCode, quantityText, unitCostText] = cells as [
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    const date = cells[6] ?? '';
    const arrival = cells[7] ?? '';
    const discountText = cells[8] ?? '';
    const problems: PurchaseRowError[] = [];
    const required = (column: PurchaseColumn, value: string, max: number) => {
      if (value === '') problems.push({ row, column, problem: 'required' });
      else if (value.length > max) problems.push({ row, column, problem: 'too_long' });
    };
    required('reference', reference, TEXT_LIMITS.reference);
    // The order's own columns are required on its first row only; later rows may leave them empty.
    const first = !orders.has(reference.toLowerCase());
    if (first || supplierCode !== '') required('supplier_code', supplierCode, 100);
    if (first || warehouseCode !== '') required('warehouse_code', warehouseCode, 50);
    required('master_code', masterCode, 100);
    const quantity = /^\d{1,10}$/.test(quantityText) ? Number(quantityText) : Number.NaN;
    if (!Number.isInteger(quantity) || quantity < 1 || quantity > 1_000_000_000)
      problems.push({ row, column: 'quantity', problem: 'quantity_invalid' });
    const unitCost = amountOf(unitCostText);
    if (unitCost === null) problems.push({ row, column: 'unit_cost', problem: 'unit_cost_invalid' });
    if (date !== '' && !isDay(date)) problems.push({ row, column: 'date', problem: 'date_invalid' });
    if (arrival !== '' && !isDay(arrival))
      problems.push({ row, column: 'estimated_arrival', problem: 'date_invalid' });
    const discount = discountText === '' ? '0.0000' : amountOf(discountText);
    if (discount === null) problems.push({ row, column: 'discount', problem: 'discount_invalid' });
    if (problems.length > 0) {
      errors.push(...problems);
      continue;
    }
    const key = reference.toLowerCase();
    const order = orders.get(key);
    const line = { row, masterCode, quantity, unitCost: unitCost! };
    if (!order) {
      orders.set(key, {
        row,
        reference,
        supplierCode,
        warehouseCode,
        date,
        estimatedArrival: arrival === '' ? null : arrival,
        discount: discount!,
        lines: [line],
      });
      continue;
    }
    // An order's own columns are stated once; a row may leave them empty or repeat them, never change them.
    const differs = (column: PurchaseColumn, value: string, first: string) => {
      if (value !== '' && value.toLowerCase() !== first.toLowerCase())
        problems.push({ row, column, problem: 'differs' });
    };
    differs('supplier_code', supplierCode, order.supplierCode);
    differs('warehouse_code', warehouseCode, order.warehouseCode);
    differs('date', date, order.date);
    differs('estimated_arrival', arrival, order.estimatedArrival ?? '');
    if (discountText !== '' && discount !== order.discount)
      problems.push({ row, column: 'discount', problem: 'differs' });
    if (order.lines.some((existing) => existing.masterCode.toLowerCase() === masterCode.toLowerCase()))
      problems.push({ row, column: 'master_code', problem: 'master_code_repeated' });
    if (problems.length > 0) errors.push(...problems);
    else order.lines.push(line);
  }
  return { ok: true, hash: fileHash(bytes), orders: [...orders.values()], problems: errors };
}
