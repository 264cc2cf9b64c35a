import { z } from 'zod';
import { type ErrorTable, refuser } from '../shared/errors';
import { TEXT_LIMITS } from '../shared/limits';
import { PurchaseCode, QUANTITY_MAX } from './codes';
import { divideRounded, fromUnits, toUnits } from './money';

/**
 * A purchase order to a supplier (spec §3 "Purchase", §4 states): one stream per order, `purchase-<tenant>.<id>`,
 * driven by the purchase workflow (workflows/purchase.workflow.ts).
 *
 * States (spec §4) and how an order moves between them:
 * - `pending`: a draft, saved but not sent. Placing it makes it `ordered`, or `pending approval` when the tenant
 *   requires purchase approval.
 * - `pending approval`: waiting for a user holding purchases-manage who is not its creator (the owner may approve
 *   their own). Approving makes it `ordered`; rejecting sends it back to `pending` with the reason.
 * - `ordered`: sent to the supplier. Its items are expected at the warehouse: the workflow records them as incoming
 *   stock (ExpectStock) as the order enters this state.
 * - `partial` / `received`: goods arrive through goods receive notes (domain/purchases/goods-receipt.ts). Opening a
 *   note reserves its quantities on the order, so two open notes can never receive more than was ordered; completing
 *   it records the receipt here (PurchaseGoodsReceived, with each line's unit cost net of its share of the order's
 *   discount) and the order becomes `partial` until every item is received, then `received`.
 * - `cancel`: called off before anything was received (and while no note is open); what was expected stops being
 *   incoming (CancelExpectedStock).
 * - `void`: annulled — from pending, pending approval, ordered or partial, while no note is open. Stock already
 *   received stays; the rest stops being incoming.
 * - `returned`: received goods were sent back to the supplier (from partial or received, while no note is open): they
 *   leave the stock (WriteOffStock) and the order is closed, the rest no longer expected.
 * cancel, void and returned are final; received can still become returned.
 *
 * A note's line holds received, damaged and returned quantities: `received` arrived and is counted against the order
 * (damaged units are part of it: they are received, then written off); `returned` were refused at the door and sent
 * back: they never enter stock and stay outstanding on the order, as the supplier still owes them.
 */

// ---- events ----

const Id = z.string().min(1).max(100);
const Count = z.number().int().min(0).max(1_000_000_000);
const Positive = z.number().int().min(1).max(1_000_000_000);
const Amount = z.string().regex(/^\d{1,14}\.\d{4}$/);
const Day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
/** A reference, note or reason: at most the longest of them the contracts take (a note). */
const Text = z.string().max(TEXT_LIMITS.note);

export const PurchaseLine = z.strictObject({
  masterCodeId: Id,
  quantity: Positive,
  /** Per unit, before the order's discount. */
  unitCost: Amount,
});
export type PurchaseLine = z.infer<typeof PurchaseLine>;

export const ReceiptLine = z.strictObject({
  masterCodeId: Id,
  received: Count,
  damaged: Count,
  returned: Count,
});
export type ReceiptLine = z.infer<typeof ReceiptLine>;

export const PurchaseCreated = z.strictObject({
  purchaseId: Id,
  poNumber: z.string().min(1).max(40),
  reference: Text,
  date: Day,
  supplierId: Id,
  warehouseId: Id,
  lines: z.array(PurchaseLine).min(1).max(1000),
  discount: Amount,
  estimatedArrival: Day.nullable(),
  note: Text,
  createdBy: Id,
});
export const PurchaseApprovalRequested = z.strictObject({ by: Id });
export const PurchaseOrdered = z.strictObject({ by: Id });
export const PurchaseApproved = z.strictObject({ by: Id });
export const PurchaseRejected = z.strictObject({ by: Id, reason: Text });
export const PurchaseReceiptOpened = z.strictObject({
  goodsReceiptId: Id,
  grnNumber: z.string().min(1).max(40),
  lines: z.array(ReceiptLine).min(1).max(1000),
});
export const PurchaseReceiptWithdrawn = z.strictObject({
  goodsReceiptId: Id,
  reason: z.enum(['cancel', 'reject']),
});
export const PurchaseGoodsReceived = z.strictObject({
  goodsReceiptId: Id,
  warehouseId: Id,
  lines: z
    .array(ReceiptLine.extend({ unitCost: Amount }))
    .min(1)
    .max(1000),
});
const Quantities = z.array(z.strictObject({ masterCodeId: Id, quantity: Positive })).max(1000);
export const PurchaseCancelled = z.strictObject({
  by: Id,
  reason: Text,
  /** What stops being incoming at the warehouse (empty for a draft). */
  outstanding: Quantities,
});
export const PurchaseVoided = z.strictObject({ by: Id, reason: Text, outstanding: Quantities });
export const PurchaseReturned = z.strictObject({
  by: Id,
  reason: Text,
  /** Sent back to the supplier: they leave the stock. */
  lines: Quantities.min(1),
  outstanding: Quantities,
});

