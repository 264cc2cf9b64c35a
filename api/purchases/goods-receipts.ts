import { ok } from '@api/answers';
import { seller } from '@api/auth/session';
import { GridPage } from '@api/contracts/common';
import { IdParams } from '@api/contracts/ids';
import {
  EmptyBody,
  GoodsReceiptDetail,
  GoodsReceiptListQuery,
  GoodsReceiptListRow,
  NewGoodsReceipt,
  ReasonBody,
} from '@api/contracts/purchases';
import { conflicts, router } from '@api/route';
import { actOnGoodsReceipt, type GoodsReceiptAction } from '@commands/purchases/actions';
import { goodsReceiptDetail } from '@commands/purchases/details';
import { openGoodsReceipt } from '@commands/purchases/open-goods-receipt';
import { goodsReceiptList } from '@projections/purchases.queries';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { commandDeps, documentIdOf, managing, type PurchaseDeps, tags, viewerOf, viewing } from './common';

/**
 * Goods receive notes (spec §3, §4; domain/purchases/goods-receipt.ts), opened on an ordered or partial purchase
 * order (commands/purchases/open-goods-receipt.ts); approve, reject, receive and cancel are the note's workflow's
 * updates. Stock moves only when a note is received. Viewing: purchases-index; changing: purchases-manage.
 */

const Reason = ReasonBody.default({ reason: '' });

/** The actions, `POST /api/purchases/goods-receipts/:id/<action>`, each run by the note's workflow. */
const actions: Record<
  GoodsReceiptAction['action'],
  { summary: string; body: typeof EmptyBody | typeof Reason }
> = {
  approve: {
    summary: 'Approve a note waiting for approval (not by its creator, unless the owner): 5 Waiting Receive',
    body: EmptyBody,
  },
  reject: {
    summary: 'Reject a note waiting for approval: 6 Reject; its quantities go back to the order',
    body: Reason,
  },
  receive: {
    summary:
      'Receive a note (1 Pending or 5 Waiting Receive): the stock moves, the order follows (partial, received): 2 Complete',
    body: EmptyBody,
  },
  cancel: {
    summary: 'Cancel a note not yet complete: 3 Cancel; its quantities go back to the order',
    body: Reason,
  },
};

export const goodsReceiptRoutes: FastifyPluginAsyncZod<PurchaseDeps> = async (app, deps) => {
  const route = router(app, { tags, access: viewing });
  const detailOf = { params: IdParams, answer: GoodsReceiptDetail } as const;

  route.get(
    '/api/purchases/goods-receipts',
    {
      summary:
        "The goods receive note list (ag-grid Infinite Row Model; purchase_id: one order's notes); live view `goodsReceipts`",
      query: GoodsReceiptListQuery,
      answer: GridPage(GoodsReceiptListRow),
    },
    async (request) => ok(request, await goodsReceiptList(deps.db, seller(request).tenantId, request.query)),
  );

  route.get(
    '/api/purchases/goods-receipts/:id',
    {
      summary: 'One goods receive note: its lines, the actions the caller may take and the timeline',
      ...detailOf,
    },
    async (request) =>
      ok(request, await goodsReceiptDetail(commandDeps(deps), viewerOf(request), request.params.id)),
  );

  route.post(
    '/api/purchases/:id/goods-receipts',
    {
      summary:
        'Open a goods receive note on an order (ordered or partial): received + returned per line ≤ what is still outstanding (409, code 542). Pending, or Waiting Approve when the account requires it; receive_now completes a note that needs no approval',
      access: managing,
      ...detailOf,
      body: NewGoodsReceipt,
      errors: conflicts,
    },
    async (request) => {
      const { idempotency_key: key, ...input } = request.body;
      const goodsReceiptId = documentIdOf(request, 'goods-receipt', key);
      const done = await openGoodsReceipt(commandDeps(deps), viewerOf(request), {
        ...input,
        purchaseId: request.params.id,
        goodsReceiptId,
      });
      return ok(request, done.detail, done.key, done.params);
    },
  );

  for (const [action, { summary, body }] of Object.entries(actions)) {
    route.post(
      `/api/purchases/goods-receipts/:id/${action}`,
      { summary, access: managing, ...detailOf, body, errors: conflicts },
      async (request) => {
        const input = { action, ...request.body } as GoodsReceiptAction;
        const done = await actOnGoodsReceipt(commandDeps(deps), viewerOf(request), request.params.id, input);
        return ok(request, done.detail, done.key, done.params);
      },
    );
  }
};
