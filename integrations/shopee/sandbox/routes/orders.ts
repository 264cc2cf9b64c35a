import {
  cancelOrderRequest,
  type OrderListPage,
  orderDetailRequest,
  orderListRequest,
  SHOPEE_PATHS,
  type ShopeeOrder,
} from '../../schemas';
import { applyChange, orderView } from '../lifecycle';
import type { SandboxWorld } from '../world';
import { orderNotFound, parse, queryOf, Refusal, type RouteTable, wrongParameters } from './common';

/**
 * order/get_order_list, order/get_order_detail and order/cancel_order (the seller's cancel, before shipping). The list is ordered by the window's field, then order_sn,
 * and its cursor names the last order given (time and number), so orders arriving or changing between pages
 * never make the paging skip one; an order that changes during paging may come again, later.
 */

const cursorOf = (time: number, orderSn: string) => Buffer.from(`${time}:${orderSn}`).toString('base64url');

function fromCursor(cursor: string): { time: number; orderSn: string } {
  const match = /^(\d+):([0-9A-Z]+)$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) throw wrongParameters('cursor is invalid.');
  return { time: Number(match[1]), orderSn: match[2]! };
}

export function orderRoutes(world: SandboxWorld): RouteTable {
  return [
    [
      SHOPEE_PATHS.orderList,
      {
        method: 'GET',
        level: 'shop',
        placement: 'response',
        handle({ url, shop }): OrderListPage {
          const query = queryOf(url, ['time_from', 'time_to', 'page_size'], ['response_optional_fields']);
          const request = parse(orderListRequest, query);
          const field = request.time_range_field;
          const after = request.cursor ? fromCursor(request.cursor) : undefined;
          const sorted = world.sortedOrders(shop!.shop_id, field);
          // The first order past the cursor (or at time_from), by binary search on (time, order_sn).
          const fromTime = after ? after.time : request.time_from;
          const fromSn = after ? after.orderSn : '';
          let low = 0;
          let high = sorted.length;
          while (low < high) {
            const middle = (low + high) >>> 1;
            const detail = sorted[middle]!.detail;
            if (detail[field] < fromTime || (detail[field] === fromTime && detail.order_sn <= fromSn))
              low = middle + 1;
            else high = middle;
          }
          const page: ShopeeOrder[] = [];
          let more = false;
          for (let index = low; index < sorted.length; index++) {
            const detail = sorted[index]!.detail;
            if (detail[field] > request.time_to) break;
            if (detail[field] < request.time_from) continue;
            if (request.order_status && detail.order_status !== request.order_status) continue;
            if (page.length === request.page_size) {
              more = true;
              break;
            }
            page.push(detail);
          }
          const withStatus = request.response_optional_fields?.includes('order_status') ?? false;
          const last = page.at(-1);
          return {
            more,
            next_cursor: more && last ? cursorOf(last[field], last.order_sn) : '',
            order_list: page.map((detail) =>
              withStatus
                ? { order_sn: detail.order_sn, order_status: detail.order_status }
                : { order_sn: detail.order_sn },
            ),
          };
        },
      },
    ],
    [
      SHOPEE_PATHS.orderDetail,
      {
        method: 'GET',
        level: 'shop',
        placement: 'response',
        handle({ url, shop }) {
          const request = parse(
            orderDetailRequest,
            queryOf(url, [], ['order_sn_list', 'response_optional_fields']),
          );
          const fields = request.response_optional_fields ?? [];
          return {
            order_list: request.order_sn_list.map((sn) => {
              const order = world.shopOrder(shop!.shop_id, sn);
              if (!order) throw orderNotFound();
              return orderView(order, fields);
            }),
          };
        },
      },
    ],
    [
      SHOPEE_PATHS.cancelOrder,
      {
        method: 'POST',
        level: 'shop',
        placement: 'response',
        handle({ body, shop, now }) {
          const request = parse(cancelOrderRequest, body);
          const order = world.shopOrder(shop!.shop_id, request.order_sn);
          if (!order) throw orderNotFound();
          const status = order.detail.order_status;
          if (status !== 'UNPAID' && status !== 'READY_TO_SHIP') {
            throw new Refusal(
              400,
              'order.order_status_error',
              `an order ${status} cannot be cancelled by the seller.`,
            );
          }
          if (request.cancel_reason === 'OUT_OF_STOCK') {
            const sold = new Set(
              (order.detail.item_list ?? []).map((item) => `${item.item_id}:${item.model_id}`),
            );
            const unknown = request.item_list!.find((item) => !sold.has(`${item.item_id}:${item.model_id}`));
            if (unknown)
              throw wrongParameters(`item ${unknown.item_id}:${unknown.model_id} is not in the order.`);
          }
          applyChange(order, { at: now, step: 'cancel', cancel_by: 'seller', reason: request.cancel_reason });
          world.changed();
          return { update_time: order.detail.update_time };
        },
      },
    ],
  ];
}
