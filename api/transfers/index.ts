/**
 * Transfer stock (issue 5; spec §3 "Transfer request and transfer", §4–§6): transfer requests, approved into
 * transfers, and transfers, each driven by its workflow (workflows/transfer.workflow.ts); the pickers of their
 * forms. Requests are read with transfer-manage-request or transfer-approve-request, made and cancelled with the
 * first, approved and rejected with the second; transfers and the pickers are read with any of the three transfer
 * keys, made and acted on with transfer-manage-transfer. Every write takes an idempotency key (header or body).
 */
import { ok } from '@api/answers';
import { seller } from '@api/auth/session';
import { GridPage } from '@api/contracts/common';
import { IdParams } from '@api/contracts/ids';
import {
  ApprovedRequest,
  CancelTransferBody,
  EditTransferBody,
  PickerMasterCode,
  PickerPlace,
  PickerSearchQuery,
  ReceiveTransferBody,
  RejectRequestBody,
  RequestDetail,
  RequestListQuery,
  RequestListRow,
  ShortfallAnswer,
  ShortfallCheckBody,
  TransferActionBody,
  TransferDetail,
  TransferDocumentBody,
  TransferListQuery,
  TransferListRow,
} from '@api/contracts/transfers';
import { ApiError } from '@api/errors';
import { IDEMPOTENCY_KEY_MAX, idempotencyKeyOf } from '@api/idempotency';
import { conflicts, router } from '@api/route';
import type { Answered } from '@commands/support/answer';
import { checkShortfalls } from '@commands/transfers/check-shortfalls';
import { createTransfer, createTransferRequest } from '@commands/transfers/create-document';
import { requestDetail, transferDetail } from '@commands/transfers/details';
import { editTransfer } from '@commands/transfers/edit-transfer';
import {
  approveTransferRequest,
  cancelTransferRequest,
  rejectTransferRequest,
} from '@commands/transfers/request-decisions';
import { actOnTransfer, type TransferActionRequest } from '@commands/transfers/run-action';
import type { TransferDeps } from '@commands/transfers/support';
import { TransferCode } from '@domain/transfers/rules';
import { pickerMasterCodes, pickerPlaces, requestPage, transferPage } from '@projections/transfers.queries';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

const REQUESTS = '/api/transfer-stock/requests';
const TRANSFERS = '/api/transfer-stock/transfers';
const requestReaders = { anyOf: ['transfer-manage-request', 'transfer-approve-request'] } as const;
const transferReaders = { anyOf: ['transfer-manage-transfer', ...requestReaders.anyOf] } as const;
const manageRequests = { permission: 'transfer-manage-request' } as const;
const approveRequests = { permission: 'transfer-approve-request' } as const;
const requestChange = { params: IdParams, answer: RequestDetail, errors: { 409: conflicts[409] } } as const;
const transferChange = { access: { permission: 'transfer-manage-transfer' }, errors: conflicts } as const;
const transferAction = { ...transferChange, params: IdParams, answer: TransferDetail } as const;

/** The request's idempotency key: the header or the body's (both given, they must agree). */
const keyOf = (request: FastifyRequest, bodyKey?: string) =>
  idempotencyKeyOf(request, bodyKey, {
    invalid: () =>
      new ApiError(400, TransferCode.keyInvalid, 'transfer.idempotency_key_invalid', {
        max: IDEMPOTENCY_KEY_MAX,
      }),
    mismatch: () => new ApiError(400, TransferCode.keyInvalid, 'transfer.idempotency_key_mismatch'),
  });

