import type { ShortfallAnswer, ShortfallCheckBody } from '@api/contracts/transfers';
import { refuseTransferReference } from '@domain/transfers/rules';
import { masterCodesOfTenant, placesOfTenant } from '@projections/documents.queries';
import { checkMasterCodes } from './create-document';
import { shortfallsAt } from './shortfalls';
import type { TransferDeps } from './support';

/**
 * The lines of a document being made or edited that ask for more than the source has on hand, all of them at once,
 * with the figures: the form warns beside each line before anything is sent. Warned, not refused: stock may arrive
 * before shipping, and shipping refuses what is still short then.
 */
export async function checkShortfalls(
  deps: Pick<TransferDeps, 'db' | 'store'>,
  tenantId: string,
  body: ShortfallCheckBody,
): Promise<ShortfallAnswer[]> {
  const from = body.from_warehouse_id.toLowerCase();
  if (!(await placesOfTenant(deps.db, tenantId, [from])).has(from))
    throw refuseTransferReference('FROM_NOT_FOUND');
  const lines = await checkMasterCodes(deps.db, tenantId, body.lines);
  const short = await shortfallsAt(deps.store, tenantId, from, lines);
  const codes = await masterCodesOfTenant(
    deps.db,
    tenantId,
    short.map((line) => line.masterCodeId),
  );
  return short.map((line) => {
    const found = codes.get(line.masterCodeId);
    return {
      master_code: { id: line.masterCodeId, code: found?.code ?? null, name: found?.name ?? null },
      quantity: line.quantity,
      on_hand: line.onHand,
    };
  });
}
