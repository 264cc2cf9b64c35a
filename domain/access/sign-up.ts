/**
 * The sign-up rules the API enforces and the console checks before sending: the countries a seller signs up from
 * (spec §1, §9), the password rule (spec §5, §9), the one-time code and POS PIN lengths, and the answers the business
 * questions offer (labels are `auth:register.<question>.<value>`). Pure, so the console imports it too.
 */

export const SUPPORTED_COUNTRIES = ['MY', 'TH', 'TW', 'SG', 'PH', 'ID', 'CN', 'VN', 'IN'] as const;
export type SupportedCountry = (typeof SUPPORTED_COUNTRIES)[number];

/** More than 8 characters with at least one digit. */
export const PASSWORD_MIN_LENGTH = 9;
export const PASSWORD_MAX_LENGTH = 200;
export const passwordFollowsRule = (password: string) =>
  password.length >= PASSWORD_MIN_LENGTH && /\d/.test(password);

export const OTP_LENGTH = 6;
export const POS_PIN_LENGTH = 6;

/** Average orders per day. */
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
