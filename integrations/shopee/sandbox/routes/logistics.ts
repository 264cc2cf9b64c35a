import {
  createShippingDocumentRequest,
  downloadShippingDocumentRequest,
  SHOPEE_PATHS,
  type ShippingDocumentType,
  type ShippingParameter,
  shipOrderRequest,
  shippingDocumentResultRequest,
  shippingParameterRequest,
  trackingNumberRequest,
} from '../../schemas';
import { renderAirwayBills } from '../awb';
import { DAY, deliveryPlan, HOUR, MINUTE, MYT_OFFSET_MS, trackingNumberFor } from '../generator';
import { stamp } from '../lifecycle';
import { SeededRandom } from '../random';
import type { SandboxOrder, SandboxShop } from '../state';
import type { SandboxWorld } from '../world';
import {
  notReadyToShip,
  orderNotFound,
  parse,
  queryOf,
  Refusal,
  type RouteTable,
  wrongParameters,
} from './common';

/**
 * The shipping calls: parameters (the shop's pickup address and three daily slots, or drop-off), ship_order
 * (READY_TO_SHIP → PROCESSED with a tracking number in the carrier's form, and the pickup, delivery and
 * completion planned), the tracking number, and the air waybill: create → result (PROCESSING until
 * `documentDelayMs` of sandbox time has passed, then READY) → download (a PDF, see awb.ts).
 */

export interface LogisticsSettings {
  seed: number | string;
  documentDelayMs: number;
}

/** Pickup slots: 09:00 Malaysia time on each of the next three days. */
function pickupSlots(now: number) {
  const dayStart = Math.floor((now + MYT_OFFSET_MS) / DAY) * DAY - MYT_OFFSET_MS;
  return [1, 2, 3].map((days) => {
    const date = Math.floor((dayStart + days * DAY + 9 * HOUR) / 1000);
    return { date, time_text: '09:00 - 18:00', pickup_time_id: String(date) };
  });
}

