import { z } from 'zod';
import { Money } from '../orders/marketplace-order';
import { type OrderLine, type OrderStatus, StockLine } from '../orders/order';
import { DomainError, type ErrorTable, type RefusalParams, refuser } from '../shared/errors';
import { TEXT_LIMITS } from '../shared/limits';
import { ReturnCode } from './codes';

/**
 * A return of a marketplace order (spec §3 "Return": action — return to stock or write off —, item condition —
 * reusable or unusable —, reason, refund to buyer, include shipping, refund reason, reversal item price, image
 * attachments; §5: "at least one item selected; refund to buyer, include shipping and refund reason each
 * required"). One stream per return (`orderReturn-<tenant>.<returnId>`):
 *
 *   OrderReturnRecorded ──(stock moved back, commands/returns/return.ts)──▶ OrderReturnCompleted
 *
 * A return takes lines of a shipped or delivered order. Only lines returned to stock in a reusable condition go back
 * into the order's warehouse (a combo: its components); a write-off or an unusable item is recorded and nothing
 * moves. The order itself records the return (ReturnOrder on the order), which is what keeps an order from being
 * returned twice.
 */

export const RETURN_ACTIONS = ['return_to_stock', 'write_off'] as const;
export type ReturnAction = (typeof RETURN_ACTIONS)[number];
export const ITEM_CONDITIONS = ['reusable', 'unusable'] as const;
export type ItemCondition = (typeof ITEM_CONDITIONS)[number];

export const RETURN_LIMITS = {
  lines: 500,
  images: 5,
  /** Bytes of one image attachment. */
  imageBytes: 2 * 1024 * 1024,
  reason: TEXT_LIMITS.reason,
  refundReason: TEXT_LIMITS.reason,
  /** A money amount: at most this many whole units. */
  amountMax: 1_000_000_000,
} as const;

export const RETURN_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export type ReturnImageType = (typeof RETURN_IMAGE_TYPES)[number];

const Id = z.string().min(1).max(100);
const Quantity = z.number().int().min(1).max(100_000);

export const ReturnLine = z.strictObject({
  lineId: Id,
  sku: z.string().max(200),
  sellerSku: z.string().max(200),
  name: z.string().max(500),
  variation: z.string().max(300).optional(),
  masterCodeId: Id.nullable(),
  combo: z.boolean(),
  quantity: Quantity,
  unitPrice: Money,
  condition: z.enum(ITEM_CONDITIONS),
});
export type ReturnLine = z.infer<typeof ReturnLine>;

// ---- events ----

export const OrderReturnRecorded = z.strictObject({
  returnId: Id,
  orderId: Id,
  orderNumber: z.string().min(1).max(100),
  trackingNumber: z.string().max(100).nullable(),
  storeId: Id,
  platform: z.string().max(40),
  warehouseId: Id,
  currency: z.string().max(3),
  action: z.enum(RETURN_ACTIONS),
  reason: z.string().max(RETURN_LIMITS.reason),
  refundToBuyer: Money,
  includeShipping: z.boolean(),
  refundReason: z.string().min(1).max(RETURN_LIMITS.refundReason),
  reversalItemPrice: Money,
  images: z.array(z.uuid()).max(RETURN_LIMITS.images),
  lines: z.array(ReturnLine).min(1).max(RETURN_LIMITS.lines),
});
/** The stock went back (or there was none to put back): the return is done. */
export const OrderReturnCompleted = z.strictObject({
  /** What went back into the order's warehouse; empty for a write-off or unusable items. */
  restocked: z.array(StockLine).max(RETURN_LIMITS.lines),
});

export const returnEvents = { OrderReturnRecorded, OrderReturnCompleted } as const;
export type ReturnEventType = keyof typeof returnEvents;
export type ReturnEvent = {
  [Type in ReturnEventType]: { type: Type; data: z.infer<(typeof returnEvents)[Type]> };
}[ReturnEventType];
export const RETURN_EVENT_TYPES = Object.keys(returnEvents) as ReturnEventType[];

