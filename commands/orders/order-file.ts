import {
  isCashOnDelivery,
  ORDER_FILE_COLUMNS,
  type OrderFileColumn,
  REQUIRED_ORDER_COLUMNS,
} from '@domain/orders/order-file';
import { type FileProblem, fileHash, readSheet } from '@infra/sheets/read';

/**
 * Reading the manual order file (domain/orders/order-file.ts has its columns): every row checked, every problem of
 * every row listed. An order's own columns are required on its first row; a later row may leave them empty
 * or repeat them, never change them.
 */

export const MAX_ORDER_ROWS = 5_000;

/** The lengths the order events allow (domain/orders/marketplace-order.ts). */
const MAX_LENGTH: Partial<Record<OrderFileColumn, number>> = {
  order_number: 100,
  store: 200,
  sku: 200,
  buyer_name: 200,
  phone: 40,
  address: 1000,
  city: 100,
  state: 100,
  postcode: 20,
  payment_method: 100,
  tracking_number: 100,
  shipping_provider: 200,
  buyer_remark: 2000,
  email: 200,
};
export const maxLengthOf = (column: OrderFileColumn | undefined) => (column && MAX_LENGTH[column]) || 0;

/** The order's own columns, stated on its first row: all but the order number and the line's own. */
const LINE_COLUMNS = new Set<OrderFileColumn>(['order_number', 'sku', 'quantity', 'unit_price']);
const ORDER_OWN = ORDER_FILE_COLUMNS.filter((column) => !LINE_COLUMNS.has(column));
/** Required on an order's first row (quantity and unit price have checks of their own). */
const REQUIRED_OWN = new Set<OrderFileColumn>([
  'store',
  'buyer_name',
  'phone',
  'address',
  'city',
  'state',
  'postcode',
]);

export type OrderFileProblem =
  | 'column_count'
  | 'required'
  | 'too_long'
  | 'quantity_invalid'
  | 'price_invalid'
  | 'paid_invalid'
  | 'email_invalid'
  | 'differs'
  | 'text_invalid';

export interface OrderRowError {
  row: number;
  column?: OrderFileColumn;
  problem: OrderFileProblem;
}

export interface OrderFileLine {
  row: number;
  sku: string;
  quantity: number;
  unitPrice: string;
}

export interface OrderFileOrder {
  /** The first row of the order. */
  row: number;
  orderNumber: string;
  store: string;
  buyerName: string;
  phone: string;
  address: string;
  city: string;
  state: string;
  postcode: string;
  paid: boolean;
  cod: boolean;
  paymentMethod: string;
  shippingFee: string;
  trackingNumber: string;
  shippingProvider: string;
  buyerRemark: string;
  email: string;
  lines: OrderFileLine[];
}

/**
 * A readable file's orders (of its good rows) and its bad rows, so the caller checks the good rows against the
 * account too and answers every problem at once (issue 14: format errors first and unknown codes only on a second
 * upload was two rounds); or why the file cannot be read.
 */
export type ParsedOrderFile =
  | { ok: true; hash: string; orders: OrderFileOrder[]; rows: OrderRowError[] }
  | { ok: false; file: FileProblem };

const UTF8_BOM = [0xef, 0xbb, 0xbf];

/** Excel's "CSV UTF-8" starts with a BOM: what sellers have, so it is read as the text after it. */
const withoutBom = (bytes: Buffer, filename: string) =>
  filename.toLowerCase().endsWith('.csv') && UTF8_BOM.every((byte, at) => bytes[at] === byte)
    ? bytes.subarray(UTF8_BOM.length)
    : bytes;

const moneyOf = (text: string): string | null =>
  /^\d{1,12}(\.\d{1,2})?$/.test(text) ? Number(text).toFixed(2) : null;

const PAID: Record<string, boolean> = {
  '': true,
  yes: true,
  y: true,
  '1': true,
  no: false,
  n: false,
  '0': false,
};

