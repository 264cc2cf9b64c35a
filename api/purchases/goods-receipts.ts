import { GridPage, Ok, ok, refusals } from '@api/answers';
import { seller } from '@api/auth/session';
import { IdParams } from '@api/contracts/ids';
import {
  EmptyBody,
  GoodsReceiptDetail,
  GoodsReceiptListQuery,
  GoodsReceiptListRow,
  NewGoodsReceipt,
  ReasonBody,
} from '@api/contracts/purchases';
import { runUpdate } from '@api/workflows';
import { openGoodsReceipt } from '@commands/purchases/open-goods-receipt';
import { goodsReceiptProcesses, startWorkflow } from '@commands/purchases/processes';
import { FINAL_GOODS_RECEIPT_STATUSES } from '@domain/purchases/goods-receipt';
import { masterCodesOfTenant } from '@projections/documents.queries';
import { goodsReceiptList } from '@projections/purchases.queries';
import {
  approveGoodsReceiptUpdate,
  cancelGoodsReceiptUpdate,
  GOODS_RECEIPT_WORKFLOW,
  type GoodsReceiptWorkflowInput,
  goodsReceiptWorkflowId,
  receiveGoodsReceiptUpdate,
  rejectGoodsReceiptUpdate,
} from '@workflows/goods-receipt-protocol';
import { purchaseWorkflowId } from '@workflows/purchase-protocol';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  actionRoutes,
  actorOf,
  commandStore,
  conflicts,
  documentIdOf,
  managing,
  type PurchaseDeps,
  tags,
  viewing,
  workflowActor,
} from './common';
import { goodsReceiptDetail, goodsReceiptOf, purchaseOf } from './documents';

/**
 * Goods receive notes (spec §3, §4: 1 Pending, 2 Complete, 3 Cancel, 4 Waiting Approve, 5 Waiting Receive, 6 Reject;
 * domain/purchases/goods-receipt.ts). A note is opened on a purchase order that is ordered or partial
 * (commands/purchases/open-goods-receipt.ts). Approve, reject, receive and cancel are the note's workflow's updates.
 * Stock moves only when a note is received (completes).
 */

export const goodsReceiptRoutes: FastifyPluginAsyncZod<PurchaseDeps> = async (app, deps) => {
  const { db, workflows } = deps;

  app.get(
    '/api/purchases/goods-receipts',
    {
      config: viewing,
      schema: {
        tags,
        summary:
          "The goods receive note list (ag-grid Infinite Row Model; purchase_id: one order's notes); live view `goodsReceipts`",
        querystring: GoodsReceiptListQuery,
        response: { 200: Ok(GridPage(GoodsReceiptListRow)), ...refusals },
      },
    },
    async (request) => ok(request, await goodsReceiptList(db, seller(request).tenantId, request.query)),
  );

  app.get(
    '/api/purchases/goods-receipts/:id',
    {
      config: viewing,
      schema: {
        tags,
        summary: 'One goods receive note: its lines, the actions the caller may take and the timeline',
        params: IdParams,
        response: { 200: Ok(GoodsReceiptDetail), ...refusals },
      },
    },
    async (request) =>
      ok(request, await goodsReceiptDetail(db, commandStore(deps.store), seller(request), request.params.id)),
  );

  app.post(
    '/api/purchases/:id/goods-receipts',
    {
      config: managing,
      schema: {
        tags,
        summary:
          'Open a goods receive note on an order (ordered or partial): received + returned per line ≤ what is still outstanding (409, code 542). Pending, or Waiting Approve when the account requires it; receive_now completes a note that needs no approval',
        params: IdParams,
        body: NewGoodsReceipt,
        response: { 200: Ok(GoodsReceiptDetail), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      const session = seller(request);
      const store = commandStore(deps.store);
      const order = await purchaseOf(store, session.tenantId, request.params.id);
      const { idempotency_key: key, ...input } = request.body;
      const goodsReceiptId = documentIdOf(request, session.tenantId, 'goods-receipt', key);
      await openGoodsReceipt({ db, store, processes: goodsReceiptProcesses(workflows) }, actorOf(session), {
        ...input,
        goodsReceiptId,
        order,
      });
      const detail = await goodsReceiptDetail(db, store, session, goodsReceiptId);
      return ok(request, detail, 'purchases.grn.created', { grnNumber: detail.grn_number });
    },
  );

  const action = actionRoutes(
    app,
    '/api/purchases/goods-receipts',
    GoodsReceiptDetail,
    async (session, id) => {
      const { note, revision } = await goodsReceiptOf(commandStore(deps.store), session.tenantId, id);
      return {
        workflowId: goodsReceiptWorkflowId(session.tenantId, note.goodsReceiptId),
        codes: await masterCodesOfTenant(
          db,
          session.tenantId,
          note.lines.map((line) => line.masterCodeId),
        ),
        // An open note whose workflow is gone gets it back (api/workflows.ts withWorkflow).
        restart: FINAL_GOODS_RECEIPT_STATUSES.includes(note.status)
          ? null
          : () =>
              startWorkflow(
                workflows,
                GOODS_RECEIPT_WORKFLOW,
                goodsReceiptWorkflowId(session.tenantId, note.goodsReceiptId),
                {
                  tenantId: session.tenantId,
                  goodsReceiptId: note.goodsReceiptId,
                  goodsReceipt: note,
                  revision,
                  purchaseWorkflowId: purchaseWorkflowId(session.tenantId, note.purchaseId),
                } satisfies GoodsReceiptWorkflowInput,
              ),
        answer: async (name) => ({
          detail: await goodsReceiptDetail(db, commandStore(deps.store), session, note.goodsReceiptId),
          key: `purchases.grn.done.${name}`,
          params: { grnNumber: note.grnNumber },
        }),
      };
    },
  );

  const Reason = ReasonBody.default({ reason: '' });

  action(
    'approve',
    'Approve a note waiting for approval (not by its creator, unless the owner): 5 Waiting Receive',
    EmptyBody,
    (session, workflowId, _body, handlers) =>
      runUpdate(workflows, workflowId, approveGoodsReceiptUpdate, [workflowActor(session)], handlers),
  );
  action(
    'reject',
    'Reject a note waiting for approval: 6 Reject; its quantities go back to the order',
    Reason,
    (session, workflowId, body, handlers) =>
      runUpdate(
        workflows,
        workflowId,
        rejectGoodsReceiptUpdate,
        [{ ...workflowActor(session), reason: body.reason }],
        handlers,
      ),
  );
  action(
    'receive',
    'Receive a note (1 Pending or 5 Waiting Receive): the stock moves, the order follows (partial, received): 2 Complete',
    EmptyBody,
    (session, workflowId, _body, handlers) =>
      runUpdate(workflows, workflowId, receiveGoodsReceiptUpdate, [workflowActor(session)], handlers),
  );
  action(
    'cancel',
    'Cancel a note not yet complete: 3 Cancel; its quantities go back to the order',
    Reason,
    (session, workflowId, body, handlers) =>
      runUpdate(
        workflows,
        workflowId,
        cancelGoodsReceiptUpdate,
        [{ ...workflowActor(session), reason: body.reason }],
        handlers,
      ),
  );
};
