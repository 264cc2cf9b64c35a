/**
 * Goods issue notes (GIN) with approval layers 1 to 3 (issue 5; spec §3 "Goods receive and issue notes", §4 "Goods
 * issue note": statuses 1 Pending, 2 Complete, 3 Cancel, 4 Approve in progress, 5 Approved). A note is an
 * event-sourced document (domain/goods-issue) driven by a Temporal workflow `goods-issue-<tenant>-<id>`
 * (workflows/goods-issue.workflow.ts): the API records creation and draft edits itself; submit, approve, reject,
 * cancel and retry are the workflow's updates, answered synchronously — the validator refuses a wrong state, a
 * second click, a user without the layer's key or the same user at two layers, and nothing is recorded.
 *
 * Who: notes are seen by holders of any inventory key or approval layer key (the owner holds all); created,
 * edited and submitted with inventory-stock-adjustment (a note takes stock out like an adjustment) — edited,
 * submitted and cancelled by their creator only; each layer approved or rejected by a holder of
 * gin-approval-layer-<n>; a failed issue retried by the creator or a holder of the last layer's key.
 *
 * GET  /api/inventory/goods-issue-notes — the list, ag-grid Infinite Row Model
 *   query: startRow, endRow, sortModel [{colId: reference|status|warehouse|total_quantity|created_at|updated_at,
 *   sort}] (default newest first), filterModel { reference?, reason? (text), status? (set of '1'..'5') }, search
 *   (reference, reason, remark), status=<comma list of 1..5>, warehouse_id, waiting_for_me=true (status 4 and the
 *   waiting layer's key held by the caller)
 *   → data { rows: Row[], lastRow }; Row = { id, reference, reason, status, warehouse {id, code, name}, layers
 *     (null until submitted), current_layer (the layer waiting, else null), line_count, total_quantity,
 *     issue_failed, created_by {id, name}, created_at, updated_at, waiting_for_me }
 *   Live: the view `goodsIssues` names changed notes by id.
 * POST /api/inventory/goods-issue-notes — create a draft (Idempotency-Key header: a retried create makes one note)
 *   body { warehouse_id (a warehouse or branch of the account), reference 1..100, reason 1..500, remark? ≤1000,
 *   lines: 1..200 × { master_code_id (a standard master code of the account), quantity 1..1e9 }, no master code
 *   twice } → data Detail, status 1 Pending
 * GET  /api/inventory/goods-issue-notes/:id → data Detail
 * PUT  /api/inventory/goods-issue-notes/:id — edit a draft (its creator; status 1 only); body as for create
 * POST /api/inventory/goods-issue-notes/:id/submit → status 4, layer 1 waiting; the account's approval settings are
 *   taken as they are now (a later change does not move this note)
 * POST /api/inventory/goods-issue-notes/:id/approve body { layer } — the layer the caller approves (the one
 *   waiting). The last layer's approval answers once the stock is issued: status 2 Complete, or 5 Approved with
 *   the issue's failure (not enough stock while the account refuses negative stock; nothing moved)
 * POST /api/inventory/goods-issue-notes/:id/reject body { layer, reason } → status 3 Cancel, the rejection kept
 * POST /api/inventory/goods-issue-notes/:id/cancel body { reason? } (the creator; status 1, 4, or 5 whose issue
 *   failed) → status 3 Cancel
 * POST /api/inventory/goods-issue-notes/:id/retry — issue an approved note's stock again after a failure
 * GET  /api/inventory/approval-settings → data { layers 1..3 (default 1), reminder_minutes (default 1440),
 *   allow_same_approver (default false), updated_at|null }
 * PUT  /api/inventory/approval-settings (the owner) body { layers 1..3, reminder_minutes 1..10080,
 *   allow_same_approver }
 *
 * Codes (domain/goods-issue/codes.ts GinCode): 550 reference, 551 reason, 552 warehouse, 553 lines, 554 quantity, 555 master code
 * not found, 556 combo line, 557 repeated master code (all 400); 558 wrong state (409), 559 not the creator
 * (403), 560 layer key missing (403), 561 layer out of order (409) or not in the note (400), 562 same user at two
 * layers (409), 563 already approved by you (409), 564 approval already decided (409), 565 reject reason (400),
 * 566 stock being issued (409), 567 retry not allowed (403), 568 approval settings (400), 569 text (400). An
 * unknown note, another account's and an id that is not one all answer the same 404; 503 when the workflows
 * cannot be reached.
 */
