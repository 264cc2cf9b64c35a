/**
 * Batches, auto batch and scan to verify (issue 6 items 4 and 5; spec §2 /orders/batch, /orders/batch-setting,
 * /orders/smart-scan; §3 "Batch"; §4, §5, §8, §9): batches (here: the list, one batch, the orders waiting for one,
 * pickers, making, changing and separating batches by hand, the pick list), auto batch (batches-settings.ts) and scan
 * (scan.ts).
 * Another account's batch, order or tracking number answers like a missing one (404). Batches and auto batch
 * settings need "batch" (orders-batch); scanning needs "unscan", "order by task" or "batch".
 *
 * The plugin also runs the auto batch count trigger: when the order board says orders arrived or changed status
 * (live view `orderCounts`), each active configuration whose waiting orders reached its maximum gets its run.
 */
import { ErrorAnswer, GridPage, ok } from '@api/answers';
import { seller } from '@api/auth/session';
import {
  ActionBody,
  BatchAnswer,
  BatchDetail,
  BatchListQuery,
  BatchOrdersBody,
  CreateBatchesBody,
  CreatedBatches,
  PickerAnswer,
  PickerBody,
  PickListAnswer,
  PickListQuery,
  SeparateBody,
  WaitingQuery,
  WaitingRow,
} from '@api/contracts/batches';
import { IdParams } from '@api/contracts/ids';
import { router } from '@api/route';
import { AutoBatchCountTrigger } from '@commands/batches/auto-batch';
import { batchDetail } from '@commands/batches/detail';
import {
  addOrdersByHand,
  assignBatchPicker,
  type BatchChange,
  closeBatch,
  createBatchesByHand,
  removeOrdersByHand,
} from '@commands/batches/manual';
import { pickListOfBatch } from '@commands/batches/pick-list';
import { separateBatch } from '@commands/batches/separate';
import { pickListPdf } from '@commands/printing/pick-list-pdf';
import type { Actor } from '@commands/support/actor';
import { activePickers, batchPage, waitingPage } from '@projections/batches.queries';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  type BatchDeps,
  batchAccess,
  batchChangeOf,
  idempotencyKeyOf,
  batchTags as tags,
} from './batches-common';
import { batchSettingsRoutes } from './batches-settings';
import { fileAnswers, sendFile } from './print-common';
import { scanRoutes } from './scan';

const errors = { 409: ErrorAnswer };
const changeOf = { params: IdParams, answer: BatchDetail, errors } as const;

