import { ErrorAnswer, Ok, ok, refusals } from '@api/answers';
import { seller } from '@api/auth/session';
import {
  ActionBody,
  BatchDetail,
  BatchOrdersBody,
  CreateBatchesBody,
  CreatedBatches,
  PickerBody,
} from '@api/contracts/batches';
import { IdParams } from '@api/contracts/ids';
import {
  addOrdersByHand,
  assignBatchPicker,
  closeBatch,
  createBatchesByHand,
  removeOrdersByHand,
} from '@commands/batches/manual';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  BATCH_KEY,
  type BatchDeps,
  batchIdOf,
  commandIdOf,
  idempotencyKeyOf,
  batchTags as tags,
} from './batches-common';

/** Making batches by hand and changing them: create from a selection, add and take out orders, picker, close. */

const conflicts = { 409: ErrorAnswer };

export const batchActionRoutes: FastifyPluginAsyncZod<BatchDeps> = async (app, deps) => {
  app.post(
    '/api/orders/batches',
    {
      config: { access: { permission: BATCH_KEY } },
      schema: {
        tags,
        summary:
          'Batch the selected orders (new or unscan, in no batch; a pre-order batch takes pre-orders only, a normal one no pre-order): split by logistics or payment method and cut at the most orders per batch, so one batch or several; numbered prefix + zero-padded account sequence (Idempotency-Key: a retry makes the same batches once)',
        body: CreateBatchesBody,
        response: { 200: Ok(CreatedBatches), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      const session = seller(request);
      const { body } = request;
      const key = idempotencyKeyOf(request, body.idempotency_key);
      const batches = await createBatchesByHand(deps, session, {
        commandId: commandIdOf(session.tenantId, 'batch-create', key),
        orderIds: body.order_ids,
        name: body.name,
        prefix: body.prefix,
        digits: body.digits,
        type: body.type,
        pickerId: body.picker_id,
        maxOrders: body.max_orders,
        split: body.split,
        date: body.date,
      });
      return ok(request, { batches }, 'batch.created', { count: batches.length });
    },
  );

  /** Adding orders to an open batch and taking them out: the same body, checks and answer (the batch now). */
  const ordersRoute = (
    path: string,
    summary: string,
    change: typeof addOrdersByHand,
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
          body: BatchOrdersBody,
          response: { 200: Ok(BatchDetail), ...refusals, ...conflicts },
        },
      },
      async (request) => {
        const session = seller(request);
        const batchId = batchIdOf(request.params.id);
        const key = idempotencyKeyOf(request, request.body.idempotency_key);
        const batch = await change(deps, session, {
          commandId: commandIdOf(session.tenantId, `${commandPrefix}:${batchId}`, key),
          batchId,
          orderIds: request.body.order_ids,
        });
        return ok(request, batch, message);
      },
    );
  ordersRoute(
    '/api/orders/batches/:id/orders',
    'Add orders to an open batch (the rules of making one hold, and its most orders)',
    addOrdersByHand,
    'batch-add',
    'batch.orders_added',
  );
  ordersRoute(
    '/api/orders/batches/:id/orders/remove',
    'Take orders out of an open batch: they may be batched again',
    removeOrdersByHand,
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
      const batch = await assignBatchPicker(deps, session, {
        commandId: commandIdOf(session.tenantId, `batch-picker:${batchId}`, key),
        batchId,
        pickerId: request.body.picker_id,
      });
      return ok(request, batch, 'batch.picker_assigned');
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
      const batch = await closeBatch(deps, session, {
        commandId: commandIdOf(session.tenantId, `batch-close:${batchId}`, key),
        batchId,
      });
      return ok(request, batch, 'batch.closed');
    },
  );
};
