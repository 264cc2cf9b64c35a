import { ErrorAnswer, GridPage, Ok, ok, refusals } from '@api/answers';
import { type SellerSession, seller } from '@api/auth/session';
import { invalid } from '@api/errors';
import { handleTransferCommand } from '@commands/transfers/transfer';
import { handleTransferRequestCommand, loadTransferRequest } from '@commands/transfers/transfer-request';
import { DomainError } from '@domain/shared/errors';
import { REMARK_MAX } from '@domain/transfers/rules';
import type { TransferRequestCommand, TransferRequestState } from '@domain/transfers/transfer-request';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  answeringRefusals,
  commandContext,
  commandIdOf,
  DocumentBody,
  documentId,
  documentStore,
  IdempotencyKey,
  IdParams,
  idempotencyKeyOf,
  newDocumentOf,
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
      commandContext({ tenantId, userId }, `${tenantId}:transfer-of-request:${state.requestId}`),
    );
    if (created.state.status === 'pending') {
      await startTransferWorkflowSoon(request, deps.workflows, tenantId, created.state);
    }
    return transferId;
  }

  /** Records a person's decision on the request; `purpose` scopes its idempotency key. */
  const decide = (
    request: FastifyRequest,
    session: SellerSession,
    requestId: string,
    purpose: 'approve' | 'reject' | 'cancel',
    command: TransferRequestCommand,
    bodyKey: string | undefined,
  ) => {
    const key = idempotencyKeyOf(request, bodyKey);
    return handleTransferRequestCommand(
      store,
      requestId,
      command,
      commandContext(session, commandIdOf(session.tenantId, `${purpose}:${requestId}`, key)),
    );
  };

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
      const created = await newDocumentOf(request, db, session, request.body, 'transfer-request');
      const result = await answeringRefusals(request, db, session.tenantId, () =>
        handleTransferRequestCommand(
          store,
          created.id,
          { type: 'CreateTransferRequest', requestId: created.id, ...created.fields },
          created.context,
        ),
      );
      const detail = await requestDetail(db, store, session.tenantId, created.id);
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
      const transferId = transferIdOfRequest(session.tenantId, requestId);
      const result = await answeringRefusals(request, db, session.tenantId, async () => {
        try {
          return await decide(
            request,
            session,
            requestId,
            'approve',
            { type: 'ApproveTransferRequest', transferId },
            request.body?.idempotency_key,
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
      await answeringRefusals(request, db, session.tenantId, () =>
        decide(
          request,
          session,
          requestId,
          'reject',
          { type: 'RejectTransferRequest', reason: request.body.reason },
          request.body.idempotency_key,
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
      await answeringRefusals(request, db, session.tenantId, () =>
        decide(
          request,
          session,
          requestId,
          'cancel',
          { type: 'CancelTransferRequest' },
          request.body?.idempotency_key,
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