// ---- state ----

export type ReturnRecord = z.infer<typeof OrderReturnRecorded>;

export interface ReturnState {
  exists: boolean;
  record: ReturnRecord | null;
  completed: boolean;
  restocked: StockLine[];
}

export const emptyReturn: ReturnState = { exists: false, record: null, completed: false, restocked: [] };

export function evolve(state: ReturnState, event: ReturnEvent): ReturnState {
  switch (event.type) {
    case 'OrderReturnRecorded':
      return { ...state, exists: true, record: event.data };
    case 'OrderReturnCompleted':
      return { ...state, completed: true, restocked: event.data.restocked };
  }
}

/** The lines that go back to stock: returned to stock, reusable, mapped to a master code. */
export function restockLines(record: Pick<ReturnRecord, 'action' | 'lines'>): StockLine[] {
  if (record.action !== 'return_to_stock') return [];
  return record.lines
    .filter((line) => line.condition === 'reusable' && line.masterCodeId !== null)
    .map((line) => ({
      lineId: line.lineId,
      masterCodeId: line.masterCodeId as string,
      combo: line.combo,
      quantity: line.quantity,
    }));
}

// ---- commands ----

/** The order as the return sees it: its state and lines (from the order's stream). */
export interface ReturnedOrder {
  orderId: string;
  orderNumber: string;
  trackingNumber: string | null;
  storeId: string;
  platform: string;
  warehouseId: string;
  currency: string;
  status: OrderStatus;
  /** The return the order already records (OrderReturned), if any. */
  returnId: string | null;
  lines: readonly OrderLine[];
}

export interface ReturnRequest {
  action: ReturnAction | null;
  reason: string;
  /** Null: not given ("refund to buyer is required"). */
  refundToBuyer: string | null;
  includeShipping: boolean | null;
  refundReason: string | null;
  /** Null: the returned lines' price. */
  reversalItemPrice: string | null;
  images: string[];
  lines: { lineId: string; quantity: number; condition: ItemCondition }[];
}

export type ReturnCommand =
  | { type: 'RecordReturn'; returnId: string; order: ReturnedOrder; request: ReturnRequest }
  | { type: 'CompleteReturn' };

export const RETURN_ERRORS = [
  'RETURN_NOT_FOUND',
  'ITEMS_REQUIRED',
  'ACTION_REQUIRED',
  'REFUND_REQUIRED',
  'INCLUDE_SHIPPING_REQUIRED',
  'REFUND_REASON_REQUIRED',
  'AMOUNT_INVALID',
  'TEXT_TOO_LONG',
  'LINE_NOT_FOUND',
  'LINE_REPEATED',
  'QUANTITY_INVALID',
  'TOO_MANY_IMAGES',
  'ORDER_NOT_SHIPPED',
  'ORDER_ALREADY_RETURNED',
  /** An attached image that is not the account's upload, or belongs to another return (commands/returns). */
  'IMAGE_NOT_FOUND',
  /** An upload that is not a PNG, JPEG or WebP (or is empty). */
  'IMAGE_INVALID',
  'IMAGE_TOO_LARGE',
  /** The order a return is for was looked up by neither number nor id (commands/returns/answers.ts). */
  'LOOKUP_REQUIRED',
] as const;
export type ReturnErrorCode = (typeof RETURN_ERRORS)[number];

