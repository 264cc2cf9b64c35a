import { z } from 'zod';
import {
  documentProblem,
  MAX_LINES,
  MAX_QUANTITY,
  type Problem,
  REASON_MAX,
  REFERENCE_MAX,
  REMARK_MAX,
  type RequestStatus,
  refuseTransfer,
} from './rules';

/**
 * A stock transfer request (spec §3 "Transfer request and transfer", §4): a branch asks another place for stock —
 * from and to (warehouses or branches of the account), a reference, the quantities of standard master codes, a
 * remark. Pending until someone holding "approve request" approves it (which makes the transfer of the same lines,
 * whose id the approval names) or rejects it with a reason, or its maker cancels it. One stream per request; who
 * and when ride in each event's metadata.
 */

// ---- events ----

const Id = z.string().min(1).max(100);
export const TransferLine = z.strictObject({
  masterCodeId: Id,
  quantity: z.number().int().min(1).max(MAX_QUANTITY),
});
export type TransferLine = z.infer<typeof TransferLine>;

export const TransferRequestCreated = z.strictObject({
  requestId: Id,
  fromWarehouseId: Id,
  toWarehouseId: Id,
  reference: z.string().max(REFERENCE_MAX),
  remark: z.string().max(REMARK_MAX),
  lines: z.array(TransferLine).min(1).max(MAX_LINES),
});
export const TransferRequestApproved = z.strictObject({ transferId: Id });
export const TransferRequestRejected = z.strictObject({ reason: z.string().min(1).max(REASON_MAX) });
export const TransferRequestCancelled = z.strictObject({});

export const transferRequestEvents = {
  TransferRequestCreated,
  TransferRequestApproved,
  TransferRequestRejected,
  TransferRequestCancelled,
} as const;

export type TransferRequestEventType = keyof typeof transferRequestEvents;
export type TransferRequestEvent = {
  [Type in TransferRequestEventType]: { type: Type; data: z.infer<(typeof transferRequestEvents)[Type]> };
}[TransferRequestEventType];
export const TRANSFER_REQUEST_EVENT_TYPES = Object.keys(transferRequestEvents) as TransferRequestEventType[];

// ---- state ----

export type TransferRequestState =
  | { status: 'none' }
  | {
      status: RequestStatus;
      requestId: string;
      fromWarehouseId: string;
      toWarehouseId: string;
      reference: string;
      remark: string;
      lines: TransferLine[];
      transferId: string | null;
      rejectReason: string | null;
    };

export const initialState: TransferRequestState = { status: 'none' };

export function evolve(state: TransferRequestState, event: TransferRequestEvent): TransferRequestState {
  switch (event.type) {
    case 'TransferRequestCreated':
      return { status: 'pending', ...event.data, transferId: null, rejectReason: null };
    case 'TransferRequestApproved':
      return state.status === 'none'
        ? state
        : { ...state, status: 'approved', transferId: event.data.transferId };
    case 'TransferRequestRejected':
      return state.status === 'none'
        ? state
        : { ...state, status: 'rejected', rejectReason: event.data.reason };
    case 'TransferRequestCancelled':
      return state.status === 'none' ? state : { ...state, status: 'cancelled' };
    default: {
      const unknown: never = event;
      throw new Error(`unknown transfer request event ${(unknown as { type: string }).type}`);
    }
  }
}

// ---- commands ----

export type TransferRequestCommand =
  | {
      type: 'CreateTransferRequest';
      requestId: string;
      fromWarehouseId: string;
      toWarehouseId: string;
      reference: string;
      remark: string;
      lines: TransferLine[];
    }
  /** The transfer the approval makes: its id is chosen by the caller (derived from the request's). */
  | { type: 'ApproveTransferRequest'; transferId: string }
  | { type: 'RejectTransferRequest'; reason: string }
  | { type: 'CancelTransferRequest' };

// ---- decide ----

const refuse = (found: Problem) => refuseTransfer(found.code, found.params);

export function decide(command: TransferRequestCommand, state: TransferRequestState): TransferRequestEvent[] {
  if (command.type === 'CreateTransferRequest') {
    if (state.status !== 'none') throw refuseTransfer('DOCUMENT_EXISTS');
    const found = documentProblem(command);
    if (found) throw refuse(found);
    const { type: _type, ...data } = command;
    return [{ type: 'TransferRequestCreated', data }];
  }
  if (state.status === 'none') throw refuseTransfer('DOCUMENT_NOT_FOUND');
  if (state.status !== 'pending') throw refuseTransfer('REQUEST_NOT_PENDING', { status: state.status });
  switch (command.type) {
    case 'ApproveTransferRequest':
      return [{ type: 'TransferRequestApproved', data: { transferId: command.transferId } }];
    case 'RejectTransferRequest': {
      const reason = command.reason.trim();
      if (!reason) throw refuseTransfer('REJECT_REASON_REQUIRED');
      if (reason.length > REASON_MAX)
        throw refuseTransfer('TEXT_TOO_LONG', { field: 'reason', max: REASON_MAX });
      return [{ type: 'TransferRequestRejected', data: { reason } }];
    }
    case 'CancelTransferRequest':
      return [{ type: 'TransferRequestCancelled', data: {} }];
    default: {
      const unknown: never = command;
      throw new Error(`unknown transfer request command ${(unknown as { type: string }).type}`);
    }
  }
}

export const transferRequestDecider = { initial: initialState, evolve, decide };

// ---- stream ----

export const TRANSFER_REQUEST_CATEGORY = 'transferRequest';

/** `transferRequest-<tenant>.<requestId>`: one stream per request. */
export const transferRequestStreamId = (tenantId: string, requestId: string) =>
  `${TRANSFER_REQUEST_CATEGORY}-${tenantId}.${requestId}`;
