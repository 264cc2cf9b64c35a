import { PRINT_DOCUMENTS, PRINT_ORIGINS } from '@domain/orders/order';
import { PrintCode } from '@domain/printing/codes';
import {
  ADDRESS_DISPLAYS,
  COMPANY_LIMITS,
  FONT_SIZES,
  LOGO_POSITIONS,
  LOGO_TYPES,
} from '@domain/printing/settings';
import { z } from 'zod';
import { GridPage } from './common';
import { DateFilter, gridQuery, setFilter } from './grid';
import { rule } from './rules';

/** Printing order documents, the print log and the print settings (api/orders/print.ts, print-settings.ts). */

export const MAX_PRINT_ORDERS = 200;

const ordersRequired = rule(PrintCode.ordersInvalid, 'printing.orders_required');
export const PrintBody = z.strictObject({
  document: z.enum(PRINT_DOCUMENTS, { error: rule(PrintCode.documentInvalid, 'printing.document_invalid') }),
  order_ids: z
    .array(z.string({ error: ordersRequired }).min(1, ordersRequired).max(100, ordersRequired), {
      error: ordersRequired,
    })
    .min(1, ordersRequired)
    .max(
      MAX_PRINT_ORDERS,
      rule(PrintCode.ordersInvalid, 'printing.too_many_orders', { max: MAX_PRINT_ORDERS }),
    ),
  origin: z.enum(PRINT_ORIGINS, { error: rule(PrintCode.originInvalid, 'printing.origin_invalid') }),
});
export type PrintBody = z.infer<typeof PrintBody>;

// ---- the print log ----

export const PRINT_LOG_SORTS = ['printed_at', 'document', 'origin', 'order_number'] as const;
export const PrintLogQuery = gridQuery(PRINT_LOG_SORTS, {
  document: setFilter(PRINT_DOCUMENTS),
  origin: setFilter(PRINT_ORIGINS),
  printed_at: DateFilter,
}).extend({
  order_id: z.string().max(100).optional(),
  document: z.enum(PRINT_DOCUMENTS).optional(),
  origin: z.enum(PRINT_ORIGINS).optional(),
});
export type PrintLogQuery = z.infer<typeof PrintLogQuery>;

export const PrintLogRow = z.object({
  id: z.string(),
  order_id: z.string(),
  order_number: z.string().nullable(),
  tracking_number: z.string().nullable(),
  document: z.enum(PRINT_DOCUMENTS),
  origin: z.string(),
  printed_by: z.object({ id: z.string(), name: z.string() }).nullable(),
  printed_at: z.string(),
});
export type PrintLogRow = z.infer<typeof PrintLogRow>;

export const PrintLogPage = GridPage(PrintLogRow);
export type PrintLogPage = z.infer<typeof PrintLogPage>;

// ---- print settings ----

const settingsInvalid = rule(PrintCode.settingsInvalid, 'printing.settings.invalid');

/** A drawn document's settings; `error`, the message of a body's wrong value. */
const documentSettings = (error?: string) => ({
  logo_position: z.enum(LOGO_POSITIONS, { error }),
  address_display: z.enum(ADDRESS_DISPLAYS, { error }),
  font_size: z.enum(FONT_SIZES, { error }),
});
/** The same for each document Kedai draws. */
const perDocument = <S extends z.ZodType>(shape: S) => ({ INV: shape, PL: shape, CL: shape, DO: shape });

const companyText = (
  max: number,
  error = rule(PrintCode.companyTextTooLong, 'printing.settings.company_text', { max }),
) => z.string({ error }).trim().max(max, error);

/** The company details, each field made by `field` (its key in COMPANY_LIMITS). */
const companyOf = <S extends z.ZodType>(field: (key: keyof typeof COMPANY_LIMITS) => S) => ({
  name: field('name'),
  address: field('address'),
  phone: field('phone'),
  email: field('email'),
  registration_no: field('registrationNo'),
});

/** The company details printed documents carry, as Settings → company and the print settings change them. */
export const CompanyBody = z.strictObject(
  companyOf((key) => companyText(COMPANY_LIMITS[key])),
  { error: settingsInvalid },
);
export type CompanyBody = z.infer<typeof CompanyBody>;

export const PrintSettingsBody = z.strictObject({
  company: CompanyBody,
  documents: z.strictObject(perDocument(z.strictObject(documentSettings(settingsInvalid))), {
    error: settingsInvalid,
  }),
});
export type PrintSettingsBody = z.infer<typeof PrintSettingsBody>;

export const DocumentSettingsAnswer = z.object(documentSettings());
export type DocumentSettingsAnswer = z.infer<typeof DocumentSettingsAnswer>;

export const PrintSettingsAnswer = z.object({
  company: z.object(companyOf(() => z.string())),
  documents: z.object(perDocument(DocumentSettingsAnswer)),
  logo: z.object({ type: z.enum(LOGO_TYPES), bytes: z.number().int() }).nullable(),
  saved: z.boolean(),
  updated_at: z.string().nullable(),
  options: z.object({
    logo_positions: z.array(z.enum(LOGO_POSITIONS)),
    address_displays: z.array(z.enum(ADDRESS_DISPLAYS)),
    font_sizes: z.array(z.enum(FONT_SIZES)),
    logo_types: z.array(z.enum(LOGO_TYPES)),
    logo_max_bytes: z.number().int(),
  }),
});
export type PrintSettingsAnswer = z.infer<typeof PrintSettingsAnswer>;
