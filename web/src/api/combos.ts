import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type Answer, api, apiData } from './client';
import { type ComboItem, type MasterCodeDetail, type MasterCodeFields, masterCodeKeys } from './master-codes';

/**
 * Inventory → combos (spec §3): a combo master code made of standard master codes with quantities. It has no stock
 * of its own; its fields are a master code's, its items have routes of their own.
 */

export type { ComboRow } from '@api/contracts/inventory-combos';

export interface ComboItemInput {
  component_id: string;
  quantity: number;
}

export type NewCombo = MasterCodeFields & { items: ComboItemInput[] };

export const COMBOS_ENDPOINT = '/api/inventory/combo';
const itemsOf = (id: string) => `${COMBOS_ENDPOINT}/${encodeURIComponent(id)}/items`;

export const comboKeys = {
  all: ['combos'] as const,
  lists: () => [...comboKeys.all, 'list'] as const,
  list: (query: Record<string, unknown>) => [...comboKeys.lists(), query] as const,
  details: () => [...comboKeys.all, 'detail'] as const,
  detail: (id: string) => [...comboKeys.details(), id] as const,
  items: (id: string) => [...comboKeys.detail(id), 'items'] as const,
};

export function useComboItems(id: string | null) {
  return useQuery({
    queryKey: comboKeys.items(id ?? ''),
    queryFn: () => apiData<ComboItem[]>(itemsOf(id ?? '')),
    enabled: id !== null,
  });
}

function useInvalidateCombos() {
  const queryClient = useQueryClient();
  return (id?: string) => {
    queryClient.invalidateQueries({ queryKey: comboKeys.lists() });
    if (id) {
      queryClient.invalidateQueries({ queryKey: comboKeys.detail(id) });
      queryClient.invalidateQueries({ queryKey: masterCodeKeys.detail(id) });
    }
    queryClient.invalidateQueries({ queryKey: masterCodeKeys.lists() });
  };
}

export function useCreateCombo() {
  const invalidate = useInvalidateCombos();
  return useMutation({
    mutationFn: (body: NewCombo) => api<Answer<MasterCodeDetail>>(COMBOS_ENDPOINT, { method: 'POST', body }),
    onSuccess: (answer) => invalidate(answer.data.id),
  });
}

/** Replaces the whole list of items. */
export function useSaveComboItems() {
  const invalidate = useInvalidateCombos();
  return useMutation({
    mutationFn: ({ id, items }: { id: string; items: ComboItemInput[] }) =>
      api<Answer<ComboItem[]>>(itemsOf(id), { method: 'PUT', body: { items } }),
    onSuccess: (_answer, { id }) => invalidate(id),
  });
}
