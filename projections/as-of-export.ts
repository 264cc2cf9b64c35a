import type {
  AsOfOrderRow,
  AsOfOrdersExportQuery,
  AsOfStockExportQuery,
  AsOfStockRow,
} from '@api/contracts/audit';
import { STOCK_FIGURES } from '@api/contracts/audit';
import type { Database } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import { type Language, translate } from '@infra/i18n';
import { type Cell, type Sheet, sheetFile } from '@infra/sheets/write';
import type { Kysely } from 'kysely';
import { openOrdersAsOfRows, stockAsOfRows } from './as-of.queries';

/**
 * The reports as of a past instant as CSV or XLSX files, streamed (the rows are read a chunk at a time as the file
 * is written), headers in the reader's language, named for the instant they are as of.
 */

const FIGURES = STOCK_FIGURES;

const header = (language: Language, key: string) =>
  translate(language, key.includes('.') ? key : `audit.export.columns.${key}`);

const sheetOf = (language: Language, name: string, columns: readonly string[]): Sheet => ({
  name: translate(language, `audit.export.${name}`),
  columns: columns.map((column) => ({
    header: header(language, column),
    ...(column.endsWith('_at') ? { width: 22, dateTime: true } : {}),
    ...(column === 'name' ? { width: 30 } : {}),
  })),
});

const STOCK_COLUMNS = [
  'stock.export.columns.master_code',
  'name',
  'stock.export.columns.warehouse',
  ...FIGURES.map((figure) => `stock.export.columns.${figure}`),
  'average_cost',
  'value',
  'last_movement_at',
];

const stockCells = (row: AsOfStockRow): Cell[] => [
  row.master_code.code ?? row.master_code.id,
  row.master_code.name ?? '',
  row.warehouse.code ?? row.warehouse.id,
  ...FIGURES.map((figure) => row[figure]),
  Number(row.average_cost),
  Number(row.value),
  new Date(row.last_movement_at),
];

const stamp = (at: Date) => at.toISOString().slice(0, 19).replace(/[-:]/g, '');

async function* cellsOf<Row>(rows: AsyncIterable<Row>, cells: (row: Row) => Cell[]): AsyncGenerator<Cell[]> {
  for await (const row of rows) yield cells(row);
}

/** The stock balance and valuation at the instant as a file. */
export async function stockAsOfFile(
  db: Kysely<Database>,
  tenantId: string,
  query: AsOfStockExportQuery,
  language: Language,
  onError: (error: unknown) => void,
) {
  // Read before the file starts: a refusal (a future instant, an unknown warehouse) is then an answer of its own.
  const rows = await stockAsOfRows(db, tenantId, query);
  return {
    ...sheetFile(
      query.format,
      sheetOf(language, 'stock_sheet', STOCK_COLUMNS),
      cellsOf(rows, stockCells),
      onError,
    ),
    filename: `stock-as-of-${stamp(query.at)}.${query.format}`,
  };
}

const ORDER_COLUMNS = [
  'order_number',
  'platform',
  'status',
  'status_now',
  'ordered_at',
  'imported_at',
  'currency',
  'total_amount',
  'item_count',
];

const orderCells =
  (language: Language) =>
  (row: AsOfOrderRow): Cell[] => [
    row.order_number,
    row.platform,
    translate(language, `audit.order_status.${row.status}`),
    translate(language, `audit.order_status.${row.status_now}`),
    new Date(row.ordered_at),
    new Date(row.imported_at),
    row.currency,
    Number(row.total_amount),
    row.item_count,
  ];

/** The orders open at the instant as a file. */
export async function openOrdersAsOfFile(
  deps: { db: Kysely<Database>; store: EventStore },
  tenantId: string,
  query: AsOfOrdersExportQuery,
  language: Language,
  onError: (error: unknown) => void,
) {
  const rows = await openOrdersAsOfRows(deps, tenantId, query);
  return {
    ...sheetFile(
      query.format,
      sheetOf(language, 'orders_sheet', ORDER_COLUMNS),
      cellsOf(rows, orderCells(language)),
      onError,
    ),
    filename: `open-orders-as-of-${stamp(query.at)}.${query.format}`,
  };
}
