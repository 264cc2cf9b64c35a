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
 * Codes (common.ts GinCode): 550 reference, 551 reason, 552 warehouse, 553 lines, 554 quantity, 555 master code
 * not found, 556 combo line, 557 repeated master code (all 400); 558 wrong state (409), 559 not the creator
 * (403), 560 layer key missing (403), 561 layer out of order (409) or not in the note (400), 562 same user at two
 * layers (409), 563 already approved by you (409), 564 approval already decided (409), 565 reject reason (400),
 * 566 stock being issued (409), 567 retry not allowed (403), 568 approval settings (400), 569 text (400). An
 * unknown note, another account's and an id that is not one all answer the same 404; 503 when the workflows
 * cannot be reached.
 */
import { randomUUID } from 'node:crypto';
import { ErrorAnswer, GridPage, Ok, ok, refusals } from '@api/answers';
import { seller } from '@api/auth/session';
import { idempotencyKeyOf } from '@api/documents';
import { ApiError, invalid } from '@api/errors';
import { translate } from '@api/i18n';
import { IdParams } from '@api/ids';
import { handleGoodsIssueCommand, loadGoodsIssue } from '@commands/goods-issue/goods-issue';
import { eventIdFor } from '@commands/support/ids';
import { ginApprovalKey, MAX_LAYERS } from '@domain/approvals/layers';
import { GIN_STATUS, type GinFields, type GoodsIssueState } from '@domain/goods-issue/decider';
import { DomainError } from '@domain/shared/errors';
import {
  approveGoodsIssueUpdate,
  cancelGoodsIssueUpdate,
  type GoodsIssueOutcome,
  rejectGoodsIssueUpdate,
  retryGoodsIssueUpdate,
  submitGoodsIssueUpdate,
} from '@workflows/goods-issue-protocol';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ApproveBody,
  approvalSettingsOf,
  assertMayView,
  CancelBody,
  GinCode,
  type GoodsIssueBody,
  GoodsIssueBody as GoodsIssueBodySchema,
  type GoodsIssueDeps,
  ginRefusal,
  layerKeysOf,
  MANAGE_KEY,
  noteOr404,
  precheck,
  RejectBody,
  runGoodsIssueUpdate,
  startGoodsIssueWorkflow,
  tags,
} from './common';
import { checkReferences, detailOf, fullName, GoodsIssueDetail } from './detail';
import { GinGridQuery, listGoodsIssues } from './list';

const Row = z.object({
  id: z.string(),
  reference: z.string(),
  reason: z.string(),
  status: z.number(),
  warehouse: z.object({ id: z.string(), code: z.string(), name: z.string() }),
  layers: z.number().nullable(),
  current_layer: z.number().nullable(),
  line_count: z.number(),
  total_quantity: z.number(),
  issue_failed: z.boolean(),
  created_by: z.object({ id: z.string(), name: z.string() }),
  created_at: z.string(),
  updated_at: z.string(),
  waiting_for_me: z.boolean(),
});

const Settings = z.object({
  layers: z.number(),
  reminder_minutes: z.number(),
  allow_same_approver: z.boolean(),
  updated_at: z.string().nullable(),
});

const REMINDER_MAX_MINUTES = 10_080;
const settingsInvalid = (key: string) => invalid(GinCode.settingsInvalid, key);
const SettingsBody = z.strictObject({
  layers: z
    .number({ error: settingsInvalid('goods_issue.settings.layers_invalid') })
    .int(settingsInvalid('goods_issue.settings.layers_invalid'))
    .min(1, settingsInvalid('goods_issue.settings.layers_invalid'))
    .max(MAX_LAYERS, settingsInvalid('goods_issue.settings.layers_invalid')),
  reminder_minutes: z
    .number({ error: settingsInvalid('goods_issue.settings.reminder_invalid') })
    .int(settingsInvalid('goods_issue.settings.reminder_invalid'))
    .min(1, settingsInvalid('goods_issue.settings.reminder_invalid'))
    .max(REMINDER_MAX_MINUTES, settingsInvalid('goods_issue.settings.reminder_invalid')),
  allow_same_approver: z.boolean({ error: settingsInvalid('goods_issue.settings.same_approver_invalid') }),
});

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

