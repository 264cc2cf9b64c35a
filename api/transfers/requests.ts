import { ErrorAnswer, GridPage, Ok, ok, refusals } from '@api/answers';
import { seller } from '@api/auth/session';
import { invalid } from '@api/errors';
import { handleTransferCommand } from '@commands/transfers/transfer';
import { handleTransferRequestCommand, loadTransferRequest } from '@commands/transfers/transfer-request';
import { DomainError } from '@domain/shared/errors';
import { REMARK_MAX } from '@domain/transfers/rules';
import type { TransferRequestState } from '@domain/transfers/transfer-request';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  answeringRefusals,
  checkMasterCodes,
  checkPlaces,
  commandIdOf,
  DocumentBody,
  defaultReference,
  documentId,
  documentStore,
  IdempotencyKey,
  IdParams,
  idempotencyKeyOf,
  newDocumentId,
  REQUEST_READERS,
  requireAny,
  TransferCode,
  type TransferDeps,
  tags,
  transferIdOfRequest,
} from './common';
import { describeRequest, RequestDetail, requestDetail } from './documents';
import { RequestListQuery, RequestListRow, requestPage } from './lists';
import { startTransferWorkflowSoon } from './workflow';

/** Transfer requests: list, detail, create, approve (which makes the transfer), reject, cancel. */

const conflicts = { 409: ErrorAnswer };

const reasonRequired = invalid(TransferCode.rejectReasonRequired, 'transfer.reject_reason_required');
const RejectBody = z.strictObject({
  reason: z
    .string({ error: reasonRequired })
    .trim()
    .min(1, reasonRequired)
    .max(
      REMARK_MAX,
      invalid(TransferCode.textInvalid, 'transfer.too_long', { field: 'reason', max: REMARK_MAX }),
    ),
  idempotency_key: IdempotencyKey.optional(),
});
const ActionBody = z.strictObject({ idempotency_key: IdempotencyKey.optional() }).optional();

const ApproveAnswer = RequestDetail.extend({ transfer_id: z.string() });

type PendingOrDecided = Exclude<TransferRequestState, { status: 'none' }>;

