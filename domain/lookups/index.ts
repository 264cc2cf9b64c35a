import { SUPPORTED_COUNTRIES } from '@domain/access/sign-up';
import { z } from 'zod';
import classificationTable from './data/classification.json' with { type: 'json' };
import countryTable from './data/countries.json' with { type: 'json' };
import currencyTable from './data/currencies.json' with { type: 'json' };
import msicTable from './data/msic.json' with { type: 'json' };
import paymentMeansTable from './data/payment_means.json' with { type: 'json' };
import stateTable from './data/states.json' with { type: 'json' };
import taxTable from './data/taxes.json' with { type: 'json' };
import unitTable from './data/units.json' with { type: 'json' };

/**
 * The lookups of spec §3: the MyInvois code tables in `data/` (real tables, kept exactly as published: see
 * data/README.md), validated once when this module loads, plus the spec's own country and platform lists.
 * Spec remarks worth knowing: states 01–17 are paired with names in list order (the list is the authority),
 * MSIC 00000 means "not applicable", e-invoice classifications run 001–045.
 */

// ── Row shapes ───────────────────────────────────────────────────────────────────────────────────────────────

export const StateRow = z.strictObject({ code: z.string().regex(/^\d{2}$/), name: z.string().min(1) });
export type StateRow = z.infer<typeof StateRow>;

/** An MSIC 2008 industry code with its section letter; 00000 ("NOT APPLICABLE") has no section. */
export const MsicRow = z.strictObject({
  code: z.string().regex(/^(\d{5})?$/),
  description: z.string().min(1),
  category_ref: z.string().regex(/^[A-U]?$/),
});
export type MsicRow = z.infer<typeof MsicRow>;

export const ClassificationRow = z.strictObject({
  code: z.string().regex(/^\d{3}$/),
  description: z.string().min(1),
});
export type ClassificationRow = z.infer<typeof ClassificationRow>;

export const TaxTypeRow = z.strictObject({
  code: z.string().regex(/^(\d{2}|E)$/),
  description: z.string().min(1),
});
export type TaxTypeRow = z.infer<typeof TaxTypeRow>;

export const PaymentModeRow = z.strictObject({ code: z.string().regex(/^\d{2}$/), name: z.string().min(1) });
export type PaymentModeRow = z.infer<typeof PaymentModeRow>;

/** ISO 3166-1 alpha-3, as e-invoices name countries. */
export const EinvoiceCountryRow = z.strictObject({
  code: z.string().regex(/^[A-Z]{3}$/),
  name: z.string().min(1),
});
export type EinvoiceCountryRow = z.infer<typeof EinvoiceCountryRow>;

/** ISO 4217. */
export const CurrencyRow = z.strictObject({ code: z.string().regex(/^[A-Z]{3}$/), name: z.string().min(1) });
export type CurrencyRow = z.infer<typeof CurrencyRow>;

/** UN/ECE Recommendation 20 unit of measure. */
export const UnitRow = z.strictObject({
  code: z.string().regex(/^[A-Z0-9]{1,3}$/),
  name: z.string().min(1),
  description: z.string(),
});
export type UnitRow = z.infer<typeof UnitRow>;

// ── Loading ──────────────────────────────────────────────────────────────────────────────────────────────────

/** Parses a table once; a malformed or duplicated row is a build mistake and stops the process at start. */
function table<Row extends { code: string }>(
  name: string,
  row: z.ZodType<Row>,
  data: unknown,
): readonly Row[] {
  const rows = z.array(row).parse(data);
  const seen = new Set<string>();
  for (const r of rows) {
    if (seen.has(r.code)) throw new Error(`lookup table ${name}: code "${r.code}" appears twice`);
    seen.add(r.code);
  }
  return Object.freeze(rows.map((r) => Object.freeze(r)));
}

const byCode = <Row extends { code: string }>(rows: readonly Row[]) => new Map(rows.map((r) => [r.code, r]));

