import { z } from 'zod';
import {
  actionProblem,
  documentProblem,
  type LineProgress,
  MAX_LINES,
  MAX_QUANTITY,
  type Problem,
  progressAfter,
  REASON_MAX,
  REFERENCE_MAX,
  REMARK_MAX,
  refuseTransfer,
  restOf,
  TRANSFER_ACTIONS,
  type TransferStatus,
  totalInTransit,
} from './rules';
import { TransferLine } from './transfer-request';

/**
 * A stock transfer (spec §3, §4): stock of standard master codes moving from one place of the account to another.
 * Pending when made (directly, or by approving a request), and while pending its lines, destination and remark may
 * be edited; confirm records that the source acknowledged it; ship takes the lines out of the source and puts them
 * in transit (incoming at the destination); receive brings them in, in part or whole; the rest in transit can be
 * returned to the source; cancel before shipping moves nothing, after shipping returns the rest. Completed once
 * nothing is left in transit after a receipt or a return.
 *
 * The transfer workflow (workflows/transfer.workflow.ts) drives it: every stock step it takes is recorded here with
 * the movements that would undo it (TransferStepRecorded), and an undo that ran with TransferStepCompensated, so the
 * document's timeline shows the saga. One stream per transfer; who and when ride in each event's metadata.
 */

// ---- events ----

const Id = z.string().min(1).max(100);
const Quantity = z.number().int().min(1).max(MAX_QUANTITY);
const Lines = z.array(TransferLine).max(MAX_LINES);

export const MovementRecord = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('TransferStockOut'),
    masterCodeId: Id,
    warehouseId: Id,
    quantity: Quantity,
    toWarehouseId: Id,
  }),
  z.strictObject({
    type: z.literal('TransferStockIn'),
    masterCodeId: Id,
    warehouseId: Id,
    quantity: Quantity,
    fromWarehouseId: Id,
    settlesIncoming: z.boolean(),
  }),
  z.strictObject({ type: z.literal('ExpectStock'), masterCodeId: Id, warehouseId: Id, quantity: Quantity }),
  z.strictObject({
    type: z.literal('CancelExpectedStock'),
    masterCodeId: Id,
    warehouseId: Id,
    quantity: Quantity,
  }),
]);

const Action = z.enum(TRANSFER_ACTIONS);

export const TransferCreated = z.strictObject({
  transferId: Id,
  /** The request whose approval made it; null for a transfer made directly. */
  requestId: Id.nullable(),
  fromWarehouseId: Id,
  toWarehouseId: Id,
  reference: z.string().max(REFERENCE_MAX),
  remark: z.string().max(REMARK_MAX),
  lines: z.array(TransferLine).min(1).max(MAX_LINES),
});
/** The lines, destination and remark changed before shipping: the document's new values, whole. */
export const TransferEdited = z.strictObject({
  toWarehouseId: Id,
  remark: z.string().max(REMARK_MAX),
  lines: z.array(TransferLine).min(1).max(MAX_LINES),
});
export const TransferConfirmed = z.strictObject({});
export const TransferStepRecorded = z.strictObject({
  action: Action,
  /** The action's number in the transfer's life (a failed ship tried again is a new attempt). */
  attempt: z.number().int().min(1),
  step: z.string().min(1).max(40),
  movement: MovementRecord,
  /** What undoes the step, recorded as soon as it succeeded. */
  compensation: z.array(MovementRecord).max(4),
});
export const TransferStepCompensated = z.strictObject({
  action: Action,
  attempt: z.number().int().min(1),
  step: z.string().min(1).max(40),
  movements: z.array(MovementRecord).max(4),
});
export const TransferShipped = z.strictObject({ lines: Lines });
export const TransferReceived = z.strictObject({ lines: Lines });
export const TransferRestReturned = z.strictObject({ lines: Lines });
export const TransferCompleted = z.strictObject({});
export const TransferCancelled = z.strictObject({
  reason: z.string().max(REASON_MAX),
  /** What was in transit and went back to the source (empty when cancelled before shipping). */
  returnedLines: Lines,
});
export const TransferActionFailed = z.strictObject({
  action: Action,
  attempt: z.number().int().min(1),
  /** Why the step failed: a stock error code. */
  code: z.string().min(1).max(60),
});

