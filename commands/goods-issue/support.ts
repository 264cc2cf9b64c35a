import { isApprovalError, refuseApproval } from '@domain/approvals/layers';
import {
  type GoodsIssueState,
  isFinished,
  isGoodsIssueError,
  refuseGoodsIssue,
} from '@domain/goods-issue/decider';
import { DomainError } from '@domain/shared/errors';
import type { Database } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import {
  GOODS_ISSUE_WORKFLOW,
  type GoodsIssueWorkflowInput,
  goodsIssueWorkflowId,
} from '@workflows/goods-issue-protocol';
import {
  startOrFindWorkflow,
  type WorkflowDeps,
  type WorkflowRefusal,
  workflowErrors,
} from '@workflows/updates';
import type { Kysely } from 'kysely';
import type { Actor } from '../support/actor';
import { loadGoodsIssue } from './goods-issue';

/** What the goods issue use cases share: their deps, the note by id, and the note's workflow. */

export interface GoodsIssueDeps {
  db: Kysely<Database>;
  store: EventStore;
  workflows: WorkflowDeps;
}

/** Who reads or acts on a note: the keys they hold decide the actions offered and the layers they act at. */
export interface GoodsIssueViewer extends Actor {
  permissions: ReadonlySet<string>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The tenant's note, or not found (an id that is not a uuid, another tenant's, or none: the same answer). */
export async function noteOrRefuse(store: EventStore, tenantId: string, ginId: string) {
  if (!UUID.test(ginId)) throw refuseGoodsIssue('GIN_NOT_FOUND');
  const loaded = await loadGoodsIssue(store, tenantId, ginId);
  if (!loaded) throw refuseGoodsIssue('GIN_NOT_FOUND');
  return loaded;
}

/** The note's workflow is not there (not started yet, or ended): 503 unless it can be started. */
export const WORKFLOW_MISSING = 'WORKFLOW_MISSING';
export const workflowMissing = () =>
  new DomainError(WORKFLOW_MISSING, {}, workflowErrors.WORKFLOWS_UNAVAILABLE);

/** A workflow's refusal as the note's or its approval's refusal (an unknown code: undefined, thrown as is). */
export function refusalFrom(refusal: WorkflowRefusal): DomainError | undefined {
  if (isGoodsIssueError(refusal.code)) return refuseGoodsIssue(refusal.code, refusal.params);
  if (isApprovalError(refusal.code)) return refuseApproval(refusal.code, refusal.params);
  return undefined;
}

/** Starts the note's workflow, or finds the one running (the id is the business key); a finished note has none. */
export async function startGoodsIssueWorkflow(
  workflows: WorkflowDeps,
  tenantId: string,
  ginId: string,
  state: GoodsIssueState,
): Promise<void> {
  if (isFinished(state)) return;
  const input: GoodsIssueWorkflowInput = { tenantId, ginId, state };
  await startOrFindWorkflow(
    workflows,
    GOODS_ISSUE_WORKFLOW,
    goodsIssueWorkflowId(tenantId, ginId),
    input,
    workflowMissing,
  );
}
