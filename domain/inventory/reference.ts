import { ReturnCode } from '@domain/returns/codes';
import { type ErrorTable, refuser } from '@domain/shared/errors';
import { IMAGE_TYPES } from '@domain/shared/images';
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

export const RACK_ERRORS = [
  'NOT_FOUND',
  'WAREHOUSE_NOT_FOUND',
  'RACK_NOT_FOUND',
  'NAME_TAKEN',
  'IN_USE',
  'COMBO_NO_LOCATION',
  'STOCK_REMAINS',
] as const;
export type RackErrorCode = (typeof RACK_ERRORS)[number];

export const rackErrors = {
  NOT_FOUND: { status: 404, code: 404, key: 'common.no_record_found' },
  WAREHOUSE_NOT_FOUND: {
    status: 400,
    code: InventoryCode.warehouseNotFound,
    key: 'inventory.rack.warehouse_not_found',
  },
  RACK_NOT_FOUND: { status: 400, code: InventoryCode.rackNotFound, key: 'inventory.rack.rack_not_found' },
  NAME_TAKEN: { status: 409, code: InventoryCode.nameTaken, key: 'inventory.rack.name_taken' },
  IN_USE: { status: 409, code: InventoryCode.inUse, key: 'inventory.rack.in_use' },
  /** A combo has no stock of its own, so no rack location either. */
  COMBO_NO_LOCATION: { status: 409, code: InventoryCode.comboHasNoStock, key: 'inventory.combo.no_location' },
  /** "Only 0 quantity able to be removed from a branch" (spec §5, §8). */
  STOCK_REMAINS: { status: 409, code: InventoryCode.stockRemains, key: 'inventory.location.stock_remains' },
} as const satisfies ErrorTable<RackErrorCode>;

export const refuseRack = refuser(rackErrors);

export const CATALOGUE_ERRORS = [
  'NOT_FOUND',
  'CATEGORY_NAME_TAKEN',
  'BRAND_NAME_TAKEN',
  'UNIT_NAME_TAKEN',
  'CATEGORY_IN_USE',
  'BRAND_IN_USE',
  'UNIT_IN_USE',
  'PARENT_NOT_FOUND',
  'PARENT_CYCLE',
  'HAS_SUBCATEGORIES',
] as const;
export type CatalogueErrorCode = (typeof CATALOGUE_ERRORS)[number];

export const catalogueErrors = {
  NOT_FOUND: { status: 404, code: 404, key: 'common.no_record_found' },
  CATEGORY_NAME_TAKEN: { status: 409, code: InventoryCode.nameTaken, key: 'inventory.category.name_taken' },
  BRAND_NAME_TAKEN: { status: 409, code: InventoryCode.nameTaken, key: 'inventory.brand.name_taken' },
  UNIT_NAME_TAKEN: { status: 409, code: InventoryCode.nameTaken, key: 'inventory.unit.name_taken' },
  CATEGORY_IN_USE: { status: 409, code: InventoryCode.inUse, key: 'inventory.category.in_use' },
  BRAND_IN_USE: { status: 409, code: InventoryCode.inUse, key: 'inventory.brand.in_use' },
  UNIT_IN_USE: { status: 409, code: InventoryCode.inUse, key: 'inventory.unit.in_use' },
  PARENT_NOT_FOUND: {
    status: 400,
    code: InventoryCode.categoryNotFound,
    key: 'inventory.category.parent_not_found',
  },
  PARENT_CYCLE: { status: 409, code: InventoryCode.categoryCycle, key: 'inventory.category.parent_cycle' },
  HAS_SUBCATEGORIES: {
    status: 409,
    code: InventoryCode.hasSubcategories,
    key: 'inventory.category.has_subcategories',
  },
} as const satisfies ErrorTable<CatalogueErrorCode>;

export const refuseCatalogue = refuser(catalogueErrors);

