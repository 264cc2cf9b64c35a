import type { ReportTotals } from '@api/contracts/reports';
import type { ReportId } from '@domain/reports/catalogue';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiData, withQuery } from './client';
import { downloadFile } from './download';

/**
 * The reports (issue 16; api/reports/reports.ts): a report's rows come through the grid from its endpoint, its
 * totals row from `/totals`, its file from `/export`, all with the same filters.
 */

export type { ReportRow, ReportTotals } from '@api/contracts/reports';

/** The filters every report takes (those it does not use are ignored): instants, and ids. */
export interface ReportFilters {
  from?: string | undefined;
  to?: string | undefined;
  store_id?: string | undefined;
  warehouse_id?: string | undefined;
}

export const reportEndpoint = (report: ReportId) => `/api/reports/${report}`;

const reportKeys = {
  all: ['reports'] as const,
  totals: (report: ReportId, filters: ReportFilters) =>
    [...reportKeys.all, report, 'totals', filters] as const,
};

export function useReportTotals(report: ReportId, filters: ReportFilters) {
  return useQuery({
    queryKey: reportKeys.totals(report, filters),
    queryFn: () => apiData<ReportTotals>(withQuery(`${reportEndpoint(report)}/totals`, { ...filters })),
    placeholderData: keepPreviousData,
  });
}

/** The report as a file with the grid's filters; answers the file's name. */
export const exportReport = (report: ReportId, format: 'csv' | 'xlsx', filters: ReportFilters) =>
  downloadFile(`${reportEndpoint(report)}/export`, {
    query: { format, ...filters },
    fileName: `report-${report}-${new Date().toISOString().slice(0, 10)}.${format}`,
  });
