import type { Readable } from 'node:stream';
import { ErrorAnswer, GridPage, ok } from '@api/answers';
import { seller } from '@api/auth/session';
import {
  AtQuery,
  ExportQuery,
  HistoryQuery,
  MovementQuery,
  MovementRow,
  SeriesQuery,
  StockExportQuery,
  StockFiguresAnswer,
  StockHistory,
  StockListQuery,
  StockRow,
  StockSeries,
} from '@api/contracts/inventory-stock';
import { attachmentName, fileAnswers, sendFile } from '@api/files';
import { router } from '@api/route';
import { SHEET_TYPES } from '@infra/sheets/write';
import { movementsFile, stockListFile } from '@projections/inventory/stock-export';
import {
  EXPORT_MAX_ROWS,
  listMovements,
  stockAsOf,
  stockHistory,
  stockList,
  stockSeries,
} from '@projections/stock.queries';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type StockDeps, tags } from './stock-common';

/** The stock reports: the stock list, the movement report and its file, one stock at a past instant, its history
 * and its series (queries: projections/stock.queries.ts). */

/** What an export route declares beside its query: the export key, the download module and its file's answers. */
const exporting = {
  access: { permission: 'inventory-list-export' },
  module: 'downloadModule',
  raw: fileAnswers('CSV (UTF-8 with a BOM) or XLSX, as an attachment', Object.values(SHEET_TYPES)),
} as const;

const sendExport = (reply: FastifyReply, file: { type: string; body: Readable; filename: string }) =>
  sendFile(reply, file.type, file.body, attachmentName(file.filename));

const combosRefused = { errors: { 409: ErrorAnswer } } as const;

export const stockReportRoutes: FastifyPluginAsyncZod<StockDeps> = async (app, { db }) => {
  const route = router(app, { tags, access: { permission: 'inventory-stock-movement' } });

  route.get(
    '/api/inventory/stock',
    {
      summary: 'The stock per master code per place for ag-grid (combos from their components)',
      access: { permission: 'inventory-master-code' },
      query: StockListQuery,
      answer: GridPage(StockRow),
    },
    async (request) => ok(request, await stockList(db, seller(request).tenantId, request.query)),
  );

  route.get(
    '/api/inventory/stock/export',
    {
      summary: "The stock list as a CSV or XLSX file, with the list's filters, search and sort (streamed)",
      query: StockExportQuery,
      ...exporting,
    },
    async (request, reply) => {
      const file = await stockListFile(
        db,
        seller(request).tenantId,
        request.query,
        request.language,
        (error) => request.log.error({ err: error }, 'stock list export failed'),
      );
      return sendExport(reply, file);
    },
  );

  route.get(
    '/api/inventory/stock/movements',
    {
      summary: 'The stock movement report for ag-grid, newest first',
      query: MovementQuery,
      answer: GridPage(MovementRow),
    },
    async (request) =>
      ok(request, await listMovements(db, seller(request).tenantId, request.query, request.language)),
  );

  route.get(
    '/api/inventory/stock/movements/export',
    {
      summary: `The movement report as a CSV or XLSX file, with the report's filters (at most ${EXPORT_MAX_ROWS} rows)`,
      query: ExportQuery,
      ...exporting,
    },
    async (request, reply) => {
      const file = await movementsFile(
        db,
        seller(request).tenantId,
        request.query,
        request.language,
        (error) => request.log.error({ err: error }, 'xlsx export failed'),
      );
      return sendExport(reply, file);
    },
  );

  route.get(
    '/api/inventory/stock/at',
    {
      summary: 'A stock as it was at a past instant, and the movement that left it so',
      query: AtQuery,
      answer: StockFiguresAnswer,
      ...combosRefused,
    },
    async (request) =>
      ok(request, await stockAsOf(db, seller(request).tenantId, request.query, request.language)),
  );

  route.get(
    '/api/inventory/stock/history',
    {
      summary: "The auditor's replay: a stock as of an instant and the movements up to it, a page at a time",
      query: HistoryQuery,
      answer: StockHistory,
      ...combosRefused,
    },
    async (request) =>
      ok(request, await stockHistory(db, seller(request).tenantId, request.query, request.language)),
  );

  route.get(
    '/api/inventory/stock/series',
    {
      summary: 'A stock over time for a chart: every movement, or samples at evenly spaced instants',
      query: SeriesQuery,
      answer: StockSeries,
      ...combosRefused,
    },
    async (request) => ok(request, await stockSeries(db, seller(request).tenantId, request.query)),
  );
};
