import type {
  GoodsReceiptDetail,
  GoodsReceiptListRow,
  MasterCodeOption,
  NewGoodsReceipt,
  NewPurchase,
  PlaceOption,
  PurchaseDetail,
  PurchaseListRow,
  PurchaseSettings,
  PurchaseSettingsBody,
  TimelineItem,
} from '@api/contracts/purchases';
import type { GoodsReceiptAction, GoodsReceiptStatus } from '@domain/purchases/goods-receipt';
import type { PurchaseAction, PurchaseStatus } from '@domain/purchases/purchase';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { type Answer, api, apiData } from './client';
import { downloadFile } from './download';

/**
 * Purchase orders and goods receive notes (api/purchases): the details with their actions (the states allow them,
 * domain/purchases), the actions, the approval settings and the pickers. The grids read their pages themselves
 * (components/data-grid); these are their endpoints. Every action answers the document as it now stands.
 */

export { QUANTITY_MAX } from '@domain/purchases/codes';
export { GOODS_RECEIPT_STATUSES } from '@domain/purchases/goods-receipt';
export { PURCHASE_COLUMNS } from '@domain/purchases/purchase-file';
export type {
  GoodsReceiptAction,
  GoodsReceiptDetail,
  GoodsReceiptListRow,
  GoodsReceiptStatus,
  MasterCodeOption,
  PurchaseAction,
  PurchaseDetail,
  PurchaseListRow,
  PurchaseSettings,
  PurchaseStatus,
  TimelineItem,
};

export const PURCHASES_ENDPOINT = '/api/purchases';
export const GOODS_RECEIPTS_ENDPOINT = '/api/purchases/goods-receipts';
const SETTINGS_ENDPOINT = '/api/purchases/settings';

export const MANAGE_KEY = 'purchases-manage';
export const VIEW_KEY = 'purchases-index';

/** The statuses in the order the console offers them. */
export const PURCHASE_STATUSES = [
  'pending',
  'pending approval',
  'ordered',
  'partial',
  'received',
  'returned',
  'cancel',
  'void',
] as const satisfies readonly PurchaseStatus[];

export const UPLOAD_MAX_BYTES = 5 * 1024 * 1024;

/** What a new order and a new note send. */
export type PurchaseBody = z.input<typeof NewPurchase>;
export type ReceiptBody = z.input<typeof NewGoodsReceipt>;

export const purchaseKeys = {
  all: ['purchases'] as const,
  lists: () => [...purchaseKeys.all, 'list'] as const,
  list: (query: unknown) => [...purchaseKeys.lists(), query] as const,
  detail: (id: string) => [...purchaseKeys.all, 'detail', id] as const,
  settings: () => [...purchaseKeys.all, 'settings'] as const,
  places: () => [...purchaseKeys.all, 'places'] as const,
  masterCodes: (search: string) => [...purchaseKeys.all, 'master-codes', search] as const,
};

export const goodsReceiptKeys = {
  all: ['goods-receipts'] as const,
  lists: () => [...goodsReceiptKeys.all, 'list'] as const,
  list: (query: unknown) => [...goodsReceiptKeys.lists(), query] as const,
  detail: (id: string) => [...goodsReceiptKeys.all, 'detail', id] as const,
};

const enc = encodeURIComponent;

export function usePurchase(id: string) {
  return useQuery({
    queryKey: purchaseKeys.detail(id),
    queryFn: () => apiData<PurchaseDetail>(`${PURCHASES_ENDPOINT}/${enc(id)}`),
  });
}

export function useCreatePurchase() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PurchaseBody) =>
      api<Answer<PurchaseDetail>>(PURCHASES_ENDPOINT, { method: 'POST', body }),
    onSuccess: (answer) => {
      queryClient.setQueryData(purchaseKeys.detail(answer.data.id), answer.data);
      void queryClient.invalidateQueries({ queryKey: purchaseKeys.lists() });
    },
  });
}

export function usePurchaseAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      id,
      action,
      body,
    }: {
      id: string;
      action: Exclude<PurchaseAction, 'receive'>;
      body?: unknown;
    }) =>
      api<Answer<PurchaseDetail>>(`${PURCHASES_ENDPOINT}/${enc(id)}/${action}`, {
        method: 'POST',
        body: body ?? {},
      }),
    onSuccess: (answer) => {
      queryClient.setQueryData(purchaseKeys.detail(answer.data.id), answer.data);
      void queryClient.invalidateQueries({ queryKey: purchaseKeys.lists() });
    },
  });
}

export function useOpenReceipt() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ purchaseId, body }: { purchaseId: string; body: ReceiptBody }) =>
      api<Answer<GoodsReceiptDetail>>(`${PURCHASES_ENDPOINT}/${enc(purchaseId)}/goods-receipts`, {
        method: 'POST',
        body,
      }),
    onSuccess: (answer) => {
      queryClient.setQueryData(goodsReceiptKeys.detail(answer.data.id), answer.data);
      void queryClient.invalidateQueries({ queryKey: goodsReceiptKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: purchaseKeys.detail(answer.data.purchase.id) });
    },
  });
}

export function useGoodsReceipt(id: string) {
  return useQuery({
    queryKey: goodsReceiptKeys.detail(id),
    queryFn: () => apiData<GoodsReceiptDetail>(`${GOODS_RECEIPTS_ENDPOINT}/${enc(id)}`),
  });
}

export function useGoodsReceiptAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action, body }: { id: string; action: GoodsReceiptAction; body?: unknown }) =>
      api<Answer<GoodsReceiptDetail>>(`${GOODS_RECEIPTS_ENDPOINT}/${enc(id)}/${action}`, {
        method: 'POST',
        body: body ?? {},
      }),
    onSuccess: (answer) => {
      queryClient.setQueryData(goodsReceiptKeys.detail(answer.data.id), answer.data);
      void queryClient.invalidateQueries({ queryKey: goodsReceiptKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: purchaseKeys.detail(answer.data.purchase.id) });
    },
  });
}

export function usePurchaseSettings() {
  return useQuery({
    queryKey: purchaseKeys.settings(),
    queryFn: () => apiData<PurchaseSettings>(SETTINGS_ENDPOINT),
  });
}

export function useSavePurchaseSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PurchaseSettingsBody) =>
      api<Answer<PurchaseSettings>>(SETTINGS_ENDPOINT, { method: 'PUT', body }),
    onSuccess: (answer) => queryClient.setQueryData(purchaseKeys.settings(), answer.data),
  });
}

export function usePlaceOptions() {
  return useQuery({
    queryKey: purchaseKeys.places(),
    queryFn: () => apiData<PlaceOption[]>('/api/purchases/options/warehouses'),
  });
}

export function useMasterCodeOptions(search: string) {
  return useQuery({
    queryKey: purchaseKeys.masterCodes(search),
    queryFn: () =>
      apiData<MasterCodeOption[]>('/api/purchases/options/master-codes', { query: { search, limit: 20 } }),
    placeholderData: keepPreviousData,
  });
}

/** The order as a PDF, saved under its PO number. */
export const downloadPurchasePdf = (purchase: Pick<PurchaseDetail, 'id' | 'po_number'>) =>
  downloadFile(`${PURCHASES_ENDPOINT}/${enc(purchase.id)}/pdf`, { fileName: `${purchase.po_number}.pdf` });

/** A key for one creation, so a retried request (a double click, a network retry) creates once. */
export const newIdempotencyKey = () =>
  typeof crypto.randomUUID === 'function'
    ? crypto.randomUUID()
    : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
