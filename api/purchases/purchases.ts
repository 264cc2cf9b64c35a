import { ok } from '@api/answers';
import { seller } from '@api/auth/session';
import { GridPage } from '@api/contracts/common';
import { IdParams } from '@api/contracts/ids';
import {
  EmptyBody,
  NewPurchase,
  PurchaseDetail,
  PurchaseListQuery,
  PurchaseListRow,
  PurchaseSettings,
  PurchaseSettingsBody,
  ReasonBody,
  ReturnBody,
} from '@api/contracts/purchases';
import { conflicts, router } from '@api/route';
import { actOnPurchase, type PurchaseAction } from '@commands/purchases/actions';
import { raisePurchase } from '@commands/purchases/create-purchase';
import { purchaseDetail } from '@commands/purchases/details';
import { savePurchaseSettings } from '@commands/purchases/settings';
import { purchaseList, purchaseSettings } from '@projections/purchases.queries';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { commandDeps, documentIdOf, managing, type PurchaseDeps, tags, viewerOf, viewing } from './common';

/**
 * Purchase orders (spec §3 Purchase, §4 states; domain/purchases/purchase.ts has the state machine). Creation records
 * a draft (the reactor starts its workflow `purchase-<tenant>-<id>`); every later action is an update of that
 * workflow, which refuses what the order's state does not allow. Viewing: purchases-index; changing:
 * purchases-manage; the settings: the owner.
 */

const Reason = ReasonBody.default({ reason: '' });

/** The actions, `POST /api/purchases/:id/<action>`, each run by the order's workflow. */
const actions: Record<PurchaseAction['action'], { summary: string; body: z.ZodType }> = {
  place: {
    summary:
      'Place a draft order: ordered (its items become incoming at the warehouse), or pending approval when the account requires it',
    body: EmptyBody,
  },
  approve: {
    summary: 'Approve an order pending approval (not by its creator, unless the owner): it becomes ordered',
    body: EmptyBody,
  },
  reject: {
    summary: 'Reject an order pending approval: it goes back to pending with the reason',
    body: ReasonBody,
  },
  cancel: {
    summary:
      'Cancel an order before anything was received (no goods receive note open): what was expected stops being incoming',
    body: Reason,
  },
  void: {
    summary:
      'Void (annul) an order not fully received, with no note open: received stock stays, the rest stops being incoming',
    body: Reason,
  },
  return: {
    summary:
      'Return received goods to the supplier: they leave the stock, and the order becomes returned (closed)',
    body: ReturnBody,
  },
};

export const purchaseRoutes: FastifyPluginAsyncZod<PurchaseDeps> = async (app, deps) => {
  const { db } = deps;
  const route = router(app, { tags, access: viewing });
  const detailOf = { params: IdParams, answer: PurchaseDetail } as const;

  route.get(
    '/api/purchases',
    {
      summary: 'The purchase list (ag-grid Infinite Row Model); live view `purchases`',
      query: PurchaseListQuery,
      answer: GridPage(PurchaseListRow),
    },
    async (request) => ok(request, await purchaseList(db, seller(request).tenantId, request.query)),
  );

  route.post(
    '/api/purchases',
    {
      summary:
        'Raise a purchase order: saved as a draft (pending), or placed at once with place: true (ordered, or pending approval when the account requires it). Idempotency-Key: a retry creates nothing twice',
      access: managing,
      body: NewPurchase,
      answer: PurchaseDetail,
      errors: conflicts,
    },
    async (request) => {
      const { idempotency_key: key, ...input } = request.body;
      const purchaseId = documentIdOf(request, 'purchase', key);
      const done = await raisePurchase(commandDeps(deps), viewerOf(request), { ...input, purchaseId });
      return ok(request, done.detail, done.key, done.params);
    },
  );

  route.get(
    '/api/purchases/settings',
    {
      summary: "The account's purchase settings: whether orders and goods receive notes need an approval",
      answer: PurchaseSettings,
    },
    async (request) => ok(request, await purchaseSettings(db, seller(request).tenantId)),
  );

  route.put(
    '/api/purchases/settings',
    {
      summary: "Change the account's purchase settings (the owner only)",
      access: 'owner',
      body: PurchaseSettingsBody,
      answer: PurchaseSettings,
    },
    async (request) =>
      ok(
        request,
        await savePurchaseSettings({ db }, viewerOf(request), request.body),
        'purchases.settings_saved',
      ),
  );

  route.get(
    '/api/purchases/:id',
    {
      summary:
        'One purchase order: its lines (with the moving average cost), goods receive notes, the actions the caller may take and the timeline',
      ...detailOf,
    },
    async (request) =>
      ok(request, await purchaseDetail(commandDeps(deps), viewerOf(request), request.params.id)),
  );

  for (const [action, { summary, body }] of Object.entries(actions)) {
    route.post(
      `/api/purchases/:id/${action}`,
      { summary, access: managing, ...detailOf, body, errors: conflicts },
      async (request) => {
        const input = { action, ...(request.body as object) } as PurchaseAction;
        const done = await actOnPurchase(commandDeps(deps), viewerOf(request), request.params.id, input);
        return ok(request, done.detail, done.key, done.params);
      },
    );
  }
};
