import type {
  MainStoreLockBody,
  ManualSyncAnswer,
  ManualSyncBody,
  PushLogRow,
  PushQueueAnswer,
  PushRuleBody,
  SkuRuleBody,
  SkuRuleKey,
  SkuRuleRow,
  StoreAllocations,
  SyncStatusAnswer,
} from '@api/contracts/stock-push';
import { PUSH_FIELDS, PUSH_ORIGINS, PUSH_OUTCOMES } from '@domain/channels/push-log';
import { LIVE_VIEWS } from '@domain/shared/live-views';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type Answer, api, apiData, withQuery } from './client';

/**
 * The stock push (api/stock-push): the stores' push rules and their warehouses, the main store lock, master codes'
 * own rules, the push log and "sync now".
 */

export type { PushLogRow, PushQueueAnswer, PushRuleBody, SkuRuleRow, StoreAllocations };
export { PUSH_FIELDS, PUSH_ORIGINS, PUSH_OUTCOMES };
export const PUSH_LOG_VIEW = LIVE_VIEWS.pushLog;
export const SYNC_KEY = 'inventory-manage-sync';
export const LINKING_KEY = 'multiple-warehouse-linking';
export const PUSH_LOG_ENDPOINT = '/api/logistic/sync-qty-log';
export const SKU_RULES_ENDPOINT = '/api/inventory/stock-allocation/marketplace';
const STORES_ENDPOINT = '/api/inventory/stock-allocation/stores';
const STATUS_ENDPOINT = '/api/inventory/manual-sync-status';
const QUEUE_ENDPOINT = `${PUSH_LOG_ENDPOINT}/queue`;
/** How often a shown push queue is asked again: it lives in the store's workflow, with no live view. */
const QUEUE_REFRESH_MS = 5_000;

export const pushKeys = {
  all: ['stock-push'] as const,
  stores: () => [...pushKeys.all, 'stores'] as const,
  status: () => [...pushKeys.all, 'status'] as const,
  queue: (storeId: string) => [...pushKeys.all, 'queue', storeId] as const,
};

/** What the store's push has still to tell its channel: figures waiting, and the retries with their try. */
export function usePushQueue(storeId: string) {
  return useQuery({
    queryKey: pushKeys.queue(storeId),
    queryFn: () => apiData<PushQueueAnswer>(withQuery(QUEUE_ENDPOINT, { store_id: storeId })),
    enabled: storeId !== '',
    refetchInterval: QUEUE_REFRESH_MS,
  });
}

export function useStoreAllocations() {
  return useQuery({ queryKey: pushKeys.stores(), queryFn: () => apiData<StoreAllocations>(STORES_ENDPOINT) });
}

/** A change that answers the stores' allocations: they replace the cached ones. */
function useAllocationChange<Input>(request: (input: Input) => Promise<Answer<StoreAllocations>>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSuccess: (answer) => queryClient.setQueryData(pushKeys.stores(), answer.data),
  });
}

export const useSaveStoreRule = () =>
  useAllocationChange(({ storeId, rule }: { storeId: string; rule: PushRuleBody | null }) =>
    api<Answer<StoreAllocations>>(`${STORES_ENDPOINT}/${encodeURIComponent(storeId)}`, {
      method: 'PUT',
      body: { rule },
    }),
  );

export const useSaveStoreWarehouses = () =>
  useAllocationChange(({ storeId, warehouseIds }: { storeId: string; warehouseIds: string[] }) =>
    api<Answer<StoreAllocations>>(`${STORES_ENDPOINT}/${encodeURIComponent(storeId)}/warehouses`, {
      method: 'PUT',
      body: { warehouse_ids: warehouseIds },
    }),
  );

export const useSaveMainStoreLock = () =>
  useAllocationChange((body: MainStoreLockBody) =>
    api<Answer<StoreAllocations>>('/api/inventory/stock-allocation/main-store', { method: 'PUT', body }),
  );

export function useSaveSkuRule() {
  return useMutation({
    mutationFn: (body: SkuRuleBody) => api<Answer<SkuRuleKey>>(SKU_RULES_ENDPOINT, { method: 'PUT', body }),
  });
}

export function useDeleteSkuRule() {
  return useMutation({
    mutationFn: (key: SkuRuleKey) =>
      api<Answer<SkuRuleKey>>(withQuery(SKU_RULES_ENDPOINT, key), { method: 'DELETE' }),
  });
}

/** Each store's push at a glance; asked again every few seconds while the screen is open. */
export function useSyncStatus() {
  return useQuery({
    queryKey: pushKeys.status(),
    queryFn: () => apiData<SyncStatusAnswer>(STATUS_ENDPOINT),
    refetchInterval: 5_000,
  });
}

export function useSyncNow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ManualSyncBody) =>
      api<Answer<ManualSyncAnswer>>('/api/inventory/manual-sync', { method: 'POST', body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: pushKeys.status() }),
  });
}
