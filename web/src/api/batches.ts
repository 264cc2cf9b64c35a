import type {
  AutoBatchConfigAnswer,
  AutoBatchConfigBody,
  AutoBatchRunAnswer,
  BatchAnswer,
  BatchDetail,
  CreateBatchesBody,
  CreatedBatches,
  DeletedConfig,
  PickerAnswer,
  PickListAnswer,
  SeparateBody,
  WaitingRow,
} from '@api/contracts/batches';
import type { BatchType } from '@domain/batches/batch';
import type { PickListFilter } from '@domain/batches/pick-list';
import { BATCHES_VIEW, ORDER_COUNTS_VIEW } from '@domain/shared/live-views';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type Answer, api, apiData } from '@web/api/client';
import { downloadFile } from '@web/api/download';

/**
 * Batches and auto batch (api/orders/batches*.ts; shapes from api/contracts/batches.ts): the batch list (a grid endpoint), one batch with its orders,
 * the orders waiting for a batch, the pickers, the pick list (JSON and PDF), the batch actions, and the auto batch
 * configurations. Keys from one factory; a mutation invalidates what it changed.
 */

export {
  BATCH_SPLITS,
  BATCH_TYPES,
  DEFAULT_DIGITS,
  DEFAULT_MAX_ORDERS,
  DEFAULT_PREFIX,
} from '@domain/batches/batch';
export { PICK_LIST_FILTERS, type PickListFilter } from '@domain/batches/pick-list';
export { SEPARATION_BYS, type SeparationBy, separationKey } from '@domain/batches/separation';
export { BATCHES_VIEW, ORDER_COUNTS_VIEW };

export const BATCHES_ENDPOINT = '/api/orders/batches';
const WAITING_ENDPOINT = '/api/orders/batches/waiting';
const SETTINGS_ENDPOINT = '/api/orders/batch-settings';
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
    // No batch chosen yet (the separation screen): nothing to ask for.
    enabled: id !== '',
  });
}

export function usePickList(id: string, filter: PickListFilter) {
  return useQuery({
    queryKey: batchKeys.pickList(id, filter),
    queryFn: () => apiData<PickListAnswer>(`${BATCHES_ENDPOINT}/${id}/pick-list`, { query: { filter } }),
    placeholderData: keepPreviousData,
  });
}

/** The orders waiting for a batch of this type (the first 500, oldest first). */
export function useWaitingOrders(type: BatchType, search: string) {
  return useQuery({
    queryKey: batchKeys.waiting(type, search),
    queryFn: () =>
      apiData<{ rows: WaitingRow[]; lastRow: number }>(WAITING_ENDPOINT, {
        query: { type, endRow: 500, search: search.trim() || undefined },
      }),
    placeholderData: keepPreviousData,
  });
}

export function usePickers() {
  return useQuery({
    queryKey: batchKeys.pickers(),
    queryFn: () => apiData<PickerAnswer[]>(`${BATCHES_ENDPOINT}/pickers`),
    staleTime: 60_000,
  });
}

export function useCreateBatches() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateBatchesBody) =>
      api<Answer<CreatedBatches>>(BATCHES_ENDPOINT, { method: 'POST', body }),
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

/** The open batches (newest first, the first 200): what a batch can be separated from. */
export function useOpenBatches() {
  return useQuery({
    queryKey: [...batchKeys.all, 'open'] as const,
    queryFn: () =>
      apiData<{ rows: BatchAnswer[]; lastRow: number }>(BATCHES_ENDPOINT, {
        query: { status: 'open', startRow: 0, endRow: 200 },
      }),
  });
}

/** Separates a batch (api: POST /api/orders/batches/:id/separate): answers the batch, then the batches made. */
export function useSeparateBatch() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: SeparateBody }) =>
      api<Answer<CreatedBatches>>(`${BATCHES_ENDPOINT}/${id}/separate`, { method: 'POST', body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: batchKeys.all }),
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
    queryFn: () => apiData<AutoBatchConfigAnswer[]>(SETTINGS_ENDPOINT),
  });
}

export function useSaveAutoBatchConfig() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string | null; body: AutoBatchConfigBody }) =>
      api<Answer<AutoBatchConfigAnswer>>(id ? `${SETTINGS_ENDPOINT}/${id}` : SETTINGS_ENDPOINT, {
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
      api<Answer<DeletedConfig>>(`${SETTINGS_ENDPOINT}/${id}`, { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: batchKeys.configs() }),
  });
}

export function useRunAutoBatchConfig() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api<Answer<AutoBatchRunAnswer>>(`${SETTINGS_ENDPOINT}/${id}/run`, {
        method: 'POST',
        body: {},
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: batchKeys.all }),
  });
}
