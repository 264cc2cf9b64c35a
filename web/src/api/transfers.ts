import type { LineInput } from '@domain/transfers/rules';
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
const SHORTFALLS_ENDPOINT = '/api/transfer-stock/shortfalls';
const MASTER_CODES_ENDPOINT = '/api/transfer-stock/master-codes';

import type {
  EditTransferBody,
  MasterCodeAnswer,
  PickerMasterCode,
  PickerPlace,
  PlaceAnswer,
  RequestDetail,
  RequestListRow,
  ShortfallAnswer,
  ShortfallCheckBody,
  Stamp,
  TimelineAnswer,
  TransferDetail,
  TransferDocumentBody,
  TransferListRow,
  UserAnswer,
} from '@api/contracts/transfers';

export type { PickerMasterCode, PickerPlace, RequestDetail, ShortfallAnswer, Stamp, TransferDetail };
export type MasterCodeRef = MasterCodeAnswer;
export type PlaceRef = PlaceAnswer;
export type UserRef = UserAnswer;
export type TimelineEntry = TimelineAnswer;
export type RequestRow = RequestListRow;
export type TransferRow = TransferListRow;
export { MAX_QUANTITY as QUANTITY_MAX, REASON_MAX, REFERENCE_MAX, REMARK_MAX } from '@domain/transfers/rules';

/** A new document's fields as the form sends them (the body of the create routes, without its key). */
export type DocumentFields = Omit<TransferDocumentBody, 'idempotency_key' | 'reference' | 'remark'> & {
  reference: string;
  remark: string;
};

/** Transfer requests' query keys: the lists (a grid's pages) and one request. */
export const requestKeys = {
  all: ['transfer-requests'] as const,
  lists: () => [...requestKeys.all, 'list'] as const,
  list: (query: Record<string, unknown>) => [...requestKeys.lists(), query] as const,
  detail: (id: string) => [...requestKeys.all, 'detail', id] as const,
};

/** Transfers' query keys, and the pickers of their forms. */
export const transferKeys = {
  all: ['transfers'] as const,
  lists: () => [...transferKeys.all, 'list'] as const,
  list: (query: Record<string, unknown>) => [...transferKeys.lists(), query] as const,
  detail: (id: string) => [...transferKeys.all, 'detail', id] as const,
  places: () => [...transferKeys.all, 'places'] as const,
  masterCodes: (search: string) => [...transferKeys.all, 'master-codes', search] as const,
  shortfalls: (check: ShortfallCheckBody) => [...transferKeys.all, 'shortfalls', check] as const,
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

/**
 * The lines of a form that ask for more than the source has on hand (none until a source and a valid line are
 * chosen), asked again whenever they change; stock moving elsewhere refreshes them on the next change.
 */
export function useShortfalls(check: ShortfallCheckBody | null) {
  return useQuery({
    queryKey: transferKeys.shortfalls(check ?? { from_warehouse_id: '', lines: [] }),
    queryFn: () => apiData<ShortfallAnswer[]>(SHORTFALLS_ENDPOINT, { method: 'POST', body: check }),
    enabled: check !== null,
    placeholderData: keepPreviousData,
  });
}

export function useRequestDetail(id: string | null) {
  return useQuery({
    queryKey: requestKeys.detail(id ?? ''),
    queryFn: () => apiData<RequestDetail>(one(REQUESTS_ENDPOINT, id ?? '')),
    enabled: id !== null,
  });
}

export function useTransferDetail(id: string | null) {
  return useQuery({
    queryKey: transferKeys.detail(id ?? ''),
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
        queryKey: kind === 'request' ? requestKeys.lists() : transferKeys.lists(),
      }),
  });
}

/** A pending transfer's new lines, destination and remark, against the revision its detail answered. */
export function useEditTransfer(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (fields: Omit<EditTransferBody, 'idempotency_key'>) =>
      api<Answer<TransferDetail>>(`${one(TRANSFERS_ENDPOINT, id)}/edit`, {
        method: 'POST',
        body: { ...fields, idempotency_key: newKey() },
      }),
    onSuccess: (answer) => {
      queryClient.setQueryData(transferKeys.detail(id), answer.data);
      queryClient.invalidateQueries({ queryKey: transferKeys.lists() });
    },
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
      queryClient.setQueryData(requestKeys.detail(id), answer.data);
      queryClient.invalidateQueries({ queryKey: requestKeys.lists() });
      queryClient.invalidateQueries({ queryKey: transferKeys.lists() });
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
    onSuccess: (answer, { id }) => {
      queryClient.setQueryData(transferKeys.detail(id), answer.data);
      queryClient.invalidateQueries({ queryKey: transferKeys.lists() });
    },
  });
}
