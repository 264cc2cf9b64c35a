/**
 * The rules of transfer requests and transfers that both the documents' deciders (domain/transfers/*.ts) and the
 * transfer workflow (workflows/transfer.workflow.ts) apply: the workflow refuses a person's action in its update
 * validator before anything moves, and the document refuses it again when the event is recorded. Pure functions
 * (importing only the shared refusal and text limits), so the workflow bundle can take this file as it is.
 *
 * A problem is an error code of the closed set below and the parameters its message needs; the deciders throw it
 * as a DomainError, the workflow as a refusal, and either way the API answers it from `transferErrors` below.
 */
import { DomainError, type ErrorTable, type RefusalParams } from '../shared/errors';
import { TEXT_LIMITS } from '../shared/limits';

export const TRANSFER_ERRORS = [
  /** "Transfer source and destination branches must differ" (spec §5). */
  'SAME_BRANCH',
  'LINES_REQUIRED',
  'TOO_MANY_LINES',
  'QUANTITY_NOT_POSITIVE',
  'MASTER_CODE_REPEATED',
  'TEXT_TOO_LONG',
  'DOCUMENT_EXISTS',
  'DOCUMENT_NOT_FOUND',
  /** A request that is no longer pending cannot be approved, rejected or cancelled. */
  'REQUEST_NOT_PENDING',
  'REJECT_REASON_REQUIRED',
  /** A transfer action its state does not allow (ship twice, receive before ship, cancel a completed one). */
  'WRONG_STATE',
  'ALREADY_CONFIRMED',
  /** Another action on the same transfer is running (a double click). */
  'ACTION_IN_PROGRESS',
  'NOT_ALLOWED',
  'NOTHING_TO_RECEIVE',
  'RECEIVE_UNKNOWN_LINE',
  'RECEIVE_MORE_THAN_IN_TRANSIT',
  'NOTHING_IN_TRANSIT',
  /** Returning the rest of a transfer nothing of which arrived is a cancellation. */
  'NOTHING_RECEIVED',
  /** The source lacks the stock to ship while the account refuses negative manual stock. */
  'INSUFFICIENT_STOCK',
  /** A stock step failed for good; the steps done before it were undone. */
  'ACTION_FAILED',
  /** The workflow refused with a code the transfers do not know. */
  'REFUSED',
  /** An edit made against a revision of the transfer that another change has since passed: nothing is lost. */
  'CHANGED_MEANWHILE',
] as const;
export type TransferErrorCode = (typeof TRANSFER_ERRORS)[number];

/** The catalogue's result codes of the transfers (spec §8: 500–519). */
export const TransferCode = {
  /** "Transfer source and destination branches must differ" (spec §5). */
  sameBranch: 500,
  linesRequired: 501,
  quantityInvalid: 502,
  masterCodeRepeated: 503,
  masterCodeNotFound: 504,
  /** A combo has no stock of its own: it cannot be transferred. */
  comboRefused: 505,
  placeNotFound: 506,
  rejectReasonRequired: 507,
  /** The request is no longer pending (HTTP 409). */
  requestNotPending: 508,
  /** The transfer's state does not allow the action (HTTP 409). */
  wrongState: 509,
  /** Another action on the transfer is still running: a double click (HTTP 409). */
  actionInProgress: 510,
  /** More than is in transit (HTTP 409). */
  receiveMoreThanInTransit: 511,
  receiptInvalid: 512,
  /** The source lacks the stock while the account refuses negative manual stock (HTTP 409). */
  insufficientStock: 513,
  /** Nothing to return, or nothing received yet (cancel instead) (HTTP 409). */
  nothingToReturn: 514,
  /** A stock step failed for good and the action was undone (HTTP 409). */
  actionFailed: 515,
  textInvalid: 516,
  keyInvalid: 517,
  /** The idempotency key was used for another document (HTTP 409). */
  keyReused: 518,
  /** The transfer changed since the person read the revision they edited (HTTP 409). */
  changedMeanwhile: 519,
} as const;

/**
 * How each refusal answers. Messages name master codes by `code` (the command that meets a refusal naming a
 * `masterCodeId` adds it) and translate `status`, `action` and `field` through their own keys.
 */
