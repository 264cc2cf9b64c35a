/**
 * The purchase bulk file's columns, in their fixed order (commands/purchases/purchase-file.ts reads the file; the
 * console shows the order to follow): one item a row, rows sharing a reference make one order.
 */
export const PURCHASE_COLUMNS = [
  'reference',
  'supplier_code',
  'warehouse_code',
  'master_code',
  'quantity',
  'unit_cost',
  'date',
  'estimated_arrival',
  'discount',
] as const;
export type PurchaseColumn = (typeof PURCHASE_COLUMNS)[number];
