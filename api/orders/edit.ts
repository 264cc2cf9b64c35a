import { ok } from '@api/answers';
import { seller } from '@api/auth/session';
import {
  AddressBody,
  GiftBody,
  IdParams,
  LineParams,
  MapBody,
  OrderDetail,
  PackingBody,
  PickerQuery,
  PickerRow,
  RemoveBody,
  ReplacementBody,
  SplitBody,
} from '@api/contracts/orders';
import { conflict, router } from '@api/route';
import { editOrder, type OrderEdit } from '@commands/orders/edit';
import { wholeStore } from '@commands/support/document';
import { masterCodeOptions } from '@projections/orders.queries';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idempotencyKeyOf, type OrderDeps, tags } from './common';

/**
 * Changes to one order (spec §4; commands/orders/edit.ts): split, shipping address, map a line whose item was not
 * found, remove an out-of-stock line, make a replacement order, add a free gift, record a line's bin and serial
 * numbers — and the master codes to map to. Key of spec §6: orders-new-order.
 */
export const orderEditRoutes: FastifyPluginAsyncZod<OrderDeps> = async (app, deps) => {
  const { db } = deps;
  const store = wholeStore(deps.store, 'order');
  const route = router(app, { tags, access: { permission: 'orders-new-order' } });
  const changing = { answer: OrderDetail, errors: conflict } as const;

  function edit(request: FastifyRequest<{ Params: { id: string } }>, change: OrderEdit) {
    const key = idempotencyKeyOf(request, change.body.idempotency_key);
    return editOrder({ db, store }, seller(request), { ...change, orderId: request.params.id, key });
  }

  route.post(
    '/api/orders/:id/split',
    {
      summary:
        'Split an order: lines (or part of their quantity) go to a new order holding their stock; nothing chosen answers 576',
      params: IdParams,
      body: SplitBody,
      answer: z.object({ order: OrderDetail, child_order_id: z.string() }),
      errors: conflict,
    },
    async (request) => {
      const { order, childOrderId } = await edit(request, { edit: 'split', body: request.body });
      return ok(request, { order, child_order_id: childOrderId! }, 'orders.split_done');
    },
  );

  route.post(
    '/api/orders/:id/replacement',
    {
      summary:
        'Make a replacement order of a shipped, delivered or returned order: the chosen items again at no charge, stock reserved, linked both ways',
      params: IdParams,
      body: ReplacementBody,
      answer: z.object({ order: OrderDetail, replacement_order_id: z.string() }),
      errors: conflict,
    },
    async (request) => {
      const { order, replacementOrderId } = await edit(request, { edit: 'replacement', body: request.body });
      return ok(request, { order, replacement_order_id: replacementOrderId! }, 'orders.replacement_done');
    },
  );

  route.post(
    '/api/orders/:id/address',
    {
      summary: 'Change the shipping address of an order not yet shipped (a custom shipping address, spec §3)',
      params: IdParams,
      body: AddressBody,
      ...changing,
    },
    async (request) =>
      ok(
        request,
        (await edit(request, { edit: 'address', body: request.body })).order,
        'orders.address_changed',
      ),
  );

  route.post(
    '/api/orders/:id/lines/:lineId/map',
    {
      summary:
        'Map an order line whose item was not found to a master code (reserved at once when the order is accepted)',
      params: LineParams,
      body: MapBody,
      ...changing,
    },
    async (request) => {
      const { order, code } = await edit(request, {
        edit: 'map',
        lineId: request.params.lineId,
        body: request.body,
      });
      return ok(request, order, 'orders.line_mapped', { code: code! });
    },
  );

  route.post(
    '/api/orders/:id/lines/:lineId/remove',
    {
      summary:
        'Remove an out-of-stock line: mark as out of stock, or mark as stockable (spec §4); its held stock is released',
      params: LineParams,
      body: RemoveBody,
      ...changing,
    },
    async (request) => {
      const { order } = await edit(request, {
        edit: 'remove',
        lineId: request.params.lineId,
        body: request.body,
      });
      return ok(request, order, 'orders.line_removed');
    },
  );

  route.post(
    '/api/orders/:id/gifts',
    {
      summary:
        'Add a free gift to an order not yet scanned: a master code at price 0, reserved at once when the order is accepted',
      params: IdParams,
      body: GiftBody,
      ...changing,
    },
    async (request) => {
      const { order, code } = await edit(request, { edit: 'gift', body: request.body });
      return ok(request, order, 'orders.gift_added', { code: code! });
    },
  );

  route.post(
    '/api/orders/:id/lines/:lineId/packing',
    {
      summary:
        "Record a line's bin number and serial numbers (at most one per unit, none twice on the order: 596, 597)",
      params: LineParams,
      body: PackingBody,
      ...changing,
    },
    async (request) => {
      const { order } = await edit(request, {
        edit: 'packing',
        lineId: request.params.lineId,
        body: request.body,
      });
      return ok(request, order, 'orders.packing_recorded');
    },
  );

  route.get(
    '/api/orders/master-codes',
    {
      summary:
        'Master codes to map an order line to: code, name or seller SKU starting with the search, active first',
      query: PickerQuery,
      answer: z.array(PickerRow),
    },
    async (request) => ok(request, await masterCodeOptions(db, seller(request).tenantId, request.query)),
  );
};
