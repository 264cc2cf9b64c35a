import { z } from 'zod';
import { type ErrorTable, refuser } from '../shared/errors';
import { TEXT_LIMITS } from '../shared/limits';
import { PurchaseCode } from './codes';
import { ReceiptLine } from './purchase';

/**
 * A goods receive note (spec §3 "Goods receive and issue notes", §4 states): what arrived against a purchase order,
 * line by line with received, damaged and returned quantities. One stream per note, `goodsReceipt-<tenant>.<id>`,
 * driven by the goods receipt workflow (workflows/goods-receipt.workflow.ts).
 *
 * Statuses (spec §4, by number): 1 Pending, 2 Complete, 3 Cancel, 4 Waiting Approve, 5 Waiting Receive, 6 Reject.
 * - Without approval (the tenant's setting): created 1 Pending; receiving it makes it 2 Complete.
 * - With approval: created 4 Waiting Approve; a user holding purchases-manage who is not its creator (the owner may
 *   approve their own) approves it → 5 Waiting Receive, or rejects it → 6 Reject; receiving it → 2 Complete.
 * - 1, 4 and 5 may be cancelled → 3 Cancel. Complete, Cancel and Reject are final.
 * Stock moves only as a note completes: the purchase order records the receipt first (its lines' net unit costs),
 * then each line's received quantity enters the order's warehouse (settling the incoming figure), its damaged units
 * are written off, and the note records GoodsReceiptCompleted. Returned units never enter stock.
 */

export const GOODS_RECEIPT_STATUS = {
  pending: 1,
  complete: 2,
  cancel: 3,
  waitingApprove: 4,
  waitingReceive: 5,
  reject: 6,
} as const;
export type GoodsReceiptStatus = (typeof GOODS_RECEIPT_STATUS)[keyof typeof GOODS_RECEIPT_STATUS];
export const GOODS_RECEIPT_STATUSES = [1, 2, 3, 4, 5, 6] as const satisfies readonly GoodsReceiptStatus[];
/** The spec's names of the statuses, by number. */
export const GOODS_RECEIPT_STATUS_NAMES: Record<GoodsReceiptStatus, string> = {
  1: 'Pending',
  2: 'Complete',
  3: 'Cancel',
  4: 'Waiting Approve',
  5: 'Waiting Receive',
  6: 'Reject',
};
export const FINAL_GOODS_RECEIPT_STATUSES: readonly GoodsReceiptStatus[] = [2, 3, 6];

// ---- events ----

const Id = z.string().min(1).max(100);
/** A reference, note or reason: at most the longest of them the contracts take (a note). */
const Text = z.string().max(TEXT_LIMITS.note);
const Amount = z.string().regex(/^\d{1,14}\.\d{4}$/);

export const GoodsReceiptCreated = z.strictObject({
  goodsReceiptId: Id,
  grnNumber: z.string().min(1).max(40),
  purchaseId: Id,
  poNumber: z.string().min(1).max(40),
  supplierId: Id,
  warehouseId: Id,
  reference: Text,
  note: Text,
  lines: z.array(ReceiptLine).min(1).max(1000),
  approvalRequired: z.boolean(),
  createdBy: Id,
});
export const GoodsReceiptApproved = z.strictObject({ by: Id });
export const GoodsReceiptRejected = z.strictObject({ by: Id, reason: Text });
export const GoodsReceiptCancelled = z.strictObject({ by: Id, reason: Text });
export const GoodsReceiptCompleted = z.strictObject({
  by: Id,
  /** The lines as received, each with its unit cost net of the order's discount share. */
  lines: z
    .array(ReceiptLine.extend({ unitCost: Amount }))
    .min(1)
    .max(1000),
});

export const goodsReceiptEvents = {
  GoodsReceiptCreated,
  GoodsReceiptApproved,
  GoodsReceiptRejected,
  GoodsReceiptCancelled,
  GoodsReceiptCompleted,
} as const;

export type GoodsReceiptEventType = keyof typeof goodsReceiptEvents;
export type GoodsReceiptEvent = {
  [Type in GoodsReceiptEventType]: { type: Type; data: z.infer<(typeof goodsReceiptEvents)[Type]> };
}[GoodsReceiptEventType];
export const GOODS_RECEIPT_EVENT_TYPES = Object.keys(goodsReceiptEvents) as GoodsReceiptEventType[];

