import type { EditTransferBody, TransferDetail } from '@api/contracts/transfers';
import { actionProblem, refuseTransfer } from '@domain/transfers/rules';
import type { Actor } from '../support/actor';
import type { Answered } from '../support/answer';
import { checkMasterCodes, checkPlaces } from './create-document';
import { transferDetail } from './details';
import { runTransferAction } from './run-action';
import { documentIdOf, type TransferDeps } from './support';
import { loadTransfer } from './transfer';

/**
 * A pending transfer's lines, quantities, destination and remark changed before it ships (issue 14): checked like a
 * new transfer's (the destination a place of the account other than the source, each master code the account's and
 * standard), then run by the transfer's workflow as an action, so it never lands in the middle of a shipment. The
 * edit carries the revision the person read: a transfer changed since refuses it (409, code 519) rather than
 * overwrite the other change. Once shipped, it is refused (409, code 509).
 */
export async function editTransfer(
  deps: TransferDeps,
  actor: Actor & { permissions: Iterable<string> },
  input: { id: string; key: string | undefined; body: EditTransferBody },
): Promise<Answered<TransferDetail>> {
  const { tenantId } = actor;
  const transferId = documentIdOf(input.id);
  const { state } = await loadTransfer(deps.store, tenantId, transferId);
  if (state.status === 'none') throw refuseTransfer('DOCUMENT_NOT_FOUND');
  const shipped = actionProblem('edit', state);
  if (shipped) throw refuseTransfer(shipped.code, shipped.params);
  const { body } = input;
  const places = await checkPlaces(deps.db, tenantId, state.fromWarehouseId, body.to_warehouse_id);
  const lines = await checkMasterCodes(deps.db, tenantId, body.lines);
  await runTransferAction(deps, actor, {
    action: 'edit',
    transferId,
    key: input.key,
    revision: body.revision,
    toWarehouseId: places.to,
    remark: body.remark ?? state.remark,
    lines,
  });
  return [await transferDetail(deps, tenantId, transferId), 'transfer.edited'];
}