export const purchaseEvents = {
  PurchaseCreated,
  PurchaseApprovalRequested,
  PurchaseOrdered,
  PurchaseApproved,
  PurchaseRejected,
  PurchaseReceiptOpened,
  PurchaseReceiptWithdrawn,
  PurchaseGoodsReceived,
  PurchaseCancelled,
  PurchaseVoided,
  PurchaseReturned,
} as const;

export type PurchaseEventType = keyof typeof purchaseEvents;
export type PurchaseEvent = {
  [Type in PurchaseEventType]: { type: Type; data: z.infer<(typeof purchaseEvents)[Type]> };
}[PurchaseEventType];
export const PURCHASE_EVENT_TYPES = Object.keys(purchaseEvents) as PurchaseEventType[];

// ---- state ----

export const PURCHASE_STATUSES = [
  'ordered',
  'pending',
  'received',
  'returned',
  'partial',
  'cancel',
  'void',
  'pending approval',
] as const;
export type PurchaseStatus = (typeof PURCHASE_STATUSES)[number];
export const FINAL_PURCHASE_STATUSES: readonly PurchaseStatus[] = ['cancel', 'void', 'returned'];

export interface PurchaseLineState extends PurchaseLine {
  received: number;
  damaged: number;
  /** Refused at the door on receipt (still owed by the supplier). */
  returnedOnReceipt: number;
  /** Sent back to the supplier after receipt (the order's return). */
  returned: number;
}

export interface OpenReceipt {
  goodsReceiptId: string;
  grnNumber: string;
  lines: ReceiptLine[];
}

export type PurchaseState =
  | { status: 'none' }
  | {
      status: PurchaseStatus;
      purchaseId: string;
      poNumber: string;
      reference: string;
      date: string;
      supplierId: string;
      warehouseId: string;
      lines: PurchaseLineState[];
      discount: string;
      estimatedArrival: string | null;
      note: string;
      createdBy: string;
      /** Its items were recorded as incoming (it reached `ordered`). */
      placed: boolean;
      rejectReason: string | null;
      openReceipts: OpenReceipt[];
    };
export type Purchase = Exclude<PurchaseState, { status: 'none' }>;

export const initialState: PurchaseState = { status: 'none' };

/** Reserved by open notes, per master code. */
export function reservedOf(state: Purchase, masterCodeId: string): number {
  let reserved = 0;
  for (const receipt of state.openReceipts)
    for (const line of receipt.lines)
      if (line.masterCodeId === masterCodeId) reserved += line.received + line.returned;
  return reserved;
}

/** Still to be received: ordered less received (refused-at-door units stay outstanding). */
export const outstandingOf = (line: PurchaseLineState) => Math.max(0, line.quantity - line.received);

/** What a new note may still take of a line: outstanding less what open notes reserve. */
export const receivableOf = (state: Purchase, line: PurchaseLineState) =>
  Math.max(0, outstandingOf(line) - reservedOf(state, line.masterCodeId));

const statusAfterReceipt = (lines: PurchaseLineState[]): PurchaseStatus =>
  lines.every((line) => line.received >= line.quantity) ? 'received' : 'partial';

