import { ManifestCode, MONTH_PATTERN } from '@domain/orders/carrier-manifest';
import { z } from 'zod';
import { GridPage } from './common';
import { rule } from './rules';

/** Carrier manifests (api/orders/manifests.ts; the console's manifests screen by z.infer). Zod only. */

export const ManifestBody = z.strictObject({
  month: z
    .string({ error: rule(ManifestCode.monthInvalid, 'manifests.month_invalid') })
    .trim()
    .regex(MONTH_PATTERN, rule(ManifestCode.monthInvalid, 'manifests.month_invalid')),
});
export type ManifestBody = z.infer<typeof ManifestBody>;

export const Carrier = z.object({ provider: z.string(), count: z.number().int() });
export type Carrier = z.infer<typeof Carrier>;

export const Manifest = z.object({
  id: z.string(),
  month: z.string(),
  total_shipped: z.number().int(),
  carriers: z.array(Carrier),
  created_by: z.object({ id: z.string(), name: z.string() }).nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Manifest = z.infer<typeof Manifest>;

export const ManifestPage = GridPage(Manifest);

// ---- the manifest invoice ----

/** The month a manifest invoice bills (the same rule as a manifest's month). */
export const InvoiceQuery = z.strictObject({ month: ManifestBody.shape.month });
export type InvoiceQuery = z.infer<typeof InvoiceQuery>;

/** An amount in one currency (two decimals, as text: every cent kept). */
export const CurrencyAmount = z.object({ currency: z.string(), amount: z.string() });

/** A carrier's line of the invoice, or the invoice's totals (provider ''). */
export const InvoiceLine = z.object({
  /** The carrier ('' for orders shipped without one). */
  provider: z.string(),
  parcels: z.number().int(),
  units: z.number().int(),
  /** Kilograms (three decimals) from the master codes' weights, over the parcels whose every item has one. */
  weight_kg: z.string(),
  /** Parcels with an item of unknown weight (not mapped to a master code, or its weight not set). */
  unweighed_parcels: z.number().int(),
  /** The postage the marketplace charged, per currency, over the parcels it is known for. */
  postage: z.array(CurrencyAmount),
  /** Parcels whose postage the marketplace did not give. */
  unpriced_parcels: z.number().int(),
});
export type InvoiceLine = z.infer<typeof InvoiceLine>;

export const ManifestInvoice = z.object({
  month: z.string(),
  /** The carrier manifest of the month, when one was created. */
  manifest: z.object({ id: z.string(), updated_at: z.string() }).nullable(),
  carriers: z.array(InvoiceLine),
  totals: InvoiceLine,
});
export type ManifestInvoice = z.infer<typeof ManifestInvoice>;
