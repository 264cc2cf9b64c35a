import { z } from 'zod';
import { DomainError, type ErrorTable, refuser } from '../shared/errors';
import { TEXT_LIMITS } from '../shared/limits';
import { BatchCode } from './codes';

/**
 * A batch of orders for one picking round (spec §3 "Batch"): a name, the number the account's sequence gave it
 * shown as prefix + leading-zero padding (prefix "B", 4 digits, number 1 → "B0001"), a type (normal orders, or
 * pre-orders only), the picker assigned to it, the day it is for, the most orders it may hold, and — when the
 * orders were split by logistics or payment method — the provider or method its orders share. Orders join it when
 * it is made (by hand from a selection, or by an auto batch configuration), may be added or taken out while it is
 * open, and it is closed when the round is done. One stream per batch; who and when ride in each event's metadata.
 *
 * The batch holds the orders' ids; each order also names its batch (the order's own `AssignBatch`), and a write-side
 * claim per order (commands/batches/claims.ts) makes sure two batches made at once never take the same order.
 */

// ---- values ----

export const BATCH_TYPES = ['normal', 'pre-order'] as const;
export type BatchType = (typeof BATCH_TYPES)[number];

/** How a selection is split into batches: not at all, by shipping provider, or by payment method. */
export const BATCH_SPLITS = ['none', 'logistics', 'payment'] as const;
export type BatchSplit = (typeof BATCH_SPLITS)[number];

export const BATCH_STATUSES = ['open', 'closed'] as const;
export type BatchStatus = (typeof BATCH_STATUSES)[number];

export const BATCH_SOURCES = ['manual', 'auto'] as const;
export type BatchSource = (typeof BATCH_SOURCES)[number];

export const NAME_MAX = TEXT_LIMITS.name;
/**
 * Not a text limit of its kind: the prefix starts every batch number printed on labels and pick lists, so it stays
 * short enough for a label's line (the console's field warns beyond it, the contract refuses).
 */
export const PREFIX_MAX = 10;
export const DIGITS_MIN = 1;
export const DIGITS_MAX = 10;
export const MAX_ORDERS_LIMIT = 1000;
export const DEFAULT_PREFIX = 'B';
export const DEFAULT_DIGITS = 4;
export const DEFAULT_MAX_ORDERS = 100;

/** The number as the batch shows it: prefix, then the number padded with zeros to `digits` (never cut). */
export function batchLabel(prefix: string, number: number, digits: number): string {
  return `${prefix}${String(number).padStart(digits, '0')}`;
}

const Id = z.string().min(1).max(100);
const Day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

// ---- events ----

export const BatchCreated = z.strictObject({
  batchId: Id,
  number: z.number().int().min(1),
  label: z
    .string()
    .min(1)
    .max(PREFIX_MAX + 20),
  name: z.string().min(1).max(NAME_MAX),
  prefix: z.string().max(PREFIX_MAX),
  digits: z.number().int().min(DIGITS_MIN).max(DIGITS_MAX),
  /** The batch's type (spec: "type (normal or pre-order)"). */
  batchType: z.enum(BATCH_TYPES),
  pickerId: Id.nullable(),
  date: Day,
  maxOrders: z.number().int().min(1).max(MAX_ORDERS_LIMIT),
  split: z.enum(BATCH_SPLITS),
  /** The shipping provider or payment method every order of the batch shares (split batches only). */
  group: z.string().max(200).nullable(),
  source: z.enum(BATCH_SOURCES),
  /** The auto batch configuration that made it. */
  configId: Id.nullable(),
  orderIds: z.array(Id).min(1).max(MAX_ORDERS_LIMIT),
});
export const BatchOrdersAdded = z.strictObject({ orderIds: z.array(Id).min(1).max(MAX_ORDERS_LIMIT) });
export const BatchOrdersRemoved = z.strictObject({ orderIds: z.array(Id).min(1).max(MAX_ORDERS_LIMIT) });
export const BatchPickerAssigned = z.strictObject({ pickerId: Id.nullable() });
export const BatchClosed = z.strictObject({});

export const batchEvents = {
  BatchCreated,
  BatchOrdersAdded,
  BatchOrdersRemoved,
  BatchPickerAssigned,
  BatchClosed,
} as const;
export type BatchEventType = keyof typeof batchEvents;
export type BatchEvent = {
  [Type in BatchEventType]: { type: Type; data: z.infer<(typeof batchEvents)[Type]> };
}[BatchEventType];
export const BATCH_EVENT_TYPES = Object.keys(batchEvents) as BatchEventType[];

// ---- state ----

export type BatchState =
  | { status: 'none' }
  | (Omit<z.infer<typeof BatchCreated>, 'orderIds'> & { status: BatchStatus; orderIds: string[] });

export const initialState: BatchState = { status: 'none' };