export function evolve(state: PurchaseState, event: PurchaseEvent): PurchaseState {
  if (event.type === 'PurchaseCreated') {
    const data = event.data;
    return {
      status: 'pending',
      purchaseId: data.purchaseId,
      poNumber: data.poNumber,
      reference: data.reference,
      date: data.date,
      supplierId: data.supplierId,
      warehouseId: data.warehouseId,
      lines: data.lines.map((line) => ({
        ...line,
        received: 0,
        damaged: 0,
        returnedOnReceipt: 0,
        returned: 0,
      })),
      discount: data.discount,
      estimatedArrival: data.estimatedArrival,
      note: data.note,
      createdBy: data.createdBy,
      placed: false,
      rejectReason: null,
      openReceipts: [],
    };
  }
  if (state.status === 'none') return state;
  switch (event.type) {
    case 'PurchaseApprovalRequested':
      return { ...state, status: 'pending approval', rejectReason: null };
    case 'PurchaseOrdered':
    case 'PurchaseApproved':
      return { ...state, status: 'ordered', placed: true, rejectReason: null };
    case 'PurchaseRejected':
      return { ...state, status: 'pending', rejectReason: event.data.reason };
    case 'PurchaseReceiptOpened':
      return {
        ...state,
        openReceipts: [
          ...state.openReceipts,
          {
            goodsReceiptId: event.data.goodsReceiptId,
            grnNumber: event.data.grnNumber,
            lines: event.data.lines,
          },
        ],
      };
    case 'PurchaseReceiptWithdrawn':
      return {
        ...state,
        openReceipts: state.openReceipts.filter((r) => r.goodsReceiptId !== event.data.goodsReceiptId),
      };
    case 'PurchaseGoodsReceived': {
      const lines = state.lines.map((line) => {
        const got = event.data.lines.find((received) => received.masterCodeId === line.masterCodeId);
        return got
          ? {
              ...line,
              received: line.received + got.received,
              damaged: line.damaged + got.damaged,
              returnedOnReceipt: line.returnedOnReceipt + got.returned,
            }
          : line;
      });
      return {
        ...state,
        lines,
        status: statusAfterReceipt(lines),
        openReceipts: state.openReceipts.filter((r) => r.goodsReceiptId !== event.data.goodsReceiptId),
      };
    }
    case 'PurchaseCancelled':
      return { ...state, status: 'cancel' };
    case 'PurchaseVoided':
      return { ...state, status: 'void' };
    case 'PurchaseReturned':
      return {
        ...state,
        status: 'returned',
        lines: state.lines.map((line) => {
          const back = event.data.lines.find((returned) => returned.masterCodeId === line.masterCodeId);
          return back ? { ...line, returned: line.returned + back.quantity } : line;
        }),
      };
    default: {
      const unknown: never = event;
      throw new Error(`unknown purchase event ${(unknown as { type: string }).type}`);
    }
  }
}

// ---- commands ----

export type PurchaseCommand =
  | {
      type: 'CreatePurchase';
      purchaseId: string;
      poNumber: string;
      reference: string;
      date: string;
      supplierId: string;
      warehouseId: string;
      lines: PurchaseLine[];
      discount: string;
      estimatedArrival: string | null;
      note: string;
      by: string;
    }
  | { type: 'PlacePurchase'; by: string; approvalRequired: boolean }
  | { type: 'ApprovePurchase'; by: string; byOwner: boolean }
  | { type: 'RejectPurchase'; by: string; byOwner: boolean; reason: string }
  | { type: 'OpenReceipt'; goodsReceiptId: string; grnNumber: string; lines: ReceiptLine[] }
  | { type: 'WithdrawReceipt'; goodsReceiptId: string; reason: 'cancel' | 'reject' }
  | { type: 'SettleReceipt'; goodsReceiptId: string }
  | { type: 'CancelPurchase'; by: string; reason: string }
  | { type: 'VoidPurchase'; by: string; reason: string }
  | {
      type: 'ReturnPurchase';
      by: string;
      reason: string;
      lines: { masterCodeId: string; quantity: number }[];
    };

// ---- decide ----

