/**
 * Goods issue notes (GIN) with approval layers 1 to 3 (issue 5; spec §3 "Goods receive and issue notes", §4 "Goods
 * issue note"). A note is an event-sourced document (domain/goods-issue) driven by a Temporal workflow
 * (workflows/goods-issue.workflow.ts): creation and draft edits are recorded directly; submit, approve, reject,
 * cancel and retry are the workflow's updates, answered synchronously. Shapes: api/contracts/goods-issue.ts;
 * result codes: domain/goods-issue/codes.ts.
 *
 * Who: notes are seen by holders of any inventory key or approval layer key (the owner holds all); created,
 * edited and submitted with inventory-stock-adjustment — edited, submitted and cancelled by their creator only;
 * each layer approved or rejected by a holder of gin-approval-layer-<n>; a failed issue retried by the creator or a
 * holder of the last layer's key; the approval settings changed by the owner.
 */
import { ok } from '@api/answers';
import { seller } from '@api/auth/session';
import { GridPage } from '@api/contracts/common';
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
import { conflicts, router } from '@api/route';
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
import { type GoodsIssueDeps, layerKeysOf, MANAGE_KEY, tags, VIEW_KEYS, viewerOf } from './common';

const managing = { permission: MANAGE_KEY } as const;
const BASE = '/api/inventory/goods-issue-notes';
const detailOf = { params: IdParams, answer: GoodsIssueDetail, errors: conflicts } as const;

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
  const route = router(app, { tags, access: { anyOf: VIEW_KEYS } });

  /** Runs an action on the note's workflow; answers its outcome and the note after it. */
  async function act(request: FastifyRequest<{ Params: { id: string } }>, input: GoodsIssueActionInput) {
    const session = seller(request);
    const ginId = request.params.id;
    const outcome = await runGoodsIssueAction(
      deps,
      { ...session, keys: layerKeysOf(session) },
      { ...input, ginId },
    );
    return { outcome, detail: await goodsIssueDetail(deps, viewerOf(session), ginId) };
  }

  route.get(
    BASE,
    {
      summary: 'Goods issue notes: the list (ag-grid), by status, warehouse, search, or waiting for me',
      query: GoodsIssueListQuery,
      answer: GridPage(GoodsIssueListRow),
    },
    async (request) => {
      const session = seller(request);
      const myLayers = [1, 2, 3].filter((layer) => session.permissions.has(ginApprovalKey(layer) as never));
      return ok(request, await goodsIssuePage(db, session.tenantId, request.query, myLayers));
    },
  );

  route.post(
    BASE,
    {
      summary: 'Create a goods issue note (a draft, status 1 Pending)',
      access: managing,
      body: GoodsIssueBodySchema,
      answer: GoodsIssueDetail,
      errors: conflicts,
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

  route.get(
    `${BASE}/:id`,
    {
      summary:
        'A goods issue note: lines, approval progress, issue outcome, timeline, and what the caller may do',
      params: IdParams,
      answer: GoodsIssueDetail,
    },
    async (request) =>
      ok(request, await goodsIssueDetail(deps, viewerOf(seller(request)), request.params.id)),
  );

  route.put(
    `${BASE}/:id`,
    {
      summary: 'Edit a draft goods issue note (its creator, while Pending)',
      access: managing,
      body: GoodsIssueBodySchema,
      ...detailOf,
    },
    async (request) => {
      const session = seller(request);
      const ginId = request.params.id;
      await editGoodsIssue(deps, session, { ginId, fields: fieldsOf(request.body) });
      return ok(request, await goodsIssueDetail(deps, viewerOf(session), ginId), 'goods_issue.saved');
    },
  );

  route.post(
    `${BASE}/:id/submit`,
    { summary: 'Submit a draft for approval (status 4, layer 1 waiting)', access: managing, ...detailOf },
    async (request) => {
      const { settings } = await approvalSettingsOf(db, seller(request).tenantId);
      const { detail } = await act(request, { action: 'submit', settings });
      return ok(request, detail, 'goods_issue.submitted');
    },
  );

  route.post(
    `${BASE}/:id/approve`,
    {
      summary:
        'Approve the waiting layer (its key needed); the last layer issues the stock before answering (status 2, or 5 with the failure)',
      body: ApproveGoodsIssueBody,
      ...detailOf,
    },
    async (request) => {
      const { layer } = request.body;
      const { outcome, detail } = await act(request, { action: 'approve', layer });
      if (outcome.status === GIN_STATUS.complete) return ok(request, detail, 'goods_issue.approved_complete');
      if (outcome.issueFailed) {
        return ok(request, detail, 'goods_issue.approved_issue_failed', {
          lines: shortLines(request, detail),
        });
      }
      return ok(request, detail, 'goods_issue.approved_layer', { layer });
    },
  );

  route.post(
    `${BASE}/:id/reject`,
    {
      summary: 'Reject at the waiting layer, with a reason (its key needed): status 3 Cancel',
      body: RejectGoodsIssueBody,
      ...detailOf,
    },
    async (request) => {
      const { layer, reason } = request.body;
      const { detail } = await act(request, { action: 'reject', layer, reason });
      return ok(request, detail, 'goods_issue.rejected', { layer });
    },
  );

  route.post(
    `${BASE}/:id/cancel`,
    {
      summary: 'Cancel a note before it completes (its creator): status 3 Cancel',
      body: CancelGoodsIssueBody,
      ...detailOf,
    },
    async (request) => {
      const { detail } = await act(request, { action: 'cancel', reason: request.body?.reason ?? '' });
      return ok(request, detail, 'goods_issue.cancelled');
    },
  );

  route.post(
    `${BASE}/:id/retry`,
    {
      summary: 'Issue the stock of an approved note again after a failure (its creator or the last layer)',
      ...detailOf,
    },
    async (request) => {
      const { outcome, detail } = await act(request, { action: 'retry' });
      if (outcome.status === GIN_STATUS.complete) return ok(request, detail, 'goods_issue.issued');
      return ok(request, detail, 'goods_issue.issue_failed', { lines: shortLines(request, detail) });
    },
  );

  route.get(
    '/api/inventory/approval-settings',
    {
      summary: 'The approval layers of goods issue notes: how many, the reminder, one user at two layers',
      answer: ApprovalSettingsAnswer,
    },
    async (request) => {
      const { settings, updatedAt } = await approvalSettingsOf(db, seller(request).tenantId);
      return ok(request, settingsAnswer({ ...settings, updatedAt }));
    },
  );

  route.put(
    '/api/inventory/approval-settings',
    {
      summary: 'Change the approval settings (the owner); notes already submitted keep theirs',
      access: 'owner',
      body: ApprovalSettingsBody,
      answer: ApprovalSettingsAnswer,
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
