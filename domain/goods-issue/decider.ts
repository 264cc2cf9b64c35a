import {
  type ApprovalProgress,
  type ApprovalSettings,
  applyApproval,
  currentLayer,
  decideApproval,
  ginApprovalKey,
  isApproved,
  startApproval,
} from '../approvals/layers';
import { DomainError, type ErrorTable, type Refusal, type RefusalParams } from '../shared/errors';
import { TEXT_LIMITS } from '../shared/limits';
import { GinCode } from './codes';
import type { GinEvent } from './events';

/**
 * A goods issue note (GIN; spec §3 "Goods receive and issue notes", §4 "Goods issue note"): stock taken out of a
 * warehouse or branch for a reason, once approved through the account's approval layers. One stream per note,
 * `goodsIssue-<tenant>.<id>`. Statuses exactly as the spec numbers them:
 *
 *   1 Pending (a draft its creator edits) → submit → 4 Approve in progress (layer 1 waiting)
 *   4 → each layer approves in order → after the last, 5 Approved → the stock is issued → 2 Complete
 *   4 → any layer rejects → 3 Cancel (the rejection, with its reason, stays in the history)
 *   1, 4, or 5 whose issue failed → the creator cancels → 3 Cancel
 *   5 whose issue failed (not enough stock while the account refuses negative stock) → retry → issued again
 *
 * Stock moves only once the last layer approves (the workflow issues it and records Complete or the failure).
 * Pure TypeScript without dependencies: the workflow code (bundled for Temporal) imports it too; the events are
 * described once, by their schemas in ./events.ts (imported here as types only, so the bundle takes no zod).
 */

export const GIN_STATUS = {
  pending: 1,
  complete: 2,
  cancel: 3,
  approveInProgress: 4,
  approved: 5,
} as const;
export type GinStatus = (typeof GIN_STATUS)[keyof typeof GIN_STATUS];
export const GIN_STATUSES: readonly GinStatus[] = [1, 2, 3, 4, 5];

export const GIN_MAX_LINES = 200;
export const GIN_MAX_QUANTITY = 1_000_000_000;
export const GIN_REFERENCE_MAX = TEXT_LIMITS.reference;
export const GIN_REASON_MAX = TEXT_LIMITS.reason;
export const GIN_REMARK_MAX = TEXT_LIMITS.note;

export interface GinLine {
  masterCodeId: string;
  quantity: number;
}

/** A line as the issue found it: the quantity asked and the stock on hand (after issuing, or short of it). */
export interface GinStockLine {
  masterCodeId: string;
  quantity: number;
  onHand: number;
}

export interface GinFields {
  warehouseId: string;
  reference: string;
  reason: string;
  remark: string;
  lines: GinLine[];
}

// ---- state ----

export interface GoodsIssueState extends GinFields {
  /** 0 while the note does not exist. */
  status: GinStatus | 0;
  ginId: string;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
  submittedAt: string | null;
  approval: ApprovalProgress | null;
  cancellation: { userId: string; at: string; reason: string } | null;
  /** The current issue attempt (from 1), its failure if it failed, and what was issued once complete. */
  issue: {
    attempt: number;
    failure: { attempt: number; at: string; lines: GinStockLine[] } | null;
    issued: { at: string; lines: GinStockLine[] } | null;
  };
  /** Reminders sent for the layer now waiting. */
  reminders: number;
}

export const initialState: GoodsIssueState = {
  status: 0,
  ginId: '',
  createdBy: '',
  createdAt: '',
  updatedAt: '',
  submittedAt: null,
  warehouseId: '',
  reference: '',
  reason: '',
  remark: '',
  lines: [],
  approval: null,
  cancellation: null,
  issue: { attempt: 1, failure: null, issued: null },
  reminders: 0,
};

const fieldsOf = (data: GinFields): GinFields => ({
  warehouseId: data.warehouseId,
  reference: data.reference,
  reason: data.reason,
  remark: data.remark,
  lines: data.lines.map((line) => ({ masterCodeId: line.masterCodeId, quantity: line.quantity })),
});

