import { ErrorAnswer, Ok, ok, refusals } from '@api/answers';
import { seller } from '@api/auth/session';
import { invalid, notFound } from '@api/errors';
import { IdParams } from '@api/ids';
import { handleBatchCommand } from '@commands/batches/batch';
import {
  addOrdersToBatch,
  type BatchSettings,
  createBatches,
  removeOrdersFromBatch,
} from '@commands/batches/batching';
import { dayIn, timezoneOfCountry } from '@domain/batches/auto-batch';
import {
  BATCH_SPLITS,
  BATCH_TYPES,
  DEFAULT_DIGITS,
  DEFAULT_MAX_ORDERS,
  DEFAULT_PREFIX,
  DIGITS_MAX,
  DIGITS_MIN,
  MAX_ORDERS_LIMIT,
  NAME_MAX,
  PREFIX_MAX,
} from '@domain/batches/batch';
import type { Database } from '@infra/db';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import {
  answeringRefusals,
  BATCH_KEY,
  BatchCode,
  type BatchDeps,
  batchIdOf,
  checkPicker,
  commandIdOf,
  IdempotencyKey,
  idempotencyKeyOf,
  Name,
  OrderIds,
  batchTags as tags,
} from './batches-common';
import { BatchDetail, batchDetail } from './batches-list';

/** Making batches by hand and changing them: create from a selection, add and take out orders, picker, close. */

const conflicts = { 409: ErrorAnswer };

const digitsInvalid = invalid(BatchCode.digitsInvalid, 'batch.digits_invalid', {
  min: DIGITS_MIN,
  max: DIGITS_MAX,
});
const maxOrdersInvalid = invalid(BatchCode.maxOrdersInvalid, 'batch.max_orders_invalid', {
  max: MAX_ORDERS_LIMIT,
});
const dateInvalid = invalid(BatchCode.dateInvalid, 'batch.date_invalid');
const prefixInvalid = invalid(BatchCode.textInvalid, 'batch.prefix_invalid', { max: PREFIX_MAX });

export const Digits = z
  .number({ error: digitsInvalid })
  .int(digitsInvalid)
  .min(DIGITS_MIN, digitsInvalid)
  .max(DIGITS_MAX, digitsInvalid);
export const MaxOrders = z
  .number({ error: maxOrdersInvalid })
  .int(maxOrdersInvalid)
  .min(1, maxOrdersInvalid)
  .max(MAX_ORDERS_LIMIT, maxOrdersInvalid);
/** A prefix is printed on labels and pick lists: letters, digits, dash, slash or underscore. */
export const Prefix = z
  .string({ error: prefixInvalid })
  .trim()
  .max(PREFIX_MAX, prefixInvalid)
  .regex(/^[\p{L}\p{N}_/-]*$/u, prefixInvalid);
const Day = z
  .string({ error: dateInvalid })
  .regex(/^\d{4}-\d{2}-\d{2}$/, dateInvalid)
  .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)), dateInvalid);
const PickerId = z.string().max(64).nullable();

const CreateBody = z.strictObject({
  order_ids: OrderIds,
  name: Name(NAME_MAX).optional(),
  prefix: Prefix.optional(),
  digits: Digits.optional(),
  type: z.enum(BATCH_TYPES, { error: invalid(400, 'batch.type_invalid') }).optional(),
  picker_id: PickerId.optional(),
  max_orders: MaxOrders.optional(),
  split: z.enum(BATCH_SPLITS, { error: invalid(400, 'batch.split_invalid') }).optional(),
  date: Day.optional(),
  idempotency_key: IdempotencyKey.optional(),
});
const OrdersBody = z.strictObject({ order_ids: OrderIds, idempotency_key: IdempotencyKey.optional() });
const PickerBody = z.strictObject({ picker_id: PickerId, idempotency_key: IdempotencyKey.optional() });
const ActionBody = z.strictObject({ idempotency_key: IdempotencyKey.optional() }).optional();

/** The account's time zone, from its country: what "today" means for a batch's date. */
export async function tenantTimezone(db: Kysely<Database>, tenantId: string): Promise<string> {
  const row = await db.selectFrom('tenants').select('country').where('id', '=', tenantId).executeTakeFirst();
  return timezoneOfCountry(row?.country);
}