export const transferRoutes: FastifyPluginAsyncZod<TransferDeps> = async (app, deps) => {
  const { db } = deps;
  const route = router(app, { tags: ['transfer-stock'], access: transferReaders });

  /** A decision on the request of the path, answered with the request after it. */
  const decide = async <T>(
    request: FastifyRequest<{ Params: IdParams }>,
    bodyKey: string | undefined,
    run: (input: { id: string; key: string | undefined }) => Promise<Answered<T>>,
  ) => ok(request, ...(await run({ id: request.params.id, key: keyOf(request, bodyKey) })));

  /** One action through the transfer's workflow, answered with the transfer after it. */
  const act = async (
    request: FastifyRequest<{ Params: IdParams }>,
    action: TransferActionRequest,
    bodyKey: string | undefined,
  ) => {
    const input = { ...action, id: request.params.id, key: keyOf(request, bodyKey) };
    return ok(request, ...(await actOnTransfer(deps, seller(request), input)));
  };

  route.get(
    REQUESTS,
    {
      summary:
        'Transfer requests, ag-grid Infinite Row Model: filter by status, places (from, to, either) and reference',
      access: requestReaders,
      query: RequestListQuery,
      answer: GridPage(RequestListRow),
    },
    async (request) => ok(request, await requestPage(db, seller(request).tenantId, request.query)),
  );

  route.get(
    `${REQUESTS}/:id`,
    {
      summary: 'One transfer request with its lines and timeline (who did what, when)',
      access: requestReaders,
      params: IdParams,
      answer: RequestDetail,
    },
    async (request) => ok(request, await requestDetail(deps, seller(request).tenantId, request.params.id)),
  );

  route.post(
    REQUESTS,
    {
      summary:
        'Ask for stock: from and to (warehouses or branches, different), reference, lines of standard master codes, remark (Idempotency-Key: a retry creates once)',
      access: manageRequests,
      body: TransferDocumentBody,
      answer: RequestDetail,
      errors: { 409: conflicts[409] },
    },
    async (request) => {
      const input = { key: keyOf(request, request.body.idempotency_key), body: request.body };
      return ok(request, ...(await createTransferRequest(deps, seller(request), input)));
    },
  );

  route.post(
    `${REQUESTS}/:id/approve`,
    {
      summary:
        'Approve a pending request: the transfer of its lines is made (409, code 508, when it is no longer pending)',
      access: approveRequests,
      body: TransferActionBody,
      ...requestChange,
      answer: ApprovedRequest,
    },
    async (request) =>
      decide(request, request.body?.idempotency_key, (input) =>
        approveTransferRequest(deps, seller(request), input),
      ),
  );

  route.post(
    `${REQUESTS}/:id/reject`,
    {
      summary:
        'Reject a pending request with a reason (400, code 507, without one; 409, code 508, when not pending)',
      access: approveRequests,
      body: RejectRequestBody,
      ...requestChange,
    },
    async (request) =>
      decide(request, request.body.idempotency_key, (input) =>
        rejectTransferRequest(deps, seller(request), { ...input, reason: request.body.reason }),
      ),
  );

  route.post(
    `${REQUESTS}/:id/cancel`,
    {
      summary: 'Cancel a pending request (409, code 508, when it is no longer pending)',
      access: manageRequests,
      body: TransferActionBody,
      ...requestChange,
    },
    async (request) =>
      decide(request, request.body?.idempotency_key, (input) =>
        cancelTransferRequest(deps, seller(request), input),
      ),
  );

  route.get(
    TRANSFERS,
    {
      summary:
        'Transfers, ag-grid Infinite Row Model: filter by status (pending, in_transit, completed, cancelled), places and reference',
      query: TransferListQuery,
      answer: GridPage(TransferListRow),
    },
    async (request) => ok(request, await transferPage(db, seller(request).tenantId, request.query)),
  );

  route.get(
    `${TRANSFERS}/:id`,
    {
      summary:
        'One transfer: lines with shipped, received, returned and in-transit quantities, who acted when, and its timeline (every stock step with its recorded undo)',
      params: IdParams,
      answer: TransferDetail,
    },
    async (request) => ok(request, await transferDetail(deps, seller(request).tenantId, request.params.id)),
  );

  route.post(
    TRANSFERS,
    {
      summary:
        'Make a transfer directly: from and to (different places), reference, lines of standard master codes, remark (Idempotency-Key: a retry creates once)',
      ...transferChange,
      body: TransferDocumentBody,
      answer: TransferDetail,
    },
    async (request) => {
      const input = { key: keyOf(request, request.body.idempotency_key), body: request.body };
      return ok(request, ...(await createTransfer(deps, seller(request), input)));
    },
  );

  /** The actions without fields of their own (spec §4), by path. */
  const plainActions = [
    [
      'confirm',
      'confirm',
      'Confirm a pending transfer: the source acknowledges it (optional before shipping)',
    ],
    [
      'ship',
      'ship',
      'Ship a pending transfer: each line out of the source and in transit, incoming at the destination (409: wrong state 509, another action running 510, not enough stock 513)',
    ],
    [
      'return-rest',
      'returnRest',
      'Return what is still in transit to the source after a partial receipt; the transfer is then completed (409, code 514, when nothing was received: cancel instead)',
    ],
  ] as const;
  for (const [path, action, summary] of plainActions) {
    route.post(
      `${TRANSFERS}/:id/${path}`,
      { summary, body: TransferActionBody, ...transferAction },
      async (request) => act(request, { action }, request.body?.idempotency_key),
    );
  }

  route.post(
    `${TRANSFERS}/:id/edit`,
    {
      summary:
        'Edit a pending transfer: its lines, destination and remark, against the revision its detail answered (409: shipped 509, changed since 519); lines beyond what the source has on hand answer as shortfalls',
      body: EditTransferBody,
      ...transferAction,
    },
    async (request) => {
      const input = {
        id: request.params.id,
        key: keyOf(request, request.body.idempotency_key),
        body: request.body,
      };
      return ok(request, ...(await editTransfer(deps, seller(request), input)));
    },
  );

  route.post(
    `${TRANSFERS}/:id/receive`,
    {
      summary:
        'Receive a transfer in transit, in part or whole: pieces per master code, each at most what is in transit (409, code 511); completed when nothing is left in transit',
      body: ReceiveTransferBody,
      ...transferAction,
    },
    async (request) => {
      const { lines, idempotency_key } = request.body;
      return act(request, { action: 'receive', lines }, idempotency_key);
    },
  );

  route.post(
    `${TRANSFERS}/:id/cancel`,
    {
      summary:
        'Cancel a transfer: before shipping nothing moves; after shipping what is still in transit returns to the source',
      body: CancelTransferBody,
      ...transferAction,
    },
    async (request) =>
      act(request, { action: 'cancel', reason: request.body?.reason }, request.body?.idempotency_key),
  );

  route.get(
    '/api/transfer-stock/places',
    {
      summary: 'The warehouses (default first) and branches a transfer may go from or to',
      answer: z.array(PickerPlace),
    },
    async (request) => ok(request, await pickerPlaces(db, seller(request).tenantId)),
  );

  route.post(
    '/api/transfer-stock/shortfalls',
    {
      summary:
        'The lines that ask for more than the source has on hand now, with the figures: warned in the forms, refused only when shipping',
      body: ShortfallCheckBody,
      answer: z.array(ShortfallAnswer),
    },
    async (request) => ok(request, await checkShortfalls(deps, seller(request).tenantId, request.body)),
  );

  route.get(
    '/api/transfer-stock/master-codes',
    {
      summary: 'Standard master codes whose code, name or seller SKU contains the search, by code',
      query: PickerSearchQuery,
      answer: z.array(PickerMasterCode),
    },
    async (request) => ok(request, await pickerMasterCodes(db, seller(request).tenantId, request.query)),
  );
};
