import type { BoardAction, OrderTab } from '@domain/orders/board';
import type { OrderStatus } from '@domain/orders/order';
import { ORDER_COUNTS_VIEW, ORDERS_VIEW } from '@domain/shared/live-views';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type Answer, api, apiData } from '@web/api/client';
import type { PrintDocument, PrintOrigin } from '@web/api/printing';

export { ORDER_COUNTS_VIEW, ORDERS_VIEW };

/**
 * The order board API (api/orders): the list (a grid endpoint), the tab counts, the stores with orders, one order in
 * full, the actions on one or many orders, and the changes to one order (each answers the order as it now stands).
 */

export const ORDERS_ENDPOINT = '/api/orders';
/** Live views the board projection announces: changed orders, and orders that moved between tabs. */

export interface Person {
  id: string;
  name: string | null;
}

export interface OrderRow {
  id: string;
  order_number: string;
  store_id: string;
  store_name: string | null;
  platform: string;
  status: OrderStatus;
  marketplace_status: string;
  payment_method: string;
  cod: boolean;
  currency: string;
  total_amount: string;
  ordered_at: string;
  paid_at: string | null;
  tracking_number: string | null;
  shipping_provider: string | null;
  buyer_username: string | null;
  buyer_name: string;
  warehouse_id: string;
  batch_id: string | null;
  item_count: number;
  line_count: number;
  item_not_found: boolean;
  out_of_stock: boolean;
  pre_order: boolean;
  printed: string[];
  preview: boolean;
  split_from: string | null;
  scanned_at: string | null;
  scanned_by: Person | null;
  shipped_at: string | null;
  cancelled_at: string | null;
  updated_at: string;
}

export interface OrderAddress {
  name: string;
  phone: string;
  fullAddress: string;
  city: string;
  state: string;
  postalCode: string;
  country: string;
  district?: string;
  barangay?: string;
  email?: string;
}

export interface OrderLineDetail {
  line_id: string;
  sku: string;
  seller_sku: string;
  name: string;
  variation: string | null;
  quantity: number;
  unit_price: string;
  master_code: {
    id: string;
    code: string | null;
    name: string | null;
    type: 'standard' | 'combo' | null;
  } | null;
  item_not_found: boolean;
  out_of_stock: boolean;
  removed: boolean;
}

export interface OrderDetail extends OrderRow {
  marketplace_updated_at: string | null;
  shipping_fee: string | null;
  buyer_remark: string | null;
  address: OrderAddress;
  stock_stage: string;
  lines: OrderLineDetail[];
  actions: BoardAction[];
  timeline: { type: string; at: string; user: Person | null; data: Record<string, unknown> }[];
}

export interface OrderCounts {
  tabs: Record<OrderTab, number>;
  statuses: Record<OrderStatus, number>;
}

export interface StoreOption {
  store_id: string;
  name: string | null;
  platform: string;
  orders: number;
}

export interface ActionAnswer {
  action: BoardAction;
  succeeded: number;
  failed: number;
  results: { order_id: string; ok: boolean; code: number; msg: string; unchanged: boolean }[];
}

export type ActionBody =
  | {
      action: Exclude<BoardAction, 'cancel' | 'arrange_shipment' | 'request_pickup' | 'mark_printed'>;
      order_ids: string[];
    }
  | { action: 'mark_printed'; order_ids: string[]; document: PrintDocument; origin: PrintOrigin }
  | {
      action: 'cancel';
      order_ids: string[];
      reason?: string;
      marketplace_reason?: 'out_of_stock' | 'undeliverable_area' | 'cod_not_supported';
    }
  | {
      action: 'arrange_shipment';
      shipments: { order_id: string; tracking_number: string; shipping_provider: string }[];
    }
  | {
      action: 'request_pickup';
      order_ids: string[];
      provider: string;
      pickup_address: string;
      pickup_address_id?: number;
      pickup_day: 'today' | 'after_1_day' | 'after_2_days';
      pickup_time: 'none' | 'earliest' | 'latest';
    };

/** Which orders their marketplace arranges (GET /api/orders/shipping), and the shop's pickup addresses. */
export interface ShippingOptions {
  orders: { order_id: string; marketplace: boolean }[];
  pickup_addresses: { id: number; address: string; is_default: boolean }[];
}

export interface MasterCodeOption {
  id: string;
  code: string;
  name: string;
  type: 'standard' | 'combo';
  seller_sku: string;
}

