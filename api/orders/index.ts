/**
 * The order board API (issue 6 items 3, 8, 9; spec §2 order lists, §3 "Order", §4 order actions and filters, §6
 * order keys): the board's lists and one order, read from its read model (projections/orders.ts); the actions
 * (actions.ts), the shipments the marketplace arranges (shipping.ts) and changes to one order (edit.ts). Another
 * account's order answers exactly like a missing one; every write takes an idempotency key. Reading needs any order
 * key of spec §6; each action its key of ACTION_KEYS; changes to one order orders-new-order.
 */
import { GridPage, ok } from '@api/answers';
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
import { router } from '@api/route';
import { wholeStore } from '@commands/support/document';
import { ORDER_READER_KEYS } from '@domain/orders/board';
import { listOrders, orderCounts, orderStores } from '@projections/orders.queries';
import { orderDetail } from '@projections/orders-detail.queries';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { orderActionRoutes } from './actions';
import { type OrderDeps, tags } from './common';
import { orderEditRoutes } from './edit';
import { shippingRoutes } from './shipping';
import { orderUploadRoutes } from './upload';

export const orderRoutes: FastifyPluginAsyncZod<OrderDeps> = async (app, deps) => {
  const { db } = deps;
  const store = wholeStore(deps.store, 'order');
  const route = router(app, { tags, access: { anyOf: ORDER_READER_KEYS } });

  route.get(
    '/api/orders',
    {
      summary:
        'The order board, ag-grid Infinite Row Model: a tab, a filter of spec §4, store, platform, dates; search by order or tracking number',
      query: OrderListQuery,
      answer: GridPage(OrderListRow),
    },
    async (request) =>
      ok(request, await listOrders(db, seller(request).tenantId, request.query, request.language)),
  );

  route.get(
    '/api/orders/counts',
    {
      summary: 'How many orders each tab (and status) holds, of one store or platform or all',
      query: CountsQuery,
      answer: OrderCounts,
    },
    async (request) => ok(request, await orderCounts(db, seller(request).tenantId, request.query)),
  );

  route.get(
    '/api/orders/stores',
    {
      summary: 'The stores the account has orders of, for the board’s store filter',
      answer: z.array(StoreOption),
    },
    async (request) => ok(request, await orderStores(db, seller(request).tenantId)),
  );

  route.get(
    '/api/orders/:id',
    {
      summary:
        'One order: lines (item not found, out of stock), address, the actions its status allows, timeline',
      params: IdParams,
      answer: OrderDetail,
    },
    async (request) =>
      ok(
        request,
        await orderDetail(db, store, seller(request).tenantId, request.params.id, request.language),
      ),
  );

  await app.register(orderActionRoutes, deps);
  await app.register(shippingRoutes, deps);
  await app.register(orderEditRoutes, deps);
  await app.register(orderUploadRoutes, deps);
};