export const transferErrors = {
  SAME_BRANCH: { status: 400, code: TransferCode.sameBranch, key: 'transfer.same_branch' },
  LINES_REQUIRED: { status: 400, code: TransferCode.linesRequired, key: 'transfer.lines_required' },
  TOO_MANY_LINES: { status: 400, code: TransferCode.linesRequired, key: 'transfer.lines_required' },
  QUANTITY_NOT_POSITIVE: {
    status: 400,
    code: TransferCode.quantityInvalid,
    key: 'transfer.quantity_invalid',
  },
  MASTER_CODE_REPEATED: {
    status: 400,
    code: TransferCode.masterCodeRepeated,
    key: 'transfer.master_code_repeated_named',
  },
  TEXT_TOO_LONG: { status: 400, code: TransferCode.textInvalid, key: 'transfer.too_long' },
  DOCUMENT_EXISTS: { status: 409, code: TransferCode.keyReused, key: 'transfer.idempotency_key_reused' },
  DOCUMENT_NOT_FOUND: { status: 404, code: 404, key: 'common.no_record_found' },
  REQUEST_NOT_PENDING: {
    status: 409,
    code: TransferCode.requestNotPending,
    key: 'transfer.request_not_pending',
  },
  REJECT_REASON_REQUIRED: {
    status: 400,
    code: TransferCode.rejectReasonRequired,
    key: 'transfer.reject_reason_required',
  },
  WRONG_STATE: { status: 409, code: TransferCode.wrongState, key: 'transfer.wrong_state' },
  ALREADY_CONFIRMED: { status: 409, code: TransferCode.wrongState, key: 'transfer.already_confirmed' },
  ACTION_IN_PROGRESS: {
    status: 409,
    code: TransferCode.actionInProgress,
    key: 'transfer.action_in_progress',
  },
  NOT_ALLOWED: { status: 403, code: 403, key: 'auth.forbidden' },
  NOTHING_TO_RECEIVE: { status: 400, code: TransferCode.receiptInvalid, key: 'transfer.nothing_to_receive' },
  RECEIVE_UNKNOWN_LINE: {
    status: 400,
    code: TransferCode.receiptInvalid,
    key: 'transfer.receive_unknown_line',
  },
  RECEIVE_MORE_THAN_IN_TRANSIT: {
    status: 409,
    code: TransferCode.receiveMoreThanInTransit,
    key: 'transfer.receive_more_than_in_transit',
  },
  NOTHING_IN_TRANSIT: { status: 409, code: TransferCode.nothingToReturn, key: 'transfer.nothing_in_transit' },
  NOTHING_RECEIVED: { status: 409, code: TransferCode.nothingToReturn, key: 'transfer.nothing_received' },
  INSUFFICIENT_STOCK: {
    status: 409,
    code: TransferCode.insufficientStock,
    key: 'transfer.insufficient_stock',
  },
  ACTION_FAILED: { status: 409, code: TransferCode.actionFailed, key: 'transfer.action_failed' },
  REFUSED: { status: 409, code: TransferCode.wrongState, key: 'transfer.refused' },
  CHANGED_MEANWHILE: {
    status: 409,
    code: TransferCode.changedMeanwhile,
    key: 'transfer.changed_meanwhile',
  },
} satisfies ErrorTable<TransferErrorCode>;

/** What a new request or transfer names that the account must hold: its places and standard master codes. */
export const TRANSFER_REFERENCE_ERRORS = [
  'FROM_NOT_FOUND',
  'TO_NOT_FOUND',
  'MASTER_CODE_NOT_FOUND',
  /** A combo has no stock of its own. */
  'COMBO_REFUSED',
  /** The same warehouse at both ends: said as warehouses, the spec's SAME_BRANCH words being for branches. */
  'SAME_WAREHOUSE',
] as const;
export type TransferReferenceErrorCode = (typeof TRANSFER_REFERENCE_ERRORS)[number];

export const transferReferenceErrors = {
  FROM_NOT_FOUND: { status: 404, code: TransferCode.placeNotFound, key: 'transfer.from_not_found' },
  TO_NOT_FOUND: { status: 404, code: TransferCode.placeNotFound, key: 'transfer.to_not_found' },
  MASTER_CODE_NOT_FOUND: {
    status: 404,
    code: TransferCode.masterCodeNotFound,
    key: 'transfer.master_code_not_found',
  },
  COMBO_REFUSED: { status: 400, code: TransferCode.comboRefused, key: 'transfer.combo_refused' },
  SAME_WAREHOUSE: { status: 400, code: TransferCode.sameBranch, key: 'transfer.same_warehouse' },
} satisfies ErrorTable<TransferReferenceErrorCode>;