export function evolve(state: GoodsIssueState, event: GinEvent): GoodsIssueState {
  switch (event.type) {
    case 'GinCreated':
      return {
        ...initialState,
        ...fieldsOf(event.data),
        status: GIN_STATUS.pending,
        ginId: event.data.ginId,
        createdBy: event.data.createdBy,
        createdAt: event.data.at,
        updatedAt: event.data.at,
      };
    case 'GinEdited':
      return { ...state, ...fieldsOf(event.data), updatedAt: event.data.at };
    case 'GinSubmitted':
      return {
        ...state,
        status: GIN_STATUS.approveInProgress,
        submittedAt: event.data.at,
        updatedAt: event.data.at,
        approval: startApproval(event.data.settings),
        reminders: 0,
      };
    case 'GinLayerApproved': {
      const approval = applyApproval(state.approval!, {
        kind: 'approved',
        approval: { layer: event.data.layer, userId: event.data.userId, at: event.data.at },
        final: event.data.final,
      });
      return {
        ...state,
        approval,
        status: isApproved(approval) ? GIN_STATUS.approved : state.status,
        updatedAt: event.data.at,
        reminders: 0,
      };
    }
    case 'GinRejected':
      return {
        ...state,
        approval: applyApproval(state.approval!, {
          kind: 'rejected',
          rejection: {
            layer: event.data.layer,
            userId: event.data.userId,
            at: event.data.at,
            reason: event.data.reason,
          },
        }),
        status: GIN_STATUS.cancel,
        updatedAt: event.data.at,
      };
    case 'GinCancelled':
      return {
        ...state,
        status: GIN_STATUS.cancel,
        cancellation: { userId: event.data.userId, at: event.data.at, reason: event.data.reason },
        updatedAt: event.data.at,
      };
    case 'GinApprovalReminded':
      return { ...state, reminders: state.reminders + 1 };
    case 'GinIssueFailed':
      return {
        ...state,
        issue: {
          ...state.issue,
          failure: { attempt: event.data.attempt, at: event.data.at, lines: event.data.lines },
        },
        updatedAt: event.data.at,
      };
    case 'GinIssueRetried':
      return {
        ...state,
        issue: { ...state.issue, attempt: event.data.attempt, failure: null },
        updatedAt: event.data.at,
      };
    case 'GinCompleted':
      return {
        ...state,
        status: GIN_STATUS.complete,
        issue: { ...state.issue, failure: null, issued: { at: event.data.at, lines: event.data.lines } },
        updatedAt: event.data.at,
      };
    default: {
      const unknown: never = event;
      throw new Error(`unknown goods issue event ${(unknown as { type: string }).type}`);
    }
  }
}

// ---- commands ----

export type GoodsIssueCommand =
  | ({ type: 'CreateGoodsIssue'; ginId: string; userId: string; at: string } & GinFields)
  | ({ type: 'EditGoodsIssue'; userId: string; at: string } & GinFields)
  | { type: 'SubmitGoodsIssue'; userId: string; at: string; settings: ApprovalSettings }
  | { type: 'ApproveGoodsIssue'; userId: string; keys: readonly string[]; layer: number; at: string }
  | {
      type: 'RejectGoodsIssue';
      userId: string;
      keys: readonly string[];
      layer: number;
      reason: string;
      at: string;
    }
  | { type: 'CancelGoodsIssue'; userId: string; reason: string; at: string }
  | { type: 'RemindGoodsIssueApprovers'; layer: number; reminder: number; recipients: string[]; at: string }
  | { type: 'FailGoodsIssue'; attempt: number; lines: GinStockLine[]; at: string }
  | { type: 'RetryGoodsIssue'; userId: string; keys: readonly string[]; at: string }
  | { type: 'CompleteGoodsIssue'; attempt: number; lines: GinStockLine[]; at: string };