const STATES = table('states', StateRow, stateTable);
const MSIC = table('msic', MsicRow, msicTable);
const CLASSIFICATIONS = table('classification', ClassificationRow, classificationTable);
const TAX_TYPES = table('taxes', TaxTypeRow, taxTable);
const PAYMENT_MODES = table('payment_means', PaymentModeRow, paymentMeansTable);
const EINVOICE_COUNTRIES = table('countries', EinvoiceCountryRow, countryTable);
const CURRENCIES = table('currencies', CurrencyRow, currencyTable);
// The units table carries one row without a code (a synonym note); it names no unit.
const UNITS = table(
  'units',
  UnitRow,
  unitTable.filter((u) => u.code.trim() !== ''),
);

const MSIC_BY_CODE = byCode(MSIC);
const CURRENCY_BY_CODE = byCode(CURRENCIES);
const EINVOICE_COUNTRY_BY_CODE = byCode(EINVOICE_COUNTRIES);

// ── MyInvois tables ──────────────────────────────────────────────────────────────────────────────────────────

/** Malaysian states 01–17 in the spec's order (17 is "Not Applicable"). */
export const malaysianStates = (): readonly StateRow[] => STATES;
export const malaysianState = (code: string): StateRow | undefined => STATES.find((s) => s.code === code);

/** MSIC code meaning "not applicable". */
export const MSIC_NOT_APPLICABLE = '00000';

export const msicCodes = (): readonly MsicRow[] => MSIC;
export const msicCode = (code: string): MsicRow | undefined => MSIC_BY_CODE.get(code);

/**
 * One page of MSIC codes whose code starts with, or whose description contains, `search` (case-insensitive);
 * in table order. `lastRow` is the number of matches, as ag-grid's Infinite Row Model expects.
 */
export function searchMsic(query: { search?: string; startRow: number; endRow: number }): {
  rows: MsicRow[];
  lastRow: number;
} {
  const needle = query.search?.trim().toLowerCase() ?? '';
  const matches =
    needle === ''
      ? MSIC
      : MSIC.filter((m) => m.code.startsWith(needle) || m.description.toLowerCase().includes(needle));
  return { rows: matches.slice(query.startRow, query.endRow), lastRow: matches.length };
}

/** E-invoice classifications 001–045. */
export const einvoiceClassifications = (): readonly ClassificationRow[] => CLASSIFICATIONS;
export const taxTypes = (): readonly TaxTypeRow[] => TAX_TYPES;
export const paymentModes = (): readonly PaymentModeRow[] => PAYMENT_MODES;
export const einvoiceCountries = (): readonly EinvoiceCountryRow[] => EINVOICE_COUNTRIES;
export const currencies = (): readonly CurrencyRow[] => CURRENCIES;
export const currency = (code: string): CurrencyRow | undefined => CURRENCY_BY_CODE.get(code);
export const units = (): readonly UnitRow[] => UNITS;

// ── The spec's countries ─────────────────────────────────────────────────────────────────────────────────────

/** Where sellers may be (spec §1, §9). */
export const SUPPORTED_COUNTRY_CODES = SUPPORTED_COUNTRIES;
/** Every country the lookups name: the supported ones, then BN and US. */
export const COUNTRY_CODES = [...SUPPORTED_COUNTRY_CODES, 'US', 'BN'] as const;
export const CountryCode = z.enum(COUNTRY_CODES);
export type CountryCode = z.infer<typeof CountryCode>;
export const SupportedCountryCode = z.enum(SUPPORTED_COUNTRY_CODES);
export type SupportedCountryCode = z.infer<typeof SupportedCountryCode>;

export const Country = z.object({
  /** ISO 3166-1 alpha-2, as the spec names countries. */
  code: CountryCode,
  name: z.string(),
  /** ISO 3166-1 alpha-3, the e-invoice country code. */
  alpha3: z.string(),
  /** ISO 4217 local currency. */
  currency: z.string(),
  /** A seller may be registered there. */
  supported: z.boolean(),
});
export type Country = z.infer<typeof Country>;

