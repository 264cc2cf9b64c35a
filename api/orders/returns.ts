import { randomUUID } from 'node:crypto';
import { ErrorAnswer, Ok, ok, refusals } from '@api/answers';
import { seller } from '@api/auth/session';
import { DateFilter, gridQuery, setFilter } from '@api/contracts/grid';
import {
  idempotencyKeyField,
  idempotencyKeyOf,
  masterCodesOfTenant,
  placeOfTenant,
  userNames,
} from '@api/documents';
import { ApiError, invalid, notFound } from '@api/errors';
import { IdParams, isUuid } from '@api/ids';
import { loadOrderView, type OrderView } from '@commands/printing/order-view';
import { imageTypeOf } from '@commands/printing/settings';
import { loadReturn, processReturn } from '@commands/returns/return';
import { eventIdFor } from '@commands/support/ids';
import {
  ITEM_CONDITIONS,
  mayReturn,
  RETURN_ACTIONS,
  RETURN_IMAGE_TYPES,
  RETURN_LIMITS,
  type ReturnState,
} from '@domain/returns/return';
import type { Database } from '@infra/db';
import { withTenant } from '@infra/db/tenant';
import { allOf, dateWhere, pageWindow, searchWhere, setWhere, sortTerms } from '@projections/runtime/grid';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
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

const money = (code: number, key: string) =>
  z
    .union([z.string(), z.number()], { error: invalid(code, key) })
    .transform((value) => (typeof value === 'number' ? value.toFixed(2) : value.trim()))
    .pipe(
      z
        .string()
        .min(1, invalid(code, key))
        .regex(/^\d{1,10}(\.\d{1,2})?$/, invalid(PrintCode.amountInvalid, 'returns.amount_invalid')),
    );

const ReturnBody = z.strictObject({
  order_id: z
    .string({ error: invalid(PrintCode.returnLineInvalid, 'returns.order_required') })
    .min(1, invalid(PrintCode.returnLineInvalid, 'returns.order_required'))
    .max(100, invalid(PrintCode.returnLineInvalid, 'returns.order_required')),
  lines: z
    .array(
      z.strictObject({
        line_id: z
          .string({ error: invalid(PrintCode.returnLineInvalid, 'returns.line_invalid') })
          .min(1, invalid(PrintCode.returnLineInvalid, 'returns.line_invalid'))
          .max(200, invalid(PrintCode.returnLineInvalid, 'returns.line_invalid')),
        quantity: z
          .number({ error: invalid(PrintCode.returnLineInvalid, 'returns.quantity_invalid_plain') })
          .int(invalid(PrintCode.returnLineInvalid, 'returns.quantity_invalid_plain'))
          .min(1, invalid(PrintCode.returnLineInvalid, 'returns.quantity_invalid_plain'))
          .max(100_000, invalid(PrintCode.returnLineInvalid, 'returns.quantity_invalid_plain')),
        condition: z.enum(ITEM_CONDITIONS, {
          error: invalid(PrintCode.returnActionInvalid, 'returns.condition_invalid'),
        }),
      }),
      { error: invalid(PrintCode.returnItemsRequired, 'returns.items_required') },
    )
    .min(1, invalid(PrintCode.returnItemsRequired, 'returns.items_required'))
    .max(RETURN_LIMITS.lines, invalid(PrintCode.returnItemsRequired, 'returns.items_required')),
  refund_to_buyer: money(PrintCode.refundRequired, 'returns.refund_required'),
  include_shipping: z.boolean({
    error: invalid(PrintCode.includeShippingRequired, 'returns.include_shipping_required'),
  }),
  refund_reason: z
    .string({ error: invalid(PrintCode.refundReasonRequired, 'returns.refund_reason_required') })
    .trim()
    .min(1, invalid(PrintCode.refundReasonRequired, 'returns.refund_reason_required'))
    .max(
      RETURN_LIMITS.refundReason,
      invalid(PrintCode.returnTextTooLong, 'returns.refund_reason_too_long', {
        max: RETURN_LIMITS.refundReason,
      }),
    ),
  action: z.enum(RETURN_ACTIONS, { error: invalid(PrintCode.returnActionInvalid, 'returns.action_invalid') }),
  reason: z
    .string({
      error: invalid(PrintCode.returnTextTooLong, 'returns.reason_too_long', { max: RETURN_LIMITS.reason }),
    })
    .trim()
    .max(
      RETURN_LIMITS.reason,
      invalid(PrintCode.returnTextTooLong, 'returns.reason_too_long', { max: RETURN_LIMITS.reason }),
    )
    .optional()
    .default(''),
  reversal_item_price: money(PrintCode.amountInvalid, 'returns.amount_invalid').nullish(),
  images: z
    .array(z.uuid({ error: invalid(PrintCode.imageNotFound, 'returns.image_not_found') }), {
      error: invalid(PrintCode.imageNotFound, 'returns.image_not_found'),
    })
    .max(
      RETURN_LIMITS.images,
      invalid(PrintCode.imageNotFound, 'returns.too_many_images', { max: RETURN_LIMITS.images }),
    )
    .optional()
    .default([]),
  /** The same as an `Idempotency-Key` header (which wins when both are given and agree). */
  idempotency_key: idempotencyKeyField(
    invalid(PrintCode.idempotencyKeyInvalid, 'returns.idempotency_key_invalid'),
  ).optional(),
});