export function evolve(state: BatchState, event: BatchEvent): BatchState {
  switch (event.type) {
    case 'BatchCreated':
      return { ...event.data, status: 'open', orderIds: [...event.data.orderIds] };
    case 'BatchOrdersAdded':
      return state.status === 'none'
        ? state
        : { ...state, orderIds: [...state.orderIds, ...event.data.orderIds] };
    case 'BatchOrdersRemoved': {
      if (state.status === 'none') return state;
      const removed = new Set(event.data.orderIds);
      return { ...state, orderIds: state.orderIds.filter((id) => !removed.has(id)) };
    }
    case 'BatchPickerAssigned':
      return state.status === 'none' ? state : { ...state, pickerId: event.data.pickerId };
    case 'BatchClosed':
      return state.status === 'none' ? state : { ...state, status: 'closed' };
    default: {
      const unknown: never = event;
      throw new Error(`unknown batch event ${(unknown as { type: string }).type}`);
    }
  }
}

// ---- commands ----

/** An order as a batch needs to know it: whether it is a pre-order. */
export interface BatchOrderRef {
  orderId: string;
  preOrder: boolean;
}

export type BatchCommand =
  | ({ type: 'CreateBatch'; orders: BatchOrderRef[] } & Omit<z.infer<typeof BatchCreated>, 'orderIds'>)
  | { type: 'AddOrders'; orders: BatchOrderRef[] }
  | { type: 'RemoveOrders'; orderIds: string[] }
  | { type: 'AssignPicker'; pickerId: string | null }
  | { type: 'CloseBatch' };

export const BATCH_ERRORS = [
  'BATCH_EXISTS',
  'BATCH_NOT_FOUND',
  'BATCH_CLOSED',
  'ORDERS_REQUIRED',
  'TOO_MANY_ORDERS',
  'ORDER_TYPE_MISMATCH',
  'ORDER_ALREADY_IN_BATCH',
  'ORDER_NOT_IN_BATCH',
  /** An order the account does not have (another account's is the same: not found). */
  'ORDER_NOT_FOUND',
  /** An order that is not new or unscan: it is past batching, or not yet accepted. */
  'ORDER_NOT_BATCHABLE',
] as const;
export type BatchErrorCode = (typeof BATCH_ERRORS)[number];

const notFound = { status: 404, code: 404, key: 'common.no_record_found' } as const;

/** Another account's batch or order answers like a missing one. */
export const batchErrors = {
  BATCH_EXISTS: { status: 409, code: BatchCode.keyInvalid, key: 'batch.idempotency_key_reused' },
  BATCH_NOT_FOUND: notFound,
  BATCH_CLOSED: { status: 409, code: BatchCode.batchClosed, key: 'batch.batch_closed' },
  ORDERS_REQUIRED: { status: 400, code: BatchCode.ordersRequired, key: 'batch.orders_required' },
  TOO_MANY_ORDERS: { status: 400, code: BatchCode.tooManyOrders, key: 'batch.too_many_orders' },
  ORDER_TYPE_MISMATCH: { status: 400, code: BatchCode.orderTypeMismatch, key: 'batch.order_type_mismatch' },
  ORDER_ALREADY_IN_BATCH: { status: 409, code: BatchCode.orderInBatch, key: 'batch.order_in_batch' },
  ORDER_NOT_IN_BATCH: { status: 400, code: BatchCode.orderNotInBatch, key: 'batch.order_not_in_batch' },
  ORDER_NOT_FOUND: notFound,
  ORDER_NOT_BATCHABLE: { status: 409, code: BatchCode.orderNotBatchable, key: 'batch.order_not_batchable' },
} satisfies ErrorTable<BatchErrorCode>;

const refuse = refuser(batchErrors);

/**
 * The refusals whose words depend on what was refused: a pre-order batch and a normal one say what they take, and an
 * order that cannot be batched says its status (a message per status, in each language).
 */
export function batchRefusal(code: BatchErrorCode, params: Record<string, string | number> = {}) {
  const error = refuse(code, params);
  let key: string = batchErrors[code].key;
  if (code === 'ORDER_TYPE_MISMATCH')
    key = params.type === 'pre-order' ? 'batch.only_pre_orders' : 'batch.no_pre_orders';
  if (code === 'ORDER_NOT_BATCHABLE' && typeof params.status === 'string')
    key = `batch.not_batchable.${params.status}`;
  return key === batchErrors[code].key
    ? error
    : new DomainError(code, error.params, { ...batchErrors[code], key });
}

/** What making or changing a batch by hand refuses besides the batch itself: a picker who is not the account's. */
export const BATCHING_ERRORS = ['PICKER_INVALID'] as const;
export type BatchingErrorCode = (typeof BATCHING_ERRORS)[number];
export const batchingErrors = {
  PICKER_INVALID: { status: 400, code: BatchCode.pickerInvalid, key: 'batch.picker_invalid' },
} satisfies ErrorTable<BatchingErrorCode>;

/** Pre-order batches take pre-orders only; normal batches take the other orders. */
function checkTypes(type: BatchType, orders: readonly BatchOrderRef[]): void {
  const wrong = orders.find((order) => order.preOrder !== (type === 'pre-order'));
  if (wrong) throw batchRefusal('ORDER_TYPE_MISMATCH', { orderId: wrong.orderId, type });
}