export function logisticsRoutes(world: SandboxWorld, settings: LogisticsSettings): RouteTable {
  const shopOrder = (shop: SandboxShop, orderSn: string): SandboxOrder => {
    const order = world.shopOrder(shop.shop_id, orderSn);
    if (!order) throw orderNotFound();
    return order;
  };
  /** The order, its document turned READY once its time has come. */
  const documentOf = (shop: SandboxShop, orderSn: string, now: number) => {
    const order = shopOrder(shop, orderSn);
    if (order.document?.status === 'PROCESSING' && now >= order.document.ready_at)
      order.document.status = 'READY';
    return order;
  };
  const shippable = (order: SandboxOrder) =>
    order.detail.order_status === 'READY_TO_SHIP' || order.detail.order_status === 'RETRY_SHIP';

  return [
    [
      SHOPEE_PATHS.shippingParameter,
      {
        method: 'GET',
        level: 'shop',
        placement: 'response',
        handle({ url, shop, now }): ShippingParameter {
          const request = parse(shippingParameterRequest, queryOf(url));
          if (!shippable(shopOrder(shop!, request.order_sn))) throw notReadyToShip();
          const address = shop!.pickup_address;
          return {
            info_needed: { dropoff: [], pickup: ['address_id', 'pickup_time_id'], non_integrated: [] },
            dropoff: { branch_list: null },
            pickup: {
              address_list: [
                {
                  address_id: address.address_id,
                  region: 'MY',
                  state: address.state,
                  city: address.city,
                  district: '',
                  town: '',
                  address: address.address,
                  zipcode: address.zipcode,
                  address_flag: ['default_address', 'pickup_address', 'return_address'],
                  time_slot_list: pickupSlots(now),
                },
              ],
            },
          };
        },
      },
    ],
    [
      SHOPEE_PATHS.shipOrder,
      {
        method: 'POST',
        level: 'shop',
        placement: 'response',
        handle({ body, shop, now }) {
          const request = parse(shipOrderRequest, body);
          const order = shopOrder(shop!, request.order_sn);
          if (!shippable(order)) throw notReadyToShip();
          const methods = [request.pickup, request.dropoff, request.non_integrated].filter(Boolean).length;
          if (methods !== 1) throw wrongParameters('choose one of pickup, dropoff and non_integrated.');
          const random = new SeededRandom(`${settings.seed}:ship:${order.detail.order_sn}`);
          let handOver: number;
          if (request.pickup) {
            if (request.pickup.address_id !== shop!.pickup_address.address_id)
              throw wrongParameters('address_id is invalid.');
            const slot = pickupSlots(now).find((s) => s.pickup_time_id === request.pickup!.pickup_time_id);
            if (!slot) throw wrongParameters('pickup_time_id is invalid.');
            handOver = slot.date * 1000 + random.int(0, 8 * 60) * MINUTE;
          } else {
            // A drop-off reaches the courier within hours; a non-integrated parcel is already on its way.
            handOver = request.non_integrated ? now : now + random.int(60, 360) * MINUTE;
          }
          order.tracking_number =
            request.non_integrated?.tracking_number ??
            trackingNumberFor(order.detail.shipping_carrier ?? '', random);
          order.detail.order_status = 'PROCESSED';
          for (const pack of order.detail.package_list ?? [])
            pack.logistics_status = 'LOGISTICS_REQUEST_CREATED';
          stamp(order, now);
          world.plan(order, deliveryPlan(random, handOver));
          return {};
        },
      },
    ],
    [
      SHOPEE_PATHS.trackingNumber,
      {
        method: 'GET',
        level: 'shop',
        placement: 'response',
        handle({ url, shop }) {
          const request = parse(trackingNumberRequest, queryOf(url, [], ['response_optional_fields']));
          const order = shopOrder(shop!, request.order_sn);
          const optional = Object.fromEntries(
            (request.response_optional_fields ?? []).map((field) => [
              field,
              field === 'last_mile_tracking_number' ? order.tracking_number : '',
            ]),
          );
          return order.tracking_number
            ? { tracking_number: order.tracking_number, ...optional }
            : {
                tracking_number: '',
                hint: 'The tracking number is not available yet: arrange shipment first.',
                ...optional,
              };
        },
      },
    ],
    [
      SHOPEE_PATHS.createShippingDocument,
      {
        method: 'POST',
        level: 'shop',
        placement: 'response',
        handle({ body, shop, now }) {
          const request = parse(createShippingDocumentRequest, body);
          return {
            result_list: request.order_list.map((entry) => {
              const order = world.shopOrder(shop!.shop_id, entry.order_sn);
              const base = {
                order_sn: entry.order_sn,
                package_number: order?.detail.package_list?.[0]?.package_number,
              };
              if (!order)
                return {
                  ...base,
                  fail_error: 'logistics.order_not_found',
                  fail_message: 'The order is not found.',
                };
              if (!order.tracking_number || !['PROCESSED', 'SHIPPED'].includes(order.detail.order_status))
                return {
                  ...base,
                  fail_error: 'logistics.package_can_not_print',
                  fail_message: 'Order status does not support awb printing',
                };
              if (entry.tracking_number && entry.tracking_number !== order.tracking_number)
                return {
                  ...base,
                  fail_error: 'logistics.tracking_number_invalid',
                  fail_message: 'Tracking number is invalid.',
                };
              const type: ShippingDocumentType = entry.shipping_document_type ?? 'THERMAL_AIR_WAYBILL';
              const delay = settings.documentDelayMs;
              order.document = { type, status: delay > 0 ? 'PROCESSING' : 'READY', ready_at: now + delay };
              world.changed();
              return base;
            }),
          };
        },
      },
    ],
    [
      SHOPEE_PATHS.shippingDocumentResult,
      {
        method: 'POST',
        level: 'shop',
        placement: 'response',
        handle({ body, shop, now }) {
          const request = parse(shippingDocumentResultRequest, body);
          return {
            result_list: request.order_list.map((entry) => {
              const order = documentOf(shop!, entry.order_sn, now);
              const package_number = order.detail.package_list?.[0]?.package_number;
              if (!order.document)
                return {
                  order_sn: entry.order_sn,
                  package_number,
                  status: 'FAILED' as const,
                  fail_error: 'logistics.shipping_document_not_created',
                  fail_message: 'Call create_shipping_document first.',
                };
              return { order_sn: entry.order_sn, package_number, status: order.document.status };
            }),
          };
        },
      },
    ],
    [
      SHOPEE_PATHS.downloadShippingDocument,
      {
        method: 'POST',
        level: 'shop',
        placement: 'file',
        handle({ body, shop, now }) {
          const request = parse(downloadShippingDocumentRequest, body);
          const orders = request.order_list.map((entry) => documentOf(shop!, entry.order_sn, now));
          for (const order of orders) {
            if (order.document?.status !== 'READY')
              throw new Refusal(
                400,
                'logistics.shipping_document_not_ready',
                `The shipping document of ${order.detail.order_sn} is not ready.`,
              );
          }
          const type = request.shipping_document_type ?? orders[0]!.document!.type;
          return renderAirwayBills(
            orders.map((order) => ({
              order: order.detail,
              trackingNumber: order.tracking_number,
              shopName: shop!.shop_name,
              sender: shop!.pickup_address,
            })),
            type,
          );
        },
      },
    ],
  ];
}