export const GIN_ERRORS = [
  'GIN_NOT_FOUND',
  'GIN_EXISTS',
  /** The note's status does not allow the action (params: status, action). */
  'GIN_WRONG_STATE',
  /** Only the creator edits, submits and cancels a note. */
  'GIN_NOT_CREATOR',
  'GIN_REFERENCE_REQUIRED',
  'GIN_REASON_REQUIRED',
  'GIN_TEXT_TOO_LONG',
  'GIN_LINES_REQUIRED',
  'GIN_TOO_MANY_LINES',
  'GIN_QUANTITY_INVALID',
  'GIN_LINE_REPEATED',
  /** The stock is being issued right now: wait for the outcome. */
  'GIN_ISSUING',
  /** A failed issue is retried by its creator or a holder of the last layer's key. */
  'GIN_RETRY_FORBIDDEN',
] as const;
export type GinErrorCode = (typeof GIN_ERRORS)[number];

/** How each refusal answers; a wrong state, a creator's action and a text too long name the action or field. */
export const goodsIssueErrors = {
  GIN_NOT_FOUND: { status: 404, code: 404, key: 'common.no_record_found' },
  GIN_EXISTS: { status: 409, code: GinCode.wrongState, key: 'goods_issue.wrong_state.other' },
  GIN_WRONG_STATE: { status: 409, code: GinCode.wrongState, key: 'goods_issue.wrong_state.other' },
  GIN_NOT_CREATOR: { status: 403, code: GinCode.notCreator, key: 'goods_issue.not_creator.other' },
  GIN_REFERENCE_REQUIRED: {
    status: 400,
    code: GinCode.referenceInvalid,
    key: 'goods_issue.reference_required',
  },
  GIN_REASON_REQUIRED: { status: 400, code: GinCode.reasonInvalid, key: 'goods_issue.reason_required' },
  GIN_TEXT_TOO_LONG: { status: 400, code: GinCode.textInvalid, key: 'goods_issue.text_invalid' },
  GIN_LINES_REQUIRED: { status: 400, code: GinCode.linesInvalid, key: 'goods_issue.lines_required' },
  GIN_TOO_MANY_LINES: { status: 400, code: GinCode.linesInvalid, key: 'goods_issue.too_many_lines' },
  GIN_QUANTITY_INVALID: {
    status: 400,
    code: GinCode.quantityInvalid,
    key: 'goods_issue.line_quantity_invalid',
  },
  GIN_LINE_REPEATED: { status: 400, code: GinCode.lineRepeated, key: 'goods_issue.line_repeated_plain' },
  GIN_ISSUING: { status: 409, code: GinCode.issuing, key: 'goods_issue.issuing' },
  GIN_RETRY_FORBIDDEN: { status: 403, code: GinCode.retryForbidden, key: 'goods_issue.retry_forbidden' },
} satisfies ErrorTable<GinErrorCode>;

/** What a note's body names that the account must hold: its warehouse and standard master codes, once each. */
export const GIN_REFERENCE_ERRORS = [
  'GIN_WAREHOUSE_NOT_FOUND',
  'GIN_MASTER_CODE_NOT_FOUND',
  /** A combo has no stock of its own. */
  'GIN_COMBO_LINE',
  'GIN_MASTER_CODE_REPEATED',
] as const;
export type GinReferenceErrorCode = (typeof GIN_REFERENCE_ERRORS)[number];

export const goodsIssueReferenceErrors = {
  GIN_WAREHOUSE_NOT_FOUND: {
    status: 400,
    code: GinCode.warehouseNotFound,
    key: 'goods_issue.warehouse_not_found',
  },
  GIN_MASTER_CODE_NOT_FOUND: {
    status: 400,
    code: GinCode.masterCodeNotFound,
    key: 'goods_issue.master_code_not_found',
  },
  GIN_COMBO_LINE: { status: 400, code: GinCode.comboLine, key: 'goods_issue.combo_line' },
  GIN_MASTER_CODE_REPEATED: { status: 400, code: GinCode.lineRepeated, key: 'goods_issue.line_repeated' },
} satisfies ErrorTable<GinReferenceErrorCode>;