function checkRepeats(orders: readonly BatchOrderRef[]): void {
  const seen = new Set<string>();
  for (const order of orders) {
    if (seen.has(order.orderId)) throw refuse('ORDER_ALREADY_IN_BATCH', { orderId: order.orderId });
    seen.add(order.orderId);
  }
}

export function decide(command: BatchCommand, state: BatchState): BatchEvent[] {
  if (command.type === 'CreateBatch') {
    if (state.status !== 'none') throw refuse('BATCH_EXISTS');
    const { type: _command, orders, ...data } = command;
    if (orders.length === 0) throw refuse('ORDERS_REQUIRED');
    if (orders.length > data.maxOrders) throw refuse('TOO_MANY_ORDERS', { max: data.maxOrders });
    checkRepeats(orders);
    checkTypes(data.batchType, orders);
    return [{ type: 'BatchCreated', data: { ...data, orderIds: orders.map((order) => order.orderId) } }];
  }
  if (state.status === 'none') throw refuse('BATCH_NOT_FOUND');
  switch (command.type) {
    case 'AddOrders': {
      if (state.status === 'closed') throw refuse('BATCH_CLOSED');
      if (command.orders.length === 0) throw refuse('ORDERS_REQUIRED');
      const fresh = command.orders.filter((order) => !state.orderIds.includes(order.orderId));
      if (fresh.length === 0) return [];
      checkRepeats(fresh);
      checkTypes(state.batchType, fresh);
      if (state.orderIds.length + fresh.length > state.maxOrders) {
        throw refuse('TOO_MANY_ORDERS', { max: state.maxOrders });
      }
      return [{ type: 'BatchOrdersAdded', data: { orderIds: fresh.map((order) => order.orderId) } }];
    }
    case 'RemoveOrders': {
      if (state.status === 'closed') throw refuse('BATCH_CLOSED');
      if (command.orderIds.length === 0) throw refuse('ORDERS_REQUIRED');
      const missing = command.orderIds.find((id) => !state.orderIds.includes(id));
      if (missing) throw refuse('ORDER_NOT_IN_BATCH', { orderId: missing });
      return [{ type: 'BatchOrdersRemoved', data: { orderIds: [...new Set(command.orderIds)] } }];
    }
    case 'AssignPicker':
      if (state.status === 'closed') throw refuse('BATCH_CLOSED');
      if (state.pickerId === command.pickerId) return [];
      return [{ type: 'BatchPickerAssigned', data: { pickerId: command.pickerId } }];
    case 'CloseBatch':
      if (state.status === 'closed') return [];
      return [{ type: 'BatchClosed', data: {} }];
    default: {
      const unknown: never = command;
      throw new Error(`unknown batch command ${(unknown as { type: string }).type}`);
    }
  }
}

export const batchDecider = { initial: initialState, evolve, decide };

// ---- splitting a selection ----

/** What splitting needs of an order: its id, shipping provider and payment method. */
export interface SplittableOrder {
  orderId: string;
  shippingProvider: string | null;
  paymentMethod: string | null;
}

/** The group an order falls in under `split` (null: no split). */
export function groupOf(order: SplittableOrder, split: BatchSplit): string | null {
  if (split === 'logistics') return order.shippingProvider?.trim() || '';
  if (split === 'payment') return order.paymentMethod?.trim() || '';
  return null;
}

/**
 * The batches a selection makes: one group per shipping provider or payment method (when split), each cut into
 * batches of at most `maxOrders`, in the order given. With `fullOnly` only batches of exactly `maxOrders` are made
 * (the auto batch that fires because the count reached the maximum); the rest wait.
 */
export function planBatches<Order extends SplittableOrder>(
  orders: readonly Order[],
  opts: { split: BatchSplit; maxOrders: number; fullOnly?: boolean },
): { group: string | null; orders: Order[] }[] {
  const groups = new Map<string | null, Order[]>();
  for (const order of orders) {
    const group = groupOf(order, opts.split);
    const members = groups.get(group) ?? [];
    members.push(order);
    groups.set(group, members);
  }
  const plan: { group: string | null; orders: Order[] }[] = [];
  const keys = [...groups.keys()].sort((a, b) => (a ?? '').localeCompare(b ?? ''));
  for (const group of keys) {
    const members = groups.get(group)!;
    for (let start = 0; start < members.length; start += opts.maxOrders) {
      const chunk = members.slice(start, start + opts.maxOrders);
      if (opts.fullOnly && chunk.length < opts.maxOrders) break;
      plan.push({ group, orders: chunk });
    }
  }
  return plan;
}

// ---- stream ----

export const BATCH_CATEGORY = 'batch';

/** `batch-<tenant>.<batchId>`: one stream per batch. */
export const batchStreamId = (tenantId: string, batchId: string) =>
  `${BATCH_CATEGORY}-${tenantId}.${batchId}`;