export const transferEvents = {
  TransferCreated,
  TransferEdited,
  TransferConfirmed,
  TransferStepRecorded,
  TransferStepCompensated,
  TransferShipped,
  TransferReceived,
  TransferRestReturned,
  TransferCompleted,
  TransferCancelled,
  TransferActionFailed,
} as const;

export type TransferEventType = keyof typeof transferEvents;
export type TransferEvent = {
  [Type in TransferEventType]: { type: Type; data: z.infer<(typeof transferEvents)[Type]> };
}[TransferEventType];
export const TRANSFER_EVENT_TYPES = Object.keys(transferEvents) as TransferEventType[];
export type MovementRecord = z.infer<typeof MovementRecord>;

// ---- state ----

export interface OpenTransfer {
  status: TransferStatus;
  transferId: string;
  requestId: string | null;
  fromWarehouseId: string;
  toWarehouseId: string;
  reference: string;
  remark: string;
  confirmed: boolean;
  lines: LineProgress[];
}

export type TransferState = { status: 'none' } | OpenTransfer;

export const initialState: TransferState = { status: 'none' };

export function evolve(state: TransferState, event: TransferEvent): TransferState {
  if (event.type === 'TransferCreated') {
    const { lines, ...rest } = event.data;
    return {
      status: 'pending',
      ...rest,
      confirmed: false,
      lines: lines.map((line) => ({ ...line, shipped: 0, received: 0, returned: 0 })),
    };
  }
  if (state.status === 'none') return state;
  switch (event.type) {
    case 'TransferEdited': {
      const { lines, ...rest } = event.data;
      return {
        ...state,
        ...rest,
        lines: lines.map((line) => ({ ...line, shipped: 0, received: 0, returned: 0 })),
      };
    }
    case 'TransferConfirmed':
      return { ...state, confirmed: true };
    case 'TransferStepRecorded':
    case 'TransferStepCompensated':
    case 'TransferActionFailed':
      return state;
    case 'TransferShipped':
      return { ...state, status: 'in_transit', confirmed: true, lines: progressAfter.shipped(state.lines) };
    case 'TransferReceived':
      return { ...state, lines: progressAfter.received(state.lines, event.data.lines) };
    case 'TransferRestReturned':
      return { ...state, lines: progressAfter.returned(state.lines) };
    case 'TransferCompleted':
      return { ...state, status: 'completed' };
    case 'TransferCancelled':
      return { ...state, status: 'cancelled', lines: progressAfter.returned(state.lines) };
    default: {
      const unknown: never = event;
      throw new Error(`unknown transfer event ${(unknown as { type: string }).type}`);
    }
  }
}

// ---- commands ----

export type TransferCommand =
  | {
      type: 'CreateTransfer';
      transferId: string;
      requestId: string | null;
      fromWarehouseId: string;
      toWarehouseId: string;
      reference: string;
      remark: string;
      lines: z.infer<typeof TransferLine>[];
    }
  | {
      type: 'EditTransfer';
      toWarehouseId: string;
      remark: string;
      lines: z.infer<typeof TransferLine>[];
    }
  | { type: 'ConfirmTransfer' }
  | {
      type: 'RecordTransferStep';
      action: z.infer<typeof Action>;
      attempt: number;
      step: string;
      movement: MovementRecord;
      compensation: MovementRecord[];
    }
  | {
      type: 'RecordStepCompensation';
      action: z.infer<typeof Action>;
      attempt: number;
      step: string;
      movements: MovementRecord[];
    }
  | { type: 'RecordShipment' }
  | { type: 'RecordReceipt'; lines: z.infer<typeof TransferLine>[] }
  | { type: 'ReturnRest' }
  | { type: 'CancelTransfer'; reason: string }
  | { type: 'RecordActionFailure'; action: z.infer<typeof Action>; attempt: number; code: string };

