import { EXPORT_FORMATS_OF_REPORTS, REPORT_IDS, ReportCode } from '@domain/reports/catalogue';
import { z } from 'zod';
import { GridQuery } from './common';
import { rule as invalid } from './rules';

/**
 * The reports' shapes (issue 16; domain/reports/catalogue.ts lists the reports and their columns): a page of a
 * report for ag-grid, its totals row, and its export. Every report takes the same filters; those a report does not
 * use are ignored.
 */

const filterInvalid = invalid(ReportCode.filterInvalid, 'reports.filter_invalid');

/** An instant with its zone (`2026-01-31T16:00:00Z`, what the console sends for a local day's start), or a date. */
const Instant = z
  .string({ error: filterInvalid })
  .max(40, filterInvalid)
  .regex(/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2}))?$/, filterInvalid)
  .transform((text, ctx) => {
    const date = new Date(text.length === 10 ? `${text}T00:00:00Z` : text.replace(' ', 'T'));
    if (Number.isNaN(date.getTime())) {
      ctx.addIssue({ code: 'custom', message: filterInvalid });
      return z.NEVER;
    }
    return date;
  });
const RefId = z.string({ error: filterInvalid }).trim().min(1, filterInvalid).max(100, filterInvalid);

export const ReportParams = z.strictObject({
  report: z.enum(REPORT_IDS, { error: invalid(ReportCode.notFound, 'reports.not_found') }),
});

export const ReportFilters = {
  /** The period's start (included) and end (excluded). */
  from: Instant.optional(),
  to: Instant.optional(),
  store_id: RefId.optional(),
  warehouse_id: RefId.optional(),
};

/** The grid's query (its column filters and search, which no report has, are taken and ignored) and the filters. */
export const ReportQuery = GridQuery.extend(ReportFilters);
export type ReportQuery = z.infer<typeof ReportQuery>;

export const ReportTotalsQuery = z.strictObject(ReportFilters);

export const ReportExportQuery = ReportQuery.omit({ startRow: true, endRow: true }).extend({
  format: z.enum(EXPORT_FORMATS_OF_REPORTS, {
    error: invalid(ReportCode.formatInvalid, 'reports.format_invalid'),
  }),
});
export type ReportExportQuery = z.infer<typeof ReportExportQuery>;

/** A report's row: its columns by the catalogue's ids (money as text with two decimals, instants as ISO text). */
export const ReportRow = z.record(z.string(), z.union([z.string(), z.number(), z.null()]));
export type ReportRow = z.infer<typeof ReportRow>;

export const ReportTotals = z.object({
  /** How many rows the report has for the filters. */
  rows: z.number().int(),
  /** The sums of its count and money columns. */
  totals: ReportRow,
});
export type ReportTotals = z.infer<typeof ReportTotals>;