export const PURCHASE_ERRORS = [
  'PURCHASE_EXISTS',
  'PURCHASE_NOT_FOUND',
  'WRONG_STATE',
  'ITEMS_REQUIRED',
  'QUANTITY_NOT_POSITIVE',
  'UNIT_COST_INVALID',
  'ITEM_REPEATED',
  'DISCOUNT_TOO_LARGE',
  'ARRIVAL_BEFORE_DATE',
  'APPROVER_IS_CREATOR',
  'NOT_ON_PURCHASE',
  'RECEIPT_LINE_EMPTY',
  'DAMAGED_MORE_THAN_RECEIVED',
  'RECEIVE_MORE_THAN_OUTSTANDING',
  'RECEIPT_OPEN',
  'RECEIPT_NOT_OPEN',
  'ALREADY_RECEIVED',
  'RETURN_MORE_THAN_RECEIVED',
] as const;
export type PurchaseErrorCode = (typeof PURCHASE_ERRORS)[number];

/** How each refusal answers (spec §8: codes 533–545, domain/purchases/codes.ts). */
export const purchaseErrors = {
  PURCHASE_EXISTS: { status: 409, code: PurchaseCode.wrongState, key: 'purchases.wrong_state' },
  PURCHASE_NOT_FOUND: { status: 404, code: 404, key: 'purchases.not_found' },
  WRONG_STATE: { status: 409, code: PurchaseCode.wrongState, key: 'purchases.wrong_state' },
  ITEMS_REQUIRED: { status: 400, code: PurchaseCode.itemsRequired, key: 'purchases.items_required' },
  QUANTITY_NOT_POSITIVE: {
    status: 400,
    code: PurchaseCode.quantityInvalid,
    key: 'purchases.quantity_invalid',
  },
  UNIT_COST_INVALID: { status: 400, code: PurchaseCode.unitCostInvalid, key: 'purchases.unit_cost_invalid' },
  ITEM_REPEATED: { status: 400, code: PurchaseCode.itemRepeated, key: 'purchases.item_repeated' },
  DISCOUNT_TOO_LARGE: {
    status: 400,
    code: PurchaseCode.discountInvalid,
    key: 'purchases.discount_too_large',
  },
  ARRIVAL_BEFORE_DATE: { status: 400, code: PurchaseCode.dateInvalid, key: 'purchases.arrival_before_date' },
  APPROVER_IS_CREATOR: {
    status: 403,
    code: PurchaseCode.approverIsCreator,
    key: 'purchases.approver_is_creator',
  },
  NOT_ON_PURCHASE: { status: 400, code: PurchaseCode.notOnPurchase, key: 'purchases.not_on_purchase' },
  RECEIPT_LINE_EMPTY: { status: 400, code: PurchaseCode.receiptLineInvalid, key: 'purchases.grn.line_empty' },
  DAMAGED_MORE_THAN_RECEIVED: {
    status: 400,
    code: PurchaseCode.receiptLineInvalid,
    key: 'purchases.grn.damaged_more_than_received',
  },
  RECEIVE_MORE_THAN_OUTSTANDING: {
    status: 409,
    code: PurchaseCode.moreThanOutstanding,
    key: 'purchases.grn.more_than_outstanding',
  },
  RECEIPT_OPEN: { status: 409, code: PurchaseCode.wrongState, key: 'purchases.receipt_open' },
  RECEIPT_NOT_OPEN: { status: 409, code: PurchaseCode.wrongState, key: 'purchases.grn.not_open' },
  ALREADY_RECEIVED: { status: 409, code: PurchaseCode.wrongState, key: 'purchases.already_received' },
  RETURN_MORE_THAN_RECEIVED: {
    status: 409,
    code: PurchaseCode.moreThanOutstanding,
    key: 'purchases.return_more_than_received',
  },
} as const satisfies ErrorTable<PurchaseErrorCode>;

export const refusePurchase = refuser(purchaseErrors);
const refuse = refusePurchase;

const isCount = (value: number, least: number) =>
  Number.isInteger(value) && value >= least && value <= QUANTITY_MAX;

function requireStatus(state: PurchaseState, allowed: readonly PurchaseStatus[], action: string): Purchase {
  if (state.status === 'none') throw refuse('PURCHASE_NOT_FOUND');
  if (!allowed.includes(state.status)) throw refuse('WRONG_STATE', { status: state.status, action });
  return state;
}

