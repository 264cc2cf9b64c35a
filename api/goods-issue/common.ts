import type { SellerSession } from '@api/auth/session';
import { ApiError, forbidden, invalid, notFound } from '@api/errors';
import { isUuid } from '@api/ids';
import {
  runUpdate,
  startOrFindWorkflow,
  type WorkflowDeps,
  type WorkflowRefusal,
  withWorkflow,
} from '@api/workflows';
import { loadGoodsIssue } from '@commands/goods-issue/goods-issue';
import { PERMISSION_AREAS, type PermissionKey } from '@domain/access/permissions';
import { type ApprovalSettings, DEFAULT_APPROVAL_SETTINGS, ginApprovalKey } from '@domain/approvals/layers';
import {
  decide,
  GIN_MAX_LINES,
  GIN_MAX_QUANTITY,
  GIN_REASON_MAX,
  GIN_REFERENCE_MAX,
  GIN_REMARK_MAX,
  type GoodsIssueCommand,
  type GoodsIssueState,
  isFinished,
} from '@domain/goods-issue/decider';
import { DomainError } from '@domain/shared/errors';
import type { Database } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import type { UpdateDefinition } from '@temporalio/common';
import {
  GOODS_ISSUE_WORKFLOW,
  type GoodsIssueOutcome,
  type GoodsIssueWorkflowInput,
  goodsIssueWorkflowId,
} from '@workflows/goods-issue-protocol';
import type { Kysely } from 'kysely';
import { z } from 'zod';

/**
 * What the goods issue routes share: result codes 550–569, the body schemas, who may see and change notes, the
 * domain's refusals as answers, and the way to the note's workflow (started when the note is created, started
 * again should an action find it missing while the note is still open).
 */

export const GinCode = {
  referenceInvalid: 550,
  reasonInvalid: 551,
  warehouseNotFound: 552,
  linesInvalid: 553,
  quantityInvalid: 554,
  masterCodeNotFound: 555,
  comboLine: 556,
  lineRepeated: 557,
  wrongState: 558,
  notCreator: 559,
  layerKeyMissing: 560,
  layerOutOfOrder: 561,
  sameApprover: 562,
  alreadyApproved: 563,
  approvalDecided: 564,
  rejectReasonRequired: 565,
  issuing: 566,
  retryForbidden: 567,
  settingsInvalid: 568,
  textInvalid: 569,
} as const;

export const tags = ['inventory-goods-issue'];

export interface GoodsIssueDeps {
  db: Kysely<Database>;
  store: EventStore;
  workflows: WorkflowDeps;
}

// ---- who may do what ----

export const LAYER_KEYS = PERMISSION_AREAS.goodsIssueNotes;

/** Creating, editing, submitting a note takes stock out like an adjustment: the same key. */
export const MANAGE_KEY: PermissionKey = 'inventory-stock-adjustment';

/** Notes and the approval settings are seen by holders of any inventory key or any approval layer key. */
const VIEW_KEYS: readonly PermissionKey[] = [...PERMISSION_AREAS.inventory, ...LAYER_KEYS];

export function mayView(session: SellerSession): boolean {
  return VIEW_KEYS.some((key) => session.permissions.has(key));
}

export function assertMayView(session: SellerSession): void {
  if (!mayView(session)) throw forbidden();
}

/** The caller's approval layer keys, as the workflow checks them. */
export const layerKeysOf = (session: SellerSession): string[] =>
  LAYER_KEYS.filter((key) => session.permissions.has(key));

// ---- bodies ----

const text = (code: number, key: string, max: number, tooLong: string) =>
  z
    .string({ error: invalid(code, key) })
    .trim()
    .max(max, invalid(code, tooLong, { max }));

export const LineBody = z.strictObject({
  master_code_id: z
    .string({ error: invalid(GinCode.masterCodeNotFound, 'goods_issue.master_code_required') })
    .min(1, invalid(GinCode.masterCodeNotFound, 'goods_issue.master_code_required'))
    .max(64, invalid(GinCode.masterCodeNotFound, 'goods_issue.master_code_required')),
  quantity: z
    .number({ error: invalid(GinCode.quantityInvalid, 'goods_issue.quantity_invalid') })
    .int(invalid(GinCode.quantityInvalid, 'goods_issue.quantity_invalid'))
    .min(1, invalid(GinCode.quantityInvalid, 'goods_issue.quantity_invalid'))
    .max(GIN_MAX_QUANTITY, invalid(GinCode.quantityInvalid, 'goods_issue.quantity_invalid')),
});

