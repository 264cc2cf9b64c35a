import type { ShippingAnswer } from '@api/contracts/orders';
import { refuseByMarketplace } from '@domain/orders/marketplace-refusals';
import {
  type OrderCommand,
  type OrderState,
  type OrderStatus,
  type ProcessRequest,
  placed,
} from '@domain/orders/order';
import type { EventStore } from '@infra/eventstore/port';
import {
  type MarketplaceShipping,
  type SellerCancelReason,
  type ShipmentMethod,
  ShippingError,
  type ShippingOrder,
} from '@integrations/stores';
import { findOrder } from './order';

/**
 * Shipments the marketplace arranges (integrations/stores/shipping.ts). For an order of a connected marketplace
 * store, "arrange shipment" asks the marketplace for a drop-off (or, with a tracking number typed, records the
 * seller's own carrier), and "request pickup" books the carrier at one of the shop's pickup addresses on the day
 * and time chosen; the order then records the tracking number the marketplace gave. Other orders are arranged by
 * hand.
 */

const IN_WAREHOUSE: readonly OrderStatus[] = ['new', 'unscan', 'scanned', 'processed'];
const CANCELLABLE: readonly OrderStatus[] = ['unpaid', ...IN_WAREHOUSE];

/** The order as its marketplace knows it, when it is in one of `statuses` (those the action starts from). */
function marketplaceOrderOf(state: OrderState, statuses = IN_WAREHOUSE): ShippingOrder | null {
  // A part split off in Kedai, or a replacement made in Kedai, is not an order the marketplace knows.
  if (state.status === 'none' || state.splitFrom !== null || state.replacementOf) return null;
  if (!statuses.includes(state.status)) return null;
  return { storeId: state.storeId, platform: state.details.platform, orderNumber: state.orderNumber };
}

/** A shipment action's request: what the marketplace is asked, and what a failed one is tried again with. */
export type ShippingRequest = Extract<ProcessRequest, { step: 'arrange_shipment' | 'request_pickup' }>;

/** One command to record, and the purpose its command id is scoped by. */
export interface ShippingStep {
  purpose: string;
  command: OrderCommand;
}

/** The marketplace's refusal of a shipment action: in its words, or for a known kind of failure. */
function refusalOf(step: ShippingRequest['step'], error: ShippingError) {
  const pickup = step === 'request_pickup';
  if (error.kind === 'refused')
    return refuseByMarketplace(pickup ? 'PICKUP_FAILED' : 'ARRANGE_FAILED', { detail: error.detail });
  return refuseByMarketplace(pickup ? 'PICKUP_NOT_POSSIBLE' : 'ARRANGE_NOT_POSSIBLE', { kind: error.kind });
}

/**
 * The marketplace's part of arranging one order: null when the order is not the marketplace's to arrange (the
 * action records the seller's own details then); otherwise the marketplace is asked, and the steps answered record
 * what it gave. Throws the marketplace's refusal when it says no.
 */
export async function marketplaceShipment(
  shipping: MarketplaceShipping,
  store: EventStore,
  tenantId: string,
  orderId: string,
  asked: ShippingRequest,
): Promise<ShippingStep[] | null> {
  const order = marketplaceOrderOf(await findOrder(store, tenantId, orderId));
  if (!order || !(await shipping.handles(tenantId, order))) return null;
  const method: ShipmentMethod =
    asked.step === 'request_pickup'
      ? {
          kind: 'pickup',
          day: asked.pickupDay,
          time: asked.pickupTime,
          ...(asked.pickupAddressId !== undefined ? { addressId: asked.pickupAddressId } : {}),
        }
      : asked.trackingNumber
        ? { kind: 'non_integrated', trackingNumber: asked.trackingNumber }
        : { kind: 'dropoff' };
  let arranged: Awaited<ReturnType<MarketplaceShipping['arrange']>>;
  try {
    arranged = await shipping.arrange(tenantId, order, method);
  } catch (error) {
    if (error instanceof ShippingError) throw refusalOf(asked.step, error);
    throw error;
  }
  const provider =
    arranged.shippingProvider || (asked.step === 'request_pickup' ? asked.provider : asked.shippingProvider);
  const arrange: ShippingStep = {
    purpose: `${asked.step}:arranged`,
    command: { type: 'ArrangeShipment', trackingNumber: arranged.trackingNumber, shippingProvider: provider },
  };
  if (asked.step === 'arrange_shipment') return [arrange];
  return [
    arrange,
    {
      purpose: asked.step,
      command: {
        type: 'RequestPickup',
        provider,
        pickupAddress: arranged.pickupAddress ?? asked.pickupAddress,
        pickupDay: asked.pickupDay,
        pickupTime: asked.pickupTime,
      },
    },
  ];
}