function requireNoOpenReceipt(state: Purchase): void {
  const open = state.openReceipts[0];
  if (open) throw refuse('RECEIPT_OPEN', { grnNumber: open.grnNumber });
}

/** The lines' value before discount, in ten-thousandths. */
export function subtotalUnits(lines: readonly PurchaseLine[]): bigint {
  return lines.reduce((sum, line) => sum + toUnits(line.unitCost) * BigInt(line.quantity), 0n);
}

/**
 * A line's unit cost net of its share of the order's discount: the discount is shared in proportion to each line's
 * value, so a line worth 30% of the order bears 30% of the discount, spread over its units.
 */
export function netUnitCost(lines: readonly PurchaseLine[], discount: string, masterCodeId: string): string {
  const line = lines.find((candidate) => candidate.masterCodeId === masterCodeId);
  if (!line) throw refuse('NOT_ON_PURCHASE', { masterCodeId });
  const subtotal = subtotalUnits(lines);
  const lineValue = toUnits(line.unitCost) * BigInt(line.quantity);
  if (subtotal === 0n) return fromUnits(0n);
  const share = divideRounded(toUnits(discount) * lineValue, subtotal);
  const net = lineValue - share;
  return fromUnits(net <= 0n ? 0n : divideRounded(net, BigInt(line.quantity)));
}

/** Each line's quantity not yet received, for a cancel, void or return (only when incoming was recorded). */
const outstandingLines = (state: Purchase) =>
  state.placed
    ? state.lines
        .map((line) => ({ masterCodeId: line.masterCodeId, quantity: outstandingOf(line) }))
        .filter((line) => line.quantity > 0)
    : [];

function checkNewPurchase(command: Extract<PurchaseCommand, { type: 'CreatePurchase' }>): void {
  if (command.lines.length === 0) throw refuse('ITEMS_REQUIRED');
  const seen = new Set<string>();
  for (const line of command.lines) {
    if (!isCount(line.quantity, 1))
      throw refuse('QUANTITY_NOT_POSITIVE', { masterCodeId: line.masterCodeId, max: QUANTITY_MAX });
    if (!/^\d{1,14}\.\d{4}$/.test(line.unitCost))
      throw refuse('UNIT_COST_INVALID', { masterCodeId: line.masterCodeId });
    if (seen.has(line.masterCodeId)) throw refuse('ITEM_REPEATED', { masterCodeId: line.masterCodeId });
    seen.add(line.masterCodeId);
  }
  if (toUnits(command.discount) > subtotalUnits(command.lines)) {
    throw refuse('DISCOUNT_TOO_LARGE', {
      discount: command.discount,
      subtotal: fromUnits(subtotalUnits(command.lines)),
    });
  }
  if (command.estimatedArrival !== null && command.estimatedArrival < command.date) {
    throw refuse('ARRIVAL_BEFORE_DATE');
  }
}

function checkApprover(state: Purchase, by: string, byOwner: boolean): void {
  if (by === state.createdBy && !byOwner) throw refuse('APPROVER_IS_CREATOR');
}

function checkReceiptLines(state: Purchase, lines: readonly ReceiptLine[]): void {
  if (lines.length === 0) throw refuse('RECEIPT_LINE_EMPTY');
  const seen = new Set<string>();
  for (const line of lines) {
    const ordered = state.lines.find((candidate) => candidate.masterCodeId === line.masterCodeId);
    if (!ordered || seen.has(line.masterCodeId)) {
      throw refuse('NOT_ON_PURCHASE', { masterCodeId: line.masterCodeId });
    }
    seen.add(line.masterCodeId);
    if (!isCount(line.received, 0) || !isCount(line.damaged, 0) || !isCount(line.returned, 0)) {
      throw refuse('QUANTITY_NOT_POSITIVE', { masterCodeId: line.masterCodeId, max: QUANTITY_MAX });
    }
    if (line.received + line.returned < 1)
      throw refuse('RECEIPT_LINE_EMPTY', { masterCodeId: line.masterCodeId });
    if (line.damaged > line.received) {
      throw refuse('DAMAGED_MORE_THAN_RECEIVED', {
        masterCodeId: line.masterCodeId,
        damaged: line.damaged,
        received: line.received,
      });
    }
    const receivable = receivableOf(state, ordered);
    if (line.received + line.returned > receivable) {
      throw refuse('RECEIVE_MORE_THAN_OUTSTANDING', {
        masterCodeId: line.masterCodeId,
        outstanding: receivable,
        quantity: line.received + line.returned,
      });
    }
  }
}

