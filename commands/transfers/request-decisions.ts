import type { ApprovedRequest, RequestDetail } from '@api/contracts/transfers';
import type { TransferRequestCommand, TransferRequestState } from '@domain/transfers/transfer-request';
import type { Actor } from '../support/actor';
import type { Answered } from '../support/answer';
import { requestDetail } from './details';
import {
  commandContext,
  commandIdOf,
  documentIdOf,
  startTransferWorkflowNow,
  type TransferDeps,
  transferIdOfRequest,
} from './support';
import { handleTransferCommand } from './transfer';
import { handleTransferRequestCommand, loadTransferRequest } from './transfer-request';

/**
 * A person's decision on a pending transfer request: approve (which makes the transfer of its lines), reject with a
 * reason, or cancel, each answered with the request after it. `key` is the idempotency key: the same key records
 * once and answers what it recorded.
 */

interface Decision {
  /** The request's id as the path gives it. */
  id: string;
  key: string | undefined;
}

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
  input: Decision,
): Promise<Answered<ApprovedRequest>> {
  const requestId = documentIdOf(input.id);
  const before = await loadTransferRequest(deps.store, actor.tenantId, requestId);
  if (before.state.status === 'approved') await makeTransferOf(deps, actor, before.state);
  const transferId = transferIdOfRequest(actor.tenantId, requestId);
  const result = await decide(
    deps,
    actor,
    requestId,
    'approve',
    { type: 'ApproveTransferRequest', transferId },
    input.key,
  );
  if (result.state.status === 'none') throw new Error('an approved request has no state');
  const made = await makeTransferOf(deps, actor, result.state);
  const detail = await requestDetail(deps, actor.tenantId, requestId);
  return [{ ...detail, transfer_id: made }, 'transfer.request_approved'];
}

export async function rejectTransferRequest(
  deps: TransferDeps,
  actor: Actor,
  input: Decision & { reason: string },
): Promise<Answered<RequestDetail>> {
  const requestId = documentIdOf(input.id);
  const command = { type: 'RejectTransferRequest', reason: input.reason } as const;
  await decide(deps, actor, requestId, 'reject', command, input.key);
  return [await requestDetail(deps, actor.tenantId, requestId), 'transfer.request_rejected'];
}

export async function cancelTransferRequest(
  deps: TransferDeps,
  actor: Actor,
  input: Decision,
): Promise<Answered<RequestDetail>> {
  const requestId = documentIdOf(input.id);
  await decide(deps, actor, requestId, 'cancel', { type: 'CancelTransferRequest' }, input.key);
  return [await requestDetail(deps, actor.tenantId, requestId), 'transfer.request_cancelled'];
}