// ---- state ----

export type GoodsReceiptLine = z.infer<typeof ReceiptLine> & { unitCost: string | null };

export type GoodsReceiptState =
  | { status: 0 }
  | {
      status: GoodsReceiptStatus;
      goodsReceiptId: string;
      grnNumber: string;
      purchaseId: string;
      poNumber: string;
      supplierId: string;
      warehouseId: string;
      reference: string;
      note: string;
      lines: GoodsReceiptLine[];
      approvalRequired: boolean;
      createdBy: string;
      approvedBy: string | null;
      reason: string | null;
    };
export type GoodsReceipt = Exclude<GoodsReceiptState, { status: 0 }>;

export const initialState: GoodsReceiptState = { status: 0 };

export function evolve(state: GoodsReceiptState, event: GoodsReceiptEvent): GoodsReceiptState {
  if (event.type === 'GoodsReceiptCreated') {
    const { lines, ...data } = event.data;
    return {
      ...data,
      status: data.approvalRequired ? GOODS_RECEIPT_STATUS.waitingApprove : GOODS_RECEIPT_STATUS.pending,
      lines: lines.map((line) => ({ ...line, unitCost: null })),
      approvedBy: null,
      reason: null,
    };
  }
  if (state.status === 0) return state;
  switch (event.type) {
    case 'GoodsReceiptApproved':
      return { ...state, status: GOODS_RECEIPT_STATUS.waitingReceive, approvedBy: event.data.by };
    case 'GoodsReceiptRejected':
      return { ...state, status: GOODS_RECEIPT_STATUS.reject, reason: event.data.reason };
    case 'GoodsReceiptCancelled':
      return { ...state, status: GOODS_RECEIPT_STATUS.cancel, reason: event.data.reason };
    case 'GoodsReceiptCompleted':
      return { ...state, status: GOODS_RECEIPT_STATUS.complete, lines: event.data.lines };
    default: {
      const unknown: never = event;
      throw new Error(`unknown goods receipt event ${(unknown as { type: string }).type}`);
    }
  }
}

// ---- commands ----

export type GoodsReceiptCommand =
  | {
      type: 'CreateGoodsReceipt';
      goodsReceiptId: string;
      grnNumber: string;
      purchaseId: string;
      poNumber: string;
      supplierId: string;
      warehouseId: string;
      reference: string;
      note: string;
      lines: z.infer<typeof ReceiptLine>[];
      approvalRequired: boolean;
      by: string;
    }
  | { type: 'ApproveGoodsReceipt'; by: string; byOwner: boolean }
  | { type: 'RejectGoodsReceipt'; by: string; byOwner: boolean; reason: string }
  | { type: 'CancelGoodsReceipt'; by: string; reason: string }
  | {
      type: 'CompleteGoodsReceipt';
      by: string;
      lines: (z.infer<typeof ReceiptLine> & { unitCost: string })[];
    };

// ---- decide ----

export const GOODS_RECEIPT_ERRORS = [
  'GOODS_RECEIPT_EXISTS',
  'GOODS_RECEIPT_NOT_FOUND',
  'WRONG_STATE',
  'APPROVER_IS_CREATOR',
  'APPROVAL_REQUIRED',
] as const;
export type GoodsReceiptErrorCode = (typeof GOODS_RECEIPT_ERRORS)[number];

/** How each refusal answers (spec §8, domain/purchases/codes.ts). */
export const goodsReceiptErrors = {
  GOODS_RECEIPT_EXISTS: { status: 409, code: PurchaseCode.wrongState, key: 'purchases.wrong_state' },
  GOODS_RECEIPT_NOT_FOUND: { status: 404, code: 404, key: 'purchases.grn.not_found' },
  WRONG_STATE: { status: 409, code: PurchaseCode.wrongState, key: 'purchases.wrong_state' },
  APPROVER_IS_CREATOR: {
    status: 403,
    code: PurchaseCode.approverIsCreator,
    key: 'purchases.approver_is_creator',
  },
  APPROVAL_REQUIRED: { status: 409, code: PurchaseCode.wrongState, key: 'purchases.grn.approval_required' },
} as const satisfies ErrorTable<GoodsReceiptErrorCode>;

const refuse = refuser(goodsReceiptErrors);

