import { ErrorAnswer, GridPage, Ok, ok, refusals } from '@api/answers';
import { seller } from '@api/auth/session';
import {
  ApprovedRequest,
  RejectRequestBody,
  RequestDetail,
  RequestListQuery,
  RequestListRow,
  TransferActionBody,
  TransferDocumentBody,
} from '@api/contracts/transfers';
import { createTransferRequest } from '@commands/transfers/create-document';
import { requestDetail } from '@commands/transfers/details';
import {
  approveTransferRequest,
  cancelTransferRequest,
  rejectTransferRequest,
} from '@commands/transfers/request-decisions';
import { requestPage } from '@projections/transfers.queries';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  commandDeps,
  documentId,
  IdParams,
  idempotencyKeyOf,
  newDocumentOf,
  REQUEST_READERS,
  requireAny,
  type TransferRouteDeps,
  tags,
} from './common';

/** Transfer requests: list, detail, create, approve (which makes the transfer), reject, cancel. */

const conflicts = { 409: ErrorAnswer };

export const transferRequestRoutes: FastifyPluginAsyncZod<TransferRouteDeps> = async (app, routeDeps) => {
  const { db } = routeDeps;
  const deps = commandDeps(routeDeps);

  app.get(
    '/api/transfer-stock/requests',
    {
      config: { access: 'seller' },
      preHandler: requireAny(REQUEST_READERS),
      schema: {
        tags,
        summary:
          'Transfer requests, ag-grid Infinite Row Model: filter by status, places (from, to, either) and reference',
        querystring: RequestListQuery,
        response: { 200: Ok(GridPage(RequestListRow)), ...refusals },
      },
    },
    async (request) => ok(request, await requestPage(db, seller(request).tenantId, request.query)),
  );

  app.get(
    '/api/transfer-stock/requests/:id',
    {
      config: { access: 'seller' },
      preHandler: requireAny(REQUEST_READERS),
      schema: {
        tags,
        summary: 'One transfer request with its lines and timeline (who did what, when)',
        params: IdParams,
        response: { 200: Ok(RequestDetail), ...refusals },
      },
    },
    async (request) =>
      ok(request, await requestDetail(deps, seller(request).tenantId, documentId(request.params.id))),
  );

  app.post(
    '/api/transfer-stock/requests',
    {
      config: { access: { permission: 'transfer-manage-request' } },
      schema: {
        tags,
        summary:
          'Ask for stock: from and to (warehouses or branches, different), reference, lines of standard master codes, remark (Idempotency-Key: a retry creates once)',
        body: TransferDocumentBody,
        response: { 200: Ok(RequestDetail), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      const session = seller(request);
      const created = await createTransferRequest(deps, session, newDocumentOf(request, request.body));
      const detail = await requestDetail(deps, session.tenantId, created.requestId);
      return ok(request, detail, created.replayed ? 'common.ok' : 'transfer.request_created');
    },
  );

  app.post(
    '/api/transfer-stock/requests/:id/approve',
    {
      config: { access: { permission: 'transfer-approve-request' } },
      schema: {
        tags,
        summary:
          'Approve a pending request: the transfer of its lines is made (409, code 508, when it is no longer pending)',
        params: IdParams,
        body: TransferActionBody,
        response: { 200: Ok(ApprovedRequest), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      const session = seller(request);
      const requestId = documentId(request.params.id);
      const key = idempotencyKeyOf(request, request.body?.idempotency_key);
      const { transferId } = await approveTransferRequest(deps, session, { requestId, key });
      const detail = await requestDetail(deps, session.tenantId, requestId);
      return ok(request, { ...detail, transfer_id: transferId }, 'transfer.request_approved');
    },
  );

  app.post(
    '/api/transfer-stock/requests/:id/reject',
    {
      config: { access: { permission: 'transfer-approve-request' } },
      schema: {
        tags,
        summary:
          'Reject a pending request with a reason (400, code 507, without one; 409, code 508, when not pending)',
        params: IdParams,
        body: RejectRequestBody,
        response: { 200: Ok(RequestDetail), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      const session = seller(request);
      const requestId = documentId(request.params.id);
      const key = idempotencyKeyOf(request, request.body.idempotency_key);
      await rejectTransferRequest(deps, session, { requestId, reason: request.body.reason, key });
      const detail = await requestDetail(deps, session.tenantId, requestId);
      return ok(request, detail, 'transfer.request_rejected');
    },
  );

  app.post(
    '/api/transfer-stock/requests/:id/cancel',
    {
      config: { access: { permission: 'transfer-manage-request' } },
      schema: {
        tags,
        summary: 'Cancel a pending request (409, code 508, when it is no longer pending)',
        params: IdParams,
        body: TransferActionBody,
        response: { 200: Ok(RequestDetail), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      const session = seller(request);
      const requestId = documentId(request.params.id);
      const key = idempotencyKeyOf(request, request.body?.idempotency_key);
      await cancelTransferRequest(deps, session, { requestId, key });
      const detail = await requestDetail(deps, session.tenantId, requestId);
      return ok(request, detail, 'transfer.request_cancelled');
    },
  );
};