export const GoodsIssueBody = z.strictObject({
  warehouse_id: z
    .string({ error: invalid(GinCode.warehouseNotFound, 'goods_issue.warehouse_required') })
    .min(1, invalid(GinCode.warehouseNotFound, 'goods_issue.warehouse_required'))
    .max(64, invalid(GinCode.warehouseNotFound, 'goods_issue.warehouse_not_found')),
  reference: text(
    GinCode.referenceInvalid,
    'goods_issue.reference_required',
    GIN_REFERENCE_MAX,
    'goods_issue.reference_too_long',
  ).min(1, invalid(GinCode.referenceInvalid, 'goods_issue.reference_required')),
  reason: text(
    GinCode.reasonInvalid,
    'goods_issue.reason_required',
    GIN_REASON_MAX,
    'goods_issue.reason_too_long',
  ).min(1, invalid(GinCode.reasonInvalid, 'goods_issue.reason_required')),
  remark: text(GinCode.textInvalid, 'goods_issue.text_invalid', GIN_REMARK_MAX, 'goods_issue.remark_too_long')
    .optional()
    .default(''),
  lines: z
    .array(LineBody, { error: invalid(GinCode.linesInvalid, 'goods_issue.lines_required') })
    .min(1, invalid(GinCode.linesInvalid, 'goods_issue.lines_required'))
    .max(GIN_MAX_LINES, invalid(GinCode.linesInvalid, 'goods_issue.too_many_lines', { max: GIN_MAX_LINES })),
});
export type GoodsIssueBody = z.infer<typeof GoodsIssueBody>;

const Layer = z
  .number({ error: invalid(GinCode.layerOutOfOrder, 'goods_issue.layer_required') })
  .int(invalid(GinCode.layerOutOfOrder, 'goods_issue.layer_required'))
  .min(1, invalid(GinCode.layerOutOfOrder, 'goods_issue.layer_required'))
  .max(3, invalid(GinCode.layerOutOfOrder, 'goods_issue.layer_required'));

export const ApproveBody = z.strictObject({ layer: Layer });
export const RejectBody = z.strictObject({
  layer: Layer,
  reason: text(
    GinCode.rejectReasonRequired,
    'goods_issue.reject_reason_required',
    GIN_REASON_MAX,
    'goods_issue.reject_reason_too_long',
  ).min(1, invalid(GinCode.rejectReasonRequired, 'goods_issue.reject_reason_required')),
});
export const CancelBody = z
  .strictObject({
    reason: text(
      GinCode.textInvalid,
      'goods_issue.text_invalid',
      GIN_REASON_MAX,
      'goods_issue.cancel_reason_too_long',
    )
      .optional()
      .default(''),
  })
  .nullish();

// ---- the domain's refusals as answers ----

const WRONG_STATE_ACTIONS = new Set(['edit', 'submit', 'approve', 'reject', 'cancel', 'retry']);
const CREATOR_ACTIONS = new Set(['edit', 'submit', 'cancel']);
const TOO_LONG = new Set(['reference', 'reason', 'remark']);

/** The answer a domain refusal (of the decider here, or of the workflow's validator) gives; undefined if unknown. */
export function ginRefusal(refusal: WorkflowRefusal): ApiError | undefined {
  const { code, params } = refusal;
  const action = String(params.action ?? '');
  switch (code) {
    case 'GIN_NOT_FOUND':
      return notFound();
    case 'GIN_EXISTS':
      return new ApiError(409, GinCode.wrongState, 'goods_issue.wrong_state.other');
    case 'GIN_WRONG_STATE':
      return new ApiError(
        409,
        GinCode.wrongState,
        `goods_issue.wrong_state.${WRONG_STATE_ACTIONS.has(action) ? action : 'other'}`,
      );
    case 'GIN_NOT_CREATOR':
      return new ApiError(
        403,
        GinCode.notCreator,
        `goods_issue.not_creator.${CREATOR_ACTIONS.has(action) ? action : 'other'}`,
      );
    case 'GIN_REFERENCE_REQUIRED':
      return new ApiError(400, GinCode.referenceInvalid, 'goods_issue.reference_required');
    case 'GIN_REASON_REQUIRED':
      return new ApiError(400, GinCode.reasonInvalid, 'goods_issue.reason_required');
    case 'GIN_TEXT_TOO_LONG': {
      const field = String(params.field ?? '');
      return new ApiError(
        400,
        GinCode.textInvalid,
        TOO_LONG.has(field) ? `goods_issue.${field}_too_long` : 'goods_issue.text_invalid',
        { max: params.max ?? 0 },
      );
    }
    case 'GIN_LINES_REQUIRED':
      return new ApiError(400, GinCode.linesInvalid, 'goods_issue.lines_required');
    case 'GIN_TOO_MANY_LINES':
      return new ApiError(400, GinCode.linesInvalid, 'goods_issue.too_many_lines', { max: GIN_MAX_LINES });
    case 'GIN_QUANTITY_INVALID':
      return new ApiError(400, GinCode.quantityInvalid, 'goods_issue.line_quantity_invalid', {
        line: params.line ?? 0,
      });
    case 'GIN_LINE_REPEATED':
      return new ApiError(400, GinCode.lineRepeated, 'goods_issue.line_repeated_plain', {
        line: params.line ?? 0,
      });
    case 'GIN_ISSUING':
      return new ApiError(409, GinCode.issuing, 'goods_issue.issuing');
    case 'GIN_RETRY_FORBIDDEN':
      return new ApiError(403, GinCode.retryForbidden, 'goods_issue.retry_forbidden', {
        key: params.key ?? '',
      });
    case 'APPROVAL_SETTINGS_INVALID':
      return new ApiError(400, GinCode.settingsInvalid, 'goods_issue.settings.layers_invalid');
    case 'APPROVAL_ALREADY_GIVEN':
      return new ApiError(409, GinCode.alreadyApproved, 'goods_issue.already_given', {
        layer: params.layer ?? 0,
      });
    case 'APPROVAL_REJECTED':
      return new ApiError(409, GinCode.approvalDecided, 'goods_issue.already_rejected', {
        layer: params.layer ?? 0,
      });
    case 'APPROVAL_COMPLETE':
      return new ApiError(409, GinCode.approvalDecided, 'goods_issue.already_approved');
    case 'APPROVAL_LAYER_INVALID':
      return new ApiError(400, GinCode.layerOutOfOrder, 'goods_issue.layer_invalid', {
        layer: params.layer ?? 0,
        layers: params.layers ?? 0,
      });
    case 'APPROVAL_OUT_OF_ORDER':
      return new ApiError(409, GinCode.layerOutOfOrder, 'goods_issue.out_of_order', {
        layer: params.layer ?? 0,
        current: params.current ?? 0,
      });
    case 'APPROVAL_KEY_MISSING':
      return new ApiError(403, GinCode.layerKeyMissing, 'goods_issue.key_missing', {
        layer: params.layer ?? 0,
        key: params.key ?? '',
      });
    case 'APPROVAL_SAME_USER':
      return new ApiError(409, GinCode.sameApprover, 'goods_issue.same_approver', {
        layer: params.layer ?? 0,
        approved: params.approved ?? 0,
      });
    case 'APPROVAL_REASON_REQUIRED':
      return new ApiError(400, GinCode.rejectReasonRequired, 'goods_issue.reject_reason_required');
    default:
      return undefined;
  }
}

