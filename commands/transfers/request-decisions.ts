import type { TransferRequestCommand, TransferRequestState } from '@domain/transfers/transfer-request';
import type { Actor } from '../support/actor';
import {
  commandContext,
  commandIdOf,
  startTransferWorkflowNow,
  type TransferDeps,
  transferIdOfRequest,
} from './support';
import { handleTransferCommand } from './transfer';
import { handleTransferRequestCommand, loadTransferRequest } from './transfer-request';

/**
 * A person's decision on a pending transfer request: approve (which makes the transfer of its lines), reject with a
 * reason, or cancel. `key` is the idempotency key: the same key records once and answers what it recorded.
 */

type Decided = Exclude<TransferRequestState, { status: 'none' }>;

/**
 * The transfer an approved request makes: the request's lines, linked both ways (the approval names the transfer,
 * the transfer its request), recorded once whoever approves and however often — its command id is the request's.
 * Its workflow starts right away (and by the reactor on the transfer's creation, should that fail).
 */
async function makeTransferOf(deps: TransferDeps, actor: Actor, request: Decided): Promise<string> {
  const transferId = request.transferId ?? transferIdOfRequest(actor.tenantId, request.requestId);
  const made = await handleTransferCommand(
    deps.store,
    transferId,
    {
      type: 'CreateTransfer',
      transferId,
      requestId: request.requestId,
      fromWarehouseId: request.fromWarehouseId,
      toWarehouseId: request.toWarehouseId,
      reference: request.reference,
      remark: request.remark,
      lines: request.lines,
    },
    commandContext(actor, `${actor.tenantId}:transfer-of-request:${request.requestId}`),
  );
  await startTransferWorkflowNow(deps.workflows, actor.tenantId, made.state);
  return transferId;
}

const decide = (
  deps: TransferDeps,
  actor: Actor,
  requestId: string,
  purpose: 'approve' | 'reject' | 'cancel',
  command: TransferRequestCommand,
  key: string | undefined,
) =>
  handleTransferRequestCommand(
    deps.store,
    requestId,
    command,
    commandContext(actor, commandIdOf(actor.tenantId, `${purpose}:${requestId}`, key)),
  );

/**
 * Approves a pending request and makes its transfer. A request approved before whose transfer is missing (the
 * process stopped between the two) gets it made first; the approval is then refused as no longer pending.
 */
export async function approveTransferRequest(
  deps: TransferDeps,
  actor: Actor,
  input: { requestId: string; key: string | undefined },
) {
  const before = await loadTransferRequest(deps.store, actor.tenantId, input.requestId);
  if (before.state.status === 'approved') await makeTransferOf(deps, actor, before.state);
  const transferId = transferIdOfRequest(actor.tenantId, input.requestId);
  const result = await decide(
    deps,
    actor,
    input.requestId,
    'approve',
    { type: 'ApproveTransferRequest', transferId },
    input.key,
  );
  if (result.state.status === 'none') throw new Error('an approved request has no state');
  return { transferId: await makeTransferOf(deps, actor, result.state) };
}

export async function rejectTransferRequest(
  deps: TransferDeps,
  actor: Actor,
  input: { requestId: string; reason: string; key: string | undefined },
) {
  await decide(
    deps,
    actor,
    input.requestId,
    'reject',
    { type: 'RejectTransferRequest', reason: input.reason },
    input.key,
  );
}

export async function cancelTransferRequest(
  deps: TransferDeps,
  actor: Actor,
  input: { requestId: string; key: string | undefined },
) {
  await decide(deps, actor, input.requestId, 'cancel', { type: 'CancelTransferRequest' }, input.key);
}