export const refuseTransferReference = (code: TransferReferenceErrorCode, params: RefusalParams = {}) =>
  new DomainError(code, params, transferReferenceErrors[code]);

export const isTransferError = (code: string): code is TransferErrorCode => code in transferErrors;

/** The refusal of `code` with its answer from the table (a decider's throw, or a workflow's refusal come back). */
export const refuseTransfer = (code: TransferErrorCode, params: RefusalParams = {}) =>
  new DomainError(code, params, transferErrors[code]);

export interface Problem {
  code: TransferErrorCode;
  params: Record<string, string | number>;
}

const problem = (code: TransferErrorCode, params: Record<string, string | number> = {}): Problem => ({
  code,
  params,
});

// ---- lines ----

export const MAX_LINES = 500;
export const MAX_QUANTITY = 1_000_000_000;
export const REFERENCE_MAX = TEXT_LIMITS.reference;
export const REMARK_MAX = TEXT_LIMITS.note;
/** A rejection's or a cancellation's reason. */
export const REASON_MAX = TEXT_LIMITS.reason;

export interface LineInput {
  masterCodeId: string;
  quantity: number;
}

/** From and to must be two places, the lines 1 to MAX_LINES whole quantities ≥ 1, each master code once. */
export function documentProblem(input: {
  fromWarehouseId: string;
  toWarehouseId: string;
  reference: string;
  remark: string;
  lines: readonly LineInput[];
}): Problem | null {
  if (input.fromWarehouseId === input.toWarehouseId) return problem('SAME_BRANCH');
  if (input.reference.length > REFERENCE_MAX)
    return problem('TEXT_TOO_LONG', { field: 'reference', max: REFERENCE_MAX });
  if (input.remark.length > REMARK_MAX) return problem('TEXT_TOO_LONG', { field: 'remark', max: REMARK_MAX });
  return linesProblem(input.lines, 1);
}

/** Each quantity a whole number from `min` (1 for a document, 0 for a receipt line) to MAX_QUANTITY, no repeats. */
export function linesProblem(lines: readonly LineInput[], min: 0 | 1): Problem | null {
  if (lines.length === 0) return problem('LINES_REQUIRED');
  if (lines.length > MAX_LINES) return problem('TOO_MANY_LINES', { max: MAX_LINES });
  const seen = new Set<string>();
  for (const line of lines) {
    if (!Number.isInteger(line.quantity) || line.quantity < min || line.quantity > MAX_QUANTITY) {
      return problem('QUANTITY_NOT_POSITIVE', { masterCodeId: line.masterCodeId, max: MAX_QUANTITY });
    }
    if (seen.has(line.masterCodeId))
      return problem('MASTER_CODE_REPEATED', { masterCodeId: line.masterCodeId });
    seen.add(line.masterCodeId);
  }
  return null;
}

// ---- transfer progress ----

/** spec §4: a transfer is pending, in transit, completed or cancelled. */
export const TRANSFER_STATUSES = ['pending', 'in_transit', 'completed', 'cancelled'] as const;
export type TransferStatus = (typeof TRANSFER_STATUSES)[number];

/** spec §4: a stock transfer request is pending, cancelled, approved or rejected. */
export const REQUEST_STATUSES = ['pending', 'approved', 'rejected', 'cancelled'] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

/**
 * The people's actions on a transfer (spec §4 "confirm, ship, receive, cancel", returning the rest, and editing its
 * lines, destination and remark before it ships).
 */
export const TRANSFER_ACTIONS = ['confirm', 'ship', 'receive', 'returnRest', 'cancel', 'edit'] as const;
export type TransferAction = (typeof TRANSFER_ACTIONS)[number];

export interface LineProgress {
  masterCodeId: string;
  quantity: number;
  shipped: number;
  received: number;
  returned: number;
}

export interface TransferProgress {
  status: TransferStatus;
  confirmed: boolean;
  lines: LineProgress[];
}

/** Shipped and neither received nor returned yet: on its way, shown as incoming at the destination. */
export const inTransit = (line: LineProgress) => line.shipped - line.received - line.returned;

