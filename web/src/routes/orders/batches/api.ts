import type { BatchSplit, BatchStatus, BatchType } from '@domain/batches/batch';
import type { PickListFilter } from '@domain/batches/pick-list';
import { BATCHES_VIEW, ORDER_COUNTS_VIEW } from '@domain/shared/live-views';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type Answer, api, apiData } from '@web/api/client';
import { downloadFile } from '@web/api/download';

/**
 * Batches and auto batch (api/orders/batches*.ts): the batch list (a grid endpoint), one batch with its orders,
 * the orders waiting for a batch, the pickers, the pick list (JSON and PDF), the batch actions, and the auto batch
 * configurations. Keys from one factory; a mutation invalidates what it changed.
 */

export type { BatchSplit, BatchStatus, BatchType } from '@domain/batches/batch';
export {
  BATCH_SPLITS,
  BATCH_TYPES,
  DEFAULT_DIGITS,
  DEFAULT_MAX_ORDERS,
  DEFAULT_PREFIX,
} from '@domain/batches/batch';
export { PICK_LIST_FILTERS, type PickListFilter } from '@domain/batches/pick-list';
export { BATCHES_VIEW, ORDER_COUNTS_VIEW };

export const BATCHES_ENDPOINT = '/api/orders/batches';
const WAITING_ENDPOINT = '/api/orders/batches/waiting';
const SETTINGS_ENDPOINT = '/api/orders/batch-settings';
/** Live view of the batches projection: batches made or changed, or one of their orders' checks moved. */
/**
 * The order board's view of orders that changed status: a batch's progress is its orders' status on the board, which
 * may be written a moment after the batches projection announced the scan.
 */

export interface Person {
  id: string;
  name: string | null;
}

export interface BatchRow {
  id: string;
  number: number;
  label: string;
  name: string;
  type: BatchType;
  status: BatchStatus;
  picker: Person | null;
  date: string;
  max_orders: number;
  split: BatchSplit;
  group: string | null;
  source: 'manual' | 'auto';
  config_id: string | null;
  total_orders: number;
  scanned_orders: number;
  created_by: Person | null;
  created_at: string;
  closed_at: string | null;
}

export interface BatchOrder {
  id: string;
  order_number: string | null;
  tracking_number: string | null;
  status: string | null;
  platform: string | null;
  shipping_provider: string | null;
  payment_method: string | null;
  item_count: number;
  scanned_at: string | null;
  scanned_by: Person | null;
  check: {
    status: 'open' | 'completed' | 'idle';
    picker: Person | null;
    scanned_units: number;
    required_units: number;
  } | null;
}

export interface BatchDetail extends BatchRow {
  orders: BatchOrder[];
  timeline: { type: string; at: string; user: Person | null; data: Record<string, unknown> }[];
}

export interface WaitingOrder {
  id: string;
  order_number: string;
  tracking_number: string | null;
  status: string;
  platform: string;
  shipping_provider: string | null;
  payment_method: string;
  pre_order: boolean;
  item_count: number;
  paid_at: string | null;
  ordered_at: string;
}

export interface PickRow {
  key: string;
  code: string | null;
  seller_sku: string;
  name: string;
  quantity: number;
  order_count: number;
  locations: string[];
  order_number: string | null;
}

export interface PickList {
  batch: { id: string; label: string; name: string; date: string; picker: string | null };
  filter: PickListFilter;
  rows: PickRow[];
  total_quantity: number;
  order_count: number;
}

export interface NewBatches {
  order_ids: string[];
  name?: string;
  prefix?: string;
  digits?: number;
  type?: BatchType;
  picker_id?: string | null;
  max_orders?: number;
  split?: BatchSplit;
  date?: string;
  idempotency_key?: string;
}

export interface AutoBatchConfig {
  id: string;
  name: string;
  active: boolean;
  interval_hours: 1 | 2;
  start_time: string;
  end_time: string;
  max_orders: number;
  split: BatchSplit;
  type: BatchType;
  condition: { store_ids: string[]; platforms: string[] };
  prefix: string;
  digits: number;
  timezone: string;
  times: string[];
  waiting_orders: number;
  last_run_at: string | null;
  last_batch_count: number | null;
}

export type AutoBatchInput = Omit<
  AutoBatchConfig,
  'id' | 'timezone' | 'times' | 'waiting_orders' | 'last_run_at' | 'last_batch_count'
>;

