import type { BranchChanges, Place, PlaceKind, WarehouseChanges } from '@api/contracts/inventory-warehouses';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type Answer, api, apiData } from './client';
import { masterCodeKeys } from './master-codes';

/**
 * Inventory → warehouses and branches (spec §3 "Warehouse and rack"): both are places that hold stock, each with its
 * own fields. Exactly one warehouse is the default while any exists; a place is deleted only when every master code
 * in it has 0 stock ("Only 0 quantity able to be removed from a branch"), taking its racks with it.
 */

export type { Place, PlaceKind } from '@api/contracts/inventory-warehouses';

export type WarehouseFields = Required<WarehouseChanges>;
export type BranchFields = Required<BranchChanges>;

export type PlaceFields<Kind extends PlaceKind> = Kind extends 'warehouse' ? WarehouseFields : BranchFields;

const base = (kind: PlaceKind) => `/api/inventory/${kind}`;
const one = (kind: PlaceKind, id: string) => `${base(kind)}/${encodeURIComponent(id)}`;

export const warehouseKeys = {
  all: ['warehouses'] as const,
  lists: () => [...warehouseKeys.all, 'list'] as const,
  list: (kind: PlaceKind) => [...warehouseKeys.lists(), kind] as const,
  details: () => [...warehouseKeys.all, 'detail'] as const,
  detail: (kind: PlaceKind, id: string) => [...warehouseKeys.details(), kind, id] as const,
};

/** The account's warehouses (the default first) or branches, by name. */
export function usePlaces(kind: PlaceKind, enabled = true) {
  return useQuery({
    queryKey: warehouseKeys.list(kind),
    queryFn: () => apiData<Place[]>(base(kind)),
    enabled,
  });
}

export const useWarehouses = (enabled = true) => usePlaces('warehouse', enabled);
export const useBranches = (enabled = true) => usePlaces('branch', enabled);

/** Warehouses then branches: every place a rack or a master code can be in. */
export function useAllPlaces(enabled = true) {
  const warehouses = useWarehouses(enabled);
  const branches = useBranches(enabled);
  return {
    places: [...(warehouses.data ?? []), ...(branches.data ?? [])],
    isPending: warehouses.isPending || branches.isPending,
    error: warehouses.error ?? branches.error,
  };
}

/** A change to a place shows in the rack and location lists and the master codes' locations too. */
function useInvalidatePlaces() {
  const queryClient = useQueryClient();
  return () => {
    queryClient.invalidateQueries({ queryKey: warehouseKeys.all });
    // rackKeys.all (racks.ts builds on this file).
    queryClient.invalidateQueries({ queryKey: ['racks'] });
    queryClient.invalidateQueries({ queryKey: masterCodeKeys.details() });
  };
}

export function useCreatePlace<Kind extends PlaceKind>(kind: Kind) {
  const invalidate = useInvalidatePlaces();
  return useMutation({
    mutationFn: (body: PlaceFields<Kind>) => api<Answer<Place>>(base(kind), { method: 'POST', body }),
    onSuccess: invalidate,
  });
}

export function useUpdatePlace<Kind extends PlaceKind>(kind: Kind) {
  const invalidate = useInvalidatePlaces();
  return useMutation({
    mutationFn: ({ id, changes }: { id: string; changes: Partial<PlaceFields<Kind>> }) =>
      api<Answer<Place>>(one(kind, id), { method: 'PUT', body: changes }),
    onSuccess: invalidate,
  });
}

export function useDeletePlace(kind: PlaceKind) {
  const invalidate = useInvalidatePlaces();
  return useMutation({
    mutationFn: (id: string) => api<Answer<{ id: string }>>(one(kind, id), { method: 'DELETE' }),
    onSuccess: invalidate,
  });
}

/** Makes a warehouse the default; the old default is cleared in the same change. */
export function useMakeDefaultWarehouse() {
  const invalidate = useInvalidatePlaces();
  return useMutation({
    mutationFn: (id: string) => api<Answer<Place>>(`${one('warehouse', id)}/default`, { method: 'POST' }),
    onSuccess: invalidate,
  });
}