export const orderKeys = {
  all: ['orders'] as const,
  counts: (query: Record<string, string | undefined>) => [...orderKeys.all, 'counts', query] as const,
  stores: () => [...orderKeys.all, 'stores'] as const,
  detail: (id: string) => [...orderKeys.all, 'detail', id] as const,
  masterCodes: (search: string) => [...orderKeys.all, 'master-codes', search] as const,
  shipping: (ids: readonly string[]) => [...orderKeys.all, 'shipping', ids.join(',')] as const,
};

const one = (id: string) => `${ORDERS_ENDPOINT}/${encodeURIComponent(id)}`;

export function useOrderCounts(query: { store_id?: string; platform?: string }) {
  return useQuery({
    queryKey: orderKeys.counts(query),
    queryFn: () => apiData<OrderCounts>(`${ORDERS_ENDPOINT}/counts`, { query }),
  });
}

export function useOrderStores() {
  return useQuery({
    queryKey: orderKeys.stores(),
    queryFn: () => apiData<StoreOption[]>(`${ORDERS_ENDPOINT}/stores`),
  });
}

export function useOrder(id: string | null) {
  return useQuery({
    queryKey: orderKeys.detail(id ?? ''),
    queryFn: () => apiData<OrderDetail>(one(id!)),
    enabled: id !== null,
  });
}

export function useShippingOptions(orderIds: readonly string[]) {
  return useQuery({
    queryKey: orderKeys.shipping(orderIds),
    queryFn: () =>
      apiData<ShippingOptions>(`${ORDERS_ENDPOINT}/shipping`, { query: { order_ids: orderIds.join(',') } }),
    enabled: orderIds.length > 0,
    staleTime: 30_000,
  });
}

/** A fresh idempotency key per click: a retry of the same click (the network) records nothing twice. */
const newKey = () =>
  typeof crypto.randomUUID === 'function'
    ? crypto.randomUUID()
    : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;

export function useOrderAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ActionBody) =>
      api<Answer<ActionAnswer>>(`${ORDERS_ENDPOINT}/actions`, {
        method: 'POST',
        body: { ...body, idempotency_key: newKey() },
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: orderKeys.all }),
  });
}

function useOrderChange<Input>(path: (input: Input) => string, body: (input: Input) => unknown) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: Input) =>
      api<Answer<OrderDetail>>(path(input), {
        method: 'POST',
        body: { ...(body(input) as object), idempotency_key: newKey() },
      }),
    onSuccess: (answer) => {
      queryClient.setQueryData(orderKeys.detail(answer.data.id), answer.data);
      void queryClient.invalidateQueries({ queryKey: [...orderKeys.all, 'counts'] });
    },
  });
}

export const useMapLine = () =>
  useOrderChange(
    (input: { id: string; lineId: string; masterCodeId: string }) =>
      `${one(input.id)}/lines/${encodeURIComponent(input.lineId)}/map`,
    (input) => ({ master_code_id: input.masterCodeId }),
  );

export const useRemoveLine = () =>
  useOrderChange(
    (input: { id: string; lineId: string; mark: 'out_of_stock' | 'stockable' }) =>
      `${one(input.id)}/lines/${encodeURIComponent(input.lineId)}/remove`,
    (input) => ({ mark: input.mark }),
  );

export interface AddressInput {
  name: string;
  phone: string;
  full_address: string;
  city: string;
  state: string;
  postal_code: string;
  country: string;
}

export const useChangeAddress = () =>
  useOrderChange(
    (input: { id: string; address: AddressInput }) => `${one(input.id)}/address`,
    (input) => input.address,
  );

export function useSplitOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: string; lines: { line_id: string; quantity: number }[] }) =>
      api<Answer<{ order: OrderDetail; child_order_id: string }>>(`${one(input.id)}/split`, {
        method: 'POST',
        body: { lines: input.lines, idempotency_key: newKey() },
      }),
    onSuccess: (answer) => {
      queryClient.setQueryData(orderKeys.detail(answer.data.order.id), answer.data.order);
      void queryClient.invalidateQueries({ queryKey: [...orderKeys.all, 'counts'] });
    },
  });
}

export function useMasterCodeOptions(search: string) {
  return useQuery({
    queryKey: orderKeys.masterCodes(search),
    queryFn: () =>
      apiData<MasterCodeOption[]>(`${ORDERS_ENDPOINT}/master-codes`, {
        query: { search: search || undefined, limit: 20 },
      }),
  });
}

/** An endpoint with its query (the grid adds its own paging to it). */
export function withQuery(path: string, query: Record<string, string | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value) params.set(key, value);
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}