export const totalInTransit = (lines: readonly LineProgress[]) =>
  lines.reduce((sum, line) => sum + inTransit(line), 0);

export const isClosed = (status: TransferStatus) => status === 'completed' || status === 'cancelled';

const wrongState = (status: TransferStatus, action: TransferAction) =>
  problem('WRONG_STATE', { status, action });

/** Why `action` cannot run on a transfer in this state (null: it can); a receipt's lines are checked too. */
export function actionProblem(
  action: TransferAction,
  progress: TransferProgress,
  receipt: readonly LineInput[] = [],
): Problem | null {
  const { status } = progress;
  switch (action) {
    case 'confirm':
      if (status !== 'pending') return wrongState(status, action);
      if (progress.confirmed) return problem('ALREADY_CONFIRMED');
      return null;
    case 'ship':
    case 'edit':
      return status === 'pending' ? null : wrongState(status, action);
    case 'receive':
      if (status !== 'in_transit') return wrongState(status, action);
      return receiptProblem(progress.lines, receipt);
    case 'returnRest':
      if (status !== 'in_transit') return wrongState(status, action);
      if (totalInTransit(progress.lines) === 0) return problem('NOTHING_IN_TRANSIT');
      if (progress.lines.every((line) => line.received === 0)) return problem('NOTHING_RECEIVED');
      return null;
    case 'cancel':
      return status === 'pending' || status === 'in_transit' ? null : wrongState(status, action);
    default: {
      const unknown: never = action;
      throw new Error(`unknown transfer action ${String(unknown)}`);
    }
  }
}

/** The actions the transfer's state allows now: the console's buttons (a receipt's lines are checked when sent). */
export function allowedActions(progress: TransferProgress): TransferAction[] {
  return TRANSFER_ACTIONS.filter((action) =>
    action === 'receive'
      ? progress.status === 'in_transit' && totalInTransit(progress.lines) > 0
      : actionProblem(action, progress) === null,
  );
}

/** What people do with a request while it is pending: approve, reject, cancel. */
export const REQUEST_ACTIONS = ['approve', 'reject', 'cancel'] as const;
export type RequestAction = (typeof REQUEST_ACTIONS)[number];

/** The actions a request's status allows now: all three while pending, none after. */
export const allowedRequestActions = (status: RequestStatus): RequestAction[] =>
  status === 'pending' ? [...REQUEST_ACTIONS] : [];

/** A receipt: lines of the transfer, each at most what is in transit of it, at least one piece in all. */
export function receiptProblem(
  lines: readonly LineProgress[],
  receipt: readonly LineInput[],
): Problem | null {
  const shape = linesProblem(receipt, 0);
  if (shape) return shape;
  const byId = new Map(lines.map((line) => [line.masterCodeId, line]));
  for (const wanted of receipt) {
    const line = byId.get(wanted.masterCodeId);
    if (!line) return problem('RECEIVE_UNKNOWN_LINE', { masterCodeId: wanted.masterCodeId });
    if (wanted.quantity > inTransit(line)) {
      return problem('RECEIVE_MORE_THAN_IN_TRANSIT', {
        masterCodeId: wanted.masterCodeId,
        quantity: wanted.quantity,
        inTransit: inTransit(line),
      });
    }
  }
  if (receipt.every((line) => line.quantity === 0)) return problem('NOTHING_TO_RECEIVE');
  return null;
}

/** The progress after each kind of recorded step: the same fold for the document and the workflow. */
export const progressAfter = {
  shipped(lines: readonly LineProgress[]): LineProgress[] {
    return lines.map((line) => ({ ...line, shipped: line.quantity }));
  },
  received(lines: readonly LineProgress[], receipt: readonly LineInput[]): LineProgress[] {
    const got = new Map(receipt.map((line) => [line.masterCodeId, line.quantity]));
    return lines.map((line) => ({ ...line, received: line.received + (got.get(line.masterCodeId) ?? 0) }));
  },
  /** Everything still in transit goes back to the source. */
  returned(lines: readonly LineProgress[]): LineProgress[] {
    return lines.map((line) => ({ ...line, returned: line.returned + inTransit(line) }));
  },
};

