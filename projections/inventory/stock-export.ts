import type { ExportQuery, MovementRow, StockExportQuery, StockRow } from '@api/contracts/inventory-stock';
import type { Database } from '@infra/db';
import { type Language, translate } from '@infra/i18n';
import { type Cell, type Sheet, type SheetFormat, sheetFile } from '@infra/sheets/write';
import { MAX_PAGE_ROWS } from '@projections/runtime/grid';
import { movementsForExport, stockList } from '@projections/stock.queries';
import type { Kysely } from 'kysely';

/**
 * The movement report (GET /api/inventory/stock/movements/export) and the stock list (GET
 * /api/inventory/stock/export) as CSV or XLSX files: headers, actions and modes in the reader's language. Both are
 * streamed: rows are read a chunk at a time and written as they come, never all held at once.
 */

const EXPORT_COLUMNS = [
  'time',
  'master_code',
  'name',
  'warehouse',
  'action',
  'mode',
  'quantity',
  'previous_stock',
  'change',
  'stock_in',
  'stock_out',
  'new_stock',
  'reserved',
  'in_process',
  'on_hold',
  'pos_on_hold',
  'supplier_on_hold',
  'incoming',
  'available',
  'description',
  'source',
  'created_by',
] as const;

/** The export's sheet: its name and columns in the reader's language (the time with its time of day). */
const exportSheet = (language: Language): Sheet => ({
  name: translate(language, 'stock.export.sheet'),
  columns: EXPORT_COLUMNS.map((column) => ({
    header: translate(language, `stock.export.columns.${column}`),
    ...(column === 'time' ? { width: 22, dateTime: true } : {}),
    ...(column === 'description' || column === 'name' ? { width: 30 } : {}),
  })),
});

function exportCells(language: Language, row: MovementRow): Cell[] {
  return [
    new Date(row.occurred_at),
    row.master_code.code ?? row.master_code.id,
    row.master_code.name ?? '',
    row.warehouse.code ?? row.warehouse.id,
    translate(language, `stock.action.${row.action}`),
    row.mode ? translate(language, `stock.mode.${row.mode}`) : '',
    row.quantity,
    row.previous_stock,
    row.change,
    row.stock_in,
    row.stock_out,
    row.new_stock,
    row.reserved,
    row.in_process,
    row.on_hold,
    row.pos_on_hold,
    row.supplier_on_hold,
    row.incoming,
    row.available,
    row.description ?? '',
    row.source ? `${row.source.type}:${row.source.id}` : '',
    row.created_by?.name ?? '',
  ];
}

/** An export's file, named for what it holds and the day it was made (the reports' exports too). */
export function exportFile(
  name: string,
  format: SheetFormat,
  sheet: Sheet,
  rows: AsyncIterable<readonly Cell[]>,
  onError: (error: unknown) => void,
) {
  const stamp = new Date().toISOString().slice(0, 10).replace(/-/g, '');
  return { ...sheetFile(format, sheet, rows, onError), filename: `${name}-${stamp}.${format}` };
}

async function* exportRows(language: Language, rows: AsyncIterable<MovementRow>): AsyncGenerator<Cell[]> {
  for await (const row of rows) yield exportCells(language, row);
}

/** The file of the movements the query selects (at most EXPORT_MAX_ROWS, else the query refuses), and its name. */
export async function movementsFile(
  db: Kysely<Database>,
  tenantId: string,
  query: ExportQuery,
  language: Language,
  onError: (error: unknown) => void,
) {
  const rows = await movementsForExport(db, tenantId, query, language);
  return exportFile(
    'stock-movements',
    query.format,
    exportSheet(language),
    exportRows(language, rows),
    onError,
  );
}

const LIST_COLUMNS = [
  'master_code',
  'name',
  'seller_sku',
  'warehouse',
  'on_hand',
  'reserved',
  'in_process',
  'on_hold',
  'pos_on_hold',
  'supplier_on_hold',
  'available',
  'available_percent',
  'incoming',
  'last_movement',
] as const;

/** Rows of the stock list read a page at a time: the list's own largest page (a larger one is cut to it). */
export const LIST_CHUNK = MAX_PAGE_ROWS;

const listSheet = (language: Language): Sheet => ({
  name: translate(language, 'stock.export.list_sheet'),
  columns: LIST_COLUMNS.map((column) => ({
    header: translate(language, `stock.export.columns.${column}`),
    ...(column === 'last_movement' ? { width: 22, dateTime: true } : {}),
    ...(column === 'name' ? { width: 30 } : {}),
  })),
});

/** A combo has no figures of its own: its cells stay empty but for available, which comes from its components. */
const listCells = (row: StockRow): Cell[] => [
  row.code,
  row.name,
  row.seller_sku,
  row.warehouse_code,
  row.on_hand ?? '',
  row.reserved ?? '',
  row.in_process ?? '',
  row.on_hold ?? '',
  row.pos_on_hold ?? '',
  row.supplier_on_hold ?? '',
  row.available,
  row.available_percent ?? '',
  row.incoming ?? '',
  row.last_movement_at ? new Date(row.last_movement_at) : '',
];

/** The list's rows after its first page, read a page at a time. */
async function* listRows(
  db: Kysely<Database>,
  tenantId: string,
  query: StockExportQuery,
  first: Awaited<ReturnType<typeof stockList>>,
) {
  const { format: _format, ...list } = query;
  let page = first;
  for (let startRow = 0; ; ) {
    for (const row of page.rows) yield listCells(row);
    if (page.rows.length < LIST_CHUNK) return;
    startRow += LIST_CHUNK;
    page = await stockList(db, tenantId, { ...list, startRow, endRow: startRow + LIST_CHUNK });
  }
}

/** The stock list the query selects as a file, and its name. */
export async function stockListFile(
  db: Kysely<Database>,
  tenantId: string,
  query: StockExportQuery,
  language: Language,
  onError: (error: unknown) => void,
) {
  // The first page is read before the file starts: a refusal (an unknown warehouse) is then an answer of its own,
  // not a stream broken after its headers.
  const { format: _format, ...list } = query;
  const first = await stockList(db, tenantId, { ...list, startRow: 0, endRow: LIST_CHUNK });
  return exportFile(
    'stock-list',
    query.format,
    listSheet(language),
    listRows(db, tenantId, query, first),
    onError,
  );
}