export const refuseGoodsIssueReference = (code: GinReferenceErrorCode, params: RefusalParams = {}) =>
  new DomainError<GinReferenceErrorCode>(code, params, goodsIssueReferenceErrors[code]);

export const isGoodsIssueError = (code: string): code is GinErrorCode => code in goodsIssueErrors;

const WRONG_STATE_ACTIONS = new Set(['edit', 'submit', 'approve', 'reject', 'cancel', 'retry']);
const CREATOR_ACTIONS = new Set(['edit', 'submit', 'cancel']);
const TOO_LONG_FIELDS = new Set(['reference', 'reason', 'remark']);

/** The answer of a refusal: the table's, with the message of the action or the field it names. */
function answerOf(code: GinErrorCode, params: RefusalParams): Refusal {
  const answer = goodsIssueErrors[code];
  const action = String(params.action ?? '');
  const field = String(params.field ?? '');
  if (code === 'GIN_WRONG_STATE' && WRONG_STATE_ACTIONS.has(action))
    return { ...answer, key: `goods_issue.wrong_state.${action}` };
  if (code === 'GIN_NOT_CREATOR' && CREATOR_ACTIONS.has(action))
    return { ...answer, key: `goods_issue.not_creator.${action}` };
  if (code === 'GIN_TEXT_TOO_LONG' && TOO_LONG_FIELDS.has(field))
    return { ...answer, key: `goods_issue.${field}_too_long` };
  return answer;
}

/** The refusal of `code` with its answer (the decider's throw, or the workflow's refusal come back). */
export const refuseGoodsIssue = (code: GinErrorCode, params: RefusalParams = {}) =>
  new DomainError<GinErrorCode>(code, params, answerOf(code, params));

const refuse = refuseGoodsIssue;

/** The fields of a draft, checked: reference and reason given, texts within bounds, 1–200 lines, no repeats. */
export function checkFields(fields: GinFields): void {
  if (!fields.reference.trim()) throw refuse('GIN_REFERENCE_REQUIRED');
  if (!fields.reason.trim()) throw refuse('GIN_REASON_REQUIRED');
  if (fields.reference.length > GIN_REFERENCE_MAX)
    throw refuse('GIN_TEXT_TOO_LONG', { field: 'reference', max: GIN_REFERENCE_MAX });
  if (fields.reason.length > GIN_REASON_MAX)
    throw refuse('GIN_TEXT_TOO_LONG', { field: 'reason', max: GIN_REASON_MAX });
  if (fields.remark.length > GIN_REMARK_MAX)
    throw refuse('GIN_TEXT_TOO_LONG', { field: 'remark', max: GIN_REMARK_MAX });
  if (fields.lines.length === 0) throw refuse('GIN_LINES_REQUIRED');
  if (fields.lines.length > GIN_MAX_LINES) throw refuse('GIN_TOO_MANY_LINES', { max: GIN_MAX_LINES });
  const seen = new Set<string>();
  fields.lines.forEach((line, index) => {
    if (!Number.isInteger(line.quantity) || line.quantity < 1 || line.quantity > GIN_MAX_QUANTITY) {
      throw refuse('GIN_QUANTITY_INVALID', { line: index + 1 });
    }
    if (seen.has(line.masterCodeId)) throw refuse('GIN_LINE_REPEATED', { line: index + 1 });
    seen.add(line.masterCodeId);
  });
}

const wrongState = (state: GoodsIssueState, action: string) =>
  refuse('GIN_WRONG_STATE', { status: state.status, action });

function existing(state: GoodsIssueState): void {
  if (state.status === 0) throw refuse('GIN_NOT_FOUND');
}

/** Whether the creator may cancel now: a draft, a note being approved, or an approved one whose issue failed. */
export function cancellable(state: GoodsIssueState): boolean {
  return (
    state.status === GIN_STATUS.pending ||
    state.status === GIN_STATUS.approveInProgress ||
    (state.status === GIN_STATUS.approved && state.issue.failure !== null)
  );
}

