import { randomUUID } from 'node:crypto';
import { ErrorAnswer, Ok, ok, refusals } from '@api/answers';
import { seller } from '@api/auth/session';
import { IdParams } from '@api/contracts/ids';
import {
  LookupQuery,
  OrderLookup,
  ReturnBody,
  ReturnDetail,
  ReturnRow,
  ReturnsQuery,
} from '@api/contracts/returns';
import { ApiError, notFound } from '@api/errors';
import { idempotencyKeyOf } from '@api/idempotency';
import { loadOrderView, type OrderView } from '@commands/printing/order-view';
import { returnImage, returnImagesOf, uploadReturnImage } from '@commands/returns/images';
import { loadReturn, processReturn } from '@commands/returns/return';
import { eventIdFor } from '@commands/support/ids';
import { isUuid } from '@domain/platform/ids';
import { mayReturn, RETURN_IMAGE_TYPES, RETURN_LIMITS, type ReturnState } from '@domain/returns/return';
import type { Db } from '@infra/db';
import { masterCodesOfTenant, placeOfTenant, userNames } from '@projections/documents.queries';
import { listReturns, returnableOrderByNumber } from '@projections/returns.queries';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type OrderDocumentsDeps, PrintCode, RETURNS_KEY, returnTags as tags } from './print-common';

/**
 * Returns of marketplace orders (spec §3 "Return", §5 "Return: at least one item selected; refund to buyer,
 * include shipping and refund reason each required"; domain/returns, commands/returns/return.ts). All routes take
 * orders-view-all.
 *
 * GET  /api/orders/returns                — the list (ag-grid Infinite Row Model): sortModel created_at |
 *      order_number | refund_to_buyer | total_quantity; filterModel { action?, completed? (sets), created_at? };
 *      search (order number, tracking number, reason, refund reason)
 * GET  /api/orders/returns/lookup?q=      — the order a return is for, by order number or tracking number (or
 *      ?order_id=): its lines and whether it can be returned (shipped or delivered, not returned yet)
 * POST /api/orders/returns                — { order_id, lines: [{ line_id, quantity, condition }], action, reason,
 *      refund_to_buyer, include_shipping, refund_reason, reversal_item_price?, images: [image ids],
 *      idempotency_key? }; an idempotency key (the body's or the `Idempotency-Key` header) makes a repeat of the
 *      request change nothing more (stock moves once)
 * GET  /api/orders/returns/:id            — one return with its lines, images and what went back to stock
 * POST /api/orders/returns/images         — an image (PNG, JPEG or WebP, at most 2 MB) as the body → { id }
 * GET  /api/orders/returns/images/:id     — the image
 *
 * An order of another account behaves as one that does not exist (404).
 */

/** The return as the detail answer shows it, with names. */
async function detailOf(
  db: Db,
  tenantId: string,
  returnId: string,
  state: ReturnState,
  createdBy: string | null,
  createdAt: string | null,
): Promise<z.infer<typeof ReturnDetail>> {
  const record = state.record!;
  const [warehouse, codes, names, images] = await Promise.all([
    placeOfTenant(db, tenantId, record.warehouseId),
    masterCodesOfTenant(
      db,
      tenantId,
      record.lines.flatMap((line) => (line.masterCodeId ? [line.masterCodeId] : [])),
    ),
    userNames(db, tenantId, [createdBy]),
    returnImagesOf(db, tenantId, record.images),
  ]);
  const restocked = new Map(state.restocked.map((line) => [line.lineId, line.quantity]));
  return {
    id: returnId,
    order_id: record.orderId,
    order_number: record.orderNumber,
    tracking_number: record.trackingNumber,
    platform: record.platform,
    warehouse: warehouse ? { id: warehouse.id, code: warehouse.code, name: warehouse.name } : null,
    action: record.action,
    reason: record.reason,
    refund_to_buyer: record.refundToBuyer,
    include_shipping: record.includeShipping,
    refund_reason: record.refundReason,
    reversal_item_price: record.reversalItemPrice,
    currency: record.currency,
    completed: state.completed,
    lines: record.lines.map((line) => {
      const code = line.masterCodeId ? codes.get(line.masterCodeId) : undefined;
      return {
        line_id: line.lineId,
        sku: line.sku,
        seller_sku: line.sellerSku,
        name: line.name,
        variation: line.variation ?? null,
        quantity: line.quantity,
        unit_price: line.unitPrice,
        condition: line.condition,
        master_code: code ? { id: code.id, code: code.code, name: code.name } : null,
        restocked: restocked.get(line.lineId) ?? 0,
      };
    }),
    images: record.images.flatMap((id) => {
      const image = images.find((row) => row.id === id);
      return image ? [{ id, content_type: image.content_type, bytes: image.byte_size }] : [];
    }),
    created_by: createdBy ? { id: createdBy, name: names.get(createdBy) ?? '' } : null,
    created_at: createdAt,
  };
}

