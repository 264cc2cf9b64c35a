import { stockTargetErrors } from '@domain/inventory/stock';
import { refuser } from '@domain/shared/errors';
import type { Database } from '@infra/db';
import type { Kysely, Transaction } from 'kysely';

/**
 * The inventory's reference rows a stock request names: the master code and the warehouse (or branch), both the
 * tenant's. An unknown id and another tenant's are the same: missing. Ids that are not uuids are never found.
 */

type Db = Kysely<Database> | Transaction<Database>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface StockTarget {
  masterCode: {
    id: string;
    code: string;
    name: string;
    type: 'standard' | 'combo';
    status: 'active' | 'inactive';
  };
  warehouse: { id: string; code: string; name: string; kind: 'warehouse' | 'branch' };
}

const refuse = refuser(stockTargetErrors);

export async function masterCodeNamed(
  db: Db,
  tenantId: string,
  id: string,
): Promise<StockTarget['masterCode']> {
  const row = UUID.test(id)
    ? await db
        .selectFrom('master_codes')
        .select(['id', 'code', 'name', 'type', 'status'])
        .where('tenant_id', '=', tenantId)
        .where('id', '=', id.toLowerCase())
        .executeTakeFirst()
    : undefined;
  if (!row) throw refuse('MASTER_CODE_NOT_FOUND');
  return row;
}

export async function placeNamed(db: Db, tenantId: string, id: string): Promise<StockTarget['warehouse']> {
  const row = UUID.test(id)
    ? await db
        .selectFrom('warehouses')
        .select(['id', 'code', 'name', 'kind'])
        .where('tenant_id', '=', tenantId)
        .where('id', '=', id.toLowerCase())
        .executeTakeFirst()
    : undefined;
  if (!row) throw refuse('WAREHOUSE_NOT_FOUND');
  return row;
}

/**
 * The master code and the warehouse (or branch) a stock request names. The master code is checked first. A combo
 * has no stock of its own unless `combo` says the caller derives it. Inactive master codes are found: their stock
 * can still be counted and written down after they stop selling.
 */
export async function stockTarget(
  db: Db,
  tenantId: string,
  masterCodeId: string,
  warehouseId: string,
  opts: { combo?: 'refuse' | 'allow' } = {},
): Promise<StockTarget> {
  const masterCode = await masterCodeNamed(db, tenantId, masterCodeId);
  const warehouse = await placeNamed(db, tenantId, warehouseId);
  if (masterCode.type === 'combo' && opts.combo !== 'allow') {
    throw refuse('COMBO_HAS_NO_STOCK', { code: masterCode.code });
  }
  return { masterCode, warehouse };
}
