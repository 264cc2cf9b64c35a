import {
  type MarketplaceOrder,
  type MarketplaceOrderLine,
  MarketplaceOrder as MarketplaceOrderSchema,
  type MarketplaceStatus,
} from '@domain/orders/marketplace-order';
import type { ShopeeOrder, ShopeeOrderStatus } from '@integrations/shopee';

/**
 * Shopee's order (get_order_detail with every optional field) in Kedai's words: the MarketplaceOrder the order
 * import takes (domain/orders/marketplace-order.ts). Nothing past this file knows Shopee's field names.
 */

export const SHOPEE_STATUS_MAP: Record<ShopeeOrderStatus, MarketplaceStatus> = {
  UNPAID: 'unpaid',
  READY_TO_SHIP: 'ready_to_ship',
  PROCESSED: 'processed',
  // The carrier failed to pick up and Shopee asks to arrange it again: still arranged, not yet shipped.
  RETRY_SHIP: 'processed',
  SHIPPED: 'shipped',
  TO_CONFIRM_RECEIVE: 'shipped',
  COMPLETED: 'completed',
  CANCELLED: 'cancelled',
  IN_CANCEL: 'in_cancel',
  TO_RETURN: 'to_return',
  // Waiting for the seller's invoice (Brazil): not ready to fulfil yet, as an unpaid order.
  INVOICE_PENDING: 'unpaid',
};

/** Statuses whose order has a tracking number (get_tracking_number) once shipment was arranged. */
export const SHOPEE_TRACKED_STATUSES: ReadonlySet<ShopeeOrderStatus> = new Set([
  'PROCESSED',
  'RETRY_SHIP',
  'SHIPPED',
  'TO_CONFIRM_RECEIVE',
  'COMPLETED',
  'TO_RETURN',
]);

/** Shopee's usual days to ship are 1–3; a pre-order gives the seller longer. */
const PRE_ORDER_DAYS_TO_SHIP = 3;

/** An order Shopee answered that cannot become a MarketplaceOrder (no lines, a field out of bounds). */
export class OrderTranslationError extends Error {
  override name = 'OrderTranslationError';
  constructor(
    readonly orderNumber: string,
    readonly reason: string,
  ) {
    super(`order ${orderNumber}: ${reason}`);
  }
}

const iso = (unixSeconds: number) => new Date(unixSeconds * 1000).toISOString();
const clip = (text: string | undefined, max: number) => (text ?? '').trim().slice(0, max);
/** Money as "12.50", rounded to the sen (29.9 × 3 is 89.7, not 89.69999…). */
export const money = (amount: number) => (Math.round(amount * 100) / 100).toFixed(2);

/** The gift of Shopee's gift-with-purchase ("add-on free gift") promotion, beside its main item. */
const FREE_GIFT = 'add_on_free_gift_sub';

function linesOf(order: ShopeeOrder): MarketplaceOrderLine[] {
  const seen = new Map<string, number>();
  const lines: MarketplaceOrderLine[] = [];
  for (const item of order.item_list ?? []) {
    if (item.model_quantity_purchased < 1) continue;
    const base = item.model_id ? `${item.item_id}:${item.model_id}` : `${item.item_id}`;
    // The same item and model twice (an add-on deal beside the main item): each line keeps a key of its own.
    const count = (seen.get(base) ?? 0) + 1;
    seen.set(base, count);
    const sellerSku = clip(item.model_sku || item.item_sku, 200);
    const variation = clip(item.model_name, 300);
    lines.push({
      lineKey: count === 1 ? base : `${base}#${count}`,
      sku: base,
      sellerSku,
      name: clip(item.item_name, 500),
      ...(variation ? { variation } : {}),
      quantity: Math.min(item.model_quantity_purchased, 100_000),
      unitPrice: money(item.model_discounted_price || item.model_original_price),
      ...(item.promotion_type === FREE_GIFT ? { gift: true } : {}),
    });
  }
  return lines;
}

/**
 * The MarketplaceOrder of a Shopee order. `trackingNumber` comes from get_tracking_number (order detail does not
 * carry it). Throws OrderTranslationError when the order cannot be one (Shopee sent no items, say).
 */
export function shopeeToMarketplaceOrder(
  order: ShopeeOrder,
  extra: { trackingNumber?: string } = {},
): MarketplaceOrder {
  const lines = linesOf(order);
  if (lines.length === 0) throw new OrderTranslationError(order.order_sn, 'Shopee sent no items');
  const address = order.recipient_address;
  const district = clip(address?.district, 100);
  const remark = clip(order.message_to_seller, 2000);
  const sellerRemark = clip(order.note, 2000);
  const fulfilmentType = clip(order.fulfillment_flag, 100);
  const packageNumbers = (order.package_list ?? [])
    .map((pack) => clip(pack.package_number, 100))
    .filter(Boolean)
    .slice(0, 50);
  const carrier = clip(order.shipping_carrier || order.checkout_shipping_carrier, 200);
  const tracking = clip(extra.trackingNumber, 100);
  const shippingFee = order.actual_shipping_fee ?? order.estimated_shipping_fee;
  const total =
    order.total_amount ??
    lines.reduce((sum, line) => sum + Number(line.unitPrice) * line.quantity, 0) + (shippingFee ?? 0);
  const candidate: MarketplaceOrder = {
    platform: 'shopee',
    orderNumber: order.order_sn,
    status: SHOPEE_STATUS_MAP[order.order_status],
    orderedAt: iso(order.create_time),
    paidAt: order.pay_time ? iso(order.pay_time) : null,
    updatedAt: iso(order.update_time),
    cod: order.cod,
    paymentMethod: clip(order.payment_method || (order.cod ? 'Cash on Delivery' : ''), 100),
    currency: clip(order.currency, 3).toUpperCase(),
    totalAmount: money(total),
    ...(shippingFee !== undefined ? { shippingFee: money(shippingFee) } : {}),
    ...(order.buyer_username ? { buyerUsername: clip(order.buyer_username, 200) } : {}),
    ...(remark ? { buyerRemark: remark } : {}),
    ...(sellerRemark ? { sellerRemark } : {}),
    ...(fulfilmentType ? { fulfilmentType } : {}),
    ...(packageNumbers.length > 0 ? { packageNumbers } : {}),
    ...(carrier ? { shippingProvider: carrier } : {}),
    ...(tracking ? { trackingNumber: tracking } : {}),
    preOrder: order.days_to_ship > PRE_ORDER_DAYS_TO_SHIP,
    address: {
      name: clip(address?.name, 200),
      phone: clip(address?.phone, 40),
      fullAddress: clip(address?.full_address, 1000),
      city: clip(address?.city, 100),
      state: clip(address?.state, 100),
      postalCode: clip(address?.zipcode, 20),
      country: clip(address?.region || order.region, 2).toUpperCase(),
      ...(district ? { district } : {}),
    },
    lines,
  };
  const parsed = MarketplaceOrderSchema.safeParse(candidate);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new OrderTranslationError(order.order_sn, `${issue.path.join('.')}: ${issue.message}`);
  }
  return parsed.data;
}
