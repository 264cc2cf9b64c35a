import { InventoryCode } from '@domain/inventory/codes';
import { TEXT_LIMITS } from '@domain/shared/limits';
import { z } from 'zod';
import { nonEmpty, nothingToChange, phone, requiredText, stamps, text } from './inventory-fields';
import { rule } from './rules';

/** Warehouses and branches (spec §3 "Warehouse and rack"). */

export const PLACE_KINDS = ['warehouse', 'branch'] as const;
export type PlaceKind = (typeof PLACE_KINDS)[number];

const flag = z.boolean({ error: rule(400, 'inventory.warehouse.flag_invalid') });

const common = {
  code: requiredText(TEXT_LIMITS.code, InventoryCode.codeRequired, 'inventory.warehouse.code_required'),
  name: requiredText(TEXT_LIMITS.name, InventoryCode.nameRequired, 'inventory.warehouse.name_required'),
  manager: text(TEXT_LIMITS.name),
  phone,
};
const warehouseFields = {
  ...common,
  address: text(TEXT_LIMITS.address),
  is_default: flag,
  use_address_on_receipt: flag,
  use_phone_on_receipt: flag,
};
const branchFields = { ...common, location: text(TEXT_LIMITS.address) };

export const NewWarehouse = z.strictObject({
  ...warehouseFields,
  manager: warehouseFields.manager.default(''),
  phone: warehouseFields.phone.default(''),
  address: warehouseFields.address.default(''),
  is_default: flag.default(false),
  use_address_on_receipt: flag.default(false),
  use_phone_on_receipt: flag.default(false),
});
export const NewBranch = z.strictObject({
  ...branchFields,
  manager: branchFields.manager.default(''),
  phone: branchFields.phone.default(''),
  location: branchFields.location.default(''),
});

export const WarehouseChanges = z.strictObject(warehouseFields).partial().refine(nonEmpty, nothingToChange);
export const BranchChanges = z.strictObject(branchFields).partial().refine(nonEmpty, nothingToChange);

export const Place = z.object({
  id: z.string(),
  kind: z.enum(PLACE_KINDS),
  code: z.string(),
  name: z.string(),
  manager: z.string(),
  phone: z.string(),
  /** Warehouses only ('' for a branch). */
  address: z.string(),
  /** Branches only ('' for a warehouse). */
  location: z.string(),
  is_default: z.boolean(),
  use_address_on_receipt: z.boolean(),
  use_phone_on_receipt: z.boolean(),
  rack_count: z.number().int(),
  master_code_count: z.number().int(),
  ...stamps,
});
export type Place = z.infer<typeof Place>;

export type NewWarehouse = z.infer<typeof NewWarehouse>;
export type NewBranch = z.infer<typeof NewBranch>;
export type WarehouseChanges = z.infer<typeof WarehouseChanges>;
export type BranchChanges = z.infer<typeof BranchChanges>;