/** How each refusal answers (`line`, `name`, `max` name what the message needs). */
export const returnErrors = {
  RETURN_NOT_FOUND: { status: 404, code: 404, key: 'common.no_record_found' },
  ITEMS_REQUIRED: { status: 400, code: ReturnCode.returnItemsRequired, key: 'returns.items_required' },
  ACTION_REQUIRED: { status: 400, code: ReturnCode.returnActionInvalid, key: 'returns.action_invalid' },
  REFUND_REQUIRED: { status: 400, code: ReturnCode.refundRequired, key: 'returns.refund_required' },
  INCLUDE_SHIPPING_REQUIRED: {
    status: 400,
    code: ReturnCode.includeShippingRequired,
    key: 'returns.include_shipping_required',
  },
  REFUND_REASON_REQUIRED: {
    status: 400,
    code: ReturnCode.refundReasonRequired,
    key: 'returns.refund_reason_required',
  },
  AMOUNT_INVALID: { status: 400, code: ReturnCode.amountInvalid, key: 'returns.amount_invalid' },
  TEXT_TOO_LONG: { status: 400, code: ReturnCode.returnTextTooLong, key: 'returns.reason_too_long' },
  LINE_NOT_FOUND: { status: 400, code: ReturnCode.returnLineInvalid, key: 'returns.line_not_found' },
  LINE_REPEATED: { status: 400, code: ReturnCode.returnLineInvalid, key: 'returns.line_repeated' },
  QUANTITY_INVALID: { status: 400, code: ReturnCode.returnLineInvalid, key: 'returns.quantity_invalid' },
  TOO_MANY_IMAGES: { status: 400, code: ReturnCode.imageNotFound, key: 'returns.too_many_images' },
  ORDER_NOT_SHIPPED: { status: 409, code: ReturnCode.orderNotShipped, key: 'returns.order_not_shipped' },
  ORDER_ALREADY_RETURNED: {
    status: 409,
    code: ReturnCode.orderAlreadyReturned,
    key: 'returns.order_already_returned',
  },
  IMAGE_NOT_FOUND: { status: 400, code: ReturnCode.imageNotFound, key: 'returns.image_not_found' },
  IMAGE_INVALID: { status: 400, code: ReturnCode.imageInvalid, key: 'returns.image_invalid' },
  IMAGE_TOO_LARGE: { status: 400, code: ReturnCode.imageTooLarge, key: 'returns.image_too_large' },
  LOOKUP_REQUIRED: { status: 400, code: ReturnCode.lookupInvalid, key: 'returns.lookup_required' },
} satisfies ErrorTable<ReturnErrorCode>;

const refuseReturn = refuser(returnErrors);

/** A refusal of the return; a refund reason too long is worded as such (the same code, its own message). */
export function refuse(code: ReturnErrorCode, params: RefusalParams = {}): DomainError<ReturnErrorCode> {
  if (code === 'TEXT_TOO_LONG' && params.field === 'refund_reason') {
    return new DomainError(code, params, {
      ...returnErrors.TEXT_TOO_LONG,
      key: 'returns.refund_reason_too_long',
    });
  }
  return refuseReturn(code, params);
}

/** A decimal amount as hundredths (both ≥ 0 with at most two decimals, as `Money` takes them). */
export const toCents = (amount: string) => {
  const [whole = '0', fraction = ''] = amount.split('.');
  return BigInt(whole) * 100n + BigInt(`${fraction}00`.slice(0, 2));
};
export const fromCents = (cents: bigint) => {
  const negative = cents < 0n;
  const abs = negative ? -cents : cents;
  return `${negative ? '-' : ''}${abs / 100n}.${(abs % 100n).toString().padStart(2, '0')}`;
};

const AMOUNT = /^\d{1,10}(\.\d{1,2})?$/;

/** Whether an order in this state may take this return. */
export function mayReturn(order: Pick<ReturnedOrder, 'status' | 'returnId'>, returnId: string): boolean {
  if (order.returnId !== null) return order.returnId === returnId;
  return order.status === 'shipped' || order.status === 'delivered';
}

