import type { LineInput, RequestStatus, TransferStatus } from '@domain/transfers/rules';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type Answer, api, apiData } from './client';

/**
 * Transfer stock (api/transfers/): requests a branch makes for stock, approved into transfers; transfers confirmed,
 * shipped, received in part or whole, their rest returned, or cancelled — each action run by the transfer's
 * workflow. The grids read their pages themselves (components/data-grid); these are their endpoints, the details
 * with their timelines, the pickers and the actions.
 */

export type { RequestStatus, TransferStatus } from '@domain/transfers/rules';
export { REQUEST_STATUSES, TRANSFER_STATUSES } from '@domain/transfers/rules';

export const REQUESTS_ENDPOINT = '/api/transfer-stock/requests';
export const TRANSFERS_ENDPOINT = '/api/transfer-stock/transfers';
const PLACES_ENDPOINT = '/api/transfer-stock/places';
const MASTER_CODES_ENDPOINT = '/api/transfer-stock/master-codes';

export const REFERENCE_MAX = 100;
export const REMARK_MAX = 500;
export const QUANTITY_MAX = 1_000_000_000;

export interface PlaceRef {
  id: string;
  code: string | null;
  name: string | null;
  kind: 'warehouse' | 'branch' | null;
}

export interface UserRef {
  id: string;
  name: string | null;
}

export interface Stamp {
  by: UserRef | null;
  at: string | null;
}

export interface TimelineEntry {
  type: string;
  at: string;
  user: UserRef | null;
  data: Record<string, unknown>;
}

export interface RequestRow {
  id: string;
  reference: string;
  status: RequestStatus;
  from_warehouse: PlaceRef;
  to_warehouse: PlaceRef;
  remark: string;
  reject_reason: string | null;
  line_count: number;
  total_quantity: number;
  transfer_id: string | null;
  created_by: UserRef | null;
  created_at: string;
  approved_at: string | null;
  rejected_at: string | null;
  cancelled_at: string | null;
  updated_at: string;
}

export interface TransferRow {
  id: string;
  reference: string;
  request_id: string | null;
  status: TransferStatus;
  confirmed: boolean;
  from_warehouse: PlaceRef;
  to_warehouse: PlaceRef;
  remark: string;
  cancel_reason: string | null;
  line_count: number;
  total_quantity: number;
  shipped_quantity: number;
  received_quantity: number;
  returned_quantity: number;
  in_transit_quantity: number;
  created_by: UserRef | null;
  created_at: string;
  shipped_by: UserRef | null;
  shipped_at: string | null;
  received_by: UserRef | null;
  received_at: string | null;
  cancelled_by: UserRef | null;
  cancelled_at: string | null;
  completed_at: string | null;
  updated_at: string;
}

export interface MasterCodeRef {
  id: string;
  code: string | null;
  name: string | null;
}

export interface RequestDetail {
  id: string;
  reference: string;
  status: RequestStatus;
  from_warehouse: PlaceRef;
  to_warehouse: PlaceRef;
  remark: string;
  reject_reason: string | null;
  transfer_id: string | null;
  lines: { master_code: MasterCodeRef; quantity: number }[];
  created: Stamp;
  approved: Stamp;
  rejected: Stamp;
  cancelled: Stamp;
  timeline: TimelineEntry[];
}

export interface TransferLine {
  master_code: MasterCodeRef;
  quantity: number;
  shipped: number;
  received: number;
  returned: number;
  in_transit: number;
}

export interface TransferDetail {
  id: string;
  reference: string;
  request_id: string | null;
  status: TransferStatus;
  confirmed: boolean;
  from_warehouse: PlaceRef;
  to_warehouse: PlaceRef;
  remark: string;
  cancel_reason: string | null;
  lines: TransferLine[];
  created: Stamp;
  confirmed_stamp: Stamp;
  shipped: Stamp;
  received: Stamp;
  cancelled: Stamp;
  completed: Stamp;
  timeline: TimelineEntry[];
}

export interface PickerPlace {
  id: string;
  code: string;
  name: string;
  kind: 'warehouse' | 'branch';
}

