/**
 * Every permission key of spec §6, by area, in one typed constant. A group carries a subset of these keys; the owner
 * of a seller account holds them all; `GET /api/info/permission` answers the boolean map over all of them. The
 * console's checklist and labels (`permissions:<key>` in locales/) come from this list, so a key cannot exist in one
 * place only.
 */
export const PERMISSION_AREAS = {
  listings: ['listings-index', 'listings-manage', 'marketplace_control'],
  orders: [
    'orders-dropship',
    'orders-new-order',
    'orders-multi-store-arrange',
    'orders-unscan',
    'orders-awb-one-print-limit',
    'orders-do-one-print-limit',
    'orders-customize-delivery-order',
    'orders-scan-delete',
    'orders-upload',
    'orders-view-all',
    'orders-manifest-export-v1',
    'orders-batch',
    'orders-view-all-task',
    'orders-order-by-task',
    'orders-split-order-logistic-api',
  ],
  sales: [
    'sales-manage',
    'sales-index',
    'sales-edit-price',
    'return_sales',
    'sales-quotation',
    'customer-manage',
    'customer-group',
    'price-book',
    'customer-birthday',
  ],
  purchases: ['purchases-index', 'purchases-manage'],
  inventory: [
    'inventory-master-code',
    'inventory-combo-list',
    'inventory-stock-adjustment',
    'inventory-list-export',
    'inventory-manage-sync',
    'inventory-stock-movement',
    'inventory-warehouse',
    'inventory-rack',
    'inventory-categories',
  ],
  other: ['ewallet', 'subscription', 'referrals', 'appstore', 'activity-logs', 'billing'],
  supplierDropship: [
    'supplier-dropship-view',
    'supplier-dropship-manage-wallet',
    'supplier-dropship-cancel-refund-order',
    'supplier-dropship-manual-auto-get-tracking',
  ],
  fulfillment: ['fulfillment-manage'],
  chat: ['chat-index', 'chat-assign-api', 'chat-view-all-ticket', 'multichat-app-access'],
  dashboard: ['dashboard-app-access'],
  mobileScan: [
    'mobile-scan-login',
    'mobile-scan-tracking',
    'mobile-scan-with-sku',
    'mobile-scan-return-order',
    'mobile-scan-stock-control',
    'mobile-scan-wms-lite',
    'mobile-scan-add-marketplace-store',
  ],
  warehouseApp: [
    'warehouse-app-manager-login',
    'warehouse-app-create-purchase',
    'warehouse-app-create-product',
    'warehouse-app-pack',
    'warehouse-app-unpack',
    'warehouse-app-view-packed-unpacked',
  ],
  pos: [
    'pos-supervisor-access',
    'pos-view-product',
    'pos-manage-product',
    'pos-stock-adjustment',
    'pos-view-print-report',
    'pos-edit-price',
    'pos-edit-discount',
    'pos-refund',
    'pos-reopen-drawer',
    'pos-reprint-receipt',
    'pos-download-unsynced-receipts',
    'pos-customer-search',
    'pos-manage-settings',
    'pos-edit-membership-status',
    'pos-edit-membership-point',
    'pos-edit-membership-level',
    'pos-edit-customer-group',
    'pos-price-book',
    'pos-wholesale-price',
    'pos-sale-channel',
    'pos-sales-person',
    'pos-payment-methods',
    'pos-skip-payment',
    'pos-close-shift',
    'pos-view-others-sales',
  ],
  transferStock: ['transfer-manage-request', 'transfer-approve-request', 'transfer-manage-transfer'],
  goodsIssueNotes: ['gin-approval-layer-1', 'gin-approval-layer-2', 'gin-approval-layer-3'],
  misc: ['billing-view', 'booking-services', 'booking-staff', 'multiple-warehouse-linking'],
} as const;

export type PermissionArea = keyof typeof PERMISSION_AREAS;
export type PermissionKey = (typeof PERMISSION_AREAS)[PermissionArea][number];

export const PERMISSION_KEYS: readonly PermissionKey[] = Object.values(PERMISSION_AREAS).flat();

const known = new Set<string>(PERMISSION_KEYS);
export const isPermissionKey = (value: string): value is PermissionKey => known.has(value);

/** The boolean map `GET /api/info/permission` answers: every key, true where granted. */
export function permissionMap(granted: Iterable<string>): Record<PermissionKey, boolean> {
  const held = new Set(granted);
  return Object.fromEntries(PERMISSION_KEYS.map((key) => [key, held.has(key)])) as Record<
    PermissionKey,
    boolean
  >;
}
