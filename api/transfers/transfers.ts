import { ErrorAnswer, GridPage, Ok, ok, refusals } from '@api/answers';
import { seller } from '@api/auth/session';
import { invalid, notFound } from '@api/errors';
import { handleTransferCommand, loadTransfer } from '@commands/transfers/transfer';
import { MAX_LINES, MAX_QUANTITY, REMARK_MAX, type TransferAction } from '@domain/transfers/rules';
import type { OpenTransfer } from '@domain/transfers/transfer';
import type { UpdateDefinition } from '@temporalio/common';
import {
  type Actor,
  cancelTransferUpdate,
  confirmTransferUpdate,
  receiveTransferUpdate,
  returnRestUpdate,
  shipTransferUpdate,
  type TransferSnapshot,
} from '@workflows/transfer-protocol';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  answeringRefusals,
  DocumentBody,
  documentId,
  documentStore,
  IdempotencyKey,
  IdParams,
  idempotencyKeyOf,
  newDocumentOf,
  RefId,
  requireAny,
  TRANSFER_READERS,
  TransferCode,
  type TransferDeps,
  tags,
} from './common';
import { TransferDetail, transferDetail } from './documents';
import { TransferListQuery, TransferListRow, transferPage } from './lists';
import { runTransferAction, startTransferWorkflowSoon } from './workflow';

/**
 * Transfers: list, detail, create (directly; an approved request makes one too), and the actions of spec §4 —
 * confirm, ship, receive (in part or whole), return the rest, cancel — each run by the transfer's workflow.
 */

const conflicts = { 409: ErrorAnswer, 503: ErrorAnswer };
const manage = { access: { permission: 'transfer-manage-transfer' } } as const;

const ActionBody = z.strictObject({ idempotency_key: IdempotencyKey.optional() }).optional();

const receiptQuantity = invalid(TransferCode.quantityInvalid, 'transfer.receipt_quantity_invalid', {
  max: MAX_QUANTITY,
});
const receiptRequired = invalid(TransferCode.receiptInvalid, 'transfer.nothing_to_receive');
const ReceiveBody = z.strictObject({
  lines: z
    .array(
      z.strictObject({
        master_code_id: RefId,
        quantity: z
          .number({ error: receiptQuantity })
          .int(receiptQuantity)
          .min(0, receiptQuantity)
          .max(MAX_QUANTITY, receiptQuantity),
      }),
      { error: receiptRequired },
    )
    .min(1, receiptRequired)
    .max(MAX_LINES, receiptRequired),
  idempotency_key: IdempotencyKey.optional(),
});

const CancelBody = z
  .strictObject({
    reason: z
      .string({ error: invalid(TransferCode.textInvalid, 'transfer.text_invalid', { field: 'reason' }) })
      .trim()
      .max(
        REMARK_MAX,
        invalid(TransferCode.textInvalid, 'transfer.too_long', { field: 'reason', max: REMARK_MAX }),
      )
      .optional(),
    idempotency_key: IdempotencyKey.optional(),
  })
  .optional();

const ACTION_MESSAGES: Record<TransferAction, string> = {
  confirm: 'transfer.confirmed',
  ship: 'transfer.shipped',
  receive: 'transfer.received',
  returnRest: 'transfer.rest_returned',
  cancel: 'transfer.cancelled',
};