export async function parseOrderFile(bytes: Buffer, filename: string): Promise<ParsedOrderFile> {
  const sheet = await readSheet(withoutBom(bytes, filename), filename, {
    maxRows: MAX_ORDER_ROWS,
    dates: 'day',
  });
  if (!sheet.ok) return { ok: false, file: sheet.problem };
  const errors: OrderRowError[] = [];
  const orders = new Map<string, OrderFileOrder>();
  for (const { row, cells } of sheet.rows) {
    while (cells.length > REQUIRED_ORDER_COLUMNS && cells.at(-1) === '') cells.pop();
    if (cells.length < REQUIRED_ORDER_COLUMNS || cells.length > ORDER_FILE_COLUMNS.length) {
      errors.push({ row, problem: 'column_count' });
      continue;
    }
    const cell = (column: OrderFileColumn) => cells[ORDER_FILE_COLUMNS.indexOf(column)] ?? '';
    const problems: OrderRowError[] = [];
    const orderNumber = cell('order_number');
    const first = orderNumber !== '' && !orders.has(orderNumber.toLowerCase());
    for (const column of ORDER_FILE_COLUMNS) {
      const value = cell(column);
      const required = column === 'order_number' || column === 'sku' || (first && REQUIRED_OWN.has(column));
      const max = MAX_LENGTH[column];
      // Postgres text holds no NUL: a file's cells do not pass api/validation.ts, so they are checked here.
      if (value.includes('\u0000')) problems.push({ row, column, problem: 'text_invalid' });
      else if (required && value === '') problems.push({ row, column, problem: 'required' });
      else if (max !== undefined && value.length > max) problems.push({ row, column, problem: 'too_long' });
    }
    const quantityText = cell('quantity');
    const quantity = /^\d{1,6}$/.test(quantityText) ? Number(quantityText) : 0;
    if (quantity < 1 || quantity > 100_000)
      problems.push({ row, column: 'quantity', problem: 'quantity_invalid' });
    const unitPrice = moneyOf(cell('unit_price'));
    if (unitPrice === null) problems.push({ row, column: 'unit_price', problem: 'price_invalid' });
    const shippingFee = cell('shipping_fee') === '' ? '0.00' : moneyOf(cell('shipping_fee'));
    if (shippingFee === null) problems.push({ row, column: 'shipping_fee', problem: 'price_invalid' });
    const paid = PAID[cell('paid').toLowerCase()];
    if (paid === undefined) problems.push({ row, column: 'paid', problem: 'paid_invalid' });
    const email = cell('email');
    if (email !== '' && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
      problems.push({ row, column: 'email', problem: 'email_invalid' });
    if (problems.length > 0) {
      errors.push(...problems);
      continue;
    }
    const line = { row, sku: cell('sku'), quantity, unitPrice: unitPrice! };
    const existing = orders.get(orderNumber.toLowerCase());
    if (!existing) {
      const paymentMethod = cell('payment_method');
      orders.set(orderNumber.toLowerCase(), {
        row,
        orderNumber,
        store: cell('store'),
        buyerName: cell('buyer_name'),
        phone: cell('phone'),
        address: cell('address'),
        city: cell('city'),
        state: cell('state'),
        postcode: cell('postcode'),
        cod: isCashOnDelivery(paymentMethod),
        paid: paid! && !isCashOnDelivery(paymentMethod),
        paymentMethod,
        shippingFee: shippingFee!,
        trackingNumber: cell('tracking_number'),
        shippingProvider: cell('shipping_provider'),
        buyerRemark: cell('buyer_remark'),
        email,
        lines: [line],
      });
      continue;
    }
    const firstRow = sheet.rows.find((candidate) => candidate.row === existing.row)!;
    for (const column of ORDER_OWN) {
      const value = cell(column);
      const stated = firstRow.cells[ORDER_FILE_COLUMNS.indexOf(column)] ?? '';
      if (value !== '' && value.toLowerCase() !== stated.toLowerCase())
        problems.push({ row, column, problem: 'differs' });
    }
    if (problems.length > 0) errors.push(...problems);
    else existing.lines.push(line);
  }
  return { ok: true, hash: fileHash(bytes), orders: [...orders.values()], rows: errors };
}