export function decide(command: PurchaseCommand, state: PurchaseState): PurchaseEvent[] {
  switch (command.type) {
    case 'CreatePurchase': {
      if (state.status !== 'none') throw refuse('PURCHASE_EXISTS', { poNumber: state.poNumber });
      checkNewPurchase(command);
      return [
        {
          type: 'PurchaseCreated',
          data: {
            purchaseId: command.purchaseId,
            poNumber: command.poNumber,
            reference: command.reference,
            date: command.date,
            supplierId: command.supplierId,
            warehouseId: command.warehouseId,
            lines: command.lines,
            discount: command.discount,
            estimatedArrival: command.estimatedArrival,
            note: command.note,
            createdBy: command.by,
          },
        },
      ];
    }
    case 'PlacePurchase':
      requireStatus(state, ['pending'], 'place');
      return command.approvalRequired
        ? [{ type: 'PurchaseApprovalRequested', data: { by: command.by } }]
        : [{ type: 'PurchaseOrdered', data: { by: command.by } }];
    case 'ApprovePurchase': {
      const purchase = requireStatus(state, ['pending approval'], 'approve');
      checkApprover(purchase, command.by, command.byOwner);
      return [{ type: 'PurchaseApproved', data: { by: command.by } }];
    }
    case 'RejectPurchase': {
      const purchase = requireStatus(state, ['pending approval'], 'reject');
      checkApprover(purchase, command.by, command.byOwner);
      return [{ type: 'PurchaseRejected', data: { by: command.by, reason: command.reason } }];
    }
    case 'OpenReceipt': {
      const purchase = requireStatus(state, ['ordered', 'partial'], 'receive');
      if (purchase.openReceipts.some((r) => r.goodsReceiptId === command.goodsReceiptId)) return [];
      checkReceiptLines(purchase, command.lines);
      return [
        {
          type: 'PurchaseReceiptOpened',
          data: {
            goodsReceiptId: command.goodsReceiptId,
            grnNumber: command.grnNumber,
            lines: command.lines,
          },
        },
      ];
    }
    case 'WithdrawReceipt': {
      if (state.status === 'none') throw refuse('PURCHASE_NOT_FOUND');
      if (!state.openReceipts.some((r) => r.goodsReceiptId === command.goodsReceiptId)) return [];
      return [
        {
          type: 'PurchaseReceiptWithdrawn',
          data: { goodsReceiptId: command.goodsReceiptId, reason: command.reason },
        },
      ];
    }
    case 'SettleReceipt': {
      if (state.status === 'none') throw refuse('PURCHASE_NOT_FOUND');
      const receipt = state.openReceipts.find((r) => r.goodsReceiptId === command.goodsReceiptId);
      if (!receipt) throw refuse('RECEIPT_NOT_OPEN', { goodsReceiptId: command.goodsReceiptId });
      return [
        {
          type: 'PurchaseGoodsReceived',
          data: {
            goodsReceiptId: receipt.goodsReceiptId,
            warehouseId: state.warehouseId,
            lines: receipt.lines.map((line) => ({
              ...line,
              unitCost: netUnitCost(state.lines, state.discount, line.masterCodeId),
            })),
          },
        },
      ];
    }
    case 'CancelPurchase': {
      const purchase = requireStatus(state, ['pending', 'pending approval', 'ordered'], 'cancel');
      requireNoOpenReceipt(purchase);
      if (purchase.lines.some((line) => line.received > 0 || line.returnedOnReceipt > 0)) {
        throw refuse('ALREADY_RECEIVED');
      }
      return [
        {
          type: 'PurchaseCancelled',
          data: { by: command.by, reason: command.reason, outstanding: outstandingLines(purchase) },
        },
      ];
    }
    case 'VoidPurchase': {
      const purchase = requireStatus(state, ['pending', 'pending approval', 'ordered', 'partial'], 'void');
      requireNoOpenReceipt(purchase);
      return [
        {
          type: 'PurchaseVoided',
          data: { by: command.by, reason: command.reason, outstanding: outstandingLines(purchase) },
        },
      ];
    }
    case 'ReturnPurchase': {
      const purchase = requireStatus(state, ['partial', 'received'], 'return');
      requireNoOpenReceipt(purchase);
      if (command.lines.length === 0) throw refuse('ITEMS_REQUIRED');
      const seen = new Set<string>();
      for (const back of command.lines) {
        const line = purchase.lines.find((candidate) => candidate.masterCodeId === back.masterCodeId);
        if (!line || seen.has(back.masterCodeId))
          throw refuse('NOT_ON_PURCHASE', { masterCodeId: back.masterCodeId });
        seen.add(back.masterCodeId);
        if (!isCount(back.quantity, 1))
          throw refuse('QUANTITY_NOT_POSITIVE', { masterCodeId: back.masterCodeId, max: QUANTITY_MAX });
        const returnable = line.received - line.damaged - line.returned;
        if (back.quantity > returnable) {
          throw refuse('RETURN_MORE_THAN_RECEIVED', {
            masterCodeId: back.masterCodeId,
            returnable,
            quantity: back.quantity,
          });
        }
      }
      return [
        {
          type: 'PurchaseReturned',
          data: {
            by: command.by,
            reason: command.reason,
            lines: command.lines,
            outstanding: outstandingLines(purchase),
          },
        },
      ];
    }
    default: {
      const unknown: never = command;
      throw new Error(`unknown purchase command ${(unknown as { type: string }).type}`);
    }
  }
}

