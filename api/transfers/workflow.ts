import { ApiError } from '@api/errors';
import { runUpdate, type WorkflowDeps, type WorkflowRefusal } from '@api/workflows';
import { loadTransfer } from '@commands/transfers/transfer';
import { actionProblem, isClosed, type LineInput, type TransferAction } from '@domain/transfers/rules';
import { type OpenTransfer, transferWorkflowId } from '@domain/transfers/transfer';
import type { Database } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import type { UpdateDefinition } from '@temporalio/common';
import {
  TRANSFER_WORKFLOW,
  type TransferSnapshot,
  type TransferWorkflowInput,
} from '@workflows/transfer-protocol';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { refusalAnswer } from './common';

/**
 * Routes → the transfer workflow. A transfer's workflow starts when the transfer is made; should that start have
 * failed (Temporal away at that moment), the first action starts it from the document and goes on. An action runs
 * as an update: the workflow's refusal becomes the transfers' answer; no answer in time is 503.
 */

const inputOf = (tenantId: string, transfer: OpenTransfer): TransferWorkflowInput => ({
  tenantId,
  transferId: transfer.transferId,
  fromWarehouseId: transfer.fromWarehouseId,
  toWarehouseId: transfer.toWarehouseId,
  reference: transfer.reference,
  lines: transfer.lines.map((line) => ({ masterCodeId: line.masterCodeId, quantity: line.quantity })),
});

/**
 * Starts the workflow of a transfer, or finds the one running: the id is the business key, so starting twice makes
 * one. A workflow that has ended is never started again (its transfer is closed).
 */
export async function startTransferWorkflow(
  workflows: WorkflowDeps,
  tenantId: string,
  transfer: OpenTransfer,
): Promise<void> {
  try {
    await workflows.client.workflow.start(TRANSFER_WORKFLOW, {
      taskQueue: workflows.taskQueue,
      workflowId: transferWorkflowId(tenantId, transfer.transferId),
      args: [inputOf(tenantId, transfer)],
      workflowIdConflictPolicy: 'USE_EXISTING',
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
    });
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) return;
    throw error;
  }
}

/** Starts it when it can; a transfer whose workflow did not start now gets it at its first action. */
export async function startTransferWorkflowSoon(
  request: FastifyRequest,
  workflows: WorkflowDeps,
  tenantId: string,
  transfer: OpenTransfer,
): Promise<void> {
  try {
    await startTransferWorkflow(workflows, tenantId, transfer);
  } catch (error) {
    request.log.warn({ err: error, transferId: transfer.transferId }, 'transfer workflow not started yet');
  }
}

class Refused extends ApiError {
  constructor(readonly workflowRefusal: WorkflowRefusal) {
    super(409, 409, 'transfer.refused');
  }
}

class Missing extends ApiError {
  constructor() {
    super(404, 404, 'common.no_record_found');
  }
}

export interface ActionDeps {
  db: Kysely<Database>;
  store: EventStore;
  workflows: WorkflowDeps;
}

/**
 * Runs `action` on an open transfer through its workflow's update and answers the transfer's state after it. The
 * document is checked first (a closed transfer, an impossible receipt: answered without asking the workflow); the
 * workflow checks again against its own state, which also knows an action still running. `updateId` (the
 * idempotency key) makes a resent request answer the first one's result while the workflow runs; once the transfer
 * is closed, a resend of its last action is answered with the state's refusal (409) — nothing moves twice.
 */
export async function runTransferAction<Args extends { userId: string; permissions: string[] }>(
  request: FastifyRequest,
  deps: ActionDeps,
  tenantId: string,
  transfer: OpenTransfer,
  action: TransferAction,
  update: UpdateDefinition<TransferSnapshot, [Args]>,
  args: Args,
  opts: { updateId?: string | undefined; receipt?: LineInput[] } = {},
): Promise<TransferSnapshot> {
  const { updateId } = opts;
  const refuse = async (code: string, params: Record<string, string | number>) =>
    (await refusalAnswer(request, deps.db, tenantId, code, params)) ??
    new ApiError(409, 509, 'transfer.refused');
  // A resent action (its idempotency key again) goes to the workflow, which answers it with the first answer.
  const early = updateId ? null : actionProblem(action, transfer, opts.receipt);
  if (early) throw await refuse(early.code, early.params);

  const workflowId = transferWorkflowId(tenantId, transfer.transferId);
  const attempt = () =>
    runUpdate(deps.workflows, workflowId, update, [args], {
      refuse: (refusal) => new Refused(refusal),
      missing: () => new Missing(),
      ...(updateId ? { updateId } : {}),
    });
  try {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof Missing)) throw error;
      // No workflow: the transfer's start failed, or the workflow ended an instant ago (the transfer is closed).
      const { state } = await loadTransfer(deps.store, tenantId, transfer.transferId);
      if (state.status === 'none') throw error;
      const closed = isClosed(state.status) ? actionProblem(action, state) : null;
      if (closed) throw await refuse(closed.code, closed.params);
      await startTransferWorkflow(deps.workflows, tenantId, state);
      return await attempt();
    }
  } catch (error) {
    if (error instanceof Refused)
      throw await refuse(error.workflowRefusal.code, error.workflowRefusal.params);
    if (error instanceof Missing) throw new ApiError(503, 503, 'common.workflows_unavailable');
    throw error;
  }
}
