import type { Database } from '@infra/db';
import {
  type ShipOrderRequest,
  type ShippingParameter,
  type ShopeeClient,
  ShopeeError,
  ShopeeRequestError,
  withPassingRetries,
} from '@integrations/shopee';
import type { Kysely } from 'kysely';
import { findStore } from './registry';
import { storeSettings } from './settings';
import { shopeeClientForStore } from './shopee';

/**
 * Arranging an order's shipment with its marketplace: for an order of a connected Shopee store, the carrier's
 * tracking number is the marketplace's to give, so "arrange shipment" and "request pickup" (spec §4) go through
 * Shopee's logistics calls — get_shipping_parameter (the shop's pickup addresses and time slots), ship_order
 * (pickup, drop-off, or a non-integrated parcel with the seller's own tracking number) and get_tracking_number —
 * before the order records the tracking number it got. Orders of other stores (manual, a web store, a
 * marketplace Kedai does not reach yet) are arranged by hand with the tracking number the seller types.
 *
 * A seller's cancel of such an order goes to the marketplace too (cancel_order), so the buyer is told and the
 * marketplace does not wait for a parcel that will not come.
 *
 * Cancelling an arranged shipment (spec §4 "cancel third-party shipment") has no call in Shopee's Open Platform v2:
 * its logistics module arranges (ship_order, batch_ship_order, mass_ship_order) and changes a failed pickup
 * (update_shipping_order, RETRY_SHIP only), and nothing undoes an arrangement. So Kedai lets its own record of the
 * shipment go only when Shopee no longer holds one — the order is READY_TO_SHIP (never arranged there) or
 * RETRY_SHIP (the carrier's pickup failed and Shopee asks for the shipment to be arranged again) — and says so,
 * with Shopee's status, while Shopee still holds it (PROCESSED).
 *
 * Asking twice is safe: an order Shopee has arranged already refuses ship_order ("not ready to ship"), and its
 * tracking number is then read instead, so a retried request records the same tracking number, not a new one.
 */

/** The order as the marketplace knows it. */
export interface ShippingOrder {
  storeId: string;
  platform: string;
  orderNumber: string;
}

export type PickupDay = 'today' | 'after_1_day' | 'after_2_days';
export type PickupTime = 'none' | 'earliest' | 'latest';

export type ShipmentMethod =
  /** Handed to the carrier at one of its drop-off points. */
  | { kind: 'dropoff' }
  /** The seller ships it with a carrier of their own: the marketplace records the seller's tracking number. */
  | { kind: 'non_integrated'; trackingNumber: string }
  /** The carrier picks it up at one of the shop's pickup addresses (default: the shop's default address). */
  | { kind: 'pickup'; addressId?: number; day: PickupDay; time: PickupTime };

export interface ArrangedShipment {
  trackingNumber: string;
  shippingProvider: string;
  /** The pickup address the marketplace will send the carrier to (pickups only). */
  pickupAddress?: string;
}

export interface PickupAddress {
  id: number;
  address: string;
  isDefault: boolean;
}

export interface ShippingOptions {
  platform: string;
  pickupAddresses: PickupAddress[];
}

export type ShippingFailureKind =
  /** The marketplace refused or failed the call (its words in `detail`). */
  | 'refused'
  /** No pickup address or time slot the marketplace offers fits the request. */
  | 'no_pickup_slot'
  /** Arranged, but the carrier has not given a tracking number yet: try again shortly. */
  | 'tracking_pending'
  /** The marketplace still holds the arranged shipment and has no way to cancel it (its status in `detail`). */
  | 'shipment_kept';

export class ShippingError extends Error {
  override name = 'ShippingError';
  constructor(
    readonly kind: ShippingFailureKind,
    readonly detail = '',
  ) {
    super(`${kind}${detail ? `: ${detail}` : ''}`);
  }
}

/** Why the seller cancels, in the marketplace's words. */
export { SELLER_CANCEL_REASONS, type SellerCancelReason } from '@domain/orders/marketplace-order';

import type { SellerCancelReason } from '@domain/orders/marketplace-order';

/** An order line as the marketplace sells it: Kedai's line sku is `item_id:model_id` (or the item id alone). */
export function marketplaceItemOf(sku: string): { itemId: number; modelId: number } | null {
  const match = /^(\d+)(?::(\d+))?$/.exec(sku);
  return match ? { itemId: Number(match[1]), modelId: Number(match[2] ?? 0) } : null;
}

