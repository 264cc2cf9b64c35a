import { GridPage, Ok, ok, refusals } from '@api/answers';
import { seller } from '@api/auth/session';
import {
  BatchAnswer,
  BatchDetail,
  BatchListQuery,
  PickerAnswer,
  WaitingQuery,
  WaitingRow,
} from '@api/contracts/batches';
import { IdParams } from '@api/contracts/ids';
import { batchDetail } from '@commands/batches/detail';
import { activePickers, batchPage, waitingPage } from '@projections/batches.queries';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BATCH_KEY, type BatchDeps, batchIdOf, batchTags as tags } from './batches-common';

/**
 * Reading batches: the list (ag-grid Infinite Row Model), one batch with its orders and history, the orders waiting
 * for a batch (what "create batch" selects from), and the account's users a batch can be given to.
 */

export const batchListRoutes: FastifyPluginAsyncZod<BatchDeps> = async (app, deps) => {
  const { db } = deps;

  app.get(
    '/api/orders/batches',
    {
      config: { access: { permission: BATCH_KEY } },
      schema: {
        tags,
        summary:
          'Batches, ag-grid Infinite Row Model: sort by number, label, name, date, status, type, total orders, created; filter by label, name, group, status, type, created; search label, name, group',
        querystring: BatchListQuery,
        response: { 200: Ok(GridPage(BatchAnswer)), ...refusals },
      },
    },
    async (request) => ok(request, await batchPage(db, seller(request).tenantId, request.query)),
  );

  app.get(
    '/api/orders/batches/waiting',
    {
      config: { access: { permission: BATCH_KEY } },
      schema: {
        tags,
        summary:
          'Orders waiting for a batch (new or unscan, in no batch), ag-grid Infinite Row Model; type=pre-order lists pre-orders only, type=normal the others',
        querystring: WaitingQuery,
        response: { 200: Ok(GridPage(WaitingRow)), ...refusals },
      },
    },
    async (request) => ok(request, await waitingPage(db, seller(request).tenantId, request.query)),
  );

  app.get(
    '/api/orders/batches/pickers',
    {
      config: { access: { permission: BATCH_KEY } },
      schema: {
        tags,
        summary: 'The active users of the account a batch can be given to',
        response: { 200: Ok(z.array(PickerAnswer)), ...refusals },
      },
    },
    async (request) => ok(request, await activePickers(db, seller(request).tenantId)),
  );

  app.get(
    '/api/orders/batches/:id',
    {
      config: { access: { permission: BATCH_KEY } },
      schema: {
        tags,
        summary: 'One batch: its orders as they are now (status, scan check) and its history',
        params: IdParams,
        response: { 200: Ok(BatchDetail), ...refusals },
      },
    },
    async (request) =>
      ok(request, await batchDetail(deps, seller(request).tenantId, batchIdOf(request.params.id))),
  );
};
