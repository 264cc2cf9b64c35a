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
  GoodsIssueBody,
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
import { actOnGoodsIssue, type GoodsIssueActionRequest } from '@commands/goods-issue/note-actions';
import type { GoodsIssueDeps } from '@commands/goods-issue/support';
import { PERMISSION_AREAS, type PermissionKey } from '@domain/access/permissions';
import { GinCode } from '@domain/goods-issue/codes';
import { GIN_MANAGE_KEY } from '@domain/goods-issue/decider';
import { approvalSettingsAnswer, goodsIssuePage } from '@projections/goods-issue.queries';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

const VIEW_KEYS = [...PERMISSION_AREAS.inventory, ...PERMISSION_AREAS.goodsIssueNotes];
/** Creating, editing, submitting a note takes stock out like an adjustment: the same key. */
const managing = { permission: GIN_MANAGE_KEY as PermissionKey } as const;
const BASE = '/api/inventory/goods-issue-notes';
const detailOf = { params: IdParams, answer: GoodsIssueDetail, errors: conflicts } as const;

export const goodsIssueRoutes: FastifyPluginAsyncZod<GoodsIssueDeps> = async (app, deps) => {
  const { db } = deps;
  const route = router(app, { tags: ['inventory-goods-issue'], access: { anyOf: VIEW_KEYS } });

  /** Runs an action on the note's workflow; answers the note after it, with the message its outcome calls for. */
  const act = async (request: FastifyRequest<{ Params: IdParams }>, action: GoodsIssueActionRequest) => {
    const viewer = { ...seller(request), language: request.language };
    return ok(request, ...(await actOnGoodsIssue(deps, viewer, { ...action, ginId: request.params.id })));
  };

  route.get(
    BASE,
    {
      summary: 'Goods issue notes: the list (ag-grid), by status, warehouse, search, or waiting for me',
      query: GoodsIssueListQuery,
      answer: GridPage(GoodsIssueListRow),
    },
    async (request) => {
      const { tenantId, permissions } = seller(request);
      return ok(request, await goodsIssuePage(db, tenantId, request.query, permissions));
    },
  );

  route.post(
    BASE,
    {
      summary: 'Create a goods issue note (a draft, status 1 Pending)',
      access: managing,
      body: GoodsIssueBody,
      answer: GoodsIssueDetail,
      errors: conflicts,
    },
    async (request, reply) => {
      const key = idempotencyKeyOf(request, undefined, {
        invalid: () => new ApiError(400, GinCode.textInvalid, 'goods_issue.idempotency_key_invalid'),
      });
      const created = await createGoodsIssue(deps, seller(request), { key, body: request.body });
      if (created.replayed) reply.header('idempotent-replayed', 'true');
      return ok(request, ...created.answer);
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
    async (request) => ok(request, await goodsIssueDetail(deps, seller(request), request.params.id)),
  );

  route.put(
    `${BASE}/:id`,
    {
      summary: 'Edit a draft goods issue note (its creator, while Pending)',
      access: managing,
      body: GoodsIssueBody,
      ...detailOf,
    },
    async (request) => {
      const input = { ginId: request.params.id, body: request.body };
      return ok(request, ...(await editGoodsIssue(deps, seller(request), input)));
    },
  );

  route.post(
    `${BASE}/:id/submit`,
    { summary: 'Submit a draft for approval (status 4, layer 1 waiting)', access: managing, ...detailOf },
    async (request) => act(request, { action: 'submit' }),
  );

  route.post(
    `${BASE}/:id/approve`,
    {
      summary:
        'Approve the waiting layer (its key needed); the last layer issues the stock before answering (status 2, or 5 with the failure)',
      body: ApproveGoodsIssueBody,
      ...detailOf,
    },
    async (request) => act(request, { action: 'approve', layer: request.body.layer }),
  );

  route.post(
    `${BASE}/:id/reject`,
    {
      summary: 'Reject at the waiting layer, with a reason (its key needed): status 3 Cancel',
      body: RejectGoodsIssueBody,
      ...detailOf,
    },
    async (request) => act(request, { action: 'reject', ...request.body }),
  );

  route.post(
    `${BASE}/:id/cancel`,
    {
      summary: 'Cancel a note before it completes (its creator): status 3 Cancel',
      body: CancelGoodsIssueBody,
      ...detailOf,
    },
    async (request) => act(request, { action: 'cancel', reason: request.body?.reason ?? '' }),
  );

  route.post(
    `${BASE}/:id/retry`,
    {
      summary: 'Issue the stock of an approved note again after a failure (its creator or the last layer)',
      ...detailOf,
    },
    async (request) => act(request, { action: 'retry' }),
  );

  route.get(
    '/api/inventory/approval-settings',
    {
      summary: 'The approval layers of goods issue notes: how many, the reminder, one user at two layers',
      answer: ApprovalSettingsAnswer,
    },
    async (request) => ok(request, await approvalSettingsAnswer(db, seller(request).tenantId)),
  );

  route.put(
    '/api/inventory/approval-settings',
    {
      summary: 'Change the approval settings (the owner); notes already submitted keep theirs',
      access: 'owner',
      body: ApprovalSettingsBody,
      answer: ApprovalSettingsAnswer,
    },
    async (request) => ok(request, ...(await saveApprovalSettings(deps, seller(request), request.body))),
  );
};
