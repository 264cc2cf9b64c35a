import { ErrorAnswer, GridPage, Ok, ok, refusals } from '@api/answers';
import { seller } from '@api/auth/session';
import {
  CancelTransferBody,
  ReceiveTransferBody,
  TransferActionBody,
  TransferDetail,
  TransferDocumentBody,
  TransferListQuery,
  TransferListRow,
} from '@api/contracts/transfers';
import { createTransfer } from '@commands/transfers/create-document';
import { transferDetail } from '@commands/transfers/details';
import { runTransferAction, type TransferActionInput } from '@commands/transfers/run-action';
import type { TransferAction } from '@domain/transfers/rules';
import { transferPage } from '@projections/transfers.queries';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  commandDeps,
  documentId,
  IdParams,
  idempotencyKeyOf,
  newDocumentOf,
  requireAny,
  TRANSFER_READERS,
  type TransferRouteDeps,
  tags,
} from './common';

/**
 * Transfers: list, detail, create (directly; an approved request makes one too), and the actions of spec §4 —
 * confirm, ship, receive (in part or whole), return the rest, cancel — each run by the transfer's workflow.
 */

const conflicts = { 409: ErrorAnswer, 503: ErrorAnswer };
const manage = { access: { permission: 'transfer-manage-transfer' } } as const;

const ACTION_MESSAGES: Record<TransferAction, string> = {
  confirm: 'transfer.confirmed',
  ship: 'transfer.shipped',
  receive: 'transfer.received',
  returnRest: 'transfer.rest_returned',
  cancel: 'transfer.cancelled',
};

export const transferRoutes: FastifyPluginAsyncZod<TransferRouteDeps> = async (app, routeDeps) => {
  const { db } = routeDeps;
  const deps = commandDeps(routeDeps);

  /** One action through the transfer's workflow, answered with the transfer after it. */
  async function act(request: FastifyRequest, id: string, input: TransferActionInput, bodyKey?: string) {
    const session = seller(request);
    const transferId = documentId(id);
    const key = idempotencyKeyOf(request, bodyKey);
    await runTransferAction(
      deps,
      { ...session, permissions: [...session.permissions] },
      {
        ...input,
        transferId,
        key,
      },
    );
    return ok(
      request,
      await transferDetail(deps, session.tenantId, transferId),
      ACTION_MESSAGES[input.action],
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
      ok(request, await transferDetail(deps, seller(request).tenantId, documentId(request.params.id))),
  );

  app.post(
    '/api/transfer-stock/transfers',
    {
      config: manage,
      schema: {
        tags,
        summary:
          'Make a transfer directly: from and to (different places), reference, lines of standard master codes, remark (Idempotency-Key: a retry creates once)',
        body: TransferDocumentBody,
        response: { 200: Ok(TransferDetail), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      const session = seller(request);
      const created = await createTransfer(deps, session, newDocumentOf(request, request.body));
      const detail = await transferDetail(deps, session.tenantId, created.transferId);
      return ok(request, detail, created.replayed ? 'common.ok' : 'transfer.created');
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
        body: TransferActionBody,
        response: { 200: Ok(TransferDetail), ...refusals, ...conflicts },
      },
    },
    async (request) => act(request, request.params.id, { action: 'confirm' }, request.body?.idempotency_key),
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
        body: TransferActionBody,
        response: { 200: Ok(TransferDetail), ...refusals, ...conflicts },
      },
    },
    async (request) => act(request, request.params.id, { action: 'ship' }, request.body?.idempotency_key),
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
        body: ReceiveTransferBody,
        response: { 200: Ok(TransferDetail), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      const lines = request.body.lines.map((line) => ({
        masterCodeId: line.master_code_id.toLowerCase(),
        quantity: line.quantity,
      }));
      return act(request, request.params.id, { action: 'receive', lines }, request.body.idempotency_key);
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
        body: TransferActionBody,
        response: { 200: Ok(TransferDetail), ...refusals, ...conflicts },
      },
    },
    async (request) =>
      act(request, request.params.id, { action: 'returnRest' }, request.body?.idempotency_key),
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
        body: CancelTransferBody,
        response: { 200: Ok(TransferDetail), ...refusals, ...conflicts },
      },
    },
    async (request) =>
      act(
        request,
        request.params.id,
        { action: 'cancel', reason: request.body?.reason ?? '' },
        request.body?.idempotency_key,
      ),
  );
};
