import { GridPage, Ok, ok, refusals } from '@api/answers';
import { seller } from '@api/auth/session';
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
import { runUpdate } from '@api/workflows';
import { createPurchase } from '@commands/purchases/create-purchase';
import { purchaseProcesses, purchaseRestart } from '@commands/purchases/processes';
import { savePurchaseSettings } from '@commands/purchases/settings';
import { logActivity } from '@commands/support/activity';
import { purchasingInputErrors } from '@domain/purchases/codes';
import { refuser } from '@domain/shared/errors';
import { masterCodesOfTenant } from '@projections/documents.queries';
import { purchaseList, purchaseSettings } from '@projections/purchases.queries';
import {
  approvePurchaseUpdate,
  cancelPurchaseUpdate,
  placePurchaseUpdate,
  purchaseWorkflowId,
  rejectPurchaseUpdate,
  returnPurchaseUpdate,
  voidPurchaseUpdate,
} from '@workflows/purchase-protocol';
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
import { purchaseDetail, purchaseOf } from './documents';

/**
 * Purchase orders (spec §3 Purchase, §4 states; domain/purchases/purchase.ts has the state machine). The route
 * records a new order (a draft, `pending`) and starts its workflow (`purchase-<tenant>-<id>`); every later action is
 * an update of that workflow, which refuses what the order's state does not allow — the answer is then a 4xx and
 * nothing is recorded or moved. See api/purchases/index.ts for the list of routes.
 */

const refuse = refuser(purchasingInputErrors);

