import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { storedLanguage } from '@web/i18n';
import { type Answer, ApiFailure, api, apiData, clearSession, getToken } from './client';
import { downloadFile } from './download';

/**
 * Inventory → stock (api/inventory/stock.ts): the stock list, single adjustments with an idempotency key, bulk
 * upload with its progress, the movement report and its export, the stock at a past instant with the movements
 * that led to it, a series for the chart, and the account's stock settings. The grids read their pages
 * themselves (components/data-grid); these are their endpoints.
 */

export const STOCK_ACTIONS = [
  'StockReceived',
  'StockAdjusted',
  'StockReserved',
  'StockReleased',
  'StockShipped',
  'StockReturned',
  'StockTransferredOut',
  'StockTransferredIn',
  'StockWrittenOff',
] as const;
export type StockAction = (typeof STOCK_ACTIONS)[number];

export const ADJUST_MODES = ['add', 'deduct', 'set'] as const;
export type AdjustMode = (typeof ADJUST_MODES)[number];

/** The bulk file's columns, in order (commands/inventory/adjustment-file.ts). */
export const ADJUSTMENT_COLUMNS = ['master_code', 'warehouse_code', 'mode', 'quantity', 'reason'] as const;
export const UPLOAD_MAX_BYTES = 5 * 1024 * 1024;
export const UPLOAD_MAX_ROWS = 10_000;
/** Largest adjustment quantity the API takes. */
export const QUANTITY_MAX = 1_000_000_000;
export const REASON_MAX = 500;

export const STOCK_LIST_ENDPOINT = '/api/inventory/stock';
export const MOVEMENTS_ENDPOINT = '/api/inventory/stock/movements';
const ADJUST_ENDPOINT = '/api/inventory/stock/adjust';
const UPLOAD_ENDPOINT = '/api/inventory/stock/upload';
const SETTINGS_ENDPOINT = '/api/inventory/settings';

export interface StockRow {
  /** `<masterCodeId>@<warehouseId>`: how the live view 'stock' names the row. */
  key: string;
  master_code_id: string;
  code: string;
  name: string;
  seller_sku: string;
  type: 'standard' | 'combo';
  status: 'active' | 'inactive';
  soft_threshold: number;
  warehouse_id: string;
  warehouse_code: string;
  warehouse_name: string;
  warehouse_kind: 'warehouse' | 'branch';
  /** null for a combo: it has no stock of its own. */
  on_hand: number | null;
  reserved: number | null;
  available: number;
  /** Available below zero: oversold. */
  negative: boolean;
  /** Available at or under the soft threshold. */
  low: boolean;
  last_movement_at: string | null;
}

export interface PlaceName {
  id: string;
  code: string | null;
  name: string | null;
}

export interface MovementRow {
  /** `<mc>@<wh>#<revision>` */
  id: string;
  master_code: PlaceName;
  warehouse: PlaceName;
  revision: number;
  occurred_at: string;
  action: StockAction;
  mode: AdjustMode | null;
  quantity: number;
  previous_stock: number;
  change: number;
  stock_in: number;
  stock_out: number;
  new_stock: number;
  reserved: number;
  available: number;
  description: string | null;
  source: { type: string; id: string } | null;
  counterpart_warehouse: PlaceName | null;
  created_by: { id: string; name: string } | null;
}

export interface StockMovement {
  master_code: { id: string; code: string; name: string };
  warehouse: { id: string; code: string; name: string };
  action: StockAction;
  mode: AdjustMode | null;
  quantity: number;
  previous_stock: number;
  change: number;
  on_hand: number;
  reserved: number;
  available: number;
  reason: string | null;
  revision: number;
}

export interface StockAtAnswer {
  on_hand: number;
  reserved: number;
  available: number;
  as_of_movement: MovementRow | null;
}

export interface StockHistory extends StockAtAnswer {
  /** Oldest first, ending with as_of_movement. */
  movements: MovementRow[];
  /** Movements up to the instant. */
  total: number;
}

export interface StockSeries {
  from: string;
  to: string;
  kind: 'movements' | 'sampled';
  points: { at: string; on_hand: number; reserved: number; available: number }[];
}

export interface StockSettings {
  refuse_negative_manual: boolean;
  updated_at: string | null;
}

export interface UploadRowError {
  row: number;
  column: string | null;
  message: string;
}

export interface UploadStatus {
  id: string;
  filename: string;
  status: 'running' | 'done' | 'failed';
  total: number;
  applied: number;
  replayed: number;
  failed: number;
  processed: number;
  errors: UploadRowError[];
  message: string | null;
  created_at: string;
  finished_at: string | null;
}

export interface MovementFilters {
  master_code_id?: string | undefined;
  warehouse_id?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  /** Comma list of actions. */
  action?: string | undefined;
}

export const stockKeys = {
  all: ['stock'] as const,
  settings: () => [...stockKeys.all, 'settings'] as const,
  upload: (id: string) => [...stockKeys.all, 'upload', id] as const,
  points: () => [...stockKeys.all, 'point'] as const,
  history: (query: Record<string, unknown>) => [...stockKeys.points(), 'history', query] as const,
  series: (query: Record<string, unknown>) => [...stockKeys.points(), 'series', query] as const,
};

/** An endpoint with its query (the grid adds its own paging to it). */
export function withQuery(path: string, query: Record<string, string | boolean | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== '' && value !== false) params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

