import { PERMISSION_AREAS, type PermissionKey } from '../access/permissions';
import {
  evolve as evolveIssue,
  type GoodsIssueState,
  goodsIssueStreamId,
  initialState as noIssue,
} from '../goods-issue/decider';
import type { GinEvent } from '../goods-issue/events';
import { ORDER_READER_KEYS } from '../orders/board';
import {
  evolve as evolveOrder,
  initialState as noOrder,
  type OrderEvent,
  type OrderState,
  orderStreamId,
} from '../orders/order';
import {
  evolve as evolveReceipt,
  GOODS_RECEIPT_STATUS,
  type GoodsReceiptEvent,
  type GoodsReceiptState,
  goodsReceiptStreamId,
  initialState as noReceipt,
} from '../purchases/goods-receipt';
import {
  evolve as evolvePurchase,
  initialState as noPurchase,
  type PurchaseEvent,
  type PurchaseState,
  purchaseStreamId,
} from '../purchases/purchase';
import {
  evolve as evolveTransfer,
  initialState as noTransfer,
  type TransferEvent,
  type TransferState,
  transferStreamId,
} from '../transfers/transfer';

/**
 * The documents the auditor's replay walks: each is one stream, folded event by event with its own aggregate's
 * `evolve`, and shown at each step by a few key fields (its status first) rather than the whole folded state.
 */

export const DOCUMENT_KINDS = ['order', 'transfer', 'purchase', 'goods-receipt', 'goods-issue'] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

/** A key field's value as the timeline shows it. */
export type FieldValue = string | number | boolean | null;
export type KeyFields = Record<string, FieldValue>;

interface Replayable<State, Event> {
  streamId: (tenantId: string, id: string) => string;
  initial: State;
  evolve: (state: State, event: Event) => State;
  /** The state's key fields; null before the document exists. */
  fields: (state: State) => KeyFields | null;
}

const count = (lines: readonly unknown[]) => lines.length;
const units = (lines: readonly { quantity: number }[]) => lines.reduce((sum, line) => sum + line.quantity, 0);
const receiptStatus = Object.fromEntries(Object.entries(GOODS_RECEIPT_STATUS).map(([name, n]) => [n, name]));

const order: Replayable<OrderState, OrderEvent> = {
  streamId: orderStreamId,
  initial: noOrder,
  evolve: evolveOrder,
  fields: (state) =>
    state.status === 'none'
      ? null
      : {
          status: state.status,
          number: state.orderNumber,
          warehouse: state.warehouseId,
          stock: state.stock,
          paid_at: state.paidAt,
          tracking_number: state.trackingNumber,
          batch: state.batchId,
          lines: count(state.lines.filter((line) => !state.removed.includes(line.lineId))),
          on_hold: state.onHold ?? false,
        },
};

const transfer: Replayable<TransferState, TransferEvent> = {
  streamId: transferStreamId,
  initial: noTransfer,
  evolve: evolveTransfer,
  fields: (state) =>
    state.status === 'none'
      ? null
      : {
          status: state.status,
          number: state.reference,
          from_warehouse: state.fromWarehouseId,
          to_warehouse: state.toWarehouseId,
          lines: count(state.lines),
          quantity: units(state.lines),
          shipped: state.lines.reduce((sum, line) => sum + line.shipped, 0),
          received: state.lines.reduce((sum, line) => sum + line.received, 0),
        },
};

const purchase: Replayable<PurchaseState, PurchaseEvent> = {
  streamId: purchaseStreamId,
  initial: noPurchase,
  evolve: evolvePurchase,
  fields: (state) =>
    state.status === 'none'
      ? null
      : {
          status: state.status,
          number: state.poNumber,
          warehouse: state.warehouseId,
          supplier: state.supplierId,
          lines: count(state.lines),
          quantity: units(state.lines),
          received: state.lines.reduce((sum, line) => sum + line.received, 0),
          discount: state.discount,
          open_receipts: count(state.openReceipts),
        },
};

const goodsReceipt: Replayable<GoodsReceiptState, GoodsReceiptEvent> = {
  streamId: goodsReceiptStreamId,
  initial: noReceipt,
  evolve: evolveReceipt,
  fields: (state) =>
    state.status === 0
      ? null
      : {
          status: receiptStatus[state.status] ?? state.status,
          number: state.grnNumber,
          purchase: state.poNumber,
          warehouse: state.warehouseId,
          lines: count(state.lines),
          received: state.lines.reduce((sum, line) => sum + line.received, 0),
          approved_by: state.approvedBy,
          reason: state.reason,
        },
};

const goodsIssue: Replayable<GoodsIssueState, GinEvent> = {
  streamId: goodsIssueStreamId,
  initial: noIssue,
  evolve: evolveIssue,
  fields: (state) =>
    state.status === 0
      ? null
      : {
          status: state.status,
          number: state.reference,
          warehouse: state.warehouseId,
          reason: state.reason,
          lines: count(state.lines),
          quantity: units(state.lines),
          approvals: state.approval?.approvals.length ?? 0,
          cancel_reason: state.cancellation?.reason ?? null,
        },
};

const REPLAYS: { [Kind in DocumentKind]: Replayable<never, never> } = {
  order: order as unknown as Replayable<never, never>,
  transfer: transfer as unknown as Replayable<never, never>,
  purchase: purchase as unknown as Replayable<never, never>,
  'goods-receipt': goodsReceipt as unknown as Replayable<never, never>,
  'goods-issue': goodsIssue as unknown as Replayable<never, never>,
};

/** Who may replay a document: whoever may see it. */
export const DOCUMENT_READERS: { [Kind in DocumentKind]: readonly PermissionKey[] } = {
  order: ORDER_READER_KEYS,
  transfer: PERMISSION_AREAS.transferStock,
  purchase: ['purchases-index'],
  'goods-receipt': ['purchases-index'],
  'goods-issue': [...PERMISSION_AREAS.inventory, ...PERMISSION_AREAS.goodsIssueNotes],
};

export const documentStreamId = (kind: DocumentKind, tenantId: string, id: string) =>
  REPLAYS[kind].streamId(tenantId, id);

/** One step of a document's history: its key fields before and after one event. */
export interface DocumentStep {
  before: KeyFields | null;
  after: KeyFields | null;
  /** The fields the event changed, in the order the document lists them. */
  changed: string[];
}

/**
 * Folds a document's events in order with its aggregate's own `evolve`, stating the key fields before and after
 * each. Events arrive as the log stores them (type and data).
 */
export function replayDocument(
  kind: DocumentKind,
  events: readonly { type: string; data: unknown }[],
): DocumentStep[] {
  const replay = REPLAYS[kind] as unknown as Replayable<unknown, { type: string; data: unknown }>;
  let state = replay.initial;
  let before = replay.fields(state);
  const steps: DocumentStep[] = [];
  for (const event of events) {
    state = replay.evolve(state, event);
    const after = replay.fields(state);
    const names = Object.keys(after ?? before ?? {});
    steps.push({ before, after, changed: names.filter((name) => before?.[name] !== after?.[name]) });
    before = after;
  }
  return steps;
}

/** The words a document event gives as its reason, where it carries one. */
export function reasonOf(data: unknown): string | null {
  if (typeof data !== 'object' || data === null) return null;
  const reason = (data as { reason?: unknown }).reason;
  return typeof reason === 'string' && reason !== '' ? reason : null;
}
