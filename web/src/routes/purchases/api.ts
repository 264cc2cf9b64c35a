import { AVERAGE_COSTS_VIEW, GOODS_RECEIPTS_VIEW, PURCHASES_VIEW } from '@domain/shared/live-views';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type Answer, api, apiData } from '@web/api/client';
import { downloadFile } from '@web/api/download';

export { AVERAGE_COSTS_VIEW, GOODS_RECEIPTS_VIEW, PURCHASES_VIEW };

/**
 * The purchasing API (api/purchases): suppliers, purchase orders with their actions, goods receive notes with
 * theirs, the approval settings, the pickers and the bulk files. The grids read their pages themselves
 * (components/data-grid); these are their endpoints. Every action answers the document as it now stands.
 */

export const PURCHASES_ENDPOINT = '/api/purchases';
export const SUPPLIERS_ENDPOINT = '/api/purchases/suppliers';
export const GOODS_RECEIPTS_ENDPOINT = '/api/purchases/goods-receipts';
const SETTINGS_ENDPOINT = '/api/purchases/settings';

/** The live views the projections announce changes in. */

export const MANAGE_KEY = 'purchases-manage';
export const VIEW_KEY = 'purchases-index';

export const PURCHASE_STATUSES = [
  'pending',
  'pending approval',
  'ordered',
  'partial',
  'received',
  'returned',
  'cancel',
  'void',
] as const;
export type PurchaseStatus = (typeof PURCHASE_STATUSES)[number];
export const GRN_STATUSES = [1, 2, 3, 4, 5, 6] as const;
export type GrnStatus = (typeof GRN_STATUSES)[number];

export const QUANTITY_MAX = 1_000_000_000;
export const TEXT_MAX = { reference: 100, note: 500, reason: 500 } as const;
export const UPLOAD_MAX_BYTES = 5 * 1024 * 1024;
export const SUPPLIER_COLUMNS = [
  'name',
  'company',
  'contact_number',
  'address',
  'city',
  'postal_code',
  'state',
  'country',
  'email',
  'currency',
  'vat_number',
  'code',
] as const;
export const PURCHASE_COLUMNS = [
  'reference',
  'supplier_code',
  'warehouse_code',
  'master_code',
  'quantity',
  'unit_cost',
  'date',
  'estimated_arrival',
  'discount',
] as const;

interface Named {
  id: string;
  code: string | null;
  name: string | null;
}
export interface Person {
  id: string;
  name: string | null;
}

export interface TimelineItem {
  type: string;
  at: string;
  user: Person | null;
  data: Record<string, unknown>;
}

export interface PurchaseRow {
  id: string;
  po_number: string;
  reference: string;
  date: string;
  supplier_name: string | null;
  warehouse_name: string | null;
  status: PurchaseStatus;
  item_count: number;
  quantity: number;
  received: number;
  total: string;
  estimated_arrival: string | null;
  open_receipts: number;
  created_at: string;
}

export interface PurchaseLine {
  master_code: Named;
  quantity: number;
  unit_cost: string;
  line_total: string;
  net_unit_cost: string;
  received: number;
  damaged: number;
  returned_on_receipt: number;
  returned: number;
  outstanding: number;
  receivable: number;
  average_cost: string | null;
}

export type PurchaseAction = 'place' | 'approve' | 'reject' | 'cancel' | 'void' | 'return' | 'receive';

export interface PurchaseDetail {
  id: string;
  po_number: string;
  reference: string;
  date: string;
  status: PurchaseStatus;
  supplier: Named & { company: string | null };
  warehouse: Named;
  discount: string;
  subtotal: string;
  total: string;
  estimated_arrival: string | null;
  note: string;
  reject_reason: string | null;
  created_by: Person | null;
  lines: PurchaseLine[];
  open_receipts: { id: string; grn_number: string }[];
  goods_receipts: { id: string; grn_number: string; status: GrnStatus; created_at: string }[];
  actions: PurchaseAction[];
  timeline: TimelineItem[];
}

export interface GrnRow {
  id: string;
  grn_number: string;
  purchase_id: string;
  po_number: string;
  supplier_name: string | null;
  warehouse_name: string | null;
  status: GrnStatus;
  received: number;
  damaged: number;
  returned: number;
  created_by: Person;
  approved_by: Person | null;
  created_at: string;
}

export type GrnAction = 'approve' | 'reject' | 'receive' | 'cancel';

export interface GrnDetail {
  id: string;
  grn_number: string;
  purchase: { id: string; po_number: string };
  supplier: Named;
  warehouse: Named;
  status: GrnStatus;
  reference: string;
  note: string;
  reason: string | null;
  approval_required: boolean;
  created_by: Person | null;
  approved_by: Person | null;
  lines: {
    master_code: Named;
    received: number;
    damaged: number;
    returned: number;
    unit_cost: string | null;
  }[];
  actions: GrnAction[];
  timeline: TimelineItem[];
}

