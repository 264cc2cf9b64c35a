import type { GoodsIssueDetail } from '@api/contracts/goods-issue';
import { PERMISSION_AREAS } from '@domain/access/permissions';
import type { ApprovalSettings } from '@domain/approvals/layers';
import { decide, GIN_STATUS, type GoodsIssueCommand, isFinished } from '@domain/goods-issue/decider';
import { refusalOf } from '@domain/shared/errors';
import { type Language, translate } from '@infra/i18n';
import { approvalSettingsOf } from '@projections/goods-issue.queries';
import {
  approveGoodsIssueUpdate,
  cancelGoodsIssueUpdate,
  type GoodsIssueOutcome,
  goodsIssueWorkflowId,
  rejectGoodsIssueUpdate,
  retryGoodsIssueUpdate,
  submitGoodsIssueUpdate,
} from '@workflows/goods-issue-protocol';
import { runUpdate, withWorkflow } from '@workflows/updates';
import type { Actor } from '../support/actor';
import type { Answered } from '../support/answer';
import { goodsIssueDetail } from './details';
import {
  type GoodsIssueDeps,
  type GoodsIssueViewer,
  noteOrRefuse,
  refusalFrom,
  startGoodsIssueWorkflow,
  WORKFLOW_MISSING,
  workflowMissing,
} from './support';

/**
 * A person's action on a note — submit, approve or reject a layer, cancel, retry a failed issue — run by the note's
 * workflow as an update, answered once it is done. The decider judges the note as recorded first (its refusal
 * answers without asking the workflow); the workflow judges again on its own state, which also knows an issue
 * running. An open note whose workflow has not started yet gets it started from its events, and the action runs.
 */

export type GoodsIssueActionInput =
  | { action: 'submit'; settings: ApprovalSettings }
  | { action: 'approve'; layer: number }
  | { action: 'reject'; layer: number; reason: string }
  | { action: 'cancel'; reason: string }
  | { action: 'retry' };

/** The decider's command for the check, and the workflow's update with its argument. */
function planOf(input: GoodsIssueActionInput, actor: Actor, keys: string[], at: string) {
  const { userId } = actor;
  switch (input.action) {
    case 'submit':
      return {
        check: { type: 'SubmitGoodsIssue', userId, settings: input.settings, at } as GoodsIssueCommand,
        update: submitGoodsIssueUpdate.name,
        arg: { userId, settings: input.settings },
      };
    case 'approve':
      return {
        check: { type: 'ApproveGoodsIssue', userId, keys, layer: input.layer, at } as GoodsIssueCommand,
        update: approveGoodsIssueUpdate.name,
        arg: { userId, keys, layer: input.layer },
      };
    case 'reject':
      return {
        check: {
          type: 'RejectGoodsIssue',
          userId,
          keys,
          layer: input.layer,
          reason: input.reason,
          at,
        } as GoodsIssueCommand,
        update: rejectGoodsIssueUpdate.name,
        arg: { userId, keys, layer: input.layer, reason: input.reason },
      };
    case 'cancel':
      return {
        check: { type: 'CancelGoodsIssue', userId, reason: input.reason, at } as GoodsIssueCommand,
        update: cancelGoodsIssueUpdate.name,
        arg: { userId, reason: input.reason },
      };
    case 'retry':
      return {
        check: { type: 'RetryGoodsIssue', userId, keys, at } as GoodsIssueCommand,
        update: retryGoodsIssueUpdate.name,
        arg: { userId, keys },
      };
    default: {
      const unknown: never = input;
      throw new Error(`unknown goods issue action ${(unknown as { action: string }).action}`);
    }
  }
}

export async function runGoodsIssueAction(
  deps: GoodsIssueDeps,
  /** `keys`: the approval layer keys the actor holds, as the workflow checks them. */
  actor: Actor & { keys: string[] },
  input: GoodsIssueActionInput & { ginId: string },
): Promise<GoodsIssueOutcome> {
  const { tenantId } = actor;
  const { state } = await noteOrRefuse(deps.store, tenantId, input.ginId);
  const plan = planOf(input, actor, actor.keys, new Date().toISOString());
  decide(plan.check, state);
  const workflowId = goodsIssueWorkflowId(tenantId, input.ginId);
  return withWorkflow(
    () =>
      runUpdate<GoodsIssueOutcome, [unknown]>(deps.workflows, workflowId, plan.update, [plan.arg], {
        refuse: refusalFrom,
        missing: workflowMissing,
      }),
    isFinished(state) ? null : () => startGoodsIssueWorkflow(deps.workflows, tenantId, input.ginId, state),
    (error) => refusalOf(error, WORKFLOW_MISSING) !== undefined,
  );
}

/** An action as its route gives it: submit takes the account's approval settings as they are now. */
export type GoodsIssueActionRequest =
  | { action: 'submit' }
  | { action: 'retry' }
  | { action: 'approve'; layer: number }
  | { action: 'reject'; layer: number; reason: string }
  | { action: 'cancel'; reason: string };

/** "CODE (2 on hand, 5 asked), …" for a failed issue's message. */
const shortLines = (language: Language, detail: GoodsIssueDetail) =>
  (detail.issue.failure?.lines ?? [])
    .map((line) =>
      translate(language, 'goods_issue.short_line', {
        code: line.master_code.code,
        on_hand: line.on_hand,
        quantity: line.quantity,
      }),
    )
    .join(', ');

/**
 * The action on the note `ginId`, answered with the note after it and the message its outcome calls for (`language`:
 * the caller's, for the short lines of a failed issue).
 */
export async function actOnGoodsIssue(
  deps: GoodsIssueDeps,
  viewer: GoodsIssueViewer & { language: Language },
  input: GoodsIssueActionRequest & { ginId: string },
): Promise<Answered<GoodsIssueDetail>> {
  const action: GoodsIssueActionInput =
    input.action === 'submit'
      ? { action: 'submit', settings: (await approvalSettingsOf(deps.db, viewer.tenantId)).settings }
      : input;
  const keys = PERMISSION_AREAS.goodsIssueNotes.filter((key) => viewer.permissions.has(key));
  const outcome = await runGoodsIssueAction(deps, { ...viewer, keys }, { ...action, ginId: input.ginId });
  const detail = await goodsIssueDetail(deps, viewer, input.ginId);
  const complete = outcome.status === GIN_STATUS.complete;
  switch (input.action) {
    case 'submit':
      return [detail, 'goods_issue.submitted'];
    case 'approve':
      if (complete) return [detail, 'goods_issue.approved_complete'];
      if (outcome.issueFailed) {
        return [detail, 'goods_issue.approved_issue_failed', { lines: shortLines(viewer.language, detail) }];
      }
      return [detail, 'goods_issue.approved_layer', { layer: input.layer }];
    case 'reject':
      return [detail, 'goods_issue.rejected', { layer: input.layer }];
    case 'cancel':
      return [detail, 'goods_issue.cancelled'];
    case 'retry':
      if (complete) return [detail, 'goods_issue.issued'];
      return [detail, 'goods_issue.issue_failed', { lines: shortLines(viewer.language, detail) }];
    default: {
      const unknown: never = input;
      throw new Error(`unknown goods issue action ${(unknown as { action: string }).action}`);
    }
  }
}