export const MASTER_CODE_ERRORS = [
  'NOT_FOUND',
  'CODE_TAKEN',
  'LIMIT_REACHED',
  'CATEGORY_NOT_FOUND',
  'BRAND_NOT_FOUND',
  'UNIT_NOT_FOUND',
  'TYPE_FIXED',
  'CODE_BOUND',
  'IMAGE_INVALID',
  'IMAGE_TOO_LARGE',
  'IMAGE_NOT_FOUND',
  'IMAGE_TWICE',
] as const;
export type MasterCodeErrorCode = (typeof MASTER_CODE_ERRORS)[number];

export const masterCodeErrors = {
  NOT_FOUND: { status: 404, code: 404, key: 'common.no_record_found' },
  CODE_TAKEN: { status: 409, code: InventoryCode.codeTaken, key: 'inventory.master_code.code_taken' },
  /** One master code more than the package allows. */
  LIMIT_REACHED: {
    status: 403,
    code: InventoryCode.masterCodeLimit,
    key: 'inventory.master_code.limit_reached',
  },
  CATEGORY_NOT_FOUND: {
    status: 400,
    code: InventoryCode.categoryNotFound,
    key: 'inventory.master_code.category_not_found',
  },
  BRAND_NOT_FOUND: {
    status: 400,
    code: InventoryCode.brandNotFound,
    key: 'inventory.master_code.brand_not_found',
  },
  UNIT_NOT_FOUND: {
    status: 400,
    code: InventoryCode.unitNotFound,
    key: 'inventory.master_code.unit_not_found',
  },
  TYPE_FIXED: { status: 409, code: InventoryCode.typeFixed, key: 'inventory.master_code.type_fixed' },
  CODE_BOUND: { status: 409, code: InventoryCode.codeBound, key: 'inventory.master_code.code_bound' },
  // An image refused is the same refusal wherever it is uploaded: the codes of the returns' attachments.
  IMAGE_INVALID: { status: 400, code: ReturnCode.imageInvalid, key: 'inventory.master_code.image_invalid' },
  IMAGE_TOO_LARGE: {
    status: 400,
    code: ReturnCode.imageTooLarge,
    key: 'inventory.master_code.image_too_large',
  },
  IMAGE_NOT_FOUND: {
    status: 400,
    code: ReturnCode.imageNotFound,
    key: 'inventory.master_code.image_not_found',
  },
  /** An uploaded image and an image address at once: a master code shows one picture. */
  IMAGE_TWICE: { status: 400, code: InventoryCode.imageUrlInvalid, key: 'inventory.master_code.image_twice' },
} as const satisfies ErrorTable<MasterCodeErrorCode>;

/** A master code's own image: any of the stored image types, at most 2 MB (what marketplaces take). */
export const MASTER_CODE_IMAGE = { types: IMAGE_TYPES, maxBytes: 2 * 1024 * 1024 } as const;

export const refuseMasterCode = refuser(masterCodeErrors);

export const COMBO_ERRORS = [
  'NOT_FOUND',
  'NOT_A_COMBO',
  'CONTAINS_ITSELF',
  'COMPONENT_NOT_FOUND',
  'COMBO_IN_COMBO',
] as const;
export type ComboErrorCode = (typeof COMBO_ERRORS)[number];

/** A combo's components are standard master codes of the same account: no cycle can form. */
export const comboErrors = {
  NOT_FOUND: { status: 404, code: 404, key: 'common.no_record_found' },
  NOT_A_COMBO: { status: 409, code: InventoryCode.notACombo, key: 'inventory.combo.not_a_combo' },
  CONTAINS_ITSELF: {
    status: 400,
    code: InventoryCode.comboContainsItself,
    key: 'inventory.combo.contains_itself',
  },
  COMPONENT_NOT_FOUND: {
    status: 400,
    code: InventoryCode.componentNotFound,
    key: 'inventory.combo.component_not_found',
  },
  COMBO_IN_COMBO: { status: 400, code: InventoryCode.comboInCombo, key: 'inventory.combo.combo_in_combo' },
} as const satisfies ErrorTable<ComboErrorCode>;

export const refuseCombo = refuser(comboErrors);
