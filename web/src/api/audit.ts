import type {
  AsOfOrderRow,
  AsOfStockPage,
  AsOfStockRow,
  DocumentReplay,
  StockReplay,
  StockStep,
  Verification,
} from '@api/contracts/audit';
import type { DocumentKind } from '@domain/audit/documents';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { apiData, withQuery } from './client';
import { downloadFile } from './download';

export type {
  AsOfOrderRow,
  AsOfStockRow,
  DocumentKind,
  DocumentReplay,
  StockReplay,
  StockStep,
  Verification,
};

/**
 * Reports as of a past instant and the auditor's replay (api/audit): the grids read their pages themselves
 * (components/data-grid), these are their endpoints; the replays of a stock and of a document; their signed CSV
 * files and the check of such a file.
 */

export const AS_OF_STOCK_ENDPOINT = '/api/audit/as-of/stock';
export const AS_OF_ORDERS_ENDPOINT = '/api/audit/as-of/orders';

const auditKeys = {
  totals: (filters: AsOfStockFilters) => ['audit', 'as-of-stock-totals', filters] as const,
  stock: (query: StockReplayQuery) => ['audit', 'stock', query] as const,
  document: (kind: DocumentKind, id: string) => ['audit', 'document', kind, id] as const,
};

export interface AsOfStockFilters {
  at: string;
  warehouse_id?: string;
  search?: string;
}

/** The totals of the stock valuation at an instant (the grid reads the rows). */
export function useAsOfStockTotals(filters: AsOfStockFilters | null) {
  return useQuery({
    queryKey: auditKeys.totals(filters ?? { at: '' }),
    queryFn: async () =>
      (await apiData<AsOfStockPage>(AS_OF_STOCK_ENDPOINT, { query: { ...filters, startRow: 0, endRow: 1 } }))
        .totals,
    enabled: filters !== null,
    placeholderData: keepPreviousData,
  });
}

type Format = 'csv' | 'xlsx';

export const exportAsOfStock = (format: Format, filters: AsOfStockFilters) =>
  downloadFile(`${AS_OF_STOCK_ENDPOINT}/export`, {
    query: { format, ...filters },
    fileName: `stock-as-of.${format}`,
  });

export const exportAsOfOrders = (format: Format, filters: { at: string; search?: string }) =>
  downloadFile(`${AS_OF_ORDERS_ENDPOINT}/export`, {
    query: { format, ...filters },
    fileName: `open-orders-as-of.${format}`,
  });

export const asOfEndpoint = (endpoint: string, filters: Record<string, string | undefined>) =>
  withQuery(endpoint, filters);

// ---- the replay ----

export interface StockReplayQuery {
  master_code_id: string;
  warehouse_id: string;
  from: number;
  limit: number;
}

export function useStockReplay(query: StockReplayQuery | null) {
  return useQuery({
    queryKey: auditKeys.stock(query ?? { master_code_id: '', warehouse_id: '', from: 0, limit: 0 }),
    queryFn: () => apiData<StockReplay>('/api/audit/stock', { query: { ...query } }),
    enabled: query !== null,
    placeholderData: keepPreviousData,
  });
}

export function useDocumentReplay(kind: DocumentKind, id: string) {
  return useQuery({
    queryKey: auditKeys.document(kind, id),
    queryFn: () => apiData<DocumentReplay>(`/api/audit/${kind}/${encodeURIComponent(id)}`),
  });
}

export const downloadStockReplay = (target: { master_code_id: string; warehouse_id: string }) =>
  downloadFile('/api/audit/stock/export', { query: target, fileName: 'stock-history.csv' });

export const downloadDocumentReplay = (kind: DocumentKind, id: string) =>
  downloadFile(`/api/audit/${kind}/${encodeURIComponent(id)}/export`, { fileName: `${kind}-history.csv` });

/** Checks a signed file's text. */
export function useVerifySignedFile() {
  return useMutation({
    mutationFn: (content: string) => apiData<Verification>('/api/audit/verify', { body: { content } }),
  });
}

/** The console page that replays a document, by the source type a stock movement names (none for the others). */
export function documentReplayPath(source: { type: string; id: string }): string | null {
  const kind: Record<string, DocumentKind> = {
    order: 'order',
    transfer: 'transfer',
    purchase: 'purchase',
    grn: 'goods-receipt',
    gin: 'goods-issue',
  };
  const found = kind[source.type];
  return found ? `/audit/${found}/${encodeURIComponent(source.id)}` : null;
}