export interface PickerMasterCode {
  id: string;
  code: string;
  name: string;
  status: 'active' | 'inactive';
}

export interface DocumentFields {
  from_warehouse_id: string;
  to_warehouse_id: string;
  reference: string;
  remark: string;
  lines: { master_code_id: string; quantity: number }[];
}

export const transferKeys = {
  all: ['transfers'] as const,
  places: () => [...transferKeys.all, 'places'] as const,
  masterCodes: (search: string) => [...transferKeys.all, 'master-codes', search] as const,
  requests: () => [...transferKeys.all, 'request'] as const,
  request: (id: string) => [...transferKeys.requests(), id] as const,
  transfers: () => [...transferKeys.all, 'transfer'] as const,
  transfer: (id: string) => [...transferKeys.transfers(), id] as const,
};

const one = (endpoint: string, id: string) => `${endpoint}/${encodeURIComponent(id)}`;

export function useTransferPlaces() {
  return useQuery({
    queryKey: transferKeys.places(),
    queryFn: () => apiData<PickerPlace[]>(PLACES_ENDPOINT),
  });
}

export function useTransferMasterCodes(search: string, enabled: boolean) {
  return useQuery({
    queryKey: transferKeys.masterCodes(search),
    queryFn: () =>
      apiData<PickerMasterCode[]>(MASTER_CODES_ENDPOINT, { query: { search: search || undefined } }),
    enabled,
    placeholderData: keepPreviousData,
  });
}

export function useRequestDetail(id: string | null) {
  return useQuery({
    queryKey: transferKeys.request(id ?? ''),
    queryFn: () => apiData<RequestDetail>(one(REQUESTS_ENDPOINT, id ?? '')),
    enabled: id !== null,
  });
}

export function useTransferDetail(id: string | null) {
  return useQuery({
    queryKey: transferKeys.transfer(id ?? ''),
    queryFn: () => apiData<TransferDetail>(one(TRANSFERS_ENDPOINT, id ?? '')),
    enabled: id !== null,
  });
}

/** A fresh idempotency key per click: a network retry of the same call records once. */
const newKey = () => crypto.randomUUID();

export function useCreateDocument(kind: 'request' | 'transfer') {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (fields: DocumentFields) =>
      api<Answer<RequestDetail | TransferDetail>>(
        kind === 'request' ? REQUESTS_ENDPOINT : TRANSFERS_ENDPOINT,
        {
          method: 'POST',
          body: { ...fields, idempotency_key: newKey() },
        },
      ),
    onSuccess: () =>
      queryClient.invalidateQueries({
        queryKey: kind === 'request' ? transferKeys.requests() : transferKeys.transfers(),
      }),
  });
}

export type RequestAction = 'approve' | 'reject' | 'cancel';

export function useRequestAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action, reason }: { id: string; action: RequestAction; reason?: string }) =>
      api<Answer<RequestDetail>>(`${one(REQUESTS_ENDPOINT, id)}/${action}`, {
        method: 'POST',
        body: action === 'reject' ? { reason, idempotency_key: newKey() } : { idempotency_key: newKey() },
      }),
    onSuccess: (answer, { id }) => {
      queryClient.setQueryData(transferKeys.request(id), answer.data);
      queryClient.invalidateQueries({ queryKey: transferKeys.transfers() });
    },
  });
}

export type TransferActionName = 'confirm' | 'ship' | 'receive' | 'return-rest' | 'cancel';

export function useTransferAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      id,
      action,
      lines,
      reason,
    }: {
      id: string;
      action: TransferActionName;
      lines?: LineInput[];
      reason?: string;
    }) =>
      api<Answer<TransferDetail>>(`${one(TRANSFERS_ENDPOINT, id)}/${action}`, {
        method: 'POST',
        body: {
          idempotency_key: newKey(),
          ...(lines
            ? { lines: lines.map((line) => ({ master_code_id: line.masterCodeId, quantity: line.quantity })) }
            : {}),
          ...(reason ? { reason } : {}),
        },
      }),
    onSuccess: (answer, { id }) => queryClient.setQueryData(transferKeys.transfer(id), answer.data),
  });
}
