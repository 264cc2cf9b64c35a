import { type ErrorTable, refuser } from '../shared/errors';

/**
 * A month's carrier manifest (spec §3 "Carrier manifest": month, total shipped orders, created by): the orders
 * shipped that month counted per carrier. A month to come has shipped nothing yet: it cannot be counted.
 */

/** Years Postgres and a business record both hold (no year 0). */
export const MONTH_PATTERN = /^(19|2\d)\d{2}-(0[1-9]|1[0-2])$/;

/** The catalogue's result codes of manifests (spec §8; the order documents' range 650–679). */
export const ManifestCode = { monthInvalid: 675, monthFuture: 676 } as const;

export const MANIFEST_ERRORS = ['MONTH_FUTURE'] as const;
export type ManifestErrorCode = (typeof MANIFEST_ERRORS)[number];

export const manifestErrors = {
  MONTH_FUTURE: { status: 400, code: ManifestCode.monthFuture, key: 'manifests.month_future' },
} satisfies ErrorTable<ManifestErrorCode>;

const refuse = refuser(manifestErrors);

/** The time zone a country's business days are counted in. */
export const COUNTRY_ZONES: Record<string, string> = {
  MY: 'Asia/Kuala_Lumpur',
  SG: 'Asia/Singapore',
  TH: 'Asia/Bangkok',
  TW: 'Asia/Taipei',
  PH: 'Asia/Manila',
  ID: 'Asia/Jakarta',
  CN: 'Asia/Shanghai',
  VN: 'Asia/Ho_Chi_Minh',
  IN: 'Asia/Kolkata',
  BN: 'Asia/Brunei',
};

export const zoneOfCountry = (country: string | null | undefined) => COUNTRY_ZONES[country ?? ''] ?? 'UTC';

/** A manifest may count this month or one gone by (`current`: this month where the account is, YYYY-MM). */
export function checkManifestMonth(month: string, current: string): void {
  if (month > current) throw refuse('MONTH_FUTURE', { month });
}

/** The month after `month` (YYYY-MM). */
export const nextMonth = (month: string) => {
  const [year, mm] = month.split('-').map(Number) as [number, number];
  return mm === 12 ? `${year + 1}-01` : `${year}-${String(mm + 1).padStart(2, '0')}`;
};
