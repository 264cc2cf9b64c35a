import { type ErrorTable, refuser } from '@domain/shared/errors';
import { InventoryCode } from './codes';

/**
 * Refusals of the inventory's reference data (warehouses and branches, racks, master codes, combos, categories,
 * brands and units): each code with the answer it gives. The commands in commands/inventory/ throw them.
 */

export const PLACE_ERRORS = [
  'NOT_FOUND',
  'CODE_TAKEN',
  'BRANCH_LIMIT',
  'DEFAULT_REQUIRED',
  'DEFAULT_DELETE',
  'STOCK_REMAINS',
] as const;
export type PlaceErrorCode = (typeof PLACE_ERRORS)[number];

export const placeErrors = {
  NOT_FOUND: { status: 404, code: 404, key: 'common.no_record_found' },
  CODE_TAKEN: { status: 409, code: InventoryCode.warehouseCodeTaken, key: 'inventory.warehouse.code_taken' },
  BRANCH_LIMIT: { status: 403, code: InventoryCode.branchLimit, key: 'inventory.branch.limit_reached' },
  DEFAULT_REQUIRED: {
    status: 409,
    code: InventoryCode.defaultRequired,
    key: 'inventory.warehouse.default_required',
  },
  DEFAULT_DELETE: {
    status: 409,
    code: InventoryCode.defaultRequired,
    key: 'inventory.warehouse.default_delete',
  },
  /** "Only 0 quantity able to be removed from a branch" (spec §5, §8). */
  STOCK_REMAINS: { status: 409, code: InventoryCode.stockRemains, key: 'inventory.warehouse.stock_remains' },
} as const satisfies ErrorTable<PlaceErrorCode>;

export const refusePlace = refuser(placeErrors);