export const purchaseRoutes: FastifyPluginAsyncZod<PurchaseDeps> = async (app, deps) => {
  const { db, workflows } = deps;
  const commandDeps = () => ({
    db,
    store: commandStore(deps.store),
    processes: purchaseProcesses(workflows),
  });

  app.get(
    '/api/purchases',
    {
      config: viewing,
      schema: {
        tags,
        summary: 'The purchase list (ag-grid Infinite Row Model); live view `purchases`',
        querystring: PurchaseListQuery,
        response: { 200: Ok(GridPage(PurchaseListRow)), ...refusals },
      },
    },
    async (request) => ok(request, await purchaseList(db, seller(request).tenantId, request.query)),
  );

  app.post(
    '/api/purchases',
    {
      config: managing,
      schema: {
        tags,
        summary:
          'Raise a purchase order: saved as a draft (pending), or placed at once with place: true (ordered, or pending approval when the account requires it). Idempotency-Key: a retry creates nothing twice',
        body: NewPurchase,
        response: { 200: Ok(PurchaseDetail), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      const session = seller(request);
      const { idempotency_key: key, ...input } = request.body;
      const purchaseId = documentIdOf(request, session.tenantId, 'purchase', key);
      const created = await createPurchase(commandDeps(), actorOf(session), {
        ...input,
        purchaseId,
        commandId: `purchase-create:${purchaseId}`,
        occurredAt: new Date().toISOString(),
      });
      if (!created.replayed) {
        await logActivity(db, {
          tenantId: session.tenantId,
          userId: session.userId,
          action: 'purchase.created',
          subjectType: 'purchase',
          subjectId: purchaseId,
          detail: { po_number: created.poNumber, placed: input.place },
        });
      }
      return ok(
        request,
        await purchaseDetail(db, commandStore(deps.store), session, purchaseId),
        'purchases.created',
        { poNumber: created.poNumber },
      );
    },
  );

  app.get(
    '/api/purchases/settings',
    {
      config: viewing,
      schema: {
        tags,
        summary: "The account's purchase settings: whether orders and goods receive notes need an approval",
        response: { 200: Ok(PurchaseSettings), ...refusals },
      },
    },
    async (request) => ok(request, await purchaseSettings(db, seller(request).tenantId)),
  );

  app.put(
    '/api/purchases/settings',
    {
      config: { access: 'owner' },
      schema: {
        tags,
        summary: "Change the account's purchase settings (the owner only)",
        body: PurchaseSettingsBody,
        response: { 200: Ok(PurchaseSettings), ...refusals },
      },
    },
    async (request) => {
      const session = seller(request);
      await savePurchaseSettings({ db }, actorOf(session), request.body);
      return ok(request, await purchaseSettings(db, session.tenantId), 'purchases.settings_saved');
    },
  );

  app.get(
    '/api/purchases/:id',
    {
      config: viewing,
      schema: {
        tags,
        summary:
          'One purchase order: its lines (with the moving average cost), goods receive notes, the actions the caller may take and the timeline',
        params: IdParams,
        response: { 200: Ok(PurchaseDetail), ...refusals },
      },
    },
    async (request) =>
      ok(request, await purchaseDetail(db, commandStore(deps.store), seller(request), request.params.id)),
  );

  const action = actionRoutes(app, '/api/purchases', PurchaseDetail, async (session, id) => {
    const { purchase, revision } = await purchaseOf(commandStore(deps.store), session.tenantId, id);
    return {
      workflowId: purchaseWorkflowId(session.tenantId, purchase.purchaseId),
      codes: await masterCodesOfTenant(
        db,
        session.tenantId,
        purchase.lines.map((line) => line.masterCodeId),
      ),
      // An open order whose workflow is gone gets it back (api/workflows.ts withWorkflow).
      restart: purchaseRestart(workflows, session.tenantId, purchase, revision),
      answer: async (name) => ({
        detail: await purchaseDetail(db, commandStore(deps.store), session, purchase.purchaseId),
        key: `purchases.done.${name}`,
        params: { poNumber: purchase.poNumber },
      }),
    };
  });

  action(
    'place',
    'Place a draft order: ordered (its items become incoming at the warehouse), or pending approval when the account requires it',
    EmptyBody,
    async (session, workflowId, _body, handlers) => {
      const settings = await purchaseSettings(db, session.tenantId);
      await runUpdate(
        workflows,
        workflowId,
        placePurchaseUpdate,
        [{ ...workflowActor(session), approvalRequired: settings.purchase_approval }],
        handlers,
      );
    },
  );
  action(
    'approve',
    'Approve an order pending approval (not by its creator, unless the owner): it becomes ordered',
    EmptyBody,
    (session, workflowId, _body, handlers) =>
      runUpdate(workflows, workflowId, approvePurchaseUpdate, [workflowActor(session)], handlers),
  );
  action(
    'reject',
    'Reject an order pending approval: it goes back to pending with the reason',
    ReasonBody,
    (session, workflowId, body, handlers) =>
      runUpdate(
        workflows,
        workflowId,
        rejectPurchaseUpdate,
        [{ ...workflowActor(session), reason: body.reason }],
        handlers,
      ),
  );
  action(
    'cancel',
    'Cancel an order before anything was received (no goods receive note open): what was expected stops being incoming',
    ReasonBody.default({ reason: '' }),
    (session, workflowId, body, handlers) =>
      runUpdate(
        workflows,
        workflowId,
        cancelPurchaseUpdate,
        [{ ...workflowActor(session), reason: body.reason }],
        handlers,
      ),
  );
  action(
    'void',
    'Void (annul) an order not fully received, with no note open: received stock stays, the rest stops being incoming',
    ReasonBody.default({ reason: '' }),
    (session, workflowId, body, handlers) =>
      runUpdate(
        workflows,
        workflowId,
        voidPurchaseUpdate,
        [{ ...workflowActor(session), reason: body.reason }],
        handlers,
      ),
  );
  action(
    'return',
    'Return received goods to the supplier: they leave the stock, and the order becomes returned (closed)',
    ReturnBody,
    async (session, workflowId, body, handlers) => {
      const codes = await masterCodesOfTenant(
        db,
        session.tenantId,
        body.items.map((item) => item.master_code_id),
      );
      const lines = body.items.map((item) => {
        const code = codes.get(item.master_code_id.toLowerCase());
        if (!code) throw refuse('MASTER_CODE_NOT_FOUND', { code: item.master_code_id });
        return { masterCodeId: code.id, quantity: item.quantity };
      });
      await runUpdate(
        workflows,
        workflowId,
        returnPurchaseUpdate,
        [{ ...workflowActor(session), reason: body.reason, lines }],
        handlers,
      );
    },
  );
};