const Named = z.object({ id: z.string(), code: z.string(), name: z.string() });

/** What a return and the order looked up show of each order line. */
const LineFields = {
  line_id: z.string(),
  sku: z.string(),
  seller_sku: z.string(),
  name: z.string(),
  variation: z.string().nullable(),
  quantity: z.number().int(),
  unit_price: z.string(),
};

const ReturnDetail = z.object({
  id: z.string(),
  order_id: z.string(),
  order_number: z.string(),
  tracking_number: z.string().nullable(),
  platform: z.string(),
  warehouse: Named.nullable(),
  action: z.enum(RETURN_ACTIONS),
  reason: z.string(),
  refund_to_buyer: z.string(),
  include_shipping: z.boolean(),
  refund_reason: z.string(),
  reversal_item_price: z.string(),
  currency: z.string(),
  completed: z.boolean(),
  lines: z.array(
    z.object({
      ...LineFields,
      condition: z.enum(ITEM_CONDITIONS),
      master_code: Named.nullable(),
      restocked: z.number().int(),
    }),
  ),
  images: z.array(z.object({ id: z.string(), content_type: z.string(), bytes: z.number().int() })),
  created_by: z.object({ id: z.string(), name: z.string() }).nullable(),
  created_at: z.string().nullable(),
});

const OrderLookup = z.object({
  order_id: z.string(),
  order_number: z.string(),
  tracking_number: z.string().nullable(),
  status: z.string(),
  platform: z.string(),
  currency: z.string(),
  total_amount: z.string(),
  shipping_fee: z.string().nullable(),
  returnable: z.boolean(),
  return_id: z.string().nullable(),
  lines: z.array(
    z.object({
      ...LineFields,
      mapped: z.boolean(),
      combo: z.boolean(),
    }),
  ),
});

const LIST_SORT = ['created_at', 'order_number', 'refund_to_buyer', 'total_quantity'] as const;
const ReturnsQuery = gridQuery(LIST_SORT, {
  action: setFilter(RETURN_ACTIONS),
  completed: setFilter(['true', 'false']),
  created_at: DateFilter,
}).extend({ order_id: z.string().max(100).optional() });

const ReturnRow = z.object({
  id: z.string(),
  order_id: z.string(),
  order_number: z.string(),
  tracking_number: z.string().nullable(),
  platform: z.string(),
  action: z.enum(RETURN_ACTIONS),
  reason: z.string(),
  refund_to_buyer: z.string(),
  include_shipping: z.boolean(),
  refund_reason: z.string(),
  reversal_item_price: z.string(),
  currency: z.string(),
  line_count: z.number().int(),
  total_quantity: z.number().int(),
  restocked_quantity: z.number().int(),
  image_count: z.number().int(),
  completed: z.boolean(),
  created_by: z.object({ id: z.string(), name: z.string() }).nullable(),
  created_at: z.string(),
});

const listSort: Record<(typeof LIST_SORT)[number], RawBuilder<unknown>> = {
  created_at: sql`r.created_at`,
  order_number: sql`lower(r.order_number)`,
  refund_to_buyer: sql`r.refund_to_buyer`,
  total_quantity: sql`r.total_quantity`,
};

