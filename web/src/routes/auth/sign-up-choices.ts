/**
 * The answers the sign-up form offers for its business questions. They mirror api/accounts/registration.ts, which
 * refuses any other value; the labels are `auth:register.<question>.<value>`.
 */
export const AVERAGE_ORDERS = ['under_50', '50_200', '200_1000', '1000_5000', 'over_5000'] as const;
export const WAREHOUSE_SIZES = ['none', 'small', 'medium', 'large', 'multiple'] as const;
export const ACCOUNTING_SYSTEMS = [
  'none',
  'autocount',
  'sql_account',
  'xero',
  'quickbooks',
  'bukku',
  'other',
] as const;
export const FOUND_US = [
  'search_engine',
  'facebook',
  'instagram',
  'tiktok',
  'youtube',
  'friend',
  'marketplace',
  'event',
  'other',
] as const;
export const LOOKING_FOR = [
  'order_management',
  'inventory',
  'listings',
  'pos',
  'dropship',
  'accounting',
  'einvoice',
  'webstore',
  'reports',
  'other',
] as const;
