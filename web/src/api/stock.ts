import {
  ADJUST_MODES,
  type AdjustBody as AdjustBodySchema,
  type EXPORT_FORMATS,
  HOLD_ACTIONS,
  type HoldBody as HoldBodySchema,
  type MovementMode,
  type MovementRow,
  type StockFiguresAnswer,
  type StockHistory,
  type StockMovementAnswer,
  type StockRow,
  type StockSeries,
  type StockSettings,
} from '@api/contracts/inventory-stock';
import { QUANTITY_MAX } from '@domain/inventory/codes';
import { HOLD_KINDS, type HoldKind } from '@domain/inventory/stock';
import { ADJUSTMENT_COLUMNS } from '@domain/inventory/stock-upload';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { type Answer, api, apiData } from './client';
import { type DownloadRequest, downloadFile } from './download';
import { uploadFile } from './upload';

export type {
  MovementMode,
  MovementRow,
  StockFiguresAnswer as StockAtAnswer,
  StockHistory,
  StockMovementAnswer as StockMovement,
  StockRow,
  StockSeries,
  StockSettings,
};

type AdjustBody = Omit<z.input<typeof AdjustBodySchema>, 'idempotency_key'>;
type HoldBody = Omit<z.input<typeof HoldBodySchema>, 'idempotency_key'>;

/**
 * Inventory → stock (api/inventory/stock.ts): the stock list, single adjustments with an idempotency key, holds,
 * bulk upload with its progress, the movement report and its export, the stock at a past instant with the movements
 * that led to it, a series for the chart, and the account's stock settings. The grids read their pages
 * themselves (components/data-grid); these are their endpoints.
 *
 * Every stock figure of spec §3 ("Master code" → "Stock figures") as the API states it: next to on hand and
 * reserved, in process (orders being picked and packed), the three holds (the seller's, parked Smart POS sales, a
 * supplier's), incoming (expected, not on hand) and available online (on hand less what orders and holds keep).
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
  'StockProcessingStarted',
  'StockProcessingStopped',
  'StockHeld',
  'StockHoldReleased',
  'StockIncomingExpected',
  'StockIncomingCancelled',
] as const;
export type StockAction = (typeof STOCK_ACTIONS)[number];

export { ADJUST_MODES, HOLD_ACTIONS };
export type AdjustMode = (typeof ADJUST_MODES)[number];

/** The figures besides on hand, reserved and available, in the order the screens show them. */
export const EXTRA_FIGURES = [
  'in_process',
  'on_hold',
  'pos_on_hold',
  'supplier_on_hold',
  'incoming',
] as const;
export type ExtraFigure = (typeof EXTRA_FIGURES)[number];
export type Figures = Record<ExtraFigure, number>;

export { HOLD_KINDS, type HoldKind };
export type HoldAction = (typeof HOLD_ACTIONS)[number];

/** The figure each hold kind moves. */
export const HOLD_FIGURE: Record<HoldKind, 'on_hold' | 'pos_on_hold' | 'supplier_on_hold'> = {
  online: 'on_hold',
  pos: 'pos_on_hold',
  supplier: 'supplier_on_hold',
};

export { ADJUSTMENT_COLUMNS };
export const UPLOAD_MAX_BYTES = 5 * 1024 * 1024;
export const UPLOAD_MAX_ROWS = 10_000;
export { QUANTITY_MAX };

export const STOCK_LIST_ENDPOINT = '/api/inventory/stock';
export const MOVEMENTS_ENDPOINT = '/api/inventory/stock/movements';
const ADJUST_ENDPOINT = '/api/inventory/stock/adjust';
const UPLOAD_ENDPOINT = '/api/inventory/stock/upload';
const SETTINGS_ENDPOINT = '/api/inventory/settings';

export type MovementFilters = {
  master_code_id?: string | undefined;
  warehouse_id?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  /** Comma list of actions. */
  action?: string | undefined;
};

export const stockKeys = {
  all: ['stock'] as const,
  settings: () => [...stockKeys.all, 'settings'] as const,
  points: () => [...stockKeys.all, 'point'] as const,
  history: (query: Record<string, unknown>) => [...stockKeys.points(), 'history', query] as const,
  series: (query: Record<string, unknown>) => [...stockKeys.points(), 'series', query] as const,
};

// ---- adjustments ----

/** One adjustment; `key` is the Idempotency-Key of this submit, so a double submit moves stock once. */
export function useAdjustStock() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, key }: { body: AdjustBody; key: string }) =>
      api<Answer<StockMovementAnswer>>(ADJUST_ENDPOINT, {
        method: 'POST',
        body: { ...body, idempotency_key: key },
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: stockKeys.points() }),
  });
}

// ---- holding stock ----

const HOLD_ENDPOINT = '/api/inventory/stock/hold';

/** Puts stock on hold or releases it; `key` is the Idempotency-Key of this submit, so a double submit moves once. */
export function useHoldStock() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, key }: { body: HoldBody; key: string }) =>
      api<Answer<StockMovementAnswer>>(HOLD_ENDPOINT, {
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

/** Sends the file (api/upload.ts); answers the upload's id once its rows are queued. */
export async function uploadAdjustmentFile(
  file: File,
): Promise<{ upload_id: string; status: string; total: number; msg: string }> {
  const { data, msg } = await uploadFile<{ upload_id: string; status: string; total: number }>(
    UPLOAD_ENDPOINT,
    file,
  );
  return { ...data, msg };
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

type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** A list as a file (the list's endpoint + `/export`), with the list's filters; named for the day if the API does not. */
const exportList =
  <Filters extends NonNullable<DownloadRequest['query']>>(endpoint: string, name: string) =>
  (format: ExportFormat, filters: Filters) =>
    downloadFile(`${endpoint}/export`, {
      query: { format, ...filters },
      fileName: `${name}-${new Date().toISOString().slice(0, 10)}.${format}`,
    });

export const exportMovements = exportList<MovementFilters & { search?: string }>(
  MOVEMENTS_ENDPOINT,
  'stock-movements',
);
export const exportStockList = exportList<{ warehouse_id?: string; negative_only?: boolean }>(
  STOCK_LIST_ENDPOINT,
  'stock-list',
);

/** The template for the bulk upload: the header row alone (UTF-8, no BOM). */
export const adjustmentTemplate = () => `${ADJUSTMENT_COLUMNS.join(',')}\r\n`;
