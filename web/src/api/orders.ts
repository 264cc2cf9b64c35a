import type {
  ActionAnswer,
  ActionBody as ActionRequest,
  AddressBody,
  OrderCounts,
  OrderDetail,
  OrderLineAnswer,
  OrderListRow,
  PickerRow,
  ShippingAnswer,
  StoreOption,
} from '@api/contracts/orders';
import { ORDER_COUNTS_VIEW, ORDERS_VIEW } from '@domain/shared/live-views';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type Answer, api, apiData } from '@web/api/client';
import type { z } from 'zod';

export { ORDER_COUNTS_VIEW, ORDERS_VIEW };

/**
 * The order board (api/orders): the list (a grid endpoint), the tab counts, the stores with orders, one order in
 * full, the actions on one or many orders, and the changes to one order (each answers the order as it now stands).
 * Every shape is the contract's (api/contracts/orders.ts).
 */

export const ORDERS_ENDPOINT = '/api/orders';

export type OrderRow = OrderListRow;
export type { OrderCounts, OrderDetail };
export type OrderLineDetail = z.infer<typeof OrderLineAnswer>;
export type Person = NonNullable<OrderListRow['scanned_by']>;
/** What the console sends for an action (the idempotency key is added here). */
export type ActionBody = z.input<typeof ActionRequest>;
/** Which orders their marketplace arranges (GET /api/orders/shipping), and the shop's pickup addresses. */
export type ShippingOptions = z.infer<typeof ShippingAnswer>;
export type MasterCodeOption = z.infer<typeof PickerRow>;
export type AddressInput = Omit<z.input<typeof AddressBody>, 'idempotency_key'>;

export const orderKeys = {
  all: ['orders'] as const,
  lists: () => [...orderKeys.all, 'list'] as const,
  list: (query: Record<string, unknown>) => [...orderKeys.lists(), query] as const,
  counts: (query: Record<string, string | undefined>) => [...orderKeys.all, 'counts', query] as const,
  stores: () => [...orderKeys.all, 'stores'] as const,
  detail: (id: string) => [...orderKeys.all, 'detail', id] as const,
  masterCodes: (search: string) => [...orderKeys.all, 'master-codes', search] as const,
  shipping: (ids: readonly string[]) => [...orderKeys.all, 'shipping', ids.join(',')] as const,
};

/** One order's path. */
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
    queryFn: () => apiData<z.infer<typeof StoreOption>[]>(`${ORDERS_ENDPOINT}/stores`),
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

export const useChangeAddress = () =>
  useOrderChange(
    (input: { id: string; address: AddressInput }) => `${one(input.id)}/address`,
    (input) => input.address,
  );

export const useAddGift = () =>
  useOrderChange(
    (input: { id: string; masterCodeId: string; quantity: number }) => `${one(input.id)}/gifts`,
    (input) => ({ master_code_id: input.masterCodeId, quantity: input.quantity }),
  );

export const useRecordPacking = () =>
  useOrderChange(
    (input: { id: string; lineId: string; binNumber: string; serialNumbers: string[] }) =>
      `${one(input.id)}/lines/${encodeURIComponent(input.lineId)}/packing`,
    (input) => ({ bin_number: input.binNumber, serial_numbers: input.serialNumbers }),
  );

/** A new order of some of an order's lines: split off it, or a replacement of them (spec §4). */
export function useOrderOfLines(kind: 'split' | 'replacement') {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: string; lines: { line_id: string; quantity: number }[] }) =>
      api<Answer<{ order: OrderDetail }>>(`${one(input.id)}/${kind}`, {
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