/** What is still in transit, line by line (lines with nothing in transit left out). */
export const restOf = (lines: readonly LineProgress[]): LineInput[] =>
  lines
    .filter((line) => inTransit(line) > 0)
    .map((line) => ({ masterCodeId: line.masterCodeId, quantity: inTransit(line) }));

// ---- stock steps and their compensations ----

/**
 * One stock movement a transfer makes (a stock command of domain/inventory/stock.ts, by another name so this file
 * stays free of imports): out of the source, expected at the destination, in at either end, expectation withdrawn.
 */
export type Movement =
  | {
      type: 'TransferStockOut';
      masterCodeId: string;
      warehouseId: string;
      quantity: number;
      toWarehouseId: string;
    }
  | {
      type: 'TransferStockIn';
      masterCodeId: string;
      warehouseId: string;
      quantity: number;
      fromWarehouseId: string;
      settlesIncoming: boolean;
    }
  | { type: 'ExpectStock'; masterCodeId: string; warehouseId: string; quantity: number }
  | { type: 'CancelExpectedStock'; masterCodeId: string; warehouseId: string; quantity: number };

/**
 * The movements that undo `done`, given what it actually did: `quantity` moved and, for a receipt, how much of the
 * destination's incoming figure it settled. Run in order, they leave the stock as it was before `done`.
 */
export function compensationOf(
  done: Movement,
  result: { quantity: number; settledIncoming: number },
): Movement[] {
  if (result.quantity === 0) return [];
  const at = { masterCodeId: done.masterCodeId, warehouseId: done.warehouseId, quantity: result.quantity };
  switch (done.type) {
    case 'TransferStockOut':
      return [
        { type: 'TransferStockIn', ...at, fromWarehouseId: done.toWarehouseId, settlesIncoming: false },
      ];
    case 'TransferStockIn': {
      const back: Movement[] = [{ type: 'TransferStockOut', ...at, toWarehouseId: done.fromWarehouseId }];
      if (result.settledIncoming > 0) {
        back.push({ type: 'ExpectStock', ...at, quantity: result.settledIncoming });
      }
      return back;
    }
    case 'ExpectStock':
      return [{ type: 'CancelExpectedStock', ...at }];
    case 'CancelExpectedStock':
      return [{ type: 'ExpectStock', ...at }];
    default: {
      const unknown: never = done;
      throw new Error(`unknown movement ${(unknown as { type: string }).type}`);
    }
  }
}

/** The steps of an action, in order: ship takes each line out of the source and announces it at the destination. */
export function shipMovements(from: string, to: string, lines: readonly LineInput[]): StepPlan[] {
  return lines.flatMap((line) => [
    {
      step: 'out',
      movement: {
        type: 'TransferStockOut',
        masterCodeId: line.masterCodeId,
        warehouseId: from,
        quantity: line.quantity,
        toWarehouseId: to,
      },
    },
    {
      step: 'expect',
      movement: {
        type: 'ExpectStock',
        masterCodeId: line.masterCodeId,
        warehouseId: to,
        quantity: line.quantity,
      },
    },
  ]);
}

/** A receipt brings each line into the destination, settling what was expected there. */
export function receiveMovements(from: string, to: string, receipt: readonly LineInput[]): StepPlan[] {
  return receipt
    .filter((line) => line.quantity > 0)
    .map((line) => ({
      step: 'in',
      movement: {
        type: 'TransferStockIn',
        masterCodeId: line.masterCodeId,
        warehouseId: to,
        quantity: line.quantity,
        fromWarehouseId: from,
        settlesIncoming: true,
      },
    }));
}

/** The rest in transit goes back into the source, and the destination stops expecting it. */
export function returnMovements(from: string, to: string, rest: readonly LineInput[]): StepPlan[] {
  return rest.flatMap((line) => [
    {
      step: 'back',
      movement: {
        type: 'TransferStockIn',
        masterCodeId: line.masterCodeId,
        warehouseId: from,
        quantity: line.quantity,
        fromWarehouseId: to,
        settlesIncoming: false,
      },
    },
    {
      step: 'unexpect',
      movement: {
        type: 'CancelExpectedStock',
        masterCodeId: line.masterCodeId,
        warehouseId: to,
        quantity: line.quantity,
      },
    },
  ]);
}

export interface StepPlan {
  /** The step's name within its action: out, expect, in, back, unexpect. */
  step: string;
  movement: Movement;
}