// ---- decide ----

const refuse = (found: Problem) => refuseTransfer(found.code, found.params);

export function decide(command: TransferCommand, state: TransferState): TransferEvent[] {
  if (command.type === 'CreateTransfer') {
    if (state.status !== 'none') throw refuseTransfer('DOCUMENT_EXISTS');
    const found = documentProblem(command);
    if (found) throw refuse(found);
    const { type: _type, ...data } = command;
    return [{ type: 'TransferCreated', data }];
  }
  if (state.status === 'none') throw refuseTransfer('DOCUMENT_NOT_FOUND');
  const check = (found: Problem | null) => {
    if (found) throw refuse(found);
  };
  switch (command.type) {
    case 'EditTransfer': {
      check(actionProblem('edit', state));
      const { type: _type, ...data } = command;
      check(documentProblem({ ...state, ...data }));
      return sameDocument(state, data) ? [] : [{ type: 'TransferEdited', data }];
    }
    case 'ConfirmTransfer':
      check(actionProblem('confirm', state));
      return [{ type: 'TransferConfirmed', data: {} }];
    case 'RecordTransferStep': {
      const { type: _type, ...data } = command;
      return [{ type: 'TransferStepRecorded', data }];
    }
    case 'RecordStepCompensation': {
      const { type: _type, ...data } = command;
      return [{ type: 'TransferStepCompensated', data }];
    }
    case 'RecordActionFailure': {
      const { type: _type, ...data } = command;
      return [{ type: 'TransferActionFailed', data }];
    }
    case 'RecordShipment':
      check(actionProblem('ship', state));
      return [
        {
          type: 'TransferShipped',
          data: {
            lines: state.lines.map((line) => ({ masterCodeId: line.masterCodeId, quantity: line.quantity })),
          },
        },
      ];
    case 'RecordReceipt': {
      check(actionProblem('receive', state, command.lines));
      const lines = command.lines.filter((line) => line.quantity > 0);
      const received: TransferEvent = { type: 'TransferReceived', data: { lines } };
      const after = progressAfter.received(state.lines, lines);
      return totalInTransit(after) === 0 ? [received, { type: 'TransferCompleted', data: {} }] : [received];
    }
    case 'ReturnRest':
      check(actionProblem('returnRest', state));
      return [
        { type: 'TransferRestReturned', data: { lines: restOf(state.lines) } },
        { type: 'TransferCompleted', data: {} },
      ];
    case 'CancelTransfer': {
      check(actionProblem('cancel', state));
      const reason = command.reason.trim();
      if (reason.length > REASON_MAX)
        throw refuseTransfer('TEXT_TOO_LONG', { field: 'reason', max: REASON_MAX });
      return [{ type: 'TransferCancelled', data: { reason, returnedLines: restOf(state.lines) } }];
    }
    default: {
      const unknown: never = command;
      throw new Error(`unknown transfer command ${(unknown as { type: string }).type}`);
    }
  }
}

/** An edit that changes nothing records nothing. */
function sameDocument(state: OpenTransfer, edit: z.infer<typeof TransferEdited>): boolean {
  return (
    state.toWarehouseId === edit.toWarehouseId &&
    state.remark === edit.remark &&
    state.lines.length === edit.lines.length &&
    state.lines.every(
      (line, index) =>
        line.masterCodeId === edit.lines[index]?.masterCodeId &&
        line.quantity === edit.lines[index]?.quantity,
    )
  );
}

export const transferDecider = { initial: initialState, evolve, decide };

// ---- stream ----

export const TRANSFER_CATEGORY = 'transfer';

/** `transfer-<tenant>.<transferId>`: one stream per transfer. */
export const transferStreamId = (tenantId: string, transferId: string) =>
  `${TRANSFER_CATEGORY}-${tenantId}.${transferId}`;

/** The workflow that drives a transfer: its business key (ARCHITECTURE.md "Workflows"). */
export const transferWorkflowId = (tenantId: string, transferId: string) =>
  `transfer-${tenantId}-${transferId}`;
