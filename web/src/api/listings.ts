import type {
  CategoryChoice,
  CategoryOption,
  CopyListingsAnswer,
  ExistSkuAnswer,
  ListingBody,
  ListingDetail,
  ListingListRow,
  ListingStatusFilter,
  ListingUploadResult,
  ListingUploadRow,
  StorePublication,
} from '@api/contracts/listings';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type Answer, api, apiData } from './client';
import { downloadFile } from './download';
import { objectUrlOf, uploadImage } from './printing';

/**
 * Product listings (api/listings): one listing, its save, import from a store's item, publish/sync/unlist, delete,
 * the SKU existence check, the listing's uploaded images, the editor's pickers, the bulk edit, upload and copy. The
 * list grid reads its pages itself (components/data-grid) from `LISTINGS_ENDPOINT`.
 */

export { LISTING_STATUS_FILTER } from '@api/contracts/listings';
export { LIST_SEPARATOR, LISTING_FILE_COLUMNS } from '@domain/listings/listing-file';
export { LISTING_LIMITS, NO_GTIN } from '@domain/listings/rules';
export type {
  CategoryChoice,
  CategoryOption,
  CopyListingsAnswer,
  ExistSkuAnswer,
  ListingBody,
  ListingDetail,
  ListingListRow,
  ListingStatusFilter,
  ListingUploadResult,
  ListingUploadRow,
  StorePublication,
};

export const LISTINGS_ENDPOINT = '/api/listings';
const ONE = (id: string) => `/api/listing/${encodeURIComponent(id)}`;
const IMAGES_ENDPOINT = '/api/listing/images';
/** The bulk upload (api/listings/upload.ts): the file as the body, through web/src/api/upload.ts. */
export const LISTING_UPLOAD_ENDPOINT = `${LISTINGS_ENDPOINT}/upload`;

export const VIEW_KEY = 'listings-index';
export const MANAGE_KEY = 'listings-manage';
export const CONTROL_KEY = 'marketplace_control';

/** The page sizes the list offers (spec §2 "a selectable page size"). */
export const PAGE_SIZES = [20, 50, 100] as const;

export const listingKeys = {
  all: ['listings'] as const,
  lists: () => [...listingKeys.all, 'list'] as const,
  detail: (id: string) => [...listingKeys.all, 'detail', id] as const,
  stores: () => [...listingKeys.all, 'stores'] as const,
  masterCodes: (search: string) => [...listingKeys.all, 'master-codes', search] as const,
  image: (id: string) => [...listingKeys.all, 'image', id] as const,
  categories: (storeId: string) => [...listingKeys.all, 'categories', storeId] as const,
  category: (storeId: string, categoryId: string) =>
    [...listingKeys.all, 'category', storeId, categoryId] as const,
};

/** A listing, or null for one not saved yet (404). */
export function useListing(id: string) {
  return useQuery({
    queryKey: listingKeys.detail(id),
    queryFn: async () => {
      try {
        return await apiData<ListingDetail>(ONE(id));
      } catch (error) {
        if ((error as { status?: number }).status === 404) return null;
        throw error;
      }
    },
  });
}

export function useListingStores() {
  return useQuery({
    queryKey: listingKeys.stores(),
    queryFn: () =>
      apiData<{ id: string; name: string; platform: string; status: string }[]>(
        `${LISTINGS_ENDPOINT}/stores`,
      ),
  });
}

/** The store's category tree from its marketplace (none asked without a store). */
export function useListingCategories(storeId: string | null) {
  return useQuery({
    queryKey: listingKeys.categories(storeId ?? ''),
    queryFn: () =>
      apiData<CategoryOption[]>(`${LISTINGS_ENDPOINT}/categories`, { query: { store_id: storeId ?? '' } }),
    enabled: storeId !== null,
    retry: false,
    staleTime: 60 * 60 * 1000,
  });
}

