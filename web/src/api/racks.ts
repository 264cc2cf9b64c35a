import type { LocationBody, Rack, RackChanges } from '@api/contracts/inventory-racks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type Answer, api, apiData } from './client';
import { type MasterCodeLocation, masterCodeKeys, type RackStatus } from './master-codes';
import { warehouseKeys } from './warehouses';

/**
 * Inventory → racks (spec §3: name, status occupied or available, note) inside a warehouse or branch, and a master
 * code's rack location per place. A master code leaves a place only with 0 stock there: "Only 0 quantity able to be
 * removed from a branch".
 */

export type { RackStatus } from './master-codes';
export const RACK_STATUSES = ['available', 'occupied'] as const satisfies readonly RackStatus[];

export type { Rack, RackLocationRow } from '@api/contracts/inventory-racks';

export type RackFields = Required<RackChanges>;
/** rack_id null: in the place, on no particular rack. */
export type LocationFields = LocationBody;

export const RACKS_ENDPOINT = '/api/inventory/rack';
export const RACK_LOCATIONS_ENDPOINT = '/api/inventory/rack-location';
/** The grids of one place: its id in the endpoint's query (none: every place). */
export const scopedEndpoint = (endpoint: string, warehouseId: string | null) =>
  warehouseId ? `${endpoint}?warehouse_id=${encodeURIComponent(warehouseId)}` : endpoint;

const oneRack = (id: string) => `${RACKS_ENDPOINT}/${encodeURIComponent(id)}`;
const locationOf = (masterCodeId: string) =>
  `/api/inventory/master-code/${encodeURIComponent(masterCodeId)}/location`;

/** The most racks a place's picker lists. */
const PICKER_ROWS = 500;

export const rackKeys = {
  all: ['racks'] as const,
  lists: () => [...rackKeys.all, 'list'] as const,
  list: (warehouseId: string) => [...rackKeys.lists(), warehouseId] as const,
  details: () => [...rackKeys.all, 'detail'] as const,
  detail: (id: string) => [...rackKeys.details(), id] as const,
};

/** The racks of one place, by name, for a picker. */
export function useRacksOf(warehouseId: string | null) {
  return useQuery({
    queryKey: rackKeys.list(warehouseId ?? ''),
    queryFn: () =>
      apiData<{ rows: Rack[]; lastRow: number }>(RACKS_ENDPOINT, {
        query: {
          warehouse_id: warehouseId ?? '',
          startRow: 0,
          endRow: PICKER_ROWS,
          sortModel: JSON.stringify([{ colId: 'name', sort: 'asc' }]),
        },
      }).then((page) => page.rows),
    enabled: Boolean(warehouseId),
  });
}

/** Racks count in the place lists (rack_count) and show in master codes' locations. */
function useInvalidateRacks() {
  const queryClient = useQueryClient();
  return () => {
    queryClient.invalidateQueries({ queryKey: rackKeys.all });
    queryClient.invalidateQueries({ queryKey: warehouseKeys.lists() });
    queryClient.invalidateQueries({ queryKey: masterCodeKeys.details() });
  };
}

export function useCreateRack() {
  const invalidate = useInvalidateRacks();
  return useMutation({
    mutationFn: (body: RackFields & { warehouse_id: string }) =>
      api<Answer<Rack>>(RACKS_ENDPOINT, { method: 'POST', body }),
    onSuccess: invalidate,
  });
}

export function useUpdateRack() {
  const invalidate = useInvalidateRacks();
  return useMutation({
    mutationFn: ({ id, changes }: { id: string; changes: Partial<RackFields> }) =>
      api<Answer<Rack>>(oneRack(id), { method: 'PUT', body: changes }),
    onSuccess: invalidate,
  });
}

export function useDeleteRack() {
  const invalidate = useInvalidateRacks();
  return useMutation({
    mutationFn: (id: string) => api<Answer<{ id: string }>>(oneRack(id), { method: 'DELETE' }),
    onSuccess: invalidate,
  });
}

/** Puts a master code in a place (on one of its racks or none), or changes its rack and note there. */
export function useSetLocation() {
  const invalidate = useInvalidateRacks();
  return useMutation({
    mutationFn: ({ masterCodeId, ...body }: LocationFields & { masterCodeId: string }) =>
      api<Answer<MasterCodeLocation[]>>(locationOf(masterCodeId), { method: 'PUT', body }),
    onSuccess: invalidate,
  });
}

/** Removes a master code from a place: refused unless its quantity there is 0. */
export function useRemoveLocation() {
  const invalidate = useInvalidateRacks();
  return useMutation({
    mutationFn: ({ masterCodeId, warehouseId }: { masterCodeId: string; warehouseId: string }) =>
      api<Answer<MasterCodeLocation[]>>(`${locationOf(masterCodeId)}/${encodeURIComponent(warehouseId)}`, {
        method: 'DELETE',
      }),
    onSuccess: invalidate,
  });
}
