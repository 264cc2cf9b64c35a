import { type ReportId, reportOf } from '@domain/reports/catalogue';
import type { Database } from '@infra/db';
import { type Language, translate } from '@infra/i18n';
import type { Cell, Sheet, SheetFormat } from '@infra/sheets/write';
import { exportFile } from '@projections/inventory/stock-export';
import type { Kysely } from 'kysely';
import { type ReportFilters, type ReportRow, type ReportSort, reportRowsForExport } from './reports.queries';

/**
 * A report as a CSV or XLSX file (GET /api/reports/<report>/export): its columns' headers in the reader's language,
 * its rows in the grid's order, streamed from a cursor a batch at a time (projections/reports/reports.queries.ts)
 * through the stock exports' writer, so a report of a million rows is never held whole.
 */

function sheetOf(id: ReportId, language: Language): Sheet {
  return {
    name: translate(language, `reports.titles.${id}`).slice(0, 31),
    columns: reportOf(id).columns.map((column) => ({
      header: translate(language, `reports.columns.${column.id}`),
      ...(column.kind === 'instant' ? { width: 22, dateTime: true } : {}),
      ...(column.id === 'name' ? { width: 30 } : {}),
    })),
  };
}

/** Instants as dates, money as numbers (a spreadsheet sums them), the rest as they are. */
function cellsOf(id: ReportId) {
  const columns = reportOf(id).columns;
  return (row: ReportRow): Cell[] =>
    columns.map(({ id: name, kind }) => {
      const value = row[name];
      if (value === null || value === undefined) return '';
      if (kind === 'instant') return new Date(value);
      if (kind === 'money') return Number(value);
      return value;
    });
}

async function* cells(id: ReportId, batches: AsyncIterable<ReportRow[]>): AsyncGenerator<Cell[]> {
  const toCells = cellsOf(id);
  for await (const batch of batches) for (const row of batch) yield toCells(row);
}

/** The report's file; refused (nothing written) when it has no rows or more than `cap`. */
export async function reportFile(
  db: Kysely<Database>,
  tenantId: string,
  id: ReportId,
  query: ReportFilters & { sortModel: readonly ReportSort[]; format: SheetFormat },
  language: Language,
  onError: (error: unknown) => void,
  cap?: number,
) {
  const batches = await reportRowsForExport(db, tenantId, id, query, cap);
  return exportFile(`report-${id}`, query.format, sheetOf(id, language), cells(id, batches), onError);
}