export interface Supplier {
  id: string;
  code: string;
  name: string;
  company: string;
  contact_number: string;
  email: string;
  address: string;
  city: string;
  postal_code: string;
  state: string;
  country: string;
  currency: string;
  vat_number: string;
  status: 'active' | 'inactive';
}
export type SupplierBody = Omit<Supplier, 'id'>;

export interface PurchaseSettings {
  purchase_approval: boolean;
  goods_receipt_approval: boolean;
  updated_at: string | null;
}

export interface PurchaseBody {
  reference: string;
  date: string;
  supplier_id: string;
  warehouse_id: string;
  items: { master_code_id: string; quantity: number; unit_cost: string }[];
  discount: string;
  estimated_arrival: string | null;
  note: string;
  place: boolean;
  idempotency_key: string;
}

export interface ReceiptBody {
  reference: string;
  note: string;
  items: { master_code_id: string; received: number; damaged: number; returned: number }[];
  receive_now: boolean;
  idempotency_key: string;
}

export const purchaseKeys = {
  all: ['purchases'] as const,
  detail: (id: string) => [...purchaseKeys.all, 'detail', id] as const,
  note: (id: string) => [...purchaseKeys.all, 'note', id] as const,
  settings: () => [...purchaseKeys.all, 'settings'] as const,
  suppliers: () => [...purchaseKeys.all, 'supplier-options'] as const,
  places: () => [...purchaseKeys.all, 'places'] as const,
  masterCodes: (search: string) => [...purchaseKeys.all, 'master-codes', search] as const,
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
    onSuccess: (answer) => queryClient.setQueryData(purchaseKeys.detail(answer.data.id), answer.data),
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
    onSuccess: (answer) => queryClient.setQueryData(purchaseKeys.detail(answer.data.id), answer.data),
  });
}

export function useOpenReceipt() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ purchaseId, body }: { purchaseId: string; body: ReceiptBody }) =>
      api<Answer<GrnDetail>>(`${PURCHASES_ENDPOINT}/${enc(purchaseId)}/goods-receipts`, {
        method: 'POST',
        body,
      }),
    onSuccess: (answer) => {
      queryClient.setQueryData(purchaseKeys.note(answer.data.id), answer.data);
      void queryClient.invalidateQueries({ queryKey: purchaseKeys.detail(answer.data.purchase.id) });
    },
  });
}

export function useGoodsReceipt(id: string) {
  return useQuery({
    queryKey: purchaseKeys.note(id),
    queryFn: () => apiData<GrnDetail>(`${GOODS_RECEIPTS_ENDPOINT}/${enc(id)}`),
  });
}

export function useGoodsReceiptAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action, body }: { id: string; action: GrnAction; body?: unknown }) =>
      api<Answer<GrnDetail>>(`${GOODS_RECEIPTS_ENDPOINT}/${enc(id)}/${action}`, {
        method: 'POST',
        body: body ?? {},
      }),
    onSuccess: (answer) => {
      queryClient.setQueryData(purchaseKeys.note(answer.data.id), answer.data);
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
    mutationFn: (body: Omit<PurchaseSettings, 'updated_at'>) =>
      api<Answer<PurchaseSettings>>(SETTINGS_ENDPOINT, { method: 'PUT', body }),
    onSuccess: (answer) => queryClient.setQueryData(purchaseKeys.settings(), answer.data),
  });
}

export function useSupplierOptions() {
  return useQuery({
    queryKey: purchaseKeys.suppliers(),
    queryFn: () =>
      apiData<{ id: string; code: string; name: string; company: string; currency: string }[]>(
        `${SUPPLIERS_ENDPOINT}/options`,
      ),
  });
}

export function useSaveSupplier() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: string; body: Partial<SupplierBody> }) =>
      api<Answer<Supplier>>(id ? `${SUPPLIERS_ENDPOINT}/${enc(id)}` : SUPPLIERS_ENDPOINT, {
        method: id ? 'PUT' : 'POST',
        body,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: purchaseKeys.suppliers() }),
  });
}

export function usePlaceOptions() {
  return useQuery({
    queryKey: purchaseKeys.places(),
    queryFn: () =>
      apiData<{ id: string; code: string; name: string; kind: 'warehouse' | 'branch' }[]>(
        '/api/purchases/options/warehouses',
      ),
  });
}

export interface MasterCodeOption {
  id: string;
  code: string;
  name: string;
  cost: string;
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
