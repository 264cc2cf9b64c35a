import { ErrorAnswer, GridPage, Ok, ok, refusals } from '@api/answers';
import { seller } from '@api/auth/session';
import {
  AtQuery,
  ExportQuery,
  HistoryQuery,
  MovementQuery,
  MovementRow,
  SeriesQuery,
  StockFiguresAnswer,
  StockHistory,
  StockListQuery,
  StockRow,
  StockSeries,
} from '@api/contracts/inventory-stock';
import { type Language, translate } from '@infra/i18n';
import { type Cell, type Sheet, sheetFile } from '@infra/sheets/write';
import {
  EXPORT_MAX_ROWS,
  listMovements,
  movementsForExport,
  stockAsOf,
  stockHistory,
  stockList,
  stockSeries,
} from '@projections/stock.queries';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type StockDeps, tags } from './stock-common';

/**
 * The stock reports (queries: projections/stock.queries.ts; shapes: api/contracts/inventory-stock.ts): the stock
 * list, the movement report and its CSV/XLSX export, one stock at a past instant, its history and its series.
 */

// ---- export files ----

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

async function* exportRows(language: Language, rows: AsyncIterable<MovementRow>): AsyncGenerator<Cell[]> {
  for await (const row of rows) yield exportCells(language, row);
}

// ---- routes ----

const movementAccess = { access: { permission: 'inventory-stock-movement' } } as const;

export const stockReportRoutes: FastifyPluginAsyncZod<StockDeps> = async (app, { db }) => {
  app.get(
    '/api/inventory/stock',
    {
      config: { access: { permission: 'inventory-master-code' } },
      schema: {
        tags,
        summary:
          'The stock list per master code per warehouse for ag-grid (combos derived from their components); filter, search, sort, page',
        querystring: StockListQuery,
        response: { 200: Ok(GridPage(StockRow)), ...refusals },
      },
    },
    async (request) => ok(request, await stockList(db, seller(request).tenantId, request.query)),
  );

  app.get(
    '/api/inventory/stock/movements',
    {
      config: movementAccess,
      schema: {
        tags,
        summary:
          'The stock movement report, newest first: previous stock, change, in, out, new stock, warehouse, time, action, description, created by',
        querystring: MovementQuery,
        response: { 200: Ok(GridPage(MovementRow)), ...refusals },
      },
    },
    async (request) => ok(request, await listMovements(db, seller(request).tenantId, request.query)),
  );

  app.get(
    '/api/inventory/stock/movements/export',
    {
      config: { access: { permission: 'inventory-list-export' } },
      schema: {
        tags,
        summary: `The movement report as a CSV or XLSX file, with the report's filters (at most ${EXPORT_MAX_ROWS} rows)`,
        querystring: ExportQuery,
        response: {
          200: z.unknown().describe('The file: text/csv (UTF-8 with a BOM) or XLSX, as an attachment'),
          ...refusals,
        },
      },
    },
    async (request, reply) => {
      const query = request.query;
      const rows = await movementsForExport(db, seller(request).tenantId, query);
      const stamp = new Date().toISOString().slice(0, 10).replace(/-/g, '');
      const filename = `stock-movements-${stamp}.${query.format}`;
      reply.header('content-disposition', `attachment; filename="${filename}"`);
      reply.header('cache-control', 'no-store');
      const file = sheetFile(
        query.format,
        exportSheet(request.language),
        exportRows(request.language, rows),
        (error) => request.log.error({ err: error }, 'xlsx export failed'),
      );
      reply.type(file.type);
      return reply.send(file.body);
    },
  );

  app.get(
    '/api/inventory/stock/at',
    {
      config: movementAccess,
      schema: {
        tags,
        summary:
          'The stock of a master code in a warehouse as it was at a past instant, and the movement that left it so',
        querystring: AtQuery,
        response: { 200: Ok(StockFiguresAnswer), ...refusals, 409: ErrorAnswer },
      },
    },
    async (request) => ok(request, await stockAsOf(db, seller(request).tenantId, request.query)),
  );

  app.get(
    '/api/inventory/stock/history',
    {
      config: movementAccess,
      schema: {
        tags,
        summary:
          "The auditor's replay: a stock as of an instant and the movements that led to it, a page at a time (oldest first)",
        querystring: HistoryQuery,
        response: { 200: Ok(StockHistory), ...refusals, 409: ErrorAnswer },
      },
    },
    async (request) => ok(request, await stockHistory(db, seller(request).tenantId, request.query)),
  );

  app.get(
    '/api/inventory/stock/series',
    {
      config: movementAccess,
      schema: {
        tags,
        summary:
          'A stock over time for a chart: every movement in the period, or the stock sampled at evenly spaced instants',
        querystring: SeriesQuery,
        response: { 200: Ok(StockSeries), ...refusals, 409: ErrorAnswer },
      },
    },
    async (request) => ok(request, await stockSeries(db, seller(request).tenantId, request.query)),
  );
};