export const batchKeys = {
  all: ['batches'] as const,
  details: () => [...batchKeys.all, 'detail'] as const,
  detail: (id: string) => [...batchKeys.details(), id] as const,
  pickList: (id: string, filter: PickListFilter) => [...batchKeys.all, 'pick-list', id, filter] as const,
  waiting: (type: BatchType, search: string) => [...batchKeys.all, 'waiting', type, search] as const,
  pickers: () => [...batchKeys.all, 'pickers'] as const,
  configs: () => [...batchKeys.all, 'configs'] as const,
};

export function useBatch(id: string) {
  return useQuery({
    queryKey: batchKeys.detail(id),
    queryFn: () => apiData<BatchDetail>(`${BATCHES_ENDPOINT}/${id}`),
  });
}

export function usePickList(id: string, filter: PickListFilter) {
  return useQuery({
    queryKey: batchKeys.pickList(id, filter),
    queryFn: () => apiData<PickList>(`${BATCHES_ENDPOINT}/${id}/pick-list`, { query: { filter } }),
    placeholderData: keepPreviousData,
  });
}

/** The orders waiting for a batch of this type (the first 500, oldest first). */
export function useWaitingOrders(type: BatchType, search: string) {
  return useQuery({
    queryKey: batchKeys.waiting(type, search),
    queryFn: () =>
      apiData<{ rows: WaitingOrder[]; lastRow: number }>(WAITING_ENDPOINT, {
        query: { type, endRow: 500, search: search.trim() || undefined },
      }),
    placeholderData: keepPreviousData,
  });
}

export function usePickers() {
  return useQuery({
    queryKey: batchKeys.pickers(),
    queryFn: () => apiData<{ id: string; name: string; email: string }[]>(`${BATCHES_ENDPOINT}/pickers`),
    staleTime: 60_000,
  });
}

export function useCreateBatches() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: NewBatches) =>
      api<Answer<{ batches: BatchDetail[] }>>(BATCHES_ENDPOINT, { method: 'POST', body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: batchKeys.all }),
  });
}

export type BatchAction =
  | { id: string; action: 'add' | 'remove'; orderIds: string[] }
  | { id: string; action: 'picker'; pickerId: string | null }
  | { id: string; action: 'close' };

export function useBatchAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: BatchAction) => {
      const base = `${BATCHES_ENDPOINT}/${input.id}`;
      switch (input.action) {
        case 'add':
          return api<Answer<BatchDetail>>(`${base}/orders`, {
            method: 'POST',
            body: { order_ids: input.orderIds },
          });
        case 'remove':
          return api<Answer<BatchDetail>>(`${base}/orders/remove`, {
            method: 'POST',
            body: { order_ids: input.orderIds },
          });
        case 'picker':
          return api<Answer<BatchDetail>>(`${base}/picker`, {
            method: 'POST',
            body: { picker_id: input.pickerId },
          });
        case 'close':
          return api<Answer<BatchDetail>>(`${base}/close`, { method: 'POST', body: {} });
      }
    },
    onSuccess: (answer) => {
      queryClient.setQueryData(batchKeys.detail(answer.data.id), answer.data);
      void queryClient.invalidateQueries({ queryKey: batchKeys.all });
    },
  });
}

export const downloadPickList = (batch: { id: string; label: string }, filter: PickListFilter) =>
  downloadFile(`${BATCHES_ENDPOINT}/${batch.id}/pick-list.pdf`, {
    query: { filter },
    fileName: `pick-list-${batch.label}.pdf`,
  });

// ---- auto batch ----

export function useAutoBatchConfigs() {
  return useQuery({
    queryKey: batchKeys.configs(),
    queryFn: () => apiData<AutoBatchConfig[]>(SETTINGS_ENDPOINT),
  });
}

export function useSaveAutoBatchConfig() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string | null; body: AutoBatchInput }) =>
      api<Answer<AutoBatchConfig>>(id ? `${SETTINGS_ENDPOINT}/${id}` : SETTINGS_ENDPOINT, {
        method: id ? 'PUT' : 'POST',
        body,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: batchKeys.configs() }),
  });
}

export function useDeleteAutoBatchConfig() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api<Answer<{ id: string }>>(`${SETTINGS_ENDPOINT}/${id}`, { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: batchKeys.configs() }),
  });
}

export function useRunAutoBatchConfig() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api<Answer<{ batches: { id: string; label: string; orders: number }[] }>>(
        `${SETTINGS_ENDPOINT}/${id}/run`,
        {
          method: 'POST',
          body: {},
        },
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: batchKeys.all }),
  });
}