export const batchActionRoutes: FastifyPluginAsyncZod<BatchDeps> = async (app, deps) => {
  const { db, store } = deps;

  async function detailOf(tenantId: string, batchId: string) {
    const detail = await batchDetail(deps, tenantId, batchId);
    if (!detail) throw notFound();
    return detail;
  }

  app.post(
    '/api/orders/batches',
    {
      config: { access: { permission: BATCH_KEY } },
      schema: {
        tags,
        summary:
          'Batch the selected orders (new or unscan, in no batch; a pre-order batch takes pre-orders only, a normal one no pre-order): split by logistics or payment method and cut at the most orders per batch, so one batch or several; numbered prefix + zero-padded account sequence (Idempotency-Key: a retry makes the same batches once)',
        body: CreateBody,
        response: { 200: Ok(z.object({ batches: z.array(BatchDetail) })), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      const session = seller(request);
      const body = request.body;
      const key = idempotencyKeyOf(request, body.idempotency_key);
      const now = new Date();
      const settings: BatchSettings = {
        name: body.name || null,
        prefix: body.prefix ?? DEFAULT_PREFIX,
        digits: body.digits ?? DEFAULT_DIGITS,
        type: body.type ?? 'normal',
        pickerId: await checkPicker(db, session.tenantId, body.picker_id ?? null),
        maxOrders: body.max_orders ?? DEFAULT_MAX_ORDERS,
        split: body.split ?? 'none',
        date: body.date ?? dayIn(await tenantTimezone(db, session.tenantId), now),
        source: 'manual',
        configId: null,
      };
      const made = await answeringRefusals(request, db, session.tenantId, () =>
        createBatches(
          { store, db },
          { tenantId: session.tenantId, userId: session.userId, at: now.toISOString() },
          {
            commandId: commandIdOf(session.tenantId, 'batch-create', key),
            orderIds: body.order_ids,
            settings,
          },
        ),
      );
      const batches: BatchDetail[] = [];
      for (const batch of made) {
        if (batch.status !== 'none') batches.push(await detailOf(session.tenantId, batch.batchId));
      }
      return ok(request, { batches }, 'batch.created', { count: batches.length });
    },
  );

  /** Adding orders to an open batch and taking them out: the same body, checks and answer (the batch now). */
  const ordersRoute = (
    path: string,
    summary: string,
    change: typeof addOrdersToBatch,
    commandPrefix: string,
    message: string,
  ) =>
    app.post(
      path,
      {
        config: { access: { permission: BATCH_KEY } },
        schema: {
          tags,
          summary,
          params: IdParams,
          body: OrdersBody,
          response: { 200: Ok(BatchDetail), ...refusals, ...conflicts },
        },
      },
      async (request) => {
        const session = seller(request);
        const batchId = batchIdOf(request.params.id);
        const key = idempotencyKeyOf(request, request.body.idempotency_key);
        await answeringRefusals(request, db, session.tenantId, () =>
          change(
            { store, db },
            { tenantId: session.tenantId, userId: session.userId, at: new Date().toISOString() },
            {
              commandId: commandIdOf(session.tenantId, `${commandPrefix}:${batchId}`, key),
              batchId,
              orderIds: request.body.order_ids,
            },
          ),
        );
        return ok(request, await detailOf(session.tenantId, batchId), message);
      },
    );
  ordersRoute(
    '/api/orders/batches/:id/orders',
    'Add orders to an open batch (the rules of making one hold, and its most orders)',
    addOrdersToBatch,
    'batch-add',
    'batch.orders_added',
  );
  ordersRoute(
    '/api/orders/batches/:id/orders/remove',
    'Take orders out of an open batch: they may be batched again',
    removeOrdersFromBatch,
    'batch-remove',
    'batch.orders_removed',
  );

  app.post(
    '/api/orders/batches/:id/picker',
    {
      config: { access: { permission: BATCH_KEY } },
      schema: {
        tags,
        summary: 'Give the batch to a picker (an active user of the account), or to nobody (null)',
        params: IdParams,
        body: PickerBody,
        response: { 200: Ok(BatchDetail), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      const session = seller(request);
      const batchId = batchIdOf(request.params.id);
      const key = idempotencyKeyOf(request, request.body.idempotency_key);
      await detailOf(session.tenantId, batchId);
      const pickerId = await checkPicker(db, session.tenantId, request.body.picker_id);
      await answeringRefusals(request, db, session.tenantId, () =>
        handleBatchCommand(
          store,
          batchId,
          { type: 'AssignPicker', pickerId },
          {
            tenantId: session.tenantId,
            userId: session.userId,
            commandId: commandIdOf(session.tenantId, `batch-picker:${batchId}`, key),
            occurredAt: new Date().toISOString(),
          },
        ),
      );
      return ok(request, await detailOf(session.tenantId, batchId), 'batch.picker_assigned');
    },
  );

  app.post(
    '/api/orders/batches/:id/close',
    {
      config: { access: { permission: BATCH_KEY } },
      schema: {
        tags,
        summary: 'Close the batch: the round is done (its orders keep their batch)',
        params: IdParams,
        body: ActionBody,
        response: { 200: Ok(BatchDetail), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      const session = seller(request);
      const batchId = batchIdOf(request.params.id);
      const key = idempotencyKeyOf(request, request.body?.idempotency_key);
      await detailOf(session.tenantId, batchId);
      await answeringRefusals(request, db, session.tenantId, () =>
        handleBatchCommand(
          store,
          batchId,
          { type: 'CloseBatch' },
          {
            tenantId: session.tenantId,
            userId: session.userId,
            commandId: commandIdOf(session.tenantId, `batch-close:${batchId}`, key),
            occurredAt: new Date().toISOString(),
          },
        ),
      );
      return ok(request, await detailOf(session.tenantId, batchId), 'batch.closed');
    },
  );
};