const COUNTRY_DETAILS: Record<CountryCode, { name: string; alpha3: string; currency: string }> = {
  MY: { name: 'Malaysia', alpha3: 'MYS', currency: 'MYR' },
  TH: { name: 'Thailand', alpha3: 'THA', currency: 'THB' },
  TW: { name: 'Taiwan', alpha3: 'TWN', currency: 'TWD' },
  SG: { name: 'Singapore', alpha3: 'SGP', currency: 'SGD' },
  PH: { name: 'Philippines', alpha3: 'PHL', currency: 'PHP' },
  ID: { name: 'Indonesia', alpha3: 'IDN', currency: 'IDR' },
  CN: { name: 'China', alpha3: 'CHN', currency: 'CNY' },
  VN: { name: 'Vietnam', alpha3: 'VNM', currency: 'VND' },
  IN: { name: 'India', alpha3: 'IND', currency: 'INR' },
  US: { name: 'United States', alpha3: 'USA', currency: 'USD' },
  BN: { name: 'Brunei', alpha3: 'BRN', currency: 'BND' },
};

const COUNTRIES: readonly Country[] = Object.freeze(
  COUNTRY_CODES.map((code) => {
    const details = COUNTRY_DETAILS[code];
    // The spec's list must name countries and currencies the e-invoice tables know.
    if (!EINVOICE_COUNTRY_BY_CODE.has(details.alpha3) || !CURRENCY_BY_CODE.has(details.currency)) {
      throw new Error(
        `country ${code}: ${details.alpha3}/${details.currency} missing from the MyInvois tables`,
      );
    }
    return Object.freeze({
      code,
      ...details,
      supported: (SUPPORTED_COUNTRY_CODES as readonly string[]).includes(code),
    });
  }),
);

export const countries = (): readonly Country[] => COUNTRIES;
export const country = (code: string): Country | undefined => COUNTRIES.find((c) => c.code === code);
export const isSupportedCountry = (code: string): code is SupportedCountryCode =>
  (SUPPORTED_COUNTRY_CODES as readonly string[]).includes(code);

// ── The spec's platforms ─────────────────────────────────────────────────────────────────────────────────────

/**
 * Marketplaces and storefront platforms, in the order of domains.md §1 "Platforms named in the product" (shell.md §3's
 * logo list, with magento and zalora, which the listing calls name).
 */
export const PLATFORM_CODES = [
  'shopee',
  'lazada',
  'tmall',
  'taobao',
  '1688',
  'easystore',
  'woocommerce',
  'shopify',
  'magento',
  'smartpos',
  'opencart',
  'shoplineoa',
  'shopline',
  'o2o',
  'amazon',
  'senheng',
  'tiktokshop',
  'zalora',
] as const;
export const PlatformCode = z.enum(PLATFORM_CODES);
export type PlatformCode = z.infer<typeof PlatformCode>;

export const Platform = z.object({
  code: PlatformCode,
  name: z.string(),
  /** The console's logo, served from web/public: `/platforms/<code>.svg`. */
  logo: z.string(),
});
export type Platform = z.infer<typeof Platform>;

const PLATFORM_NAMES: Record<PlatformCode, string> = {
  shopee: 'Shopee',
  lazada: 'Lazada',
  tmall: 'Tmall',
  taobao: 'Taobao',
  '1688': '1688',
  easystore: 'EasyStore',
  woocommerce: 'WooCommerce',
  shopify: 'Shopify',
  magento: 'Magento',
  smartpos: 'SmartPOS',
  opencart: 'OpenCart',
  shoplineoa: 'SHOPLINE OA',
  shopline: 'SHOPLINE',
  o2o: 'O2O',
  amazon: 'Amazon',
  senheng: 'Senheng',
  tiktokshop: 'TikTok Shop',
  zalora: 'ZALORA',
};

const PLATFORMS: readonly Platform[] = Object.freeze(
  PLATFORM_CODES.map((code) =>
    Object.freeze({ code, name: PLATFORM_NAMES[code], logo: `/platforms/${code}.svg` }),
  ),
);

export const platforms = (): readonly Platform[] => PLATFORMS;
export const platform = (code: string): Platform | undefined => PLATFORMS.find((p) => p.code === code);