export const transferRequestRoutes: FastifyPluginAsyncZod<TransferDeps> = async (app, deps) => {
  const { db } = deps;
  const store = documentStore(deps.store);

  /**
   * The transfer an approved request makes: the request's lines, linked both ways (the approval names the transfer,
   * the transfer its request), recorded once whoever approves and however often the approval is retried; then its
   * workflow starts.
   */
  async function ensureTransferOf(
    request: Parameters<typeof startTransferWorkflowSoon>[0],
    tenantId: string,
    userId: string,
    state: PendingOrDecided,
  ): Promise<string> {
    const transferId = state.transferId ?? transferIdOfRequest(tenantId, state.requestId);
    const created = await handleTransferCommand(
      store,
      transferId,
      {
        type: 'CreateTransfer',
        transferId,
        requestId: state.requestId,
        fromWarehouseId: state.fromWarehouseId,
        toWarehouseId: state.toWarehouseId,
        reference: state.reference,
        remark: state.remark,
        lines: state.lines,
      },
      {
        tenantId,
        userId,
        commandId: `${tenantId}:transfer-of-request:${state.requestId}`,
        occurredAt: new Date().toISOString(),
      },
    );
    if (created.state.status === 'pending') {
      await startTransferWorkflowSoon(request, deps.workflows, tenantId, created.state);
    }
    return transferId;
  }

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
    async (request) => {
      const { tenantId } = seller(request);
      return ok(request, await requestDetail(db, store, tenantId, documentId(request.params.id)));
    },
  );

  app.post(
    '/api/transfer-stock/requests',
    {
      config: { access: { permission: 'transfer-manage-request' } },
      schema: {
        tags,
        summary:
          'Ask for stock: from and to (warehouses or branches, different), reference, lines of standard master codes, remark (Idempotency-Key: a retry creates once)',
        body: DocumentBody,
        response: { 200: Ok(RequestDetail), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      const session = seller(request);
      const body = request.body;
      const key = idempotencyKeyOf(request, body.idempotency_key);
      const places = await checkPlaces(db, session.tenantId, body.from_warehouse_id, body.to_warehouse_id);
      const lines = await checkMasterCodes(db, session.tenantId, body.lines);
      const requestId = newDocumentId(session.tenantId, 'transfer-request', key);
      const result = await answeringRefusals(request, db, session.tenantId, () =>
        handleTransferRequestCommand(
          store,
          requestId,
          {
            type: 'CreateTransferRequest',
            requestId,
            fromWarehouseId: places.from,
            toWarehouseId: places.to,
            reference: body.reference || defaultReference('TRQ', requestId),
            remark: body.remark ?? '',
            lines,
          },
          {
            tenantId: session.tenantId,
            userId: session.userId,
            commandId: commandIdOf(session.tenantId, 'transfer-request', key),
            occurredAt: new Date().toISOString(),
          },
        ),
      );
      const detail = await requestDetail(db, store, session.tenantId, requestId);
      return ok(request, detail, result.replayed ? 'common.ok' : 'transfer.request_created');
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
        body: ActionBody,
        response: { 200: Ok(ApproveAnswer), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      const session = seller(request);
      const requestId = documentId(request.params.id);
      const key = idempotencyKeyOf(request, request.body?.idempotency_key);
      const transferId = transferIdOfRequest(session.tenantId, requestId);
      const result = await answeringRefusals(request, db, session.tenantId, async () => {
        try {
          return await handleTransferRequestCommand(
            store,
            requestId,
            { type: 'ApproveTransferRequest', transferId },
            {
              tenantId: session.tenantId,
              userId: session.userId,
              commandId: commandIdOf(session.tenantId, `approve:${requestId}`, key),
              occurredAt: new Date().toISOString(),
            },
          );
        } catch (error) {
          // Approved before: make sure its transfer stands (an approval cut short after recording), then refuse.
          if (error instanceof DomainError && error.params.status === 'approved') {
            const { state } = await loadTransferRequest(store, session.tenantId, requestId);
            if (state.status === 'approved')
              await ensureTransferOf(request, session.tenantId, session.userId, state);
          }
          throw error;
        }
      });
      if (result.state.status === 'none') throw new Error('an approved request has no state');
      await ensureTransferOf(request, session.tenantId, session.userId, result.state);
      const { timeline } = await loadTransferRequest(store, session.tenantId, requestId);
      const detail = await describeRequest(db, session.tenantId, requestId, result.state, timeline);
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
        body: RejectBody,
        response: { 200: Ok(RequestDetail), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      const session = seller(request);
      const requestId = documentId(request.params.id);
      const key = idempotencyKeyOf(request, request.body.idempotency_key);
      await answeringRefusals(request, db, session.tenantId, () =>
        handleTransferRequestCommand(
          store,
          requestId,
          { type: 'RejectTransferRequest', reason: request.body.reason },
          {
            tenantId: session.tenantId,
            userId: session.userId,
            commandId: commandIdOf(session.tenantId, `reject:${requestId}`, key),
            occurredAt: new Date().toISOString(),
          },
        ),
      );
      return ok(
        request,
        await requestDetail(db, store, session.tenantId, requestId),
        'transfer.request_rejected',
      );
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
        body: ActionBody,
        response: { 200: Ok(RequestDetail), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      const session = seller(request);
      const requestId = documentId(request.params.id);
      const key = idempotencyKeyOf(request, request.body?.idempotency_key);
      await answeringRefusals(request, db, session.tenantId, () =>
        handleTransferRequestCommand(
          store,
          requestId,
          { type: 'CancelTransferRequest' },
          {
            tenantId: session.tenantId,
            userId: session.userId,
            commandId: commandIdOf(session.tenantId, `cancel:${requestId}`, key),
            occurredAt: new Date().toISOString(),
          },
        ),
      );
      return ok(
        request,
        await requestDetail(db, store, session.tenantId, requestId),
        'transfer.request_cancelled',
      );
    },
  );
};
