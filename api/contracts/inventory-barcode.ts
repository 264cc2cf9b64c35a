import { BarcodeCode, LABEL_LIMITS, ORIENTATIONS, PAPERS, SYMBOLOGIES } from '@domain/printing/labels';
import { z } from 'zod';
import { referenceId, wholeNumber } from './inventory-fields';
import { PRICE_CURRENCIES } from './inventory-master-codes';
import { rule } from './rules';

/** Barcode labels (spec §3 "Barcode printing"): at most LABEL_LIMITS.totalMax labels (copies summed) a print. */

const option = (key: string) => rule(BarcodeCode.optionInvalid, `barcode.${key}`);
const sizeInvalid = rule(BarcodeCode.sizeInvalid, 'barcode.size_invalid', {
  min_width: LABEL_LIMITS.widthMm.min,
  max_width: LABEL_LIMITS.widthMm.max,
  min_height: LABEL_LIMITS.heightMm.min,
  max_height: LABEL_LIMITS.heightMm.max,
});
const copiesInvalid = rule(BarcodeCode.copiesInvalid, 'barcode.copies_invalid', {
  max: LABEL_LIMITS.copiesMax,
});
const noItems = rule(BarcodeCode.noItems, 'barcode.no_items');
const perSheetInvalid = rule(BarcodeCode.optionInvalid, 'barcode.per_sheet_invalid', {
  max: LABEL_LIMITS.perSheetMax,
});

const millimetres = (min: number, max: number) =>
  z.number({ error: sizeInvalid }).min(min, sizeInvalid).max(max, sizeInvalid);
const flag = (key: string) => z.boolean({ error: option(key) });

export const PrintLabels = z
  .strictObject({
    master_codes: z
      .array(
        z.strictObject({
          id: referenceId,
          copies: wholeNumber(1, LABEL_LIMITS.copiesMax, copiesInvalid).default(1),
        }),
        { error: noItems },
      )
      .min(1, noItems)
      .max(
        LABEL_LIMITS.entriesMax,
        rule(BarcodeCode.tooManyLabels, 'barcode.too_many_entries', { max: LABEL_LIMITS.entriesMax }),
      ),
    paper: z.enum(PAPERS, { error: option('paper_invalid') }).default('a4'),
    width_mm: millimetres(LABEL_LIMITS.widthMm.min, LABEL_LIMITS.widthMm.max).default(50),
    height_mm: millimetres(LABEL_LIMITS.heightMm.min, LABEL_LIMITS.heightMm.max).default(30),
    orientation: z.enum(ORIENTATIONS, { error: option('orientation_invalid') }).default('portrait'),
    symbology: z.enum(SYMBOLOGIES, { error: option('symbology_invalid') }).default('code128'),
    per_sheet: wholeNumber(1, LABEL_LIMITS.perSheetMax, perSheetInvalid).nullable().default(null),
    show_name: flag('show_name_invalid').default(true),
    show_price: flag('show_price_invalid').default(false),
    currency: z
      .enum(PRICE_CURRENCIES, { error: option('currency_invalid') })
      .nullable()
      .default(null),
  })
  .superRefine((body, ctx) => {
    const total = body.master_codes.reduce((sum, entry) => sum + entry.copies, 0);
    if (total > LABEL_LIMITS.totalMax) {
      ctx.addIssue({
        code: 'custom',
        path: ['master_codes'],
        message: rule(BarcodeCode.tooManyLabels, 'barcode.too_many_labels'),
        params: { count: total, max: LABEL_LIMITS.totalMax },
      });
    }
  });
export type PrintLabels = z.infer<typeof PrintLabels>;
