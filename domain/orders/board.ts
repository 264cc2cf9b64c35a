import type { PermissionKey } from '../access/permissions';
import { type ErrorTable, refuser } from '../shared/errors';
import { OrderCode } from './codes';
import {
  ASSIGNABLE,
  MOVES,
  type MoveAction,
  ORDER_STATUSES,
  type OrderStatus,
  type PlacedOrder,
} from './order';

/**
 * The order board's vocabulary (spec §2 order lists and "The Manage Orders title depends on a tab value: all, new,
 * unscan, scan, rts, shipped or cancel orders"; §4 order filters and actions), shared by the API and the console.
 */

export const ORDER_TABS = ['all', 'new', 'unscan', 'scan', 'rts', 'shipped', 'cancel'] as const;
export type OrderTab = (typeof ORDER_TABS)[number];

/** The statuses each tab lists: "all" is every order but the trash; "cancel" the cancel/unpaid list of spec §2. */
export const TAB_STATUSES: Record<OrderTab, readonly OrderStatus[]> = {
  all: ORDER_STATUSES.filter((status) => status !== 'trash'),
  new: ['new'],
  unscan: ['unscan'],
  scan: ['scanned'],
  rts: ['processed'],
  shipped: ['shipped', 'delivered', 'returned'],
  cancel: ['cancelled', 'unpaid', 'refunded', 'trash'],
};

/**
 * The order filters of spec §4 the board offers. "Pending" is pending process (accepted, waiting for its shipment
 * to be arranged); "to process" arranged and not yet ready to ship; "done" ready to ship or gone; "process failed"
 * a step the marketplace refused, to be tried again; "waiting assign" accepted and not yet picked, with no picker
 * assigned; "replacement" the replacement orders.
 */
export const ORDER_FILTERS = [
  'unpaid',
  'pending',
  'to_process',
  'done',
  'out_of_stock',
  'item_not_found',
  'pre_order',
  'on_hold',
  'delivered',
  'returned',
  'refunded',
  'cancelled',
  'trash',
  'process_failed',
  'waiting_assign',
  'replacement',
] as const;
export type OrderFilter = (typeof ORDER_FILTERS)[number];

/** The statuses a status-filter keeps (the flag filters are not about status). */
export const FILTER_STATUSES: Partial<Record<OrderFilter, readonly OrderStatus[]>> = {
  unpaid: ['unpaid'],
  pending: ['new'],
  to_process: ['unscan', 'scanned'],
  done: ['processed', 'shipped', 'delivered'],
  delivered: ['delivered'],
  returned: ['returned'],
  refunded: ['refunded'],
  cancelled: ['cancelled'],
  trash: ['trash'],
  waiting_assign: ASSIGNABLE,
};

/** The actions the board runs on one or many orders (spec §4). */
export const BOARD_ACTIONS = [
  'put_back_to_new',
  'move_to_unscan',
  'move_to_trash',
  'undo_scan',
  'reset_scan',
  'reset',
  'scan',
  'mark_processed',
  'ship',
  'set_delivered',
  'set_refunded',
  'cancel',
  'arrange_shipment',
  'request_pickup',
  'mark_printed',
  'set_preview',
  'clear_preview',
  'cancel_shipment',
  'retry_process',
  'assign',
] as const;
export type BoardAction = (typeof BOARD_ACTIONS)[number];

const WORKING: readonly OrderStatus[] = ['new', 'unscan', 'scanned', 'processed'];

/** The statuses each action starts from (the domain refuses the others). */
export const ACTION_FROM: Record<BoardAction, readonly OrderStatus[]> = {
  ...(Object.fromEntries(Object.entries(MOVES).map(([action, move]) => [action, move.from])) as Record<
    MoveAction,
    readonly OrderStatus[]
  >),
  scan: ['unscan'],
  ship: WORKING,
  cancel: ['unpaid', ...WORKING],
  arrange_shipment: WORKING,
  request_pickup: WORKING,
  // Printed outside Kedai (the marketplace's Seller Centre, a courier's label): said so by hand.
  mark_printed: [...WORKING, 'shipped'],
  // Held for a look before printing and packing ("Set To Preview", spec §4 and §8), and let go again.
  set_preview: WORKING,
  clear_preview: ORDER_STATUSES,
  // Spec §4 "cancel third-party shipment": an order whose shipment is arranged, not yet gone.
  cancel_shipment: WORKING,
  // "Process failed": the refused step (an arrangement, a pickup, a cancel) is tried again.
  retry_process: ['unpaid', ...WORKING],
  assign: ASSIGNABLE,
};

/** The actions an order in this status may take. */
export const actionsFor = (status: OrderStatus): BoardAction[] =>
  BOARD_ACTIONS.filter((action) => ACTION_FROM[action].includes(status));

/** The actions one order may take: its status's, less those with nothing to act on (no shipment, no failure). */
export const actionsForOrder = (order: Pick<PlacedOrder, 'status' | 'trackingNumber' | 'failure'>) =>
  actionsFor(order.status).filter(
    (action) =>
      (action !== 'cancel_shipment' || order.trackingNumber !== null) &&
      (action !== 'retry_process' || Boolean(order.failure)),
  );

/** Which key of spec §6 each action needs (the owner holds every key). */
export const ACTION_KEYS: Record<BoardAction, PermissionKey> = {
  put_back_to_new: 'orders-new-order',
  move_to_unscan: 'orders-new-order',
  move_to_trash: 'orders-new-order',
  reset: 'orders-new-order',
  cancel: 'orders-new-order',
  arrange_shipment: 'orders-new-order',
  request_pickup: 'orders-new-order',
  mark_printed: 'orders-new-order',
  set_preview: 'orders-new-order',
  clear_preview: 'orders-new-order',
  cancel_shipment: 'orders-new-order',
  retry_process: 'orders-new-order',
  // Handing out the pickers' work, as a batch is given to a picker: the batch key (spec §6).
  assign: 'orders-batch',
  undo_scan: 'orders-scan-delete',
  reset_scan: 'orders-scan-delete',
  scan: 'orders-unscan',
  mark_processed: 'orders-unscan',
  ship: 'orders-unscan',
  set_delivered: 'orders-view-all',
  set_refunded: 'orders-view-all',
};

/** Reading the board: any of the order keys. */
export const ORDER_READER_KEYS: readonly PermissionKey[] = [
  'orders-new-order',
  'orders-unscan',
  'orders-scan-delete',
  'orders-view-all',
  'orders-batch',
  'orders-view-all-task',
  'orders-order-by-task',
  'orders-multi-store-arrange',
  'orders-split-order-logistic-api',
  'orders-upload',
];

/** Refusals of the board itself, not of one order. */
export const BOARD_ERRORS = [
  /** Orders of several stores at once need orders-multi-store-arrange (spec §6). */
  'MULTI_STORE',
] as const;
export type BoardErrorCode = (typeof BOARD_ERRORS)[number];

export const boardErrors = {
  MULTI_STORE: { status: 403, code: OrderCode.multiStore, key: 'orders.multi_store' },
} satisfies ErrorTable<BoardErrorCode>;

export const boardRefuse = refuser(boardErrors);
