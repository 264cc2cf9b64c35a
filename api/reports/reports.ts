import { GridPage, ok } from '@api/answers';
import { seller } from '@api/auth/session';
import {
  ReportExportQuery,
  ReportParams,
  ReportQuery,
  ReportRow,
  ReportTotals,
  ReportTotalsQuery,
} from '@api/contracts/reports';
import { attachmentName, fileAnswers, sendFile } from '@api/files';
import { router } from '@api/route';
import type { Db } from '@infra/db';
import { SHEET_TYPES } from '@infra/sheets/write';
import { reportFile } from '@projections/reports/report-export';
import { reportPage, reportTotals } from '@projections/reports/reports.queries';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/**
 * The reports (issue 16; domain/reports/catalogue.ts): a page of a report for ag-grid, its totals row, and its
 * export, streamed. Everyone who may view and print reports (spec §6 `pos-view-print-report`) reads every report.
 */

export const reportRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const route = router(app, { tags: ['reports'], access: { permission: 'pos-view-print-report' } });

  route.get(
    '/api/reports/:report',
    {
      summary:
        'A page of a report for ag-grid (date range, store and warehouse filters; sorted by its columns)',
      params: ReportParams,
      query: ReportQuery,
      answer: GridPage(ReportRow),
    },
    async (request) =>
      ok(request, await reportPage(db, seller(request).tenantId, request.params.report, request.query)),
  );

  route.get(
    '/api/reports/:report/totals',
    {
      summary: "A report's totals row (its counts and amounts summed) and how many rows it has",
      params: ReportParams,
      query: ReportTotalsQuery,
      answer: ReportTotals,
    },
    async (request) =>
      ok(request, await reportTotals(db, seller(request).tenantId, request.params.report, request.query)),
  );

  route.get(
    '/api/reports/:report/export',
    {
      summary: 'A report as a CSV or XLSX file, streamed; refused when it has no rows or too many',
      params: ReportParams,
      query: ReportExportQuery,
      raw: fileAnswers('CSV (UTF-8 with a BOM) or XLSX, as an attachment', Object.values(SHEET_TYPES)),
    },
    async (request, reply) => {
      const file = await reportFile(
        db,
        seller(request).tenantId,
        request.params.report,
        request.query,
        request.language,
        (error) => request.log.error({ err: error }, 'report export failed'),
      );
      return sendFile(reply, file.type, file.body, attachmentName(file.filename));
    },
  );
};
