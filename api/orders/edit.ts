import { Ok, ok, refusals } from '@api/answers';
import { seller } from '@api/auth/session';
import {
  AddressBody,
  conflicts,
  IdParams,
  LineParams,
  MapBody,
  OrderDetail,
  PickerQuery,
  PickerRow,
  RemoveBody,
  SplitBody,
} from '@api/contracts/orders';
import { mapOrderLine } from '@commands/orders/map-line';
import { handleOrderCommand } from '@commands/orders/order';
import { splitOrder } from '@commands/orders/split';
import { wholeStore } from '@commands/support/document';
import type { OrderCommand } from '@domain/orders/order';
import { masterCodeOptions } from '@projections/orders.queries';
import { orderDetail } from '@projections/orders-detail.queries';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { commandIdOf, idempotencyKeyOf, type OrderDeps, requireKey, tags } from './common';

/**
 * Changes to one order (spec §4): split it (some lines or part of their quantity to a new order; nothing chosen is
 * a clear 400), change its shipping address (spec §3 "A custom shipping address can be modified"), map an unmapped
 * line ("item not found") to a master code, remove an out-of-stock line with the two choices of spec §4 — and the
 * master codes to map to. Each answers the order as it now stands. Key of spec §6: orders-new-order.
 */

export const orderEditRoutes: FastifyPluginAsyncZod<OrderDeps> = async (app, deps) => {
  const { db } = deps;
  const store = wholeStore(deps.store, 'order');

  /** One order command for the caller, answered with the order as it now stands. */
  async function change(
    request: FastifyRequest,
    orderId: string,
    purpose: string,
    command: OrderCommand,
    bodyKey?: string,
  ) {
    const session = seller(request);
    const key = idempotencyKeyOf(request, bodyKey);
    const result = await handleOrderCommand(store, orderId, command, {
      tenantId: session.tenantId,
      userId: session.userId,
      commandId: commandIdOf(session.tenantId, purpose, key, orderId),
      occurredAt: new Date().toISOString(),
    });
    const detail = await orderDetail(db, store, session.tenantId, orderId);
    return { detail, changed: !result.replayed && result.events.length > 0 };
  }

  app.post(
    '/api/orders/:id/split',
    {
      config: { access: { permission: 'orders-new-order' } },
      schema: {
        tags,
        summary:
          'Split an order: lines (or part of their quantity) go to a new order holding their stock; nothing chosen answers 576',
        params: IdParams,
        body: SplitBody,
        response: {
          200: Ok(z.object({ order: OrderDetail, child_order_id: z.string() })),
          ...refusals,
          ...conflicts,
        },
      },
    },
    async (request) => {
      const session = seller(request);
      const orderId = request.params.id;
      const key = idempotencyKeyOf(request, request.body.idempotency_key);
      // A line left at 0 is a line not split: only what is chosen counts.
      const lines = request.body.lines
        .filter((line) => line.quantity > 0)
        .map((line) => ({ lineId: line.line_id, quantity: line.quantity }));
      const split = await splitOrder(store, orderId, lines, {
        tenantId: session.tenantId,
        userId: session.userId,
        commandId: commandIdOf(session.tenantId, 'split', key, orderId),
        occurredAt: new Date().toISOString(),
      });
      const order = await orderDetail(db, store, session.tenantId, orderId);
      return ok(request, { order, child_order_id: split.childOrderId }, 'orders.split_done');
    },
  );

  app.post(
    '/api/orders/:id/address',
    {
      config: { access: { permission: 'orders-new-order' } },
      schema: {
        tags,
        summary:
          'Change the shipping address of an order not yet shipped (a custom shipping address, spec §3)',
        params: IdParams,
        body: AddressBody,
        response: { 200: Ok(OrderDetail), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      const { idempotency_key, full_address, postal_code, email, district, barangay, ...rest } = request.body;
      const { detail } = await change(
        request,
        request.params.id,
        'address',
        {
          type: 'ChangeAddress',
          address: {
            ...rest,
            fullAddress: full_address,
            postalCode: postal_code,
            ...(district ? { district } : {}),
            ...(barangay ? { barangay } : {}),
            ...(email ? { email } : {}),
          },
        },
        idempotency_key,
      );
      return ok(request, detail, 'orders.address_changed');
    },
  );

  app.post(
    '/api/orders/:id/lines/:lineId/map',
    {
      config: { access: { permission: 'orders-new-order' } },
      schema: {
        tags,
        summary:
          'Map an order line whose item was not found to a master code (reserved at once when the order is accepted)',
        params: LineParams,
        body: MapBody,
        response: { 200: Ok(OrderDetail), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      const session = seller(request);
      const orderId = request.params.id;
      const key = idempotencyKeyOf(request, request.body.idempotency_key);
      const { code } = await mapOrderLine(
        { db, store },
        {
          tenantId: session.tenantId,
          userId: session.userId,
          commandId: commandIdOf(session.tenantId, `map:${request.params.lineId}`, key, orderId),
          occurredAt: new Date().toISOString(),
        },
        { orderId, lineId: request.params.lineId, masterCodeId: request.body.master_code_id },
      );
      const detail = await orderDetail(db, store, session.tenantId, orderId);
      return ok(request, detail, 'orders.line_mapped', { code });
    },
  );

  app.post(
    '/api/orders/:id/lines/:lineId/remove',
    {
      config: { access: { permission: 'orders-new-order' } },
      schema: {
        tags,
        summary:
          'Remove an out-of-stock line: mark as out of stock, or mark as stockable (spec §4); its held stock is released',
        params: LineParams,
        body: RemoveBody,
        response: { 200: Ok(OrderDetail), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      const { detail } = await change(
        request,
        request.params.id,
        `remove:${request.params.lineId}`,
        { type: 'RemoveLine', lineId: request.params.lineId, mark: request.body.mark },
        request.body.idempotency_key,
      );
      return ok(request, detail, 'orders.line_removed');
    },
  );

  app.get(
    '/api/orders/master-codes',
    {
      config: { access: 'seller' },
      preHandler: async (request) => requireKey(request, 'orders-new-order'),
      schema: {
        tags,
        summary:
          'Master codes to map an order line to: code, name or seller SKU starting with the search, active first',
        querystring: PickerQuery,
        response: { 200: Ok(z.array(PickerRow)), ...refusals },
      },
    },
    async (request) => {
      const { tenantId } = seller(request);
      const rows = await masterCodeOptions(db, tenantId, request.query);
      return ok(request, rows);
    },
  );
};