/** Whether the approval may be asked: submitted and not cancelled by its creator (a rejection answers itself). */
const decidable = (state: GoodsIssueState) =>
  state.status !== GIN_STATUS.pending && !(state.status === GIN_STATUS.cancel && state.cancellation !== null);

/** The events a command records ([] when there is nothing to record), or a DomainError. */
export function decide(command: GoodsIssueCommand, state: GoodsIssueState): GinEvent[] {
  switch (command.type) {
    case 'CreateGoodsIssue': {
      if (state.status !== 0) throw refuse('GIN_EXISTS');
      const fields = fieldsOf(command);
      checkFields(fields);
      return [
        {
          type: 'GinCreated',
          data: { ...fields, ginId: command.ginId, createdBy: command.userId, at: command.at },
        },
      ];
    }
    case 'EditGoodsIssue': {
      existing(state);
      if (state.status !== GIN_STATUS.pending) throw wrongState(state, 'edit');
      if (command.userId !== state.createdBy) throw refuse('GIN_NOT_CREATOR', { action: 'edit' });
      const fields = fieldsOf(command);
      checkFields(fields);
      return [{ type: 'GinEdited', data: { ...fields, userId: command.userId, at: command.at } }];
    }
    case 'SubmitGoodsIssue': {
      existing(state);
      if (state.status !== GIN_STATUS.pending) throw wrongState(state, 'submit');
      if (command.userId !== state.createdBy) throw refuse('GIN_NOT_CREATOR', { action: 'submit' });
      startApproval(command.settings);
      return [
        {
          type: 'GinSubmitted',
          data: { userId: command.userId, at: command.at, settings: { ...command.settings } },
        },
      ];
    }
    case 'ApproveGoodsIssue': {
      existing(state);
      if (!state.approval || !decidable(state)) throw wrongState(state, 'approve');
      const decision = decideApproval(state.approval, {
        kind: 'approve',
        layer: command.layer,
        userId: command.userId,
        keys: command.keys,
        at: command.at,
      });
      if (decision.kind !== 'approved') throw new Error('an approval decided a rejection');
      if (state.status !== GIN_STATUS.approveInProgress) throw wrongState(state, 'approve');
      return [{ type: 'GinLayerApproved', data: { ...decision.approval, final: decision.final } }];
    }
    case 'RejectGoodsIssue': {
      existing(state);
      if (!state.approval || !decidable(state)) throw wrongState(state, 'reject');
      const decision = decideApproval(state.approval, {
        kind: 'reject',
        layer: command.layer,
        userId: command.userId,
        keys: command.keys,
        reason: command.reason,
        at: command.at,
      });
      if (decision.kind !== 'rejected') throw new Error('a rejection decided an approval');
      if (state.status !== GIN_STATUS.approveInProgress) throw wrongState(state, 'reject');
      return [{ type: 'GinRejected', data: decision.rejection }];
    }
    case 'CancelGoodsIssue': {
      existing(state);
      if (!cancellable(state)) {
        if (state.status === GIN_STATUS.approved) throw refuse('GIN_ISSUING');
        throw wrongState(state, 'cancel');
      }
      if (command.userId !== state.createdBy) throw refuse('GIN_NOT_CREATOR', { action: 'cancel' });
      if (command.reason.length > GIN_REASON_MAX)
        throw refuse('GIN_TEXT_TOO_LONG', { field: 'reason', max: GIN_REASON_MAX });
      return [
        {
          type: 'GinCancelled',
          data: { userId: command.userId, at: command.at, reason: command.reason.trim() },
        },
      ];
    }
    case 'RemindGoodsIssueApprovers': {
      existing(state);
      // A reminder for a layer no longer waiting (approved meanwhile) records nothing.
      if (state.status !== GIN_STATUS.approveInProgress || !state.approval) return [];
      if (currentLayer(state.approval) !== command.layer) return [];
      return [
        {
          type: 'GinApprovalReminded',
          data: {
            layer: command.layer,
            reminder: command.reminder,
            recipients: [...command.recipients],
            at: command.at,
          },
        },
      ];
    }
    case 'FailGoodsIssue':
      existing(state);
      if (state.status !== GIN_STATUS.approved || state.issue.failure)
        throw wrongState(state, 'record a failed issue');
      return [
        {
          type: 'GinIssueFailed',
          data: { attempt: command.attempt, at: command.at, lines: command.lines.map((l) => ({ ...l })) },
        },
      ];
    case 'RetryGoodsIssue': {
      existing(state);
      if (state.status !== GIN_STATUS.approved || !state.issue.failure || !state.approval) {
        if (state.status === GIN_STATUS.approved) throw refuse('GIN_ISSUING');
        throw wrongState(state, 'retry');
      }
      const lastKey = ginApprovalKey(state.approval.settings.layers);
      if (command.userId !== state.createdBy && !command.keys.includes(lastKey)) {
        throw refuse('GIN_RETRY_FORBIDDEN', { key: lastKey });
      }
      return [
        {
          type: 'GinIssueRetried',
          data: { attempt: state.issue.attempt + 1, userId: command.userId, at: command.at },
        },
      ];
    }
    case 'CompleteGoodsIssue':
      existing(state);
      if (state.status !== GIN_STATUS.approved || state.issue.failure) throw wrongState(state, 'complete');
      return [
        {
          type: 'GinCompleted',
          data: { attempt: command.attempt, at: command.at, lines: command.lines.map((l) => ({ ...l })) },
        },
      ];
    default: {
      const unknown: never = command;
      throw new Error(`unknown goods issue command ${(unknown as { type: string }).type}`);
    }
  }
}

