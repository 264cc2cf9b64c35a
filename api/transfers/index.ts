/**
 * The transfer stock API (issue 5; spec §3 "Transfer request and transfer", §4, §5, §6): transfer requests, plain
 * event-sourced documents (domain/transfers/transfer-request.ts), and transfers, each driven by its Temporal
 * workflow `transfer-<tenant>-<id>` (workflows/transfer.workflow.ts), the saga that moves the stock.
 *
 * Every answer is `{ code: 0, msg, data }`; a refusal is an HTTP 4xx with `{ code, msg, errors? }`. Another account's
 * request, transfer, place or master code answers exactly like a missing one (404). Every write takes an idempotency
 * key (header `Idempotency-Key` or body `idempotency_key`): a create retried with it makes one document; an action
 * retried with it answers the first answer. Codes (domain/transfers/rules.ts TransferCode):
 * 500 "Transfer source and destination branches must differ", 501 lines required (1–500), 502 quantity not a
 * whole number 1..1e9, 503 master code twice, 504 master code not found (404), 505 a combo (no stock of its own),
 * 506 place not found (404), 507 reject reason required, 508 request no longer pending (409), 509 the transfer's
 * state does not allow the action (409), 510 another action on the transfer still running (409: a double click),
 * 511 receive more than in transit (409), 512 receipt invalid (nothing to receive, a master code not on the
 * transfer), 513 not enough stock at the source while the account refuses negative manual stock (409), 514 nothing
 * to return or nothing received yet (409), 515 a stock step failed and the action was undone (409), 516 text too
 * long, 517 idempotency key invalid, 518 idempotency key used for another document (409); 403 without the key of
 * spec §6; 503 when the workflows do not answer.
 *
 * ---- pickers (any of the three keys) ----
 * GET  /api/transfer-stock/places               the account's warehouses and branches [{ id, code, name, kind }]
 * GET  /api/transfer-stock/master-codes?search&limit  standard master codes [{ id, code, name, status }]
 *
 * ---- requests (read: transfer-manage-request or transfer-approve-request) ----
 * GET  /api/transfer-stock/requests            grid: startRow, endRow, sortModel (reference, from, to, status,
 *      total_quantity, created_at, updated_at), filterModel (reference, remark, from, to: text; status: set;
 *      created_at: date), search (reference, remark), status, from_warehouse_id, to_warehouse_id, warehouse_id
 * GET  /api/transfer-stock/requests/:id        detail: lines, stamps (created, approved, rejected, cancelled: by, at),
 *      timeline [{type, at, user {id, name}, data}]
 * POST /api/transfer-stock/requests            (transfer-manage-request) { from_warehouse_id, to_warehouse_id,
 *      reference?, remark?, lines: [{ master_code_id, quantity }] } → pending
 * POST /api/transfer-stock/requests/:id/approve (transfer-approve-request) → approved, data.transfer_id: the transfer
 *      made of its lines (pending, its workflow started)
 * POST /api/transfer-stock/requests/:id/reject  (transfer-approve-request) { reason } → rejected
 * POST /api/transfer-stock/requests/:id/cancel  (transfer-manage-request) → cancelled
 *
 * ---- transfers (read: any of the three keys; write: transfer-manage-transfer) ----
 * GET  /api/transfer-stock/transfers           grid as above (+ received_quantity, shipped_at, received_at sorts;
 *      shipped_at filter)
 * GET  /api/transfer-stock/transfers/:id       detail: lines {quantity, shipped, received, returned, in_transit},
 *      stamps, timeline (with every stock step and the undo it recorded)
 * POST /api/transfer-stock/transfers           (as a request) → pending
 * POST /api/transfer-stock/transfers/:id/confirm      pending, not yet confirmed → confirmed (optional: shipping
 *      confirms too)
 * POST /api/transfer-stock/transfers/:id/ship         pending → in transit: TransferStockOut at the source and
 *      ExpectStock (incoming) at the destination, per line
 * POST /api/transfer-stock/transfers/:id/receive      in transit, { lines: [{ master_code_id, quantity ≥ 0 }] }:
 *      TransferStockIn at the destination settling incoming; completed when nothing is left in transit
 * POST /api/transfer-stock/transfers/:id/return-rest  in transit, something received: the rest back into the source
 *      (TransferStockIn there, CancelExpectedStock at the destination) → completed
 * POST /api/transfer-stock/transfers/:id/cancel       { reason? } pending → cancelled (nothing moves); in transit →
 *      the rest returns to the source, cancelled
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { TransferRouteDeps } from './common';
import { transferPickerRoutes } from './pickers';
import { transferRequestRoutes } from './requests';
import { transferRoutes as transferDocumentRoutes } from './transfers';

export const transferRoutes: FastifyPluginAsyncZod<TransferRouteDeps> = async (app, deps) => {
  await app.register(transferRequestRoutes, deps);
  await app.register(transferDocumentRoutes, deps);
  await app.register(transferPickerRoutes, deps);
};
