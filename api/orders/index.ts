/**
 * The order board API (issue 6 items 3, 8, 9; spec §2 order lists, §3 "Order", §4 order actions and filters, §6
 * order keys). Orders are event-sourced documents (domain/orders/order.ts); the lists read the board's read model
 * (projections/orders.ts), which follows the order events live (views `orders` and `orderCounts`).
 *
 * Every answer is `{ code: 0, msg, data }`; a refusal is an HTTP 4xx with `{ code, msg, errors? }`. Another account's
 * order answers exactly like a missing one (404, code 570). Every write takes an idempotency key (header
 * `Idempotency-Key` or body `idempotency_key`): a retry records nothing twice. Codes (common.ts OrderCode): 570 order
 * not found, 571 the order's list does not allow the action (409), 572 shipped already: cannot be cancelled (409),
 * 573 line not found, 574 line mapped already while its stock is held (409), 575 last line (409), 576 split into
 * nothing, 577 split everything, 578 quantity invalid, 579 "Tracking Number is required", 580 provider and pickup
 * address required, 581 "Pickup request failed" (409), 582 master code not found, 583 no order selected, 584
 * idempotency key invalid, 585 text too long, 586 several stores without orders-multi-store-arrange (403), 587
 * address invalid, 588 the marketplace did not arrange the shipment (409).
 *
 * ---- reading (any order key of spec §6) ----
 * GET  /api/orders            grid: startRow, endRow, sortModel (order_number, paid_at, ordered_at, total_amount,
 *      status, item_count, tracking_number, buyer_name, scanned_at, updated_at; default newest paid first),
 *      filterModel (order_number, tracking_number, buyer_name: text; status: set; ordered_at, paid_at: date),
 *      search (start of order or tracking number), tab (all|new|unscan|scan|rts|shipped|cancel), filter (unpaid,
 *      pending, to_process, done, out_of_stock, item_not_found, pre_order, delivered, returned, refunded,
 *      cancelled, trash), store_id, platform, payment (cod|paid), batch_id, ordered_from/to, paid_from/to
 * GET  /api/orders/counts     { tabs: {all, new, …}, statuses: {unpaid, new, …} } (store_id, platform)
 * GET  /api/orders/stores     the stores the account has orders of [{ store_id, name, platform, orders }]
 * GET  /api/orders/:id        detail: the list's columns, address, lines (master code, item not found, out of
 *      stock, removed), the actions its status allows, timeline [{type, at, user {id, name}, data}]
 *
 * ---- actions (actions.ts; the key each needs: ACTION_KEYS) ----
 * POST /api/orders/actions    { action, order_ids | shipments, … } on up to 500 orders, answered per order; an
 *      order of a connected marketplace store is arranged (drop-off, pickup) with the marketplace (shipping.ts)
 * GET  /api/orders/shipping?order_ids=a,b   which of them the marketplace arranges; the shop's pickup addresses
 *
 * ---- one order (edit.ts; orders-new-order) ----
 * POST /api/orders/:id/split                   { lines: [{ line_id, quantity }] } → { order, child_order_id }
 * POST /api/orders/:id/address                 { name, phone, full_address, city, state, postal_code, country, … }
 * POST /api/orders/:id/lines/:lineId/map       { master_code_id }
 * POST /api/orders/:id/lines/:lineId/remove    { mark: out_of_stock | stockable }
 * GET  /api/orders/master-codes?search&limit   master codes to map a line to
 */
import { GridPage, Ok, ok, refusals } from '@api/answers';
import { seller } from '@api/auth/session';
import {
  CountsQuery,
  IdParams,
  OrderCounts,
  OrderDetail,
  OrderListQuery,
  OrderListRow,
  StoreOption,
} from '@api/contracts/orders';
import { wholeStore } from '@commands/support/document';
import { listOrders, orderCounts, orderStores } from '@projections/orders.queries';
import { orderDetail } from '@projections/orders-detail.queries';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { orderActionRoutes } from './actions';
import { ORDER_READERS, type OrderDeps, requireAny, tags } from './common';
import { orderEditRoutes } from './edit';
import { shippingRoutes } from './shipping';

export const orderRoutes: FastifyPluginAsyncZod<OrderDeps> = async (app, deps) => {
  const { db } = deps;
  const store = wholeStore(deps.store, 'order');
  const readers = requireAny(ORDER_READERS);

  app.get(
    '/api/orders',
    {
      config: { access: 'seller' },
      preHandler: readers,
      schema: {
        tags,
        summary:
          'The order board, ag-grid Infinite Row Model: a tab, a filter of spec §4, store, platform, dates; search by order or tracking number',
        querystring: OrderListQuery,
        response: { 200: Ok(GridPage(OrderListRow)), ...refusals },
      },
    },
    async (request) => ok(request, await listOrders(db, seller(request).tenantId, request.query)),
  );

  app.get(
    '/api/orders/counts',
    {
      config: { access: 'seller' },
      preHandler: readers,
      schema: {
        tags,
        summary: 'How many orders each tab (and status) holds, of one store or platform or all',
        querystring: CountsQuery,
        response: { 200: Ok(OrderCounts), ...refusals },
      },
    },
    async (request) => ok(request, await orderCounts(db, seller(request).tenantId, request.query)),
  );

  app.get(
    '/api/orders/stores',
    {
      config: { access: 'seller' },
      preHandler: readers,
      schema: {
        tags,
        summary: 'The stores the account has orders of, for the board’s store filter',
        response: { 200: Ok(z.array(StoreOption)), ...refusals },
      },
    },
    async (request) => ok(request, await orderStores(db, seller(request).tenantId)),
  );

  app.get(
    '/api/orders/:id',
    {
      config: { access: 'seller' },
      preHandler: readers,
      schema: {
        tags,
        summary:
          'One order: lines (item not found, out of stock), address, the actions its status allows, timeline',
        params: IdParams,
        response: { 200: Ok(OrderDetail), ...refusals },
      },
    },
    async (request) => ok(request, await orderDetail(db, store, seller(request).tenantId, request.params.id)),
  );

  await app.register(orderActionRoutes, deps);
  await app.register(shippingRoutes, deps);
  await app.register(orderEditRoutes, deps);
};
