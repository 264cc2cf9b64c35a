import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { ApprovalSettings } from '../domain/approvals/layers';
import type { GinStatus, GoodsIssueState } from '../domain/goods-issue/decider';

/**
 * What the goods issue workflow and the API share: the workflow's id, its input, and the updates people's actions
 * become (submit, approve, reject, cancel, retry), each answered synchronously — refused by the validator (a
 * second click, the wrong state, a user without the layer's key…) before anything is recorded. No node imports:
 * the workflow bundle loads this file too.
 */

export const GOODS_ISSUE_WORKFLOW = 'goodsIssueWorkflow';

/** `goods-issue-<tenant>-<id>`: the business key, so starting twice finds the one running. */
export const goodsIssueWorkflowId = (tenantId: string, ginId: string) => `goods-issue-${tenantId}-${ginId}`;

export interface GoodsIssueWorkflowInput {
  tenantId: string;
  ginId: string;
  /** The note as its stream stood when the workflow was started (a draft, normally). */
  state: GoodsIssueState;
}

/** Who acts, and the permission keys they hold (the layer keys decide what they may approve). */
export interface Actor {
  userId: string;
  keys: string[];
}

export interface GoodsIssueOutcome {
  status: GinStatus;
  /** The layer now waiting, or null. */
  currentLayer: number | null;
  /** The approved note's stock could not be issued (see the note's failure). */
  issueFailed: boolean;
}

export const submitGoodsIssueUpdate = defineUpdate<
  GoodsIssueOutcome,
  [{ userId: string; settings: ApprovalSettings }]
>('goodsIssue.submit');
export const approveGoodsIssueUpdate = defineUpdate<GoodsIssueOutcome, [Actor & { layer: number }]>(
  'goodsIssue.approve',
);
export const rejectGoodsIssueUpdate = defineUpdate<
  GoodsIssueOutcome,
  [Actor & { layer: number; reason: string }]
>('goodsIssue.reject');
export const cancelGoodsIssueUpdate = defineUpdate<GoodsIssueOutcome, [{ userId: string; reason: string }]>(
  'goodsIssue.cancel',
);
export const retryGoodsIssueUpdate = defineUpdate<GoodsIssueOutcome, [Actor]>('goodsIssue.retry');

/** The note as the workflow holds it, and whether its stock is being issued right now. */
export const goodsIssueStateQuery = defineQuery<{ state: GoodsIssueState; issuing: boolean }>(
  'goodsIssue.state',
);

/** How many times the approvers of one layer are reminded before the workflow just waits. */
export const MAX_REMINDERS_PER_LAYER = 3;