export const purchaseDecider = { initial: initialState, evolve, decide };

// ---- what a state allows ----

export const PURCHASE_ACTIONS = [
  'place',
  'approve',
  'reject',
  'cancel',
  'void',
  'return',
  'receive',
] as const;
export type PurchaseAction = (typeof PURCHASE_ACTIONS)[number];

/** Who would act: approving is not for the order's creator, unless the owner. */
export interface Acting {
  userId: string;
  owner: boolean;
}

/**
 * The actions the order's state allows the person (the console's buttons); `decide` refuses the others, and checks
 * the rest (quantities) when they are tried.
 */
export function allowedActions(state: PurchaseState, by: Acting): PurchaseAction[] {
  if (state.status === 'none') return [];
  const open = state.openReceipts.length > 0;
  const anyReceived = state.lines.some((line) => line.received > 0 || line.returnedOnReceipt > 0);
  const mayApprove = by.owner || by.userId !== state.createdBy;
  const actions: PurchaseAction[] = [];
  switch (state.status) {
    case 'pending':
      actions.push('place');
      if (!open && !anyReceived) actions.push('cancel');
      if (!open) actions.push('void');
      break;
    case 'pending approval':
      if (mayApprove) actions.push('approve', 'reject');
      if (!open && !anyReceived) actions.push('cancel');
      if (!open) actions.push('void');
      break;
    case 'ordered':
      if (state.lines.some((line) => receivableOf(state, line) > 0)) actions.push('receive');
      if (!open && !anyReceived) actions.push('cancel');
      if (!open) actions.push('void');
      break;
    case 'partial':
      if (state.lines.some((line) => receivableOf(state, line) > 0)) actions.push('receive');
      if (!open) actions.push('void', 'return');
      break;
    case 'received':
      if (!open) actions.push('return');
      break;
    case 'cancel':
    case 'void':
    case 'returned':
      break;
    default: {
      const unknown: never = state;
      throw new Error(`unknown purchase status ${(unknown as Purchase).status}`);
    }
  }
  return actions;
}

// ---- stream ----

export const PURCHASE_CATEGORY = 'purchase';

/** `purchase-<tenant>.<purchaseId>`: one stream per purchase order. */
export const purchaseStreamId = (tenantId: string, purchaseId: string) =>
  `${PURCHASE_CATEGORY}-${tenantId}.${purchaseId}`;