function requireStatus(
  state: GoodsReceiptState,
  allowed: readonly GoodsReceiptStatus[],
  action: string,
): GoodsReceipt {
  if (state.status === 0) throw refuse('GOODS_RECEIPT_NOT_FOUND');
  if (!allowed.includes(state.status)) {
    // Receiving a note that still waits for its approval says so, rather than "wrong state".
    if (action === 'receive' && state.status === GOODS_RECEIPT_STATUS.waitingApprove) {
      throw refuse('APPROVAL_REQUIRED');
    }
    throw refuse('WRONG_STATE', { status: GOODS_RECEIPT_STATUS_NAMES[state.status], action });
  }
  return state;
}

export function decide(command: GoodsReceiptCommand, state: GoodsReceiptState): GoodsReceiptEvent[] {
  switch (command.type) {
    case 'CreateGoodsReceipt': {
      if (state.status !== 0) throw refuse('GOODS_RECEIPT_EXISTS', { grnNumber: state.grnNumber });
      const { type: _type, by, ...data } = command;
      return [{ type: 'GoodsReceiptCreated', data: { ...data, createdBy: by } }];
    }
    case 'ApproveGoodsReceipt': {
      const note = requireStatus(state, [GOODS_RECEIPT_STATUS.waitingApprove], 'approve');
      if (command.by === note.createdBy && !command.byOwner) throw refuse('APPROVER_IS_CREATOR');
      return [{ type: 'GoodsReceiptApproved', data: { by: command.by } }];
    }
    case 'RejectGoodsReceipt': {
      const note = requireStatus(state, [GOODS_RECEIPT_STATUS.waitingApprove], 'reject');
      if (command.by === note.createdBy && !command.byOwner) throw refuse('APPROVER_IS_CREATOR');
      return [{ type: 'GoodsReceiptRejected', data: { by: command.by, reason: command.reason } }];
    }
    case 'CancelGoodsReceipt':
      requireStatus(
        state,
        [
          GOODS_RECEIPT_STATUS.pending,
          GOODS_RECEIPT_STATUS.waitingApprove,
          GOODS_RECEIPT_STATUS.waitingReceive,
        ],
        'cancel',
      );
      return [{ type: 'GoodsReceiptCancelled', data: { by: command.by, reason: command.reason } }];
    case 'CompleteGoodsReceipt':
      requireStatus(state, [GOODS_RECEIPT_STATUS.pending, GOODS_RECEIPT_STATUS.waitingReceive], 'receive');
      return [{ type: 'GoodsReceiptCompleted', data: { by: command.by, lines: command.lines } }];
    default: {
      const unknown: never = command;
      throw new Error(`unknown goods receipt command ${(unknown as { type: string }).type}`);
    }
  }
}

export const goodsReceiptDecider = { initial: initialState, evolve, decide };

// ---- what a state allows ----

export const GOODS_RECEIPT_ACTIONS = ['approve', 'reject', 'receive', 'cancel'] as const;
export type GoodsReceiptAction = (typeof GOODS_RECEIPT_ACTIONS)[number];

/** The actions the note's state allows the person (the console's buttons); `decide` refuses the others. */
export function allowedActions(
  state: GoodsReceiptState,
  by: { userId: string; owner: boolean },
): GoodsReceiptAction[] {
  switch (state.status) {
    case 0:
    case GOODS_RECEIPT_STATUS.complete:
    case GOODS_RECEIPT_STATUS.cancel:
    case GOODS_RECEIPT_STATUS.reject:
      return [];
    case GOODS_RECEIPT_STATUS.waitingApprove:
      return by.owner || by.userId !== state.createdBy ? ['approve', 'reject', 'cancel'] : ['cancel'];
    case GOODS_RECEIPT_STATUS.pending:
    case GOODS_RECEIPT_STATUS.waitingReceive:
      return ['receive', 'cancel'];
    default: {
      const unknown: never = state;
      throw new Error(`unknown goods receipt status ${(unknown as { status: number }).status}`);
    }
  }
}

// ---- stream ----

export const GOODS_RECEIPT_CATEGORY = 'goodsReceipt';

/** `goodsReceipt-<tenant>.<goodsReceiptId>`: one stream per note. */
export const goodsReceiptStreamId = (tenantId: string, goodsReceiptId: string) =>
  `${GOODS_RECEIPT_CATEGORY}-${tenantId}.${goodsReceiptId}`;
