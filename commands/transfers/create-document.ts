import type { RequestDetail, TransferDetail, TransferDocumentBody } from '@api/contracts/transfers';
import { refuseTransfer, refuseTransferReference } from '@domain/transfers/rules';
import type { Database } from '@infra/db';
import { masterCodesOfTenant, placesOfTenant } from '@projections/documents.queries';
import type { Kysely } from 'kysely';
import type { Actor } from '../support/actor';
import type { Answered } from '../support/answer';
import { requestDetail, transferDetail } from './details';
import {
  commandContext,
  commandIdOf,
  namingMasterCodes,
  newDocumentId,
  startTransferWorkflowNow,
  type TransferDeps,
} from './support';
import { handleTransferCommand } from './transfer';
import { handleTransferRequestCommand } from './transfer-request';

/**
 * Making a transfer request, or a transfer directly: from and to and each line's master code checked against the
 * account, the document's id derived from the idempotency key (a retried create makes one document), then the
 * decider's own checks. A transfer's workflow is started right away, and by the reactor on its creation
 * (workflow-reactor.ts) should that fail.
 */

export interface NewTransferDocument {
  /** The idempotency key, if the caller sent one. */
  key: string | undefined;
  body: TransferDocumentBody;
}

/** The reference a document gets when none is typed: its kind and the first part of its id. */
const defaultReference = (prefix: 'TRQ' | 'TRF', id: string) => `${prefix}-${id.slice(0, 8).toUpperCase()}`;

/** From and to: warehouses or branches of the account (another account's: not found). */
export async function checkPlaces(db: Kysely<Database>, tenantId: string, fromId: string, toId: string) {
  const found = await placesOfTenant(db, tenantId, [fromId, toId]);
  const from = fromId.toLowerCase();
  const to = toId.toLowerCase();
  if (!found.has(from)) throw refuseTransferReference('FROM_NOT_FOUND');
  if (!found.has(to)) throw refuseTransferReference('TO_NOT_FOUND');
  // Checked here, not in the contract: only the place's kind tells whether the seller meant warehouses or branches.
  if (from === to)
    throw found.get(from)!.kind === 'branch'
      ? refuseTransfer('SAME_BRANCH')
      : refuseTransferReference('SAME_WAREHOUSE');
  return { from, to };
}

/** Each line's master code: the account's (else not found), standard (a combo has no stock of its own). */
export async function checkMasterCodes(
  db: Kysely<Database>,
  tenantId: string,
  lines: TransferDocumentBody['lines'],
): Promise<{ masterCodeId: string; quantity: number }[]> {
  const codes = await masterCodesOfTenant(
    db,
    tenantId,
    lines.map((line) => line.master_code_id),
  );
  return lines.map((line, index) => {
    const masterCode = codes.get(line.master_code_id.toLowerCase());
    if (!masterCode) throw refuseTransferReference('MASTER_CODE_NOT_FOUND', { index: index + 1 });
    if (masterCode.type === 'combo')
      throw refuseTransferReference('COMBO_REFUSED', { code: masterCode.code });
    return { masterCodeId: masterCode.id, quantity: line.quantity };
  });
}

async function newDocument(
  deps: TransferDeps,
  actor: Actor,
  { key, body }: NewTransferDocument,
  kind: 'transfer-request' | 'transfer',
) {
  const places = await checkPlaces(deps.db, actor.tenantId, body.from_warehouse_id, body.to_warehouse_id);
  const lines = await checkMasterCodes(deps.db, actor.tenantId, body.lines);
  const id = newDocumentId(actor.tenantId, kind, key);
  return {
    id,
    fields: {
      fromWarehouseId: places.from,
      toWarehouseId: places.to,
      reference: body.reference || defaultReference(kind === 'transfer' ? 'TRF' : 'TRQ', id),
      remark: body.remark ?? '',
      lines,
    },
    context: commandContext(actor, commandIdOf(actor.tenantId, kind, key)),
  };
}

/** A pending request, answered with its detail (a plain "ok" when the key made it before). */
export async function createTransferRequest(
  deps: TransferDeps,
  actor: Actor,
  input: NewTransferDocument,
): Promise<Answered<RequestDetail>> {
  const created = await newDocument(deps, actor, input, 'transfer-request');
  const result = await namingMasterCodes(deps.db, actor.tenantId, () =>
    handleTransferRequestCommand(
      deps.store,
      created.id,
      { type: 'CreateTransferRequest', requestId: created.id, ...created.fields },
      created.context,
    ),
  );
  const detail = await requestDetail(deps, actor.tenantId, created.id);
  return [detail, result.replayed ? 'common.ok' : 'transfer.request_created'];
}

/** A pending transfer made directly, answered with its detail (a plain "ok" when the key made it before). */
export async function createTransfer(
  deps: TransferDeps,
  actor: Actor,
  input: NewTransferDocument,
): Promise<Answered<TransferDetail>> {
  const created = await newDocument(deps, actor, input, 'transfer');
  const result = await namingMasterCodes(deps.db, actor.tenantId, () =>
    handleTransferCommand(
      deps.store,
      created.id,
      { type: 'CreateTransfer', transferId: created.id, requestId: null, ...created.fields },
      created.context,
    ),
  );
  await startTransferWorkflowNow(deps.workflows, actor.tenantId, result.state);
  const detail = await transferDetail(deps, actor.tenantId, created.id);
  return [detail, result.replayed ? 'common.ok' : 'transfer.created'];
}
