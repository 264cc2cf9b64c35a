import type { ReceiveTransferBody, TransferDetail } from '@api/contracts/transfers';
import { DomainError, refusalOf } from '@domain/shared/errors';
import {
  actionProblem,
  isClosed,
  isTransferError,
  type LineInput,
  refuseTransfer,
  type TransferAction,
} from '@domain/transfers/rules';
import { transferWorkflowId } from '@domain/transfers/transfer';
import {
  type CancelArgs,
  cancelTransferUpdate,
  confirmTransferUpdate,
  type EditArgs,
  editTransferUpdate,
  type ReceiveArgs,
  receiveTransferUpdate,
  returnRestUpdate,
  shipTransferUpdate,
  type TransferSnapshot,
  type Actor as WorkflowActor,
} from '@workflows/transfer-protocol';
import { runUpdate, type WorkflowRefusal, workflowErrors } from '@workflows/updates';
import type { Actor } from '../support/actor';
import type { Answered } from '../support/answer';
import { transferDetail } from './details';
import { documentIdOf, namingMasterCodes, startTransferWorkflow, type TransferDeps } from './support';
import { loadTransfer } from './transfer';

/**
 * A person's action on a transfer (spec §4: confirm, ship, receive in part or whole, return the rest, cancel), run
 * by the transfer's workflow as an update. The transfer as recorded is checked first (a closed transfer, an
 * impossible receipt: refused without asking the workflow); the workflow checks again against its own state, which
 * also knows an action still running. The idempotency key is the update's id: a resent request answers the first
 * one's result while the workflow runs; once the transfer is closed, a resend of its last action is refused by the
 * state — nothing moves twice. A transfer whose workflow has not started yet gets it started, and the action runs.
 */

export type TransferActionInput =
  | { action: 'confirm' | 'ship' | 'returnRest' }
  | { action: 'receive'; lines: LineInput[] }
  | { action: 'cancel'; reason: string }
  | ({ action: 'edit' } & Omit<EditArgs, keyof WorkflowActor>);

const MISSING = 'WORKFLOW_MISSING';
const missing = () => new DomainError(MISSING, {}, workflowErrors.WORKFLOWS_UNAVAILABLE);

/** A workflow's refusal as the transfers' refusal (one they do not know: refused all the same). */
const refusalFrom = (refusal: WorkflowRefusal) =>
  isTransferError(refusal.code)
    ? refuseTransfer(refusal.code, refusal.params)
    : refuseTransfer('REFUSED', refusal.params);

type UpdateArgs = WorkflowActor | ReceiveArgs | CancelArgs | EditArgs;

/** The workflow's update of an action, by name, and its argument. */
function update(input: TransferActionInput, actor: WorkflowActor): [string, UpdateArgs] {
  switch (input.action) {
    case 'confirm':
      return [confirmTransferUpdate.name, actor];
    case 'ship':
      return [shipTransferUpdate.name, actor];
    case 'returnRest':
      return [returnRestUpdate.name, actor];
    case 'receive':
      return [receiveTransferUpdate.name, { ...actor, lines: input.lines } satisfies ReceiveArgs];
    case 'cancel':
      return [cancelTransferUpdate.name, { ...actor, reason: input.reason } satisfies CancelArgs];
    case 'edit': {
      const { revision, toWarehouseId, remark, lines } = input;
      return [
        editTransferUpdate.name,
        { ...actor, revision, toWarehouseId, remark, lines } satisfies EditArgs,
      ];
    }
    default: {
      const unknown: never = input;
      throw new Error(`unknown transfer action ${(unknown as { action: string }).action}`);
    }
  }
}

export async function runTransferAction(
  deps: TransferDeps,
  actor: Actor & { permissions: Iterable<string> },
  input: TransferActionInput & { transferId: string; key: string | undefined },
): Promise<TransferSnapshot> {
  const { tenantId } = actor;
  return namingMasterCodes(deps.db, tenantId, async () => {
    const { state: transfer, revision } = await loadTransfer(deps.store, tenantId, input.transferId);
    if (transfer.status === 'none') throw refuseTransfer('DOCUMENT_NOT_FOUND');
    const action: TransferAction = input.action;
    const receipt = input.action === 'receive' ? input.lines : undefined;
    // A resent action (its idempotency key again) goes to the workflow, which answers it with the first answer.
    const early = input.key ? null : actionProblem(action, transfer, receipt);
    if (early) throw refuseTransfer(early.code, early.params);
    // An edit of a revision already passed is refused here at once; the workflow's record checks it again.
    if (input.action === 'edit' && !input.key && input.revision !== revision)
      throw refuseTransfer('CHANGED_MEANWHILE');

    const [definition, args] = update(input, { userId: actor.userId, permissions: [...actor.permissions] });
    const attempt = () =>
      runUpdate<TransferSnapshot, [UpdateArgs]>(
        deps.workflows,
        transferWorkflowId(tenantId, transfer.transferId),
        definition,
        [args],
        {
          refuse: refusalFrom,
          missing,
          ...(input.key ? { updateId: `${action}:${input.key}` } : {}),
        },
      );
    try {
      return await attempt();
    } catch (error) {
      if (!refusalOf(error, MISSING)) throw error;
      // No workflow: not started yet, or ended an instant ago (the transfer is closed).
      const { state } = await loadTransfer(deps.store, tenantId, transfer.transferId);
      if (state.status === 'none') throw error;
      const closed = isClosed(state.status) ? actionProblem(action, state) : null;
      if (closed) throw refuseTransfer(closed.code, closed.params);
      await startTransferWorkflow(deps.workflows, tenantId, state);
      return attempt();
    }
  });
}

/** An action as its route's body gives it. */
export type TransferActionRequest =
  | { action: 'confirm' | 'ship' | 'returnRest' }
  | { action: 'receive'; lines: ReceiveTransferBody['lines'] }
  | { action: 'cancel'; reason?: string | undefined };

const MESSAGES: Record<TransferActionRequest['action'], string> = {
  confirm: 'transfer.confirmed',
  ship: 'transfer.shipped',
  receive: 'transfer.received',
  returnRest: 'transfer.rest_returned',
  cancel: 'transfer.cancelled',
};

const actionOf = (input: TransferActionRequest): TransferActionInput => {
  if (input.action === 'receive') {
    const lines = input.lines.map((line) => ({
      masterCodeId: line.master_code_id.toLowerCase(),
      quantity: line.quantity,
    }));
    return { action: 'receive', lines };
  }
  if (input.action === 'cancel') return { action: 'cancel', reason: input.reason ?? '' };
  return { action: input.action };
};

/** An action on the transfer `id` (from the path), answered with the transfer after it. */
export async function actOnTransfer(
  deps: TransferDeps,
  actor: Actor & { permissions: Iterable<string> },
  input: TransferActionRequest & { id: string; key: string | undefined },
): Promise<Answered<TransferDetail>> {
  const transferId = documentIdOf(input.id);
  await runTransferAction(deps, actor, { ...actionOf(input), transferId, key: input.key });
  return [await transferDetail(deps, actor.tenantId, transferId), MESSAGES[input.action]];
}