// ---- adjustments ----

export interface AdjustBody {
  master_code_id: string;
  warehouse_id: string;
  mode: AdjustMode;
  quantity: number;
  reason?: string;
}

/** One adjustment; `key` is the Idempotency-Key of this submit, so a double submit moves stock once. */
export function useAdjustStock() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, key }: { body: AdjustBody; key: string }) =>
      api<Answer<StockMovement>>(ADJUST_ENDPOINT, {
        method: 'POST',
        body: { ...body, idempotency_key: key },
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: stockKeys.points() }),
  });
}

// ---- settings ----

export function useStockSettings(enabled = true) {
  return useQuery({
    queryKey: stockKeys.settings(),
    queryFn: () => apiData<StockSettings>(SETTINGS_ENDPOINT),
    enabled,
  });
}

export function useSaveStockSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { refuse_negative_manual: boolean }) =>
      api<Answer<StockSettings>>(SETTINGS_ENDPOINT, { method: 'PUT', body }),
    onSuccess: (answer) => queryClient.setQueryData(stockKeys.settings(), answer.data),
  });
}

// ---- bulk upload ----

/** A file the server refused: a message and, for bad rows, every one of them (nothing was applied). */
export class UploadRefused extends ApiFailure {
  rows: UploadRowError[];
  constructor(status: number, code: number, msg: string, rows: UploadRowError[]) {
    super(status, code, msg);
    this.name = 'UploadRefused';
    this.rows = rows;
  }
}

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Sends the file itself as the body (not multipart); answers the upload's id once its rows are queued. */
export async function uploadAdjustmentFile(
  file: File,
): Promise<{ upload_id: string; status: string; total: number; msg: string }> {
  const isXlsx = file.name.toLowerCase().endsWith('.xlsx');
  const headers: Record<string, string> = {
    accept: 'application/json',
    language: storedLanguage(),
    'content-type': isXlsx ? XLSX_TYPE : 'text/csv',
  };
  const token = getToken();
  if (token) headers.authorization = `Bearer ${token}`;
  let response: Response;
  try {
    response = await fetch(`${UPLOAD_ENDPOINT}?${new URLSearchParams({ filename: file.name })}`, {
      method: 'POST',
      headers,
      body: file,
    });
  } catch (error) {
    throw new ApiFailure(0, -1, error instanceof Error ? error.message : String(error));
  }
  let body: Record<string, unknown> = {};
  try {
    body = (await response.json()) as Record<string, unknown>;
  } catch {
    // an answer without JSON (a proxy's 413 page): the status says enough
  }
  if (response.ok) {
    const data = body.data as { upload_id: string; status: string; total: number };
    return { ...data, msg: typeof body.msg === 'string' ? body.msg : '' };
  }
  if (response.status === 401) clearSession();
  const msg = typeof body.msg === 'string' ? body.msg : response.statusText || `HTTP ${response.status}`;
  const code = typeof body.code === 'number' ? body.code : response.status;
  const rows = Array.isArray(body.rows) ? (body.rows as UploadRowError[]) : [];
  throw new UploadRefused(response.status, code, msg, rows);
}

export const UPLOAD_POLL_MS = 500;

/** An upload's progress, read again every UPLOAD_POLL_MS while it runs. */
export function useUploadStatus(id: string | null) {
  return useQuery({
    queryKey: stockKeys.upload(id ?? ''),
    queryFn: () => apiData<UploadStatus>(`${UPLOAD_ENDPOINT}/${encodeURIComponent(id ?? '')}`),
    enabled: id !== null,
    refetchInterval: (query) =>
      query.state.data?.status === 'running' || !query.state.data ? UPLOAD_POLL_MS : false,
    refetchIntervalInBackground: true,
  });
}

// ---- point in time ----

export interface PointQuery {
  master_code_id: string;
  warehouse_id: string;
  /** ISO instant. */
  until: string;
}

/** The stock at `until` and the movements that led to it (the last `limit`). */
export function useStockHistory(query: PointQuery | null, limit = 200) {
  return useQuery({
    queryKey: stockKeys.history({ ...query, limit }),
    queryFn: () =>
      apiData<StockHistory>('/api/inventory/stock/history', {
        query: { ...(query as PointQuery), limit },
      }),
    enabled: query !== null,
    placeholderData: keepPreviousData,
  });
}

/** The stock over time up to `until` for the chart (every movement, or evenly spaced samples when many). */
export function useStockSeries(query: PointQuery | null, points = 200) {
  return useQuery({
    queryKey: stockKeys.series({ ...query, points }),
    queryFn: () =>
      apiData<StockSeries>('/api/inventory/stock/series', {
        query: {
          master_code_id: query?.master_code_id,
          warehouse_id: query?.warehouse_id,
          to: query?.until,
          points,
        },
      }),
    enabled: query !== null,
    placeholderData: keepPreviousData,
  });
}

// ---- export ----

export function exportMovements(format: 'csv' | 'xlsx', filters: MovementFilters & { search?: string }) {
  return downloadFile(`${MOVEMENTS_ENDPOINT}/export`, {
    query: { format, ...filters },
    fileName: `stock-movements-${new Date().toISOString().slice(0, 10)}.${format}`,
  });
}

/** The template for the bulk upload: the header row alone (UTF-8, no BOM). */
export const adjustmentTemplate = () => `${ADJUSTMENT_COLUMNS.join(',')}\r\n`;
