import type { PermissionKey } from '@domain/access/permissions';

/**
 * Who reads the inventory's reference data besides its own key holders: the pickers of other screens. A route reads
 * with any of these keys; writing needs the resource's own key.
 */

/** Warehouses and branches: the rack, location, stock, movement and sync screens pick a place. */
export const PLACE_READERS = [
  'inventory-warehouse',
  'inventory-rack',
  'inventory-master-code',
  'inventory-stock-adjustment',
  'inventory-stock-movement',
  'inventory-list-export',
  'inventory-manage-sync',
] as const satisfies readonly PermissionKey[];

/** Master codes (the grid and one in full): the combo, stock, movement, label and rack screens pick them. */
export const MASTER_CODE_READERS = [
  'inventory-master-code',
  'inventory-combo-list',
  'inventory-stock-adjustment',
  'inventory-stock-movement',
  'inventory-list-export',
  'inventory-rack',
] as const satisfies readonly PermissionKey[];

/** Categories, brands and units: the master code and combo editors pick them. */
export const CATALOGUE_READERS = [
  'inventory-categories',
  'inventory-master-code',
  'inventory-combo-list',
] as const satisfies readonly PermissionKey[];