export interface MarketplaceShipping {
  /** Whether the order's shipment is the marketplace's to arrange (its store is connected and reachable). */
  handles(tenantId: string, order: ShippingOrder): Promise<boolean>;
  /** What the marketplace offers for the order: its pickup addresses. Null when it is not the marketplace's. */
  options(tenantId: string, order: ShippingOrder): Promise<ShippingOptions | null>;
  /** Arranges the shipment and answers the tracking number; throws ShippingError. */
  arrange(tenantId: string, order: ShippingOrder, method: ShipmentMethod): Promise<ArrangedShipment>;
  /**
   * The seller's cancel at the marketplace, before shipping (out of stock names the line skus short); cancelled
   * there already is done. Throws ShippingError.
   */
  cancel(
    tenantId: string,
    order: ShippingOrder,
    reason: SellerCancelReason,
    skus: readonly string[],
  ): Promise<void>;
  /**
   * Before Kedai cancels its record of the order's arranged shipment: resolves when the marketplace holds no
   * shipment of the order; throws ShippingError ('shipment_kept' while it does).
   */
  releaseShipment(tenantId: string, order: ShippingOrder): Promise<void>;
}

const MYT_OFFSET_MS = 8 * 3_600_000;
const DAY_MS = 86_400_000;

type AddressList = NonNullable<NonNullable<ShippingParameter['pickup']>['address_list']>;

const addressText = (address: AddressList[number]) =>
  [address.address, address.district, address.town, address.city, address.state, address.zipcode]
    .map((part) => part.trim())
    .filter(Boolean)
    .join(', ');

const isDefault = (address: AddressList[number]) =>
  address.address_flag.includes('default_address') || address.address_flag.includes('pickup_address');

/**
 * The time slot for a pickup: the first day on or after the day asked for (days counted in Malaysian time),
 * the earliest or latest slot of that day; when none is that late, the last slot offered.
 */
export function pickSlot<T extends { date: number }>(
  slots: readonly T[],
  day: PickupDay,
  time: PickupTime,
  nowMs: number,
): T | null {
  if (slots.length === 0) return null;
  const sorted = [...slots].sort((a, b) => a.date - b.date);
  const dayOf = (ms: number) => Math.floor((ms + MYT_OFFSET_MS) / DAY_MS);
  const wanted = dayOf(nowMs) + (day === 'after_2_days' ? 2 : day === 'after_1_day' ? 1 : 0);
  const first = sorted.find((slot) => dayOf(slot.date * 1000) >= wanted);
  if (!first) return sorted.at(-1)!;
  const sameDay = sorted.filter((slot) => dayOf(slot.date * 1000) === dayOf(first.date * 1000));
  return time === 'latest' ? sameDay.at(-1)! : sameDay[0]!;
}

interface Shop {
  client: ShopeeClient;
  shopId: number;
}

/**
 * Shopee's logistics calls for one order of a shop. A call that fails in passing (a timeout, a 5xx) is tried again;
 * a ship_order that did reach Shopee before its answer was lost then finds the order arranged, and its tracking
 * number is read.
 */
export async function arrangeShopeeShipment(
  shop: Shop,
  orderNumber: string,
  method: ShipmentMethod,
  nowMs: number = Date.now(),
): Promise<ArrangedShipment> {
  const { client, shopId } = shop;
  const refused = (error: unknown): never => {
    if (error instanceof ShopeeError) throw new ShippingError('refused', error.message);
    throw error;
  };
  const ship = (request: Omit<ShipOrderRequest, 'order_sn'>) =>
    withPassingRetries(() => client.shipOrder(shopId, { order_sn: orderNumber, ...request }));
  let pickupAddress: string | undefined;
  let notReady: unknown;
  try {
    if (method.kind === 'non_integrated') {
      await ship({ non_integrated: { tracking_number: method.trackingNumber } });
    } else if (method.kind === 'dropoff') {
      await ship({ dropoff: {} });
    } else {
      const parameter = await withPassingRetries(() =>
        client.getShippingParameter(shopId, { order_sn: orderNumber }),
      );
      const addresses = parameter.pickup?.address_list ?? [];
      const address =
        method.addressId !== undefined
          ? addresses.find((candidate) => candidate.address_id === method.addressId)
          : (addresses.find(isDefault) ?? addresses[0]);
      if (!address) throw new ShippingError('no_pickup_slot', 'no such pickup address');
      const slot = pickSlot(address.time_slot_list, method.day, method.time, nowMs);
      if (!slot) throw new ShippingError('no_pickup_slot', 'no pickup time offered');
      pickupAddress = addressText(address);
      await ship({ pickup: { address_id: address.address_id, pickup_time_id: slot.pickup_time_id } });
    }
  } catch (error) {
    // Not ready to ship: arranged already (a retry, or in Seller Centre) when it has a tracking number; otherwise
    // Shopee's refusal stands (a cancelled order, say).
    if (!(error instanceof ShopeeRequestError && error.code === 'logistics.invalid_status')) refused(error);
    notReady = error;
  }
  const tracking = await withPassingRetries(() =>
    client.getTrackingNumber(shopId, { order_sn: orderNumber }),
  ).catch(refused);
  if (!tracking.tracking_number) {
    if (notReady) refused(notReady);
    throw new ShippingError('tracking_pending', tracking.hint ?? '');
  }
  const detail = await withPassingRetries(() =>
    client.getOrderDetail(shopId, {
      order_sn_list: [orderNumber],
      response_optional_fields: ['shipping_carrier'],
    }),
  ).catch(refused);
  return {
    trackingNumber: tracking.tracking_number,
    shippingProvider: detail.order_list[0]?.shipping_carrier ?? '',
    ...(pickupAddress ? { pickupAddress } : {}),
  };
}