import { ErrorAnswer, GridPage, Ok, ok, refusals } from '@api/answers';
import { seller } from '@api/auth/session';
import {
  ApprovalSettingsAnswer,
  ApprovalSettingsBody,
  ApproveGoodsIssueBody,
  CancelGoodsIssueBody,
  type GoodsIssueBody,
  GoodsIssueBody as GoodsIssueBodySchema,
  GoodsIssueDetail,
  GoodsIssueListQuery,
  GoodsIssueListRow,
  RejectGoodsIssueBody,
} from '@api/contracts/goods-issue';
import { IdParams } from '@api/contracts/ids';
import { ApiError } from '@api/errors';
import { idempotencyKeyOf } from '@api/idempotency';
import { saveApprovalSettings } from '@commands/goods-issue/approval-settings';
import { goodsIssueDetail } from '@commands/goods-issue/details';
import { createGoodsIssue, editGoodsIssue } from '@commands/goods-issue/draft';
import { type GoodsIssueActionInput, runGoodsIssueAction } from '@commands/goods-issue/note-actions';
import { ginApprovalKey } from '@domain/approvals/layers';
import { GinCode } from '@domain/goods-issue/codes';
import { GIN_STATUS, type GinFields } from '@domain/goods-issue/decider';
import { translate } from '@infra/i18n';
import { approvalSettingsOf, goodsIssuePage } from '@projections/goods-issue.queries';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { assertMayView, type GoodsIssueDeps, layerKeysOf, MANAGE_KEY, tags, viewerOf } from './common';

const conflicts = { 409: ErrorAnswer, 503: ErrorAnswer };
const viewing = { access: 'seller' } as const;
const managing = { access: { permission: MANAGE_KEY } } as const;
const BASE = '/api/inventory/goods-issue-notes';

const fieldsOf = (body: GoodsIssueBody): GinFields => ({
  warehouseId: body.warehouse_id,
  reference: body.reference,
  reason: body.reason,
  remark: body.remark,
  lines: body.lines.map((line) => ({ masterCodeId: line.master_code_id, quantity: line.quantity })),
});

/** "CODE (2 on hand, 5 asked), …" for a failed issue's message. */
function shortLines(request: FastifyRequest, detail: GoodsIssueDetail): string {
  return (detail.issue.failure?.lines ?? [])
    .map((line) =>
      translate(request.language, 'goods_issue.short_line', {
        code: line.master_code.code,
        on_hand: line.on_hand,
        quantity: line.quantity,
      }),
    )
    .join(', ');
}

const settingsAnswer = (settings: {
  layers: number;
  reminderSeconds: number;
  allowSameApprover: boolean;
  updatedAt: Date | null;
}) => ({
  layers: settings.layers,
  reminder_minutes: settings.reminderSeconds / 60,
  allow_same_approver: settings.allowSameApprover,
  updated_at: settings.updatedAt?.toISOString() ?? null,
});