function lookupOf(orderId: string, view: OrderView): z.infer<typeof OrderLookup> {
  return {
    order_id: orderId,
    order_number: view.orderNumber,
    tracking_number: view.state.trackingNumber,
    status: view.state.status,
    platform: view.platform,
    currency: view.currency,
    total_amount: view.totalAmount,
    shipping_fee: view.shippingFee,
    returnable: view.returnId === null && mayReturn({ status: view.state.status, returnId: null }, ''),
    return_id: view.returnId,
    lines: view.lines.map((line) => ({
      line_id: line.lineId,
      sku: line.sku,
      seller_sku: line.sellerSku,
      name: line.name,
      variation: line.variation ?? null,
      quantity: line.quantity,
      unit_price: line.unitPrice,
      mapped: line.masterCodeId !== null,
      combo: line.combo,
    })),
  };
}

export const returnRoutes: FastifyPluginAsyncZod<OrderDocumentsDeps> = async (app, deps) => {
  const { db, store } = deps;
  const config = { access: { permission: RETURNS_KEY } } as const;
  app.addContentTypeParser(
    [...RETURN_IMAGE_TYPES, 'application/octet-stream'],
    { parseAs: 'buffer', bodyLimit: RETURN_LIMITS.imageBytes + 64 * 1024 },
    (_request, body, done) => done(null, body),
  );

  /** The return's detail from its stream, with who recorded it and when. */
  async function detail(tenantId: string, returnId: string) {
    let createdBy: string | null = null;
    let createdAt: string | null = null;
    for await (const recorded of store.readStream(`orderReturn-${tenantId}.${returnId}`)) {
      if (recorded.type === 'OrderReturnRecorded') {
        createdBy = recorded.metadata.userId ?? null;
        createdAt = recorded.metadata.occurredAt;
      }
    }
    const state = await loadReturn(store, tenantId, returnId);
    if (!state.exists) throw notFound();
    return detailOf(db, tenantId, returnId, state, createdBy, createdAt);
  }

  app.get(
    '/api/orders/returns',
    {
      config,
      schema: {
        tags,
        summary: 'The returns of the account (newest first)',
        querystring: ReturnsQuery,
        response: { 200: Ok(z.object({ rows: z.array(ReturnRow), lastRow: z.number().int() })), ...refusals },
      },
    },
    async (request) => {
      const session = seller(request);
      return ok(request, await listReturns(db, session.tenantId, request.query));
    },
  );

  app.get(
    '/api/orders/returns/lookup',
    {
      config,
      schema: {
        tags,
        summary: 'The order a return is for, by order number or tracking number (or id), with its lines',
        querystring: LookupQuery,
        response: { 200: Ok(OrderLookup), ...refusals },
      },
    },
    async (request) => {
      const session = seller(request);
      let orderId = request.query.order_id;
      const q = request.query.q;
      if (!orderId) {
        if (!q) throw new ApiError(400, PrintCode.lookupInvalid, 'returns.lookup_required');
        const found = await returnableOrderByNumber(db, session.tenantId, q);
        if (!found) throw notFound();
        orderId = found;
      }
      const view = await loadOrderView(store, session.tenantId, orderId);
      if (!view) throw notFound();
      return ok(request, lookupOf(orderId, view));
    },
  );

  app.post(
    '/api/orders/returns',
    {
      config,
      schema: {
        tags,
        summary:
          'Return a shipped or delivered order: reusable items returned to stock go back into its warehouse; a write-off or an unusable item is recorded only',
        body: ReturnBody,
        response: { 200: Ok(ReturnDetail), ...refusals, 409: ErrorAnswer },
      },
    },
    async (request, reply) => {
      const session = seller(request);
      const body = request.body;
      const key = idempotencyKeyOf(request, body.idempotency_key, {
        invalid: () => new ApiError(400, PrintCode.idempotencyKeyInvalid, 'returns.idempotency_key_invalid'),
        mismatch: () =>
          new ApiError(400, PrintCode.idempotencyKeyInvalid, 'returns.idempotency_key_mismatch'),
      });
      const returnId = key ? eventIdFor(`order-return:${session.tenantId}:${key}`) : randomUUID();
      const order = await loadOrderView(store, session.tenantId, body.order_id);
      if (!order) throw notFound();

      const images = [...new Set(body.images)];
      const state = await processReturn(
        { store, db },
        {
          tenantId: session.tenantId,
          userId: session.userId,
          returnId,
          orderId: body.order_id,
          order,
          request: {
            action: body.action,
            reason: body.reason,
            refundToBuyer: body.refund_to_buyer,
            includeShipping: body.include_shipping,
            refundReason: body.refund_reason,
            reversalItemPrice: body.reversal_item_price ?? null,
            images,
            lines: body.lines.map((line) => ({
              lineId: line.line_id,
              quantity: line.quantity,
              condition: line.condition,
            })),
          },
        },
      );
      if (!state.completed) throw new Error(`return ${returnId} did not complete`);
      if (key) reply.header('idempotency-key', key);
      return ok(request, await detail(session.tenantId, returnId), 'returns.created', {
        order: state.record!.orderNumber,
      });
    },
  );

  app.get(
    '/api/orders/returns/:id',
    {
      config,
      schema: {
        tags,
        summary: 'One return: lines with their condition, what went back to stock, the refund, images',
        params: IdParams,
        response: { 200: Ok(ReturnDetail), ...refusals },
      },
    },
    async (request) => {
      const session = seller(request);
      if (!isUuid(request.params.id)) throw notFound();
      return ok(request, await detail(session.tenantId, request.params.id));
    },
  );

  app.post(
    '/api/orders/returns/images',
    {
      config,
      bodyLimit: RETURN_LIMITS.imageBytes + 64 * 1024,
      schema: {
        tags,
        summary: 'Upload an image for a return: the PNG, JPEG or WebP itself as the body (at most 2 MB)',
        response: {
          200: Ok(z.object({ id: z.string(), content_type: z.string(), bytes: z.number().int() })),
          ...refusals,
          413: ErrorAnswer,
          415: ErrorAnswer,
        },
      },
    },
    async (request) => {
      const session = seller(request);
      const image = await uploadReturnImage({ db }, session, request.body);
      return ok(request, image, 'returns.image_uploaded');
    },
  );

  app.get(
    '/api/orders/returns/images/:id',
    {
      config,
      schema: {
        tags,
        summary: 'An image of a return',
        params: IdParams,
        response: {
          200: {
            description: 'The image',
            content: { 'image/*': { schema: z.any().meta({ type: 'string', format: 'binary' }) } },
          },
          ...refusals,
        },
      },
    },
    async (request, reply) => {
      const session = seller(request);
      if (!isUuid(request.params.id)) throw notFound();
      const image = await returnImage(db, session.tenantId, request.params.id);
      if (!image) throw notFound();
      return reply
        .code(200)
        .header('content-type', image.content_type)
        .header('cache-control', 'private, max-age=3600')
        .header('x-content-type-options', 'nosniff')
        .send(image.data);
    },
  );
};