export const goodsIssueDecider = { initial: initialState, evolve, decide };

/** The layer waiting for approval, or null when none is. */
export function waitingLayer(state: GoodsIssueState): number | null {
  if (state.status !== GIN_STATUS.approveInProgress || !state.approval) return null;
  return currentLayer(state.approval);
}

/** Creating, editing, submitting a note takes stock out like an adjustment: the same permission key. */
export const GIN_MANAGE_KEY = 'inventory-stock-adjustment';

/** What a person may do with a note now (approve and reject name the layer they would act at): their buttons. */
export interface GoodsIssueActions {
  edit: boolean;
  submit: boolean;
  approve: number | null;
  reject: number | null;
  cancel: boolean;
  retry: boolean;
}

/** The actions the note's state allows `actor` (who holds the keys `holds` says); the decider refuses the others. */
export function allowedActions(
  state: GoodsIssueState,
  actor: { userId: string; holds(key: string): boolean },
): GoodsIssueActions {
  const creator = state.createdBy === actor.userId;
  const draft = state.status === GIN_STATUS.pending;
  const layer = waitingLayer(state);
  const holdsLayer = layer !== null && actor.holds(ginApprovalKey(layer));
  const approvedEarlier =
    state.approval?.approvals.some((approval) => approval.userId === actor.userId) ?? false;
  const sameAllowed = state.approval?.settings.allowSameApprover ?? false;
  const lastKey = state.approval ? ginApprovalKey(state.approval.settings.layers) : null;
  return {
    edit: draft && creator && actor.holds(GIN_MANAGE_KEY),
    submit: draft && creator && actor.holds(GIN_MANAGE_KEY),
    approve: holdsLayer && (sameAllowed || !approvedEarlier) ? layer : null,
    reject: holdsLayer ? layer : null,
    cancel: creator && cancellable(state),
    retry:
      state.status === GIN_STATUS.approved &&
      state.issue.failure !== null &&
      (creator || (lastKey !== null && actor.holds(lastKey))),
  };
}

export const isFinished = (state: GoodsIssueState) =>
  state.status === GIN_STATUS.complete || state.status === GIN_STATUS.cancel;

// ---- stream ----

export const GOODS_ISSUE_CATEGORY = 'goodsIssue';

/** `goodsIssue-<tenant>.<id>` (infra/eventstore/port.ts streamId, written out: this file imports nothing). */
export const goodsIssueStreamId = (tenantId: string, ginId: string) =>
  `${GOODS_ISSUE_CATEGORY}-${tenantId}.${ginId}`;
