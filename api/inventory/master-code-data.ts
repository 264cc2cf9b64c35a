/**
 * The master code pieces the master code, combo, location and barcode routes share, from their homes: the contract
 * (api/contracts/inventory/master-codes.ts), the query (projections/inventory/master-codes.ts) and the commands
 * (commands/inventory/master-codes.ts).
 */

import type { MasterCodeDetail } from '@api/contracts/inventory/master-codes';
import { notFound } from '@api/errors';
import type { Database } from '@infra/db';
import { masterCodeById } from '@projections/inventory/master-codes';
import type { Kysely, Transaction } from 'kysely';

export * from '@api/contracts/inventory/master-codes';
export {
  createMasterCode,
  masterCodeRefusal,
  replacePrices,
  requireReferences,
} from '@commands/inventory/master-codes';
export {
  comboItems,
  findMasterCodeRow,
  type MasterCodeRow,
  masterCode,
  masterCodeLocations,
  selectMasterCodes,
} from '@projections/inventory/master-codes';

/** One master code in full, or 404. */
export async function findMasterCode(
  db: Kysely<Database> | Transaction<Database>,
  tenantId: string,
  id: string,
): Promise<MasterCodeDetail> {
  const found = await masterCodeById(db, tenantId, id);
  if (!found) throw notFound();
  return found;
}