/** Shopee's cancel_order for one order of a shop; an order Shopee has cancelled already is done. */
export async function cancelShopeeOrder(
  shop: Shop,
  orderNumber: string,
  reason: SellerCancelReason,
  skus: readonly string[],
): Promise<void> {
  const { client, shopId } = shop;
  const items = skus.map(marketplaceItemOf).filter((item) => item !== null);
  try {
    await withPassingRetries(() =>
      client.cancelOrder(shopId, {
        order_sn: orderNumber,
        cancel_reason: reason.toUpperCase() as Uppercase<SellerCancelReason>,
        ...(reason === 'out_of_stock'
          ? { item_list: items.map((item) => ({ item_id: item.itemId, model_id: item.modelId })) }
          : {}),
      }),
    );
  } catch (error) {
    if (!(error instanceof ShopeeError)) throw error;
    // Refused for its status: a retry of a cancel that went through, or cancelled in Seller Centre, is done.
    const detail = await withPassingRetries(() =>
      client.getOrderDetail(shopId, { order_sn_list: [orderNumber], response_optional_fields: [] }),
    ).catch(() => null);
    if (detail?.order_list[0]?.order_status === 'CANCELLED') return;
    throw new ShippingError('refused', error.message);
  }
}

/** Shopee statuses in which the order has no shipment arranged: never arranged, or its pickup failed. */
const NO_SHIPMENT_HELD = new Set(['READY_TO_SHIP', 'RETRY_SHIP']);

/** Whether Shopee holds no shipment of the order any more (see the top of this file); throws ShippingError. */
export async function releaseShopeeShipment(shop: Shop, orderNumber: string): Promise<void> {
  const { client, shopId } = shop;
  const detail = await withPassingRetries(() =>
    client.getOrderDetail(shopId, { order_sn_list: [orderNumber], response_optional_fields: [] }),
  ).catch((error: unknown) => {
    if (error instanceof ShopeeError) throw new ShippingError('refused', error.message);
    throw error;
  });
  const status = detail.order_list[0]?.order_status;
  if (!status) throw new ShippingError('refused', `order ${orderNumber} is not found`);
  if (!NO_SHIPMENT_HELD.has(status)) throw new ShippingError('shipment_kept', status);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The marketplace shipping of the connected stores: Shopee stores through this process's Shopee connection (whose
 * clock also tells which day a pickup is asked for).
 */
export function storesShipping(db: Kysely<Database>): MarketplaceShipping {
  async function shopOf(tenantId: string, order: ShippingOrder): Promise<Shop | null> {
    if (order.platform !== 'shopee' || !UUID.test(order.storeId)) return null;
    const store = await findStore(db, tenantId, order.storeId);
    if (store?.platform !== 'shopee' || store.status === 'disconnected') return null;
    return { client: shopeeClientForStore(db, store), shopId: store.shopId };
  }
  return {
    async handles(tenantId, order) {
      return (await shopOf(tenantId, order)) !== null;
    },
    async options(tenantId, order) {
      const shop = await shopOf(tenantId, order);
      if (!shop) return null;
      const parameter = await shop.client
        .getShippingParameter(shop.shopId, { order_sn: order.orderNumber })
        .catch((error: unknown) => {
          if (error instanceof ShopeeError) throw new ShippingError('refused', error.message);
          throw error;
        });
      return {
        platform: order.platform,
        pickupAddresses: (parameter.pickup?.address_list ?? []).map((address) => ({
          id: address.address_id,
          address: addressText(address),
          isDefault: isDefault(address),
        })),
      };
    },
    async cancel(tenantId, order, reason, skus) {
      const shop = await shopOf(tenantId, order);
      if (!shop) throw new ShippingError('refused', 'the store is not connected');
      await cancelShopeeOrder(shop, order.orderNumber, reason, skus);
    },
    async releaseShipment(tenantId, order) {
      const shop = await shopOf(tenantId, order);
      if (!shop) throw new ShippingError('refused', 'the store is not connected');
      await releaseShopeeShipment(shop, order.orderNumber);
    },
    async arrange(tenantId, order, method) {
      const shop = await shopOf(tenantId, order);
      if (!shop) throw new ShippingError('refused', 'the store is not connected');
      return arrangeShopeeShipment(
        shop,
        order.orderNumber,
        method,
        (storeSettings().shopee.now ?? Date.now)(),
      );
    },
  };
}
