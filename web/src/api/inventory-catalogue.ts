import type {
  CatalogueEntry,
  InventoryCategory,
  InventoryCategoryNode,
} from '@api/contracts/inventory-catalogue';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type Answer, api, apiData } from './client';
import { masterCodeKeys } from './master-codes';

/**
 * Inventory → categories (a tree per account), brands and units: the pickers of the master code editor. A row a master
 * code still uses is not deleted, nor a category with sub-categories; the API says why.
 */

export type {
  CatalogueEntry,
  InventoryCategory,
  InventoryCategoryNode,
} from '@api/contracts/inventory-catalogue';

export type CatalogueKind = 'brand' | 'unit';

const CATEGORIES = '/api/inventory/category';
const base = (kind: CatalogueKind) => `/api/inventory/${kind}`;
const one = (path: string, id: string) => `${path}/${encodeURIComponent(id)}`;

export const catalogueKeys = {
  all: ['inventory-catalogue'] as const,
  lists: () => [...catalogueKeys.all, 'list'] as const,
  list: (kind: 'category' | CatalogueKind) => [...catalogueKeys.lists(), kind] as const,
  detail: (kind: 'category' | CatalogueKind, id: string) =>
    [...catalogueKeys.all, 'detail', kind, id] as const,
};

export function useInventoryCategories(enabled = true) {
  return useQuery({
    queryKey: catalogueKeys.list('category'),
    queryFn: () => apiData<InventoryCategoryNode[]>(CATEGORIES),
    enabled,
  });
}

export function useCatalogueEntries(kind: CatalogueKind, enabled = true) {
  return useQuery({
    queryKey: catalogueKeys.list(kind),
    queryFn: () => apiData<CatalogueEntry[]>(base(kind)),
    enabled,
  });
}

export const useBrands = (enabled = true) => useCatalogueEntries('brand', enabled);
export const useUnits = (enabled = true) => useCatalogueEntries('unit', enabled);

/** A rename shows in every master code that uses the row: their lists and details are read again too. */
function useInvalidate(kind: 'category' | CatalogueKind) {
  const queryClient = useQueryClient();
  return () => {
    queryClient.invalidateQueries({ queryKey: catalogueKeys.list(kind) });
    queryClient.invalidateQueries({ queryKey: masterCodeKeys.all });
  };
}

export function useAddInventoryCategory() {
  const invalidate = useInvalidate('category');
  return useMutation({
    mutationFn: (body: { name: string; parent_id: string | null }) =>
      api<Answer<InventoryCategory>>(CATEGORIES, { method: 'POST', body }),
    onSuccess: invalidate,
  });
}

export function useUpdateInventoryCategory() {
  const invalidate = useInvalidate('category');
  return useMutation({
    mutationFn: ({ id, ...changes }: { id: string; name?: string; parent_id?: string | null }) =>
      api<Answer<InventoryCategory>>(one(CATEGORIES, id), { method: 'PUT', body: changes }),
    onSuccess: invalidate,
  });
}

export function useDeleteInventoryCategory() {
  const invalidate = useInvalidate('category');
  return useMutation({
    mutationFn: (id: string) => api<Answer<{ id: string }>>(one(CATEGORIES, id), { method: 'DELETE' }),
    onSuccess: invalidate,
  });
}

export function useAddCatalogueEntry(kind: CatalogueKind) {
  const invalidate = useInvalidate(kind);
  return useMutation({
    mutationFn: (name: string) => api<Answer<CatalogueEntry>>(base(kind), { method: 'POST', body: { name } }),
    onSuccess: invalidate,
  });
}

export function useRenameCatalogueEntry(kind: CatalogueKind) {
  const invalidate = useInvalidate(kind);
  return useMutation({
    mutationFn: ({ id, name }: { id: string; name: string }) =>
      api<Answer<CatalogueEntry>>(one(base(kind), id), { method: 'PUT', body: { name } }),
    onSuccess: invalidate,
  });
}

export function useDeleteCatalogueEntry(kind: CatalogueKind) {
  const invalidate = useInvalidate(kind);
  return useMutation({
    mutationFn: (id: string) => api<Answer<{ id: string }>>(one(base(kind), id), { method: 'DELETE' }),
    onSuccess: invalidate,
  });
}
