import { DomainError, type Refusal, type RefusalParams, refusalOf } from '../shared/errors';
import { purchasingInputErrors, purchasingProcessErrors } from './codes';
import { goodsReceiptErrors } from './goods-receipt';
import { purchaseErrors } from './purchase';

/**
 * Purchasing's refusals as they travel: a workflow refuses an update with the domain's code and parameters only
 * (workflows/support/refusal.ts), so its answer is looked up again in the tables; and a message names a master code
 * by its code, where the domain knows only its id.
 */

const tables: Record<string, Refusal> = {
  ...purchasingInputErrors,
  ...purchasingProcessErrors,
  ...goodsReceiptErrors,
  ...purchaseErrors,
};

/** The answer of a purchasing refusal code; undefined for a code that is not one (a bug). */
export const purchasingRefusal = (code: string): Refusal | undefined => tables[code];

/** The parameters with the master code named by its code (`code`), when they name one by id. */
export function namingMasterCode(
  params: RefusalParams,
  codes: ReadonlyMap<string, { code: string }>,
): RefusalParams {
  const id = params.masterCodeId;
  return typeof id === 'string' ? { ...params, code: codes.get(id)?.code ?? id } : params;
}

/** A refusal with its master code named; anything else as it is. */
export function withMasterCodeNamed(error: unknown, codes: ReadonlyMap<string, { code: string }>): unknown {
  const refusal = refusalOf(error);
  if (!refusal || typeof refusal.params.masterCodeId !== 'string') return error;
  return new DomainError(refusal.code, namingMasterCode(refusal.params, codes), refusal.refusal);
}
