import type { InventoryDeps } from './common';
/** The master code and combo routes answer a master code in full (projections/inventory/master-codes.ts) or 404. */

import type { MasterCodeDetail } from '@api/contracts/inventory-master-codes';
import { notFound } from '@api/errors';
import { masterCodeById } from '@projections/inventory/master-codes';

/** One master code in full, or 404. */
export async function findMasterCode(
  db: InventoryDeps['db'],
  tenantId: string,
  id: string,
): Promise<MasterCodeDetail> {
  const found = await masterCodeById(db, tenantId, id);
  if (!found) throw notFound();
  return found;
}