/** Runs the domain decider as a check, answering its refusal (the workflow decides again on its own state). */
export function precheck(command: GoodsIssueCommand, state: GoodsIssueState): void {
  try {
    decide(command, state);
  } catch (error) {
    if (error instanceof DomainError) {
      throw ginRefusal({ code: error.code, params: error.params }) ?? error;
    }
    throw error;
  }
}

/** The tenant's note, or 404 (an id that is not a uuid, another tenant's, or none: the same answer). */
export async function noteOr404(store: EventStore, tenantId: string, ginId: string) {
  if (!isUuid(ginId)) throw notFound();
  const loaded = await loadGoodsIssue(store, tenantId, ginId);
  if (!loaded) throw notFound();
  return loaded;
}

// ---- approval settings ----

export async function approvalSettingsOf(db: Kysely<Database>, tenantId: string) {
  const row = await db
    .selectFrom('approval_settings')
    .select(['layers', 'reminder_seconds', 'allow_same_approver', 'updated_at'])
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
  const settings: ApprovalSettings = row
    ? {
        layers: row.layers,
        reminderSeconds: row.reminder_seconds,
        allowSameApprover: row.allow_same_approver,
      }
    : { ...DEFAULT_APPROVAL_SETTINGS };
  return { settings, updatedAt: row?.updated_at ?? null };
}

// ---- the workflow ----

/** A workflow that is not there; the action starts it and tries once more. */
class WorkflowMissing extends ApiError {
  constructor() {
    super(503, 503, 'common.workflows_unavailable');
  }
}

/** Starts the note's workflow, or finds the one running (the id is the business key). */
export async function startGoodsIssueWorkflow(
  workflows: WorkflowDeps,
  tenantId: string,
  ginId: string,
  state: GoodsIssueState,
): Promise<void> {
  const input: GoodsIssueWorkflowInput = { tenantId, ginId, state };
  await startOrFindWorkflow(
    workflows,
    GOODS_ISSUE_WORKFLOW,
    goodsIssueWorkflowId(tenantId, ginId),
    input,
    () => new WorkflowMissing(),
  );
}

/**
 * Runs a person's action on the note's workflow. A note still open whose workflow is gone (never started: the
 * server was down at creation) gets it started from the note's events, and the action is tried once more.
 */
export async function runGoodsIssueUpdate<Args extends unknown[]>(
  workflows: WorkflowDeps,
  tenantId: string,
  ginId: string,
  state: GoodsIssueState,
  update: UpdateDefinition<GoodsIssueOutcome, Args>,
  args: Args,
): Promise<GoodsIssueOutcome> {
  const workflowId = goodsIssueWorkflowId(tenantId, ginId);
  const handlers = { refuse: ginRefusal, missing: () => new WorkflowMissing() };
  return withWorkflow(
    () => runUpdate(workflows, workflowId, update, args, handlers),
    isFinished(state) ? null : () => startGoodsIssueWorkflow(workflows, tenantId, ginId, state),
    (error) => error instanceof WorkflowMissing,
  );
}

export { ginApprovalKey };