export const goodsIssueRoutes: FastifyPluginAsyncZod<GoodsIssueDeps> = async (app, deps) => {
  const { db, store, workflows } = deps;
  const now = () => new Date().toISOString();

  const reloaded = async (request: FastifyRequest, ginId: string) => {
    const session = seller(request);
    const loaded = await loadGoodsIssue(store, session.tenantId, ginId);
    if (!loaded) throw new Error(`goods issue ${ginId} vanished`);
    return detailOf(db, session, ginId, loaded);
  };

  /** Runs an action on the note's workflow after the domain's own check on the note as recorded. */
  async function action<Args extends unknown[]>(
    request: FastifyRequest,
    ginId: string,
    check: (state: GoodsIssueState) => Parameters<typeof precheck>[0],
    update: Parameters<typeof runGoodsIssueUpdate<Args>>[4],
    args: Args,
  ): Promise<{ outcome: GoodsIssueOutcome; detail: GoodsIssueDetail }> {
    const session = seller(request);
    const { state } = await noteOr404(store, session.tenantId, ginId);
    precheck(check(state), state);
    const outcome = await runGoodsIssueUpdate(workflows, session.tenantId, ginId, state, update, args);
    return { outcome, detail: await reloaded(request, ginId) };
  }

  app.get(
    BASE,
    {
      config: viewing,
      schema: {
        tags,
        summary: 'Goods issue notes: the list (ag-grid), by status, warehouse, search, or waiting for me',
        querystring: GinGridQuery,
        response: { 200: Ok(GridPage(Row)), ...refusals },
      },
    },
    async (request) => {
      const session = seller(request);
      assertMayView(session);
      const myLayers = [1, 2, 3].filter((layer) => session.permissions.has(ginApprovalKey(layer) as never));
      const page = await listGoodsIssues(db, session.tenantId, request.query, myLayers);
      return ok(request, {
        rows: page.rows.map((row) => ({
          id: row.id,
          reference: row.reference,
          reason: row.reason,
          status: row.status,
          warehouse: { id: row.warehouse_id, code: row.warehouse_code ?? '', name: row.warehouse_name ?? '' },
          layers: row.layers,
          current_layer: row.current_layer,
          line_count: row.line_count,
          total_quantity: Number(row.total_quantity),
          issue_failed: row.issue_failed,
          created_by: { id: row.created_by, name: fullName(row.creator_first, row.creator_last) },
          created_at: row.created_at.toISOString(),
          updated_at: row.updated_at.toISOString(),
          waiting_for_me:
            row.status === GIN_STATUS.approveInProgress &&
            row.current_layer !== null &&
            myLayers.includes(row.current_layer),
        })),
        lastRow: page.lastRow,
      });
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
      await checkReferences(db, session.tenantId, request.body);
      const ginId = key ? eventIdFor(`gin:${session.tenantId}:${key}`) : randomUUID();
      const at = now();
      let result: Awaited<ReturnType<typeof handleGoodsIssueCommand>>;
      try {
        result = await handleGoodsIssueCommand(
          store,
          session.tenantId,
          ginId,
          { type: 'CreateGoodsIssue', ginId, userId: session.userId, at, ...fieldsOf(request.body) },
          { userId: session.userId, commandId: `gin-create:${ginId}`, occurredAt: at },
        );
      } catch (error) {
        if (error instanceof DomainError) throw ginRefusal(error) ?? error;
        throw error;
      }
      if (result.replayed) reply.header('idempotent-replayed', 'true');
      if (result.state.status === GIN_STATUS.pending) {
        await startGoodsIssueWorkflow(workflows, session.tenantId, ginId, result.state);
      }
      return ok(request, await reloaded(request, ginId), 'goods_issue.created');
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
      const loaded = await noteOr404(store, session.tenantId, request.params.id);
      return ok(request, await detailOf(db, session, request.params.id, loaded));
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
      const { state } = await noteOr404(store, session.tenantId, ginId);
      const at = now();
      // The state and the creator first (with the fields the note has), then what the body names.
      precheck(
        {
          type: 'EditGoodsIssue',
          userId: session.userId,
          at,
          warehouseId: state.warehouseId,
          reference: state.reference,
          reason: state.reason,
          remark: state.remark,
          lines: state.lines,
        },
        state,
      );
      await checkReferences(db, session.tenantId, request.body);
      try {
        await handleGoodsIssueCommand(
          store,
          session.tenantId,
          ginId,
          { type: 'EditGoodsIssue', userId: session.userId, at, ...fieldsOf(request.body) },
          { userId: session.userId, commandId: `gin-edit:${ginId}:${randomUUID()}`, occurredAt: at },
        );
      } catch (error) {
        if (error instanceof DomainError) throw ginRefusal(error) ?? error;
        throw error;
      }
      return ok(request, await reloaded(request, ginId), 'goods_issue.saved');
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
      const session = seller(request);
      const { settings } = await approvalSettingsOf(db, session.tenantId);
      const { detail } = await action(
        request,
        request.params.id,
        () => ({ type: 'SubmitGoodsIssue', userId: session.userId, settings, at: now() }),
        submitGoodsIssueUpdate,
        [{ userId: session.userId, settings }],
      );
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
        body: ApproveBody,
        response: { 200: Ok(GoodsIssueDetail), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      const session = seller(request);
      assertMayView(session);
      const keys = layerKeysOf(session);
      const { layer } = request.body;
      const { outcome, detail } = await action(
        request,
        request.params.id,
        () => ({ type: 'ApproveGoodsIssue', userId: session.userId, keys, layer, at: now() }),
        approveGoodsIssueUpdate,
        [{ userId: session.userId, keys, layer }],
      );
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
        body: RejectBody,
        response: { 200: Ok(GoodsIssueDetail), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      const session = seller(request);
      assertMayView(session);
      const keys = layerKeysOf(session);
      const { layer, reason } = request.body;
      const { detail } = await action(
        request,
        request.params.id,
        () => ({ type: 'RejectGoodsIssue', userId: session.userId, keys, layer, reason, at: now() }),
        rejectGoodsIssueUpdate,
        [{ userId: session.userId, keys, layer, reason }],
      );
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
        body: CancelBody,
        response: { 200: Ok(GoodsIssueDetail), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      const session = seller(request);
      assertMayView(session);
      const reason = request.body?.reason ?? '';
      const { detail } = await action(
        request,
        request.params.id,
        () => ({ type: 'CancelGoodsIssue', userId: session.userId, reason, at: now() }),
        cancelGoodsIssueUpdate,
        [{ userId: session.userId, reason }],
      );
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
      const session = seller(request);
      assertMayView(session);
      const keys = layerKeysOf(session);
      const { outcome, detail } = await action(
        request,
        request.params.id,
        () => ({ type: 'RetryGoodsIssue', userId: session.userId, keys, at: now() }),
        retryGoodsIssueUpdate,
        [{ userId: session.userId, keys }],
      );
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
        response: { 200: Ok(Settings), ...refusals },
      },
    },
    async (request) => {
      const session = seller(request);
      assertMayView(session);
      const { settings, updatedAt } = await approvalSettingsOf(db, session.tenantId);
      return ok(request, {
        layers: settings.layers,
        reminder_minutes: settings.reminderSeconds / 60,
        allow_same_approver: settings.allowSameApprover,
        updated_at: updatedAt?.toISOString() ?? null,
      });
    },
  );

  app.put(
    '/api/inventory/approval-settings',
    {
      config: { access: 'owner' },
      schema: {
        tags,
        summary: 'Change the approval settings (the owner); notes already submitted keep theirs',
        body: SettingsBody,
        response: { 200: Ok(Settings), ...refusals },
      },
    },
    async (request) => {
      const session = seller(request);
      const body = request.body;
      const row = await db
        .insertInto('approval_settings')
        .values({
          tenant_id: session.tenantId,
          layers: body.layers,
          reminder_seconds: body.reminder_minutes * 60,
          allow_same_approver: body.allow_same_approver,
          updated_by: session.userId,
        })
        .onConflict((oc) =>
          oc.column('tenant_id').doUpdateSet({
            layers: body.layers,
            reminder_seconds: body.reminder_minutes * 60,
            allow_same_approver: body.allow_same_approver,
            updated_by: session.userId,
            updated_at: new Date(),
          }),
        )
        .returning(['layers', 'reminder_seconds', 'allow_same_approver', 'updated_at'])
        .executeTakeFirstOrThrow();
      return ok(
        request,
        {
          layers: row.layers,
          reminder_minutes: row.reminder_seconds / 60,
          allow_same_approver: row.allow_same_approver,
          updated_at: row.updated_at.toISOString(),
        },
        'goods_issue.settings.saved',
      );
    },
  );
};
