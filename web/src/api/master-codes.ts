import {
  type MasterCode,
  type MasterCodeChanges,
  type MasterCodeDetail,
  type MasterCodeLocation,
  type NewMasterCode as NewMasterCodeBody,
  PRICE_CURRENCIES,
  type PriceList,
} from '@api/contracts/inventory-master-codes';
import { MASTER_CODE_STATUSES, MASTER_CODE_TYPES } from '@domain/inventory/codes';
import { MASTER_CODE_IMAGE } from '@domain/inventory/reference';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
// The image upload (a body that is the file itself) and images behind the token, shared with returns and printing.
import { objectUrlOf, uploadImage } from '@web/api/printing';
import { type Answer, api, apiData } from './client';

/**
 * Inventory → master codes (spec §3 "Master code"): the seller's own items with their price list per currency, a
 * combo's items and the rack location per warehouse. The grid reads its pages itself (components/data-grid); the
 * editor reads one master code in full. There is no delete: a master code is deactivated instead.
 */

export type {
  ComboItem,
  MasterCode,
  MasterCodeDetail,
  MasterCodeLocation,
} from '@api/contracts/inventory-master-codes';
export { MASTER_CODE_STATUSES, MASTER_CODE_TYPES, PRICE_CURRENCIES };
export type MasterCodeType = (typeof MASTER_CODE_TYPES)[number];
export type MasterCodeStatus = (typeof MASTER_CODE_STATUSES)[number];
export type PriceCurrency = (typeof PRICE_CURRENCIES)[number];

export type Named = NonNullable<MasterCode['category']>;
export type PlaceRef = MasterCodeLocation['warehouse'];
export type RackStatus = NonNullable<MasterCodeLocation['rack']>['status'];

export type PriceEntry = PriceList[number];

/** What the editor sends: every field but the type and the initial quantity, which only a new one has. */
export type MasterCodeFields = Omit<Required<MasterCodeChanges>, 'type'>;

export type NewMasterCode = MasterCodeFields & Pick<NewMasterCodeBody, 'type' | 'initial_quantity'>;

export interface Classification {
  code: string;
  description: string;
}

export const MASTER_CODES_ENDPOINT = '/api/inventory/master-code';
const one = (id: string) => `${MASTER_CODES_ENDPOINT}/${encodeURIComponent(id)}`;
export const MASTER_CODE_IMAGES_ENDPOINT = `${MASTER_CODES_ENDPOINT}/images`;
export { MASTER_CODE_IMAGE };

export const masterCodeKeys = {
  all: ['master-codes'] as const,
  lists: () => [...masterCodeKeys.all, 'list'] as const,
  list: (query: Record<string, unknown>) => [...masterCodeKeys.lists(), query] as const,
  details: () => [...masterCodeKeys.all, 'detail'] as const,
  detail: (id: string) => [...masterCodeKeys.details(), id] as const,
  classifications: () => [...masterCodeKeys.all, 'classifications'] as const,
  image: (imageId: string) => [...masterCodeKeys.all, 'image', imageId] as const,
};

export function useMasterCode(id: string | null) {
  return useQuery({
    queryKey: masterCodeKeys.detail(id ?? ''),
    queryFn: () => apiData<MasterCodeDetail>(one(id ?? '')),
    enabled: id !== null,
  });
}

/** The first matches of a search over code, name, seller SKU and UPC, for the pickers (combo items, locations). */
export function useMasterCodeSearch(text: string, opts: { type?: MasterCodeType; enabled?: boolean } = {}) {
  const search = text.trim();
  const query = { search, type: opts.type ?? null };
  return useQuery({
    queryKey: masterCodeKeys.list(query),
    queryFn: () =>
      apiData<{ rows: MasterCode[]; lastRow: number }>(MASTER_CODES_ENDPOINT, {
        query: {
          startRow: 0,
          endRow: 20,
          sortModel: JSON.stringify([{ colId: 'code', sort: 'asc' }]),
          filterModel: JSON.stringify(opts.type ? { type: { filterType: 'set', values: [opts.type] } } : {}),
          search: search || undefined,
        },
      }),
    enabled: opts.enabled ?? true,
  });
}

/** The e-invoice classification codes (001–045); they never change while the page is open. */
export function useClassifications() {
  return useQuery({
    queryKey: masterCodeKeys.classifications(),
    queryFn: () => apiData<Classification[]>('/api/lookup/classifications'),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** After a change: the lists and pickers, that master code, and the combo lists that show it as an item. */
export function useInvalidateMasterCodes() {
  const queryClient = useQueryClient();
  return (id?: string) => {
    queryClient.invalidateQueries({ queryKey: masterCodeKeys.lists() });
    if (id) queryClient.invalidateQueries({ queryKey: masterCodeKeys.detail(id) });
    // comboKeys.all (combos.ts builds on this file).
    queryClient.invalidateQueries({ queryKey: ['combos'] });
  };
}

export function useCreateMasterCode() {
  const invalidate = useInvalidateMasterCodes();
  return useMutation({
    mutationFn: (body: NewMasterCode) =>
      api<Answer<MasterCodeDetail>>(MASTER_CODES_ENDPOINT, { method: 'POST', body }),
    onSuccess: (answer) => invalidate(answer.data.id),
  });
}

export function useUpdateMasterCode() {
  const invalidate = useInvalidateMasterCodes();
  return useMutation({
    mutationFn: ({ id, changes }: { id: string; changes: Partial<MasterCodeFields> }) =>
      api<Answer<MasterCodeDetail>>(one(id), { method: 'PUT', body: changes }),
    onSuccess: (_answer, { id }) => invalidate(id),
  });
}

/** Activate or deactivate (kept with its history either way). */
export function useSetMasterCodeStatus() {
  const invalidate = useInvalidateMasterCodes();
  return useMutation({
    mutationFn: ({ id, status }: { id: string; status: MasterCodeStatus }) =>
      api<Answer<MasterCodeDetail>>(`${one(id)}/${status === 'active' ? 'activate' : 'deactivate'}`, {
        method: 'POST',
      }),
    onSuccess: (_answer, { id }) => invalidate(id),
  });
}

/** Uploads an image for a master code; the answer's id is what the master code then names as its `image_id`. */
export const uploadMasterCodeImage = (file: File) =>
  uploadImage<{ id: string; content_type: string; bytes: number }>(MASTER_CODE_IMAGES_ENDPOINT, file);

/** An uploaded image as an object URL for an <img> (it is served behind the token); null while there is none. */
export function useMasterCodeImageUrl(imageId: string | null) {
  return useQuery({
    queryKey: masterCodeKeys.image(imageId ?? ''),
    queryFn: () => objectUrlOf(`${MASTER_CODE_IMAGES_ENDPOINT}/${encodeURIComponent(imageId ?? '')}`),
    enabled: imageId !== null,
    // An uploaded image never changes: a new upload has a new id.
    staleTime: Number.POSITIVE_INFINITY,
  });
}