export const goodsIssueRoutes: FastifyPluginAsyncZod<GoodsIssueDeps> = async (app, deps) => {
  const { db } = deps;

  /** Runs an action on the note's workflow; answers its outcome and the note after it. */
  async function act(request: FastifyRequest, ginId: string, input: GoodsIssueActionInput) {
    const session = seller(request);
    const keys = layerKeysOf(session);
    const outcome = await runGoodsIssueAction(deps, { ...session, keys }, { ...input, ginId });
    return { outcome, detail: await goodsIssueDetail(deps, viewerOf(session), ginId) };
  }

  app.get(
    BASE,
    {
      config: viewing,
      schema: {
        tags,
        summary: 'Goods issue notes: the list (ag-grid), by status, warehouse, search, or waiting for me',
        querystring: GoodsIssueListQuery,
        response: { 200: Ok(GridPage(GoodsIssueListRow)), ...refusals },
      },
    },
    async (request) => {
      const session = seller(request);
      assertMayView(session);
      const myLayers = [1, 2, 3].filter((layer) => session.permissions.has(ginApprovalKey(layer) as never));
      return ok(request, await goodsIssuePage(db, session.tenantId, request.query, myLayers));
    },
  );

  app.post(
    BASE,
    {
      config: managing,
      schema: {
        tags,
        summary: 'Create a goods issue note (a draft, status 1 Pending)',
        body: GoodsIssueBodySchema,
        response: { 200: Ok(GoodsIssueDetail), ...refusals, ...conflicts },
      },
    },
    async (request, reply) => {
      const session = seller(request);
      const key = idempotencyKeyOf(request, undefined, {
        invalid: () => new ApiError(400, GinCode.textInvalid, 'goods_issue.idempotency_key_invalid'),
      });
      const created = await createGoodsIssue(deps, session, { key, fields: fieldsOf(request.body) });
      if (created.replayed) reply.header('idempotent-replayed', 'true');
      const detail = await goodsIssueDetail(deps, viewerOf(session), created.ginId);
      return ok(request, detail, 'goods_issue.created');
    },
  );

  app.get(
    `${BASE}/:id`,
    {
      config: viewing,
      schema: {
        tags,
        summary:
          'A goods issue note: lines, approval progress, issue outcome, timeline, and what the caller may do',
        params: IdParams,
        response: { 200: Ok(GoodsIssueDetail), ...refusals },
      },
    },
    async (request) => {
      const session = seller(request);
      assertMayView(session);
      return ok(request, await goodsIssueDetail(deps, viewerOf(session), request.params.id));
    },
  );

  app.put(
    `${BASE}/:id`,
    {
      config: managing,
      schema: {
        tags,
        summary: 'Edit a draft goods issue note (its creator, while Pending)',
        params: IdParams,
        body: GoodsIssueBodySchema,
        response: { 200: Ok(GoodsIssueDetail), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      const session = seller(request);
      const ginId = request.params.id;
      await editGoodsIssue(deps, session, { ginId, fields: fieldsOf(request.body) });
      return ok(request, await goodsIssueDetail(deps, viewerOf(session), ginId), 'goods_issue.saved');
    },
  );

  app.post(
    `${BASE}/:id/submit`,
    {
      config: managing,
      schema: {
        tags,
        summary: 'Submit a draft for approval (status 4, layer 1 waiting)',
        params: IdParams,
        response: { 200: Ok(GoodsIssueDetail), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      const { settings } = await approvalSettingsOf(db, seller(request).tenantId);
      const { detail } = await act(request, request.params.id, { action: 'submit', settings });
      return ok(request, detail, 'goods_issue.submitted');
    },
  );

  app.post(
    `${BASE}/:id/approve`,
    {
      config: viewing,
      schema: {
        tags,
        summary:
          'Approve the waiting layer (its key needed); the last layer issues the stock before answering (status 2, or 5 with the failure)',
        params: IdParams,
        body: ApproveGoodsIssueBody,
        response: { 200: Ok(GoodsIssueDetail), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      assertMayView(seller(request));
      const { layer } = request.body;
      const { outcome, detail } = await act(request, request.params.id, { action: 'approve', layer });
      if (outcome.status === GIN_STATUS.complete) return ok(request, detail, 'goods_issue.approved_complete');
      if (outcome.issueFailed) {
        return ok(request, detail, 'goods_issue.approved_issue_failed', {
          lines: shortLines(request, detail),
        });
      }
      return ok(request, detail, 'goods_issue.approved_layer', { layer });
    },
  );

  app.post(
    `${BASE}/:id/reject`,
    {
      config: viewing,
      schema: {
        tags,
        summary: 'Reject at the waiting layer, with a reason (its key needed): status 3 Cancel',
        params: IdParams,
        body: RejectGoodsIssueBody,
        response: { 200: Ok(GoodsIssueDetail), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      assertMayView(seller(request));
      const { layer, reason } = request.body;
      const { detail } = await act(request, request.params.id, { action: 'reject', layer, reason });
      return ok(request, detail, 'goods_issue.rejected', { layer });
    },
  );

  app.post(
    `${BASE}/:id/cancel`,
    {
      config: viewing,
      schema: {
        tags,
        summary: 'Cancel a note before it completes (its creator): status 3 Cancel',
        params: IdParams,
        body: CancelGoodsIssueBody,
        response: { 200: Ok(GoodsIssueDetail), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      assertMayView(seller(request));
      const reason = request.body?.reason ?? '';
      const { detail } = await act(request, request.params.id, { action: 'cancel', reason });
      return ok(request, detail, 'goods_issue.cancelled');
    },
  );

  app.post(
    `${BASE}/:id/retry`,
    {
      config: viewing,
      schema: {
        tags,
        summary: 'Issue the stock of an approved note again after a failure (its creator or the last layer)',
        params: IdParams,
        response: { 200: Ok(GoodsIssueDetail), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      assertMayView(seller(request));
      const { outcome, detail } = await act(request, request.params.id, { action: 'retry' });
      if (outcome.status === GIN_STATUS.complete) return ok(request, detail, 'goods_issue.issued');
      return ok(request, detail, 'goods_issue.issue_failed', { lines: shortLines(request, detail) });
    },
  );

  // ---- approval settings ----

  app.get(
    '/api/inventory/approval-settings',
    {
      config: viewing,
      schema: {
        tags,
        summary: 'The approval layers of goods issue notes: how many, the reminder, one user at two layers',
        response: { 200: Ok(ApprovalSettingsAnswer), ...refusals },
      },
    },
    async (request) => {
      const session = seller(request);
      assertMayView(session);
      const { settings, updatedAt } = await approvalSettingsOf(db, session.tenantId);
      return ok(request, settingsAnswer({ ...settings, updatedAt }));
    },
  );

  app.put(
    '/api/inventory/approval-settings',
    {
      config: { access: 'owner' },
      schema: {
        tags,
        summary: 'Change the approval settings (the owner); notes already submitted keep theirs',
        body: ApprovalSettingsBody,
        response: { 200: Ok(ApprovalSettingsAnswer), ...refusals },
      },
    },
    async (request) => {
      const { body } = request;
      const row = await saveApprovalSettings(deps, seller(request), {
        layers: body.layers,
        reminderSeconds: body.reminder_minutes * 60,
        allowSameApprover: body.allow_same_approver,
      });
      const answer = settingsAnswer({
        layers: row.layers,
        reminderSeconds: row.reminder_seconds,
        allowSameApprover: row.allow_same_approver,
        updatedAt: row.updated_at,
      });
      return ok(request, answer, 'goods_issue.settings.saved');
    },
  );
};