export const batchRoutes: FastifyPluginAsyncZod<BatchDeps> = async (app, deps) => {
  const { db } = deps;
  // The process that runs the reactors also follows the board's counts with its trigger (followOrderCounts); the
  // routes only nudge it when a configuration changes.
  const trigger =
    deps.trigger ??
    new AutoBatchCountTrigger(db, deps.workflows, (error, tenantId) =>
      app.log.warn({ err: error, tenantId }, 'auto batch count trigger failed'),
    );
  app.addHook('onClose', async () => {
    await trigger.idle();
  });
  const route = router(app, { tags, access: batchAccess });

  route.get(
    '/api/orders/batches',
    {
      summary: 'Batches (ag-grid Infinite Row Model; search label, name, group)',
      query: BatchListQuery,
      answer: GridPage(BatchAnswer),
    },
    async (request) => ok(request, await batchPage(db, seller(request).tenantId, request.query)),
  );

  route.get(
    '/api/orders/batches/waiting',
    {
      summary:
        'Orders waiting for a batch (new or unscan, in no batch), ag-grid Infinite Row Model; type=pre-order lists pre-orders only, type=normal the others',
      query: WaitingQuery,
      answer: GridPage(WaitingRow),
    },
    async (request) => ok(request, await waitingPage(db, seller(request).tenantId, request.query)),
  );

  route.get(
    '/api/orders/batches/pickers',
    { summary: 'The active users of the account a batch can be given to', answer: z.array(PickerAnswer) },
    async (request) => ok(request, await activePickers(db, seller(request).tenantId)),
  );

  route.get(
    '/api/orders/batches/:id',
    {
      summary: 'One batch: its orders as they are now (status, scan check) and its history',
      params: IdParams,
      answer: BatchDetail,
    },
    async (request) => ok(request, await batchDetail(deps, seller(request).tenantId, request.params.id)),
  );

  route.post(
    '/api/orders/batches',
    {
      summary:
        'Batch the selected orders (new or unscan, in no batch; a pre-order batch takes pre-orders only, a normal one no pre-order): split by logistics or payment method and cut at the most orders per batch, so one batch or several; numbered prefix + zero-padded account sequence (Idempotency-Key: a retry makes the same batches once)',
      body: CreateBatchesBody,
      answer: CreatedBatches,
      errors,
    },
    async (request) => {
      const key = idempotencyKeyOf(request, request.body.idempotency_key);
      const batches = await createBatchesByHand(deps, seller(request), { body: request.body, key });
      return ok(request, { batches }, 'batch.created', { count: batches.length });
    },
  );

  /** A change of an open batch by hand: the same path parameter, checks and answer (the batch now). */
  const change = <Body extends ActionBody>(
    path: string,
    summary: string,
    body: z.ZodType<Body>,
    command: (deps: BatchDeps, actor: Actor, input: BatchChange<Body>) => Promise<BatchDetail>,
    message: string,
  ) =>
    route.post(`/api/orders/batches/:id/${path}`, { summary, ...changeOf, body }, async (request) =>
      ok(
        request,
        await command(deps, seller(request), batchChangeOf(request, request.body as Body)),
        message,
      ),
    );
  change(
    'orders',
    'Add orders to an open batch (the rules of making one hold, and its most orders)',
    BatchOrdersBody,
    addOrdersByHand,
    'batch.orders_added',
  );
  change(
    'orders/remove',
    'Take orders out of an open batch: they may be batched again',
    BatchOrdersBody,
    removeOrdersByHand,
    'batch.orders_removed',
  );
  change(
    'picker',
    'Give the batch to a picker (an active user of the account), or to nobody (null)',
    PickerBody,
    assignBatchPicker,
    'batch.picker_assigned',
  );
  change(
    'close',
    'Close the batch: the round is done (its orders keep their batch)',
    ActionBody,
    closeBatch,
    'batch.closed',
  );

  route.post(
    '/api/orders/batches/:id/separate',
    {
      summary:
        'Separate an open batch by store, carrier (logistics), payment method, single or multiple items, or the chosen orders: the largest group stays, each other group becomes a batch with its settings (orders new or unscan only move; Idempotency-Key: a retry finishes the same separation). Answers the batch, then the batches made',
      params: IdParams,
      body: SeparateBody,
      answer: CreatedBatches,
      errors,
    },
    async (request) => {
      const { batchId, key, body } = batchChangeOf(request, request.body);
      const batches = await separateBatch(deps, seller(request), {
        batchId,
        key,
        body,
        language: request.language,
      });
      return ok(request, { batches }, 'batch.separated', { count: batches.length - 1 });
    },
  );

  route.get(
    '/api/orders/batches/:id/pick-list',
    {
      summary: 'The batch pick list by the filter asked for, with rack locations, in rack order',
      params: IdParams,
      query: PickListQuery,
      answer: PickListAnswer,
    },
    async (request) =>
      ok(
        request,
        await pickListOfBatch(deps, seller(request).tenantId, request.params.id, request.query.filter),
      ),
  );

  route.get(
    '/api/orders/batches/:id/pick-list.pdf',
    {
      summary: "The batch pick list as a PDF to print (labels in the caller's language)",
      params: IdParams,
      query: PickListQuery,
      raw: fileAnswers('The pick list; `content-disposition: inline; filename="pick-list-<label>.pdf"`', [
        'application/pdf',
      ]),
    },
    async (request, reply) => {
      const { pdf, name } = await pickListPdf(deps, seller(request).tenantId, {
        batchId: request.params.id,
        filter: request.query.filter,
        language: request.language,
      });
      return sendFile(reply, 'application/pdf', pdf, `inline; filename="${name}"`);
    },
  );

  await app.register(batchSettingsRoutes, { ...deps, trigger });
  await app.register(scanRoutes, deps);
};