/** A leaf category's attributes and brands. */
export function useCategoryChoice(storeId: string | null, categoryId: string) {
  return useQuery({
    queryKey: listingKeys.category(storeId ?? '', categoryId),
    queryFn: () =>
      apiData<CategoryChoice>(`${LISTINGS_ENDPOINT}/category`, {
        query: { store_id: storeId ?? '', category_id: categoryId },
      }),
    enabled: storeId !== null && categoryId !== '',
    retry: false,
    staleTime: 60 * 60 * 1000,
  });
}

export function useListingMasterCodes(search: string) {
  return useQuery({
    queryKey: listingKeys.masterCodes(search),
    queryFn: () =>
      apiData<{ id: string; code: string; name: string; type: 'standard' | 'combo'; listed: boolean }[]>(
        `${LISTINGS_ENDPOINT}/master-codes`,
        { query: { search } },
      ),
  });
}

export function useSaveListing(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ListingBody) => api<Answer<ListingDetail>>(ONE(id), { method: 'POST', body }),
    onSuccess: (answer) => {
      queryClient.setQueryData(listingKeys.detail(id), answer.data);
      void queryClient.invalidateQueries({ queryKey: listingKeys.lists() });
    },
  });
}

/** "Import to listings": a draft listing made from a store's item (its SKUs linked as downloaded). */
export function useImportListing() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { store_id: string; item_id: string; logistics: string[] }) =>
      api<Answer<ListingDetail>>(`${LISTINGS_ENDPOINT}/import`, { method: 'POST', body }),
    onSuccess: (answer) => {
      queryClient.setQueryData(listingKeys.detail(answer.data.id), answer.data);
      void queryClient.invalidateQueries({ queryKey: listingKeys.lists() });
    },
  });
}

export type PublicationAction = StorePublication['actions'][number];

export function usePublication(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ action, storeIds }: { action: PublicationAction; storeIds?: string[] }) =>
      api<Answer<ListingDetail>>(`/api/listing/${action}/${encodeURIComponent(id)}`, {
        method: 'POST',
        body: storeIds ? { store_ids: storeIds } : {},
      }),
    onSuccess: (answer) => queryClient.setQueryData(listingKeys.detail(id), answer.data),
  });
}

export const checkSkus = (body: { skus: string[]; group_id?: string }) =>
  apiData<ExistSkuAnswer>('/api/listing/check/exist_sku', { method: 'POST', body });

export function useBulkEditListings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: {
      listings: {
        id: string;
        revision: number;
        product_name?: string;
        skus: { seller_sku: string; price?: string; stock?: number }[];
      }[];
    }) =>
      api<Answer<{ saved: number; failed: { id: string; code: number; msg: string }[] }>>(
        `${LISTINGS_ENDPOINT}/bulk-edit`,
        {
          method: 'POST',
          body,
        },
      ),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: listingKeys.all }),
  });
}

/** Uploads an image for a listing; the answer's id is what the listing then names. */
export const uploadListingImage = (file: File) =>
  uploadImage<{ id: string; content_type: string; bytes: number }>(IMAGES_ENDPOINT, file);

/** An uploaded listing image as an object URL (served behind the token). */
export function useListingImageUrl(imageId: string | null) {
  return useQuery({
    queryKey: listingKeys.image(imageId ?? ''),
    queryFn: () => objectUrlOf(`${IMAGES_ENDPOINT}/${encodeURIComponent(imageId ?? '')}`),
    enabled: imageId !== null,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** The bulk upload template: the header row, as a CSV (UTF-8 without BOM) or an XLSX. */
export const downloadListingTemplate = (format: 'csv' | 'xlsx') =>
  downloadFile(`${LISTING_UPLOAD_ENDPOINT}/template`, {
    query: { format },
    fileName: `listings-template.${format}`,
  });

/** Copies listings into new drafts, for `store_ids` or each listing's own stores. */
export function useCopyListings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { listing_ids: string[]; store_ids?: string[] }) =>
      api<Answer<CopyListingsAnswer>>(`${LISTINGS_ENDPOINT}/copy`, { method: 'POST', body }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: listingKeys.lists() }),
  });
}
