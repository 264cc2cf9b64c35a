import { randomUUID } from 'node:crypto';
import { isUuid } from '@domain/platform/ids';
import { DomainError, refusalOf } from '@domain/shared/errors';
import { isClosed, refuseTransfer } from '@domain/transfers/rules';
import { type OpenTransfer, type TransferState, transferWorkflowId } from '@domain/transfers/transfer';
import type { Database } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import { masterCodesOfTenant } from '@projections/documents.queries';
import { TRANSFER_WORKFLOW, type TransferWorkflowInput } from '@workflows/transfer-protocol';
import { startOnce, type WorkflowDeps } from '@workflows/updates';
import type { Kysely } from 'kysely';
import { eventIdFor } from '../support/ids';

/** What the transfer use cases share: their deps, the ids they derive, and the workflow a transfer runs. */

export interface TransferDeps {
  db: Kysely<Database>;
  store: EventStore;
  workflows: WorkflowDeps;
}

/** A document id from a path: anything but a uuid is an id nobody has. */
export function documentIdOf(id: string): string {
  if (!isUuid(id)) throw refuseTransfer('DOCUMENT_NOT_FOUND');
  return id.toLowerCase();
}

/** The command id of a person's request (scoped by tenant), fresh without a key: such a request is not retried safely. */
export const commandIdOf = (tenantId: string, purpose: string, key: string | undefined) =>
  key === undefined ? `${tenantId}:${purpose}:${randomUUID()}` : `${tenantId}:${purpose}:${key}`;

/** A new document's id: derived from the key, so a retried create makes the same document once. */
export const newDocumentId = (tenantId: string, purpose: string, key: string | undefined) =>
  key === undefined ? randomUUID() : eventIdFor(`${tenantId}:${purpose}:${key}`, 0);

/** The transfer an approved request makes: one id per request, whoever approves and however often. */
export const transferIdOfRequest = (tenantId: string, requestId: string) =>
  eventIdFor(`${tenantId}:transfer-of-request:${requestId}`, 0);

/** The context of a command a person runs: who, under which command id, now. */
export const commandContext = (actor: { tenantId: string; userId: string }, commandId: string) => ({
  tenantId: actor.tenantId,
  userId: actor.userId,
  commandId,
  occurredAt: new Date().toISOString(),
});

/**
 * Runs `work`; a refusal that names a master code by id (`masterCodeId`) is thrown again naming it by its code too,
 * as its message does.
 */
export async function namingMasterCodes<T>(
  db: Kysely<Database>,
  tenantId: string,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const refused = refusalOf(error);
    const id = refused?.params.masterCodeId;
    if (!refused || typeof id !== 'string' || refused.params.code !== undefined) throw error;
    const found = await masterCodesOfTenant(db, tenantId, [id]);
    const code = found.get(id)?.code ?? id;
    throw new DomainError(refused.code, { ...refused.params, code }, refused.refusal);
  }
}

const inputOf = (tenantId: string, transfer: OpenTransfer): TransferWorkflowInput => ({
  tenantId,
  transferId: transfer.transferId,
  fromWarehouseId: transfer.fromWarehouseId,
  toWarehouseId: transfer.toWarehouseId,
  reference: transfer.reference,
  lines: transfer.lines.map((line) => ({ masterCodeId: line.masterCodeId, quantity: line.quantity })),
});

/**
 * Starts the workflow of an open transfer, or finds the one running: the id is the business key, so starting twice
 * makes one. A workflow that has ended is never started again (its transfer is closed).
 */
export async function startTransferWorkflow(
  workflows: WorkflowDeps,
  tenantId: string,
  transfer: OpenTransfer,
): Promise<void> {
  if (isClosed(transfer.status)) return;
  await startOnce(
    workflows,
    TRANSFER_WORKFLOW,
    transferWorkflowId(tenantId, transfer.transferId),
    inputOf(tenantId, transfer),
  );
}

/**
 * Starts a new transfer's workflow now, so an action right after finds it. Should Temporal be away, the reactor on
 * the transfer's creation (workflow-reactor.ts) starts it once it is back, and so does the first action: the
 * document stands either way, so the caller is not failed for it.
 */
export async function startTransferWorkflowNow(
  workflows: WorkflowDeps,
  tenantId: string,
  transfer: TransferState,
): Promise<void> {
  if (transfer.status === 'none') return;
  await startTransferWorkflow(workflows, tenantId, transfer).catch(() => undefined);
}