/**
 * The seller's cancel of an order of a connected marketplace store goes to the marketplace first (out of stock
 * names the lines found short, else every line); false when the order is not the marketplace's to cancel. Throws
 * the marketplace's refusal when it says no.
 */
export async function marketplaceCancel(
  shipping: MarketplaceShipping,
  store: EventStore,
  tenantId: string,
  orderId: string,
  reason: SellerCancelReason,
): Promise<boolean> {
  const state = placed(await findOrder(store, tenantId, orderId));
  const order = state && marketplaceOrderOf(state, CANCELLABLE);
  if (!state || !order || !(await shipping.handles(tenantId, order))) return false;
  const active = state.lines.filter((line) => !state.removed.includes(line.lineId));
  const short = active.filter((line) => state.short.includes(line.lineId));
  try {
    await shipping.cancel(
      tenantId,
      order,
      reason,
      (short.length > 0 ? short : active).map((line) => line.sku),
    );
  } catch (error) {
    if (!(error instanceof ShippingError)) throw error;
    throw refuseByMarketplace('CANCEL_FAILED', { detail: error.detail });
  }
  return true;
}

/**
 * The marketplace's part of cancelling one order's arranged shipment (spec §4 "cancel third-party shipment"): the
 * marketplace must hold no shipment of it any more (integrations/stores/shipping.ts says why Shopee cannot be
 * asked to cancel one). Nothing to ask for an order no connected store arranges, or one with no shipment (the order
 * refuses that itself). Throws the marketplace's refusal.
 */
export async function marketplaceReleaseShipment(
  shipping: MarketplaceShipping,
  store: EventStore,
  tenantId: string,
  orderId: string,
): Promise<void> {
  const state = placed(await findOrder(store, tenantId, orderId));
  const order = state && state.trackingNumber !== null ? marketplaceOrderOf(state) : null;
  if (!order || !(await shipping.handles(tenantId, order))) return;
  try {
    await shipping.releaseShipment(tenantId, order);
  } catch (error) {
    if (!(error instanceof ShippingError)) throw error;
    if (error.kind === 'shipment_kept') throw refuseByMarketplace('SHIPMENT_KEPT', { status: error.detail });
    throw refuseByMarketplace('CANCEL_SHIPMENT_FAILED', { detail: error.detail });
  }
}

/**
 * Which of these orders their marketplace arranges, and the pickup addresses the first such order's shop offers
 * ([] when none is the marketplace's, or the marketplace cannot say now: the choice is left to its default).
 */
export async function marketplaceOrders(
  deps: { store: EventStore; shipping: MarketplaceShipping },
  tenantId: string,
  orderIds: readonly string[],
): Promise<ShippingAnswer> {
  const orders: { orderId: string; marketplace: boolean; order: ShippingOrder | null }[] = [];
  for (const orderId of new Set(orderIds)) {
    const order = marketplaceOrderOf(await findOrder(deps.store, tenantId, orderId));
    const marketplace = order !== null && (await deps.shipping.handles(tenantId, order));
    orders.push({ orderId, marketplace, order: marketplace ? order : null });
  }
  const first = orders.find((entry) => entry.order)?.order;
  const options = first
    ? await deps.shipping.options(tenantId, first).catch((error: unknown) => {
        if (error instanceof ShippingError) return null;
        throw error;
      })
    : null;
  return {
    orders: orders.map(({ orderId, marketplace }) => ({ order_id: orderId, marketplace })),
    pickup_addresses: (options?.pickupAddresses ?? []).map(({ id, address, isDefault }) => ({
      id,
      address,
      is_default: isDefault,
    })),
  };
}