/** The return as the detail answer shows it, with names. */
async function detailOf(
  db: Kysely<Database>,
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
    record.images.length === 0
      ? []
      : db
          .selectFrom('return_images')
          .select(['id', 'content_type', 'byte_size'])
          .where('tenant_id', '=', tenantId)
          .where('id', 'in', record.images)
          .execute(),
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
      const query = request.query;
      const where: RawBuilder<SqlBool>[] = [sql<SqlBool>`r.tenant_id = ${session.tenantId}`];
      const { filterModel } = query;
      if (filterModel.action) where.push(setWhere(sql<string>`r.action`, filterModel.action.values));
      if (filterModel.completed)
        where.push(setWhere(sql<string>`r.completed::text`, filterModel.completed.values));
      if (filterModel.created_at) where.push(dateWhere(sql<Date>`r.created_at`, filterModel.created_at));
      if (query.order_id) where.push(sql<SqlBool>`r.order_id = ${query.order_id}`);
      const search = query.search?.trim();
      if (search) {
        where.push(
          searchWhere(
            [
              sql<string>`r.order_number`,
              sql<string>`r.tracking_number`,
              sql<string>`r.reason`,
              sql<string>`r.refund_reason`,
            ],
            search,
          ),
        );
      }
      const condition = allOf(where);
      const order = [
        ...sortTerms(query.sortModel, listSort),
        ...(query.sortModel.length === 0 ? [sql`r.created_at DESC`] : []),
        sql`r.id DESC`,
      ];
      const { limit, offset } = pageWindow(query);
      const { rows, total } = await withTenant(db, session.tenantId, async (trx) => {
        const page = await sql<{
          id: string;
          order_id: string;
          order_number: string;
          tracking_number: string | null;
          platform: string;
          action: (typeof RETURN_ACTIONS)[number];
          reason: string;
          refund_to_buyer: string;
          include_shipping: boolean;
          refund_reason: string;
          reversal_item_price: string;
          currency: string;
          line_count: number;
          total_quantity: number;
          restocked_quantity: number;
          image_count: number;
          completed: boolean;
          created_by: string | null;
          first_name: string | null;
          last_name: string | null;
          created_at: Date;
        }>`
          SELECT r.id, r.order_id, r.order_number, r.tracking_number, r.platform, r.action, r.reason,
                 r.refund_to_buyer, r.include_shipping, r.refund_reason, r.reversal_item_price, r.currency,
                 r.line_count, r.total_quantity, r.restocked_quantity, r.image_count, r.completed, r.created_by,
                 u.first_name, u.last_name, r.created_at
          FROM order_returns r
          LEFT JOIN users u ON u.id::text = r.created_by AND u.tenant_id = r.tenant_id
          WHERE ${condition}
          ORDER BY ${sql.join(order)}
          LIMIT ${limit} OFFSET ${offset}`.execute(trx);
        const count = await sql<{
          n: string;
        }>`SELECT count(*) AS n FROM order_returns r WHERE ${condition}`.execute(trx);
        return { rows: page.rows, total: Number(count.rows[0]?.n ?? 0) };
      });
      return ok(request, {
        rows: rows.map(({ first_name, last_name, created_by, created_at, ...row }) => ({
          ...row,
          created_by: created_by
            ? { id: created_by, name: `${first_name ?? ''} ${last_name ?? ''}`.trim() }
            : null,
          created_at: created_at.toISOString(),
        })),
        lastRow: total,
      });
    },
  );

  app.get(
    '/api/orders/returns/lookup',
    {
      config,
      schema: {
        tags,
        summary: 'The order a return is for, by order number or tracking number (or id), with its lines',
        querystring: z.strictObject({
          q: z.string().trim().max(100).optional(),
          order_id: z.string().max(100).optional(),
        }),
        response: { 200: Ok(OrderLookup), ...refusals },
      },
    },
    async (request) => {
      const session = seller(request);
      let orderId = request.query.order_id;
      const q = request.query.q;
      if (!orderId) {
        if (!q) throw new ApiError(400, PrintCode.lookupInvalid, 'returns.lookup_required');
        const found = await withTenant(db, session.tenantId, (trx) =>
          trx
            .selectFrom('order_shipments')
            .select('order_id')
            .where('tenant_id', '=', session.tenantId)
            .where((eb) =>
              eb.or([
                eb(sql`lower(order_number)`, '=', q.toLowerCase()),
                eb(sql`lower(tracking_number)`, '=', q.toLowerCase()),
              ]),
            )
            .orderBy('updated_at', 'desc')
            .executeTakeFirst(),
        );
        if (!found) throw notFound();
        orderId = found.order_id;
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
      const body = request.body;
      if (!Buffer.isBuffer(body) || body.length === 0) {
        throw new ApiError(400, PrintCode.imageInvalid, 'returns.image_invalid');
      }
      if (body.length > RETURN_LIMITS.imageBytes) {
        throw new ApiError(400, PrintCode.imageTooLarge, 'returns.image_too_large', {
          max: RETURN_LIMITS.imageBytes / 1024 / 1024,
        });
      }
      const type = imageTypeOf(body);
      if (!type) throw new ApiError(400, PrintCode.imageInvalid, 'returns.image_invalid');
      const id = randomUUID();
      await db
        .insertInto('return_images')
        .values({
          id,
          tenant_id: session.tenantId,
          content_type: type,
          byte_size: body.length,
          data: body,
          uploaded_by: session.userId,
        })
        .execute();
      return ok(request, { id, content_type: type, bytes: body.length }, 'returns.image_uploaded');
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
      const image = await db
        .selectFrom('return_images')
        .select(['content_type', 'data'])
        .where('tenant_id', '=', session.tenantId)
        .where('id', '=', request.params.id)
        .executeTakeFirst();
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
