import type { OrderDetailField, ShopeeOrder, ShopeeOrderStatus } from '../schemas';
import { stampSeconds } from './generator';
import type { PlannedChange, SandboxOrder } from './state';

/**
 * How a sandbox order moves: UNPAID → READY_TO_SHIP (paid; cash on delivery starts here) → PROCESSED (ship_order)
 * → SHIPPED (picked up) → TO_CONFIRM_RECEIVE (delivered) → COMPLETED, or CANCELLED before shipping, directly or
 * through IN_CANCEL. Each change stamps update_time, which always moves forward by at least a second, so an
 * import reading by update_time sees every change; stamps round up, so a change is never dated before a query
 * that could not have seen it.
 */

/** Marks a change at `atMs`. */
export function stamp(order: SandboxOrder, atMs: number): void {
  order.detail.update_time = Math.max(stampSeconds(atMs), order.detail.update_time + 1);
}

const setLogistics = (
  order: SandboxOrder,
  status: NonNullable<ShopeeOrder['package_list']>[number]['logistics_status'],
) => {
  for (const pack of order.detail.package_list ?? []) pack.logistics_status = status;
};

/** Applies one planned change if the order is still where it applies; returns whether it did. */
export function applyChange(order: SandboxOrder, change: PlannedChange): boolean {
  const detail = order.detail;
  const status = detail.order_status;
  switch (change.step) {
    case 'pay':
      if (status !== 'UNPAID') return false;
      detail.order_status = 'READY_TO_SHIP';
      detail.pay_time = stampSeconds(change.at);
      detail.ship_by_date = detail.pay_time + detail.days_to_ship * 86_400;
      setLogistics(order, 'LOGISTICS_READY');
      break;
    case 'request_cancel':
      if (status !== 'READY_TO_SHIP') return false;
      detail.order_status = 'IN_CANCEL';
      detail.buyer_cancel_reason = change.reason ?? '';
      break;
    case 'cancel':
      if (status !== 'UNPAID' && status !== 'READY_TO_SHIP' && status !== 'IN_CANCEL') return false;
      detail.order_status = 'CANCELLED';
      detail.cancel_by = change.cancel_by ?? 'buyer';
      detail.cancel_reason = change.reason ?? '';
      if (detail.cancel_by === 'buyer') detail.buyer_cancel_reason = change.reason ?? '';
      setLogistics(order, status === 'UNPAID' ? 'LOGISTICS_INVALID' : 'LOGISTICS_REQUEST_CANCELED');
      break;
    case 'pickup':
      if (status !== 'PROCESSED') return false;
      detail.order_status = 'SHIPPED';
      detail.pickup_done_time = stampSeconds(change.at);
      setLogistics(order, 'LOGISTICS_PICKUP_DONE');
      break;
    case 'deliver':
      if (status !== 'SHIPPED') return false;
      detail.order_status = 'TO_CONFIRM_RECEIVE';
      // Cash on delivery is paid to the courier at the door.
      if (detail.cod) detail.pay_time = stampSeconds(change.at);
      setLogistics(order, 'LOGISTICS_DELIVERY_DONE');
      break;
    case 'complete':
      if (status !== 'TO_CONFIRM_RECEIVE') return false;
      detail.order_status = 'COMPLETED';
      break;
    default: {
      const never: never = change.step;
      throw new Error(`unknown planned change ${String(never)}`);
    }
  }
  stamp(order, change.at);
  return true;
}

/** Applies every planned change due by `nowMs`, oldest first; returns how many changed the order. */
export function applyDue(order: SandboxOrder, nowMs: number): number {
  let changed = 0;
  while (order.plan.length > 0 && order.plan[0]!.at <= nowMs) {
    const change = order.plan.shift()!;
    if (applyChange(order, change)) changed++;
  }
  return changed;
}

export function addToPlan(order: SandboxOrder, changes: readonly PlannedChange[]): void {
  order.plan.push(...changes);
  order.plan.sort((a, b) => a.at - b.at);
}

/**
 * Puts an order in a status by hand (tests and demos): the fields that go with the status are set as the
 * planned change would set them, and planned changes that no longer apply stay harmless.
 */
export function forceStatus(order: SandboxOrder, status: ShopeeOrderStatus, atMs: number, reason = ''): void {
  const detail = order.detail;
  detail.order_status = status;
  if (status === 'CANCELLED') {
    detail.cancel_by = 'seller';
    detail.cancel_reason = reason || 'Out of stock';
    setLogistics(order, 'LOGISTICS_REQUEST_CANCELED');
  }
  if (status === 'RETRY_SHIP') {
    // The carrier's pickup failed (Shopee's RETRY_SHIP): the shipment's planned pickup and delivery are off, and
    // the shipment is to be arranged again.
    order.plan = [];
    setLogistics(order, 'LOGISTICS_PICKUP_RETRY');
  }
  if (status === 'IN_CANCEL') detail.buyer_cancel_reason = reason || 'Others / change of mind';
  if (status === 'READY_TO_SHIP' && !detail.cod && !detail.pay_time) detail.pay_time = stampSeconds(atMs);
  if (status === 'SHIPPED') {
    detail.pickup_done_time = stampSeconds(atMs);
    setLogistics(order, 'LOGISTICS_PICKUP_DONE');
  }
  if (status === 'TO_CONFIRM_RECEIVE' || status === 'COMPLETED')
    setLogistics(order, 'LOGISTICS_DELIVERY_DONE');
  stamp(order, atMs);
}

const BASE_FIELDS = [
  'order_sn',
  'region',
  'currency',
  'cod',
  'order_status',
  'create_time',
  'update_time',
  'days_to_ship',
  'ship_by_date',
  'message_to_seller',
] as const satisfies readonly (keyof ShopeeOrder)[];

/** The order as get_order_detail answers it: the base fields and the optional ones asked for. */
export function orderView(order: SandboxOrder, fields: readonly OrderDetailField[]): ShopeeOrder {
  const view: Record<string, unknown> = {};
  for (const key of [...BASE_FIELDS, ...fields]) {
    const value = order.detail[key];
    if (value !== undefined) view[key] = structuredClone(value);
  }
  return view as ShopeeOrder;
}