/** The spec §5 checks, in the order a person reads the form: items, then the refund fields. */
function recorded(returnId: string, order: ReturnedOrder, request: ReturnRequest): ReturnRecord {
  if (request.lines.length === 0) throw refuse('ITEMS_REQUIRED');
  if (request.refundToBuyer === null || request.refundToBuyer.trim() === '') throw refuse('REFUND_REQUIRED');
  if (request.includeShipping === null) throw refuse('INCLUDE_SHIPPING_REQUIRED');
  const refundReason = request.refundReason?.trim() ?? '';
  if (refundReason === '') throw refuse('REFUND_REASON_REQUIRED');
  if (request.action === null) throw refuse('ACTION_REQUIRED');
  if (!AMOUNT.test(request.refundToBuyer.trim()))
    throw refuse('AMOUNT_INVALID', { field: 'refund_to_buyer' });
  if (request.reversalItemPrice !== null && !AMOUNT.test(request.reversalItemPrice.trim())) {
    throw refuse('AMOUNT_INVALID', { field: 'reversal_item_price' });
  }
  const reason = request.reason.trim();
  if (reason.length > RETURN_LIMITS.reason)
    throw refuse('TEXT_TOO_LONG', { field: 'reason', max: RETURN_LIMITS.reason });
  if (refundReason.length > RETURN_LIMITS.refundReason) {
    throw refuse('TEXT_TOO_LONG', { field: 'refund_reason', max: RETURN_LIMITS.refundReason });
  }
  if (request.images.length > RETURN_LIMITS.images)
    throw refuse('TOO_MANY_IMAGES', { max: RETURN_LIMITS.images });
  if (request.lines.length > RETURN_LIMITS.lines) throw refuse('ITEMS_REQUIRED');

  const seen = new Set<string>();
  const lines: ReturnLine[] = request.lines.map((wanted) => {
    const line = order.lines.find((l) => l.lineId === wanted.lineId);
    if (!line) throw refuse('LINE_NOT_FOUND', { lineId: wanted.lineId, line: wanted.lineId });
    if (seen.has(line.lineId)) throw refuse('LINE_REPEATED', { lineId: line.lineId, line: line.lineId });
    seen.add(line.lineId);
    if (!Number.isInteger(wanted.quantity) || wanted.quantity < 1 || wanted.quantity > line.quantity) {
      throw refuse('QUANTITY_INVALID', { lineId: line.lineId, name: line.name, max: line.quantity });
    }
    return {
      lineId: line.lineId,
      sku: line.sku,
      sellerSku: line.sellerSku,
      name: line.name,
      ...(line.variation ? { variation: line.variation } : {}),
      masterCodeId: line.masterCodeId,
      combo: line.combo,
      quantity: wanted.quantity,
      unitPrice: line.unitPrice,
      condition: wanted.condition,
    };
  });
  if (!mayReturn(order, returnId)) {
    throw refuse(order.returnId !== null ? 'ORDER_ALREADY_RETURNED' : 'ORDER_NOT_SHIPPED', {
      status: order.status,
    });
  }
  const itemsValue = lines.reduce((sum, line) => sum + toCents(line.unitPrice) * BigInt(line.quantity), 0n);
  return {
    returnId,
    orderId: order.orderId,
    orderNumber: order.orderNumber,
    trackingNumber: order.trackingNumber,
    storeId: order.storeId,
    platform: order.platform,
    warehouseId: order.warehouseId,
    currency: order.currency,
    action: request.action,
    reason,
    refundToBuyer: fromCents(toCents(request.refundToBuyer.trim())),
    includeShipping: request.includeShipping,
    refundReason,
    reversalItemPrice:
      request.reversalItemPrice === null
        ? fromCents(itemsValue)
        : fromCents(toCents(request.reversalItemPrice.trim())),
    images: [...new Set(request.images)],
    lines,
  };
}

export function decide(command: ReturnCommand, state: ReturnState): ReturnEvent[] {
  switch (command.type) {
    case 'RecordReturn': {
      const record = recorded(command.returnId, command.order, command.request);
      if (state.exists) return [];
      return [{ type: 'OrderReturnRecorded', data: record }];
    }
    case 'CompleteReturn':
      if (!state.exists || !state.record) throw refuse('RETURN_NOT_FOUND');
      if (state.completed) return [];
      return [{ type: 'OrderReturnCompleted', data: { restocked: restockLines(state.record) } }];
  }
}

// ---- stream ----

export const RETURN_CATEGORY = 'orderReturn';
export const returnStreamId = (tenantId: string, returnId: string) =>
  `${RETURN_CATEGORY}-${tenantId}.${returnId}`;