export const transferRoutes: FastifyPluginAsyncZod<TransferDeps> = async (app, deps) => {
  const { db, workflows } = deps;
  const store = documentStore(deps.store);

  /** The open transfer an action names (404: none, or another account's). */
  async function openTransfer(tenantId: string, id: string): Promise<OpenTransfer> {
    const { state } = await loadTransfer(store, tenantId, documentId(id));
    if (state.status === 'none') throw notFound();
    return state;
  }

  /** One action: the document, the workflow's update, the transfer after it. */
  async function act<Args extends Actor>(
    request: FastifyRequest,
    id: string,
    action: TransferAction,
    update: UpdateDefinition<TransferSnapshot, [Args]>,
    extra: Omit<Args, keyof Actor>,
    opts: { bodyKey?: string | undefined; receipt?: { masterCodeId: string; quantity: number }[] } = {},
  ) {
    const session = seller(request);
    const transfer = await openTransfer(session.tenantId, id);
    const key = idempotencyKeyOf(request, opts.bodyKey);
    const args = { ...extra, userId: session.userId, permissions: [...session.permissions] } as Args;
    await runTransferAction(
      request,
      { db, store, workflows },
      session.tenantId,
      transfer,
      action,
      update,
      args,
      {
        updateId: key === undefined ? undefined : `${action}:${key}`,
        ...(opts.receipt ? { receipt: opts.receipt } : {}),
      },
    );
    return ok(
      request,
      await transferDetail(db, store, session.tenantId, transfer.transferId),
      ACTION_MESSAGES[action],
    );
  }

  app.get(
    '/api/transfer-stock/transfers',
    {
      config: { access: 'seller' },
      preHandler: requireAny(TRANSFER_READERS),
      schema: {
        tags,
        summary:
          'Transfers, ag-grid Infinite Row Model: filter by status (pending, in_transit, completed, cancelled), places and reference',
        querystring: TransferListQuery,
        response: { 200: Ok(GridPage(TransferListRow)), ...refusals },
      },
    },
    async (request) => ok(request, await transferPage(db, seller(request).tenantId, request.query)),
  );

  app.get(
    '/api/transfer-stock/transfers/:id',
    {
      config: { access: 'seller' },
      preHandler: requireAny(TRANSFER_READERS),
      schema: {
        tags,
        summary:
          'One transfer: lines with shipped, received, returned and in-transit quantities, who acted when, and its timeline (every stock step with its recorded undo)',
        params: IdParams,
        response: { 200: Ok(TransferDetail), ...refusals },
      },
    },
    async (request) =>
      ok(request, await transferDetail(db, store, seller(request).tenantId, documentId(request.params.id))),
  );

  app.post(
    '/api/transfer-stock/transfers',
    {
      config: manage,
      schema: {
        tags,
        summary:
          'Make a transfer directly: from and to (different places), reference, lines of standard master codes, remark (Idempotency-Key: a retry creates once)',
        body: DocumentBody,
        response: { 200: Ok(TransferDetail), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      const session = seller(request);
      const created = await newDocumentOf(request, db, session, request.body, 'transfer');
      const result = await answeringRefusals(request, db, session.tenantId, () =>
        handleTransferCommand(
          store,
          created.id,
          { type: 'CreateTransfer', transferId: created.id, requestId: null, ...created.fields },
          created.context,
        ),
      );
      if (result.state.status === 'pending') {
        await startTransferWorkflowSoon(request, workflows, session.tenantId, result.state);
      }
      const detail = await transferDetail(db, store, session.tenantId, created.id);
      return ok(request, detail, result.replayed ? 'common.ok' : 'transfer.created');
    },
  );

  app.post(
    '/api/transfer-stock/transfers/:id/confirm',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Confirm a pending transfer: the source acknowledges it (optional before shipping)',
        params: IdParams,
        body: ActionBody,
        response: { 200: Ok(TransferDetail), ...refusals, ...conflicts },
      },
    },
    async (request) =>
      act(
        request,
        request.params.id,
        'confirm',
        confirmTransferUpdate,
        {},
        { bodyKey: request.body?.idempotency_key },
      ),
  );

  app.post(
    '/api/transfer-stock/transfers/:id/ship',
    {
      config: manage,
      schema: {
        tags,
        summary:
          'Ship a pending transfer: each line out of the source and in transit, incoming at the destination (409: wrong state 509, another action running 510, not enough stock 513)',
        params: IdParams,
        body: ActionBody,
        response: { 200: Ok(TransferDetail), ...refusals, ...conflicts },
      },
    },
    async (request) =>
      act(
        request,
        request.params.id,
        'ship',
        shipTransferUpdate,
        {},
        { bodyKey: request.body?.idempotency_key },
      ),
  );

  app.post(
    '/api/transfer-stock/transfers/:id/receive',
    {
      config: manage,
      schema: {
        tags,
        summary:
          'Receive a transfer in transit, in part or whole: pieces per master code, each at most what is in transit (409, code 511); completed when nothing is left in transit',
        params: IdParams,
        body: ReceiveBody,
        response: { 200: Ok(TransferDetail), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      const lines = request.body.lines.map((line) => ({
        masterCodeId: line.master_code_id.toLowerCase(),
        quantity: line.quantity,
      }));
      return act(
        request,
        request.params.id,
        'receive',
        receiveTransferUpdate,
        { lines },
        { bodyKey: request.body.idempotency_key, receipt: lines },
      );
    },
  );

  app.post(
    '/api/transfer-stock/transfers/:id/return-rest',
    {
      config: manage,
      schema: {
        tags,
        summary:
          'Return what is still in transit to the source after a partial receipt; the transfer is then completed (409, code 514, when nothing was received: cancel instead)',
        params: IdParams,
        body: ActionBody,
        response: { 200: Ok(TransferDetail), ...refusals, ...conflicts },
      },
    },
    async (request) =>
      act(
        request,
        request.params.id,
        'returnRest',
        returnRestUpdate,
        {},
        { bodyKey: request.body?.idempotency_key },
      ),
  );

  app.post(
    '/api/transfer-stock/transfers/:id/cancel',
    {
      config: manage,
      schema: {
        tags,
        summary:
          'Cancel a transfer: before shipping nothing moves; after shipping what is still in transit returns to the source',
        params: IdParams,
        body: CancelBody,
        response: { 200: Ok(TransferDetail), ...refusals, ...conflicts },
      },
    },
    async (request) =>
      act(
        request,
        request.params.id,
        'cancel',
        cancelTransferUpdate,
        { reason: request.body?.reason ?? '' },
        { bodyKey: request.body?.idempotency_key },
      ),
  );
};
