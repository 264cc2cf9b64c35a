/**
 * Barcode labels (spec §3 "Barcode printing"): a PDF of labels for chosen master codes.
 *
 * POST /api/inventory/barcode/print — permission inventory-master-code. Body (JSON; unknown fields are refused):
 * {
 *   master_codes: [{ id: string, copies?: 1–500 (default 1) }],   // 1–500 entries, printed in this order
 *   paper?: 'a4' | 'letter' | 'continuous',                        // default 'a4'; continuous: one label per page
 *   width_mm?: 20–150, height_mm?: 10–150,                         // the label as read; default 50 × 30
 *   orientation?: 'portrait' | 'landscape',                        // default 'portrait'; swaps the page
 *   symbology?: 'code128' | 'qrcode',                              // default 'code128'
 *   per_sheet?: 1–500 | null,                                      // A4/Letter; null or absent: as many as fit;
 *                                                                  // not used on a continuous roll
 *   show_name?: boolean,                                           // default true
 *   show_price?: boolean,                                          // default false
 *   currency?: 'MYR' | 'SGD' | 'HKD' | 'TWD' | 'PHP' | null        // price list currency; null: the unit price
 * }
 * At most 5,000 labels (copies summed) per print.
 * 200: application/pdf, `content-disposition: attachment; filename="labels-YYYY-MM-DD.pdf"`.
 * 400 with code 450–456 (below); 404 when a master code is missing or another account's; 403 without the key.
 */
import { ErrorAnswer, refusals } from '@api/answers';
import { seller } from '@api/auth/session';
import { PRICE_CURRENCIES } from '@api/contracts/inventory-master-codes';
import { ApiError, invalid, notFound } from '@api/errors';
import {
  isCode128Text,
  LABEL_LIMITS,
  type LabelItem,
  LabelLayoutError,
  ORIENTATIONS,
  PAPERS,
  pageLayout,
  renderLabels,
  SYMBOLOGIES,
} from '@commands/printing/labels';
import { country } from '@domain/lookups';
import { translate } from '@infra/i18n';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type InventoryDeps, isUuid, referenceId } from './common';

/** Result codes of the label routes (the inventory's own run 460–497). */
export const BarcodeCode = {
  /** No master code chosen ("No products selected", spec §8). */
  noItems: 450,
  sizeInvalid: 451,
  /** More labels per sheet than the sheet holds at this size and orientation. */
  doesNotFit: 452,
  copiesInvalid: 453,
  tooManyLabels: 454,
  optionInvalid: 455,
  /** A code Code 128 cannot carry (not printable ASCII). */
  notEncodable: 456,
} as const;

const option = (key: string) => invalid(BarcodeCode.optionInvalid, `barcode.${key}`);
const sizeInvalid = invalid(BarcodeCode.sizeInvalid, 'barcode.size_invalid', {
  min_width: LABEL_LIMITS.widthMm.min,
  max_width: LABEL_LIMITS.widthMm.max,
  min_height: LABEL_LIMITS.heightMm.min,
  max_height: LABEL_LIMITS.heightMm.max,
});
const copiesInvalid = invalid(BarcodeCode.copiesInvalid, 'barcode.copies_invalid', {
  max: LABEL_LIMITS.copiesMax,
});
const noItems = invalid(BarcodeCode.noItems, 'barcode.no_items');
const perSheetInvalid = invalid(BarcodeCode.optionInvalid, 'barcode.per_sheet_invalid', {
  max: LABEL_LIMITS.perSheetMax,
});

const millimetres = (min: number, max: number) =>
  z.number({ error: sizeInvalid }).min(min, sizeInvalid).max(max, sizeInvalid);
const flag = (key: string) => z.boolean({ error: option(key) });

const MAX_ENTRIES = 500;

export const PrintLabels = z
  .strictObject({
    master_codes: z
      .array(
        z.strictObject({
          id: referenceId,
          copies: z
            .number({ error: copiesInvalid })
            .int(copiesInvalid)
            .min(1, copiesInvalid)
            .max(LABEL_LIMITS.copiesMax, copiesInvalid)
            .default(1),
        }),
        { error: noItems },
      )
      .min(1, noItems)
      .max(MAX_ENTRIES, invalid(BarcodeCode.tooManyLabels, 'barcode.too_many_entries', { max: MAX_ENTRIES })),
    paper: z.enum(PAPERS, { error: option('paper_invalid') }).default('a4'),
    width_mm: millimetres(LABEL_LIMITS.widthMm.min, LABEL_LIMITS.widthMm.max).default(50),
    height_mm: millimetres(LABEL_LIMITS.heightMm.min, LABEL_LIMITS.heightMm.max).default(30),
    orientation: z.enum(ORIENTATIONS, { error: option('orientation_invalid') }).default('portrait'),
    symbology: z.enum(SYMBOLOGIES, { error: option('symbology_invalid') }).default('code128'),
    per_sheet: z
      .number({ error: perSheetInvalid })
      .int(perSheetInvalid)
      .min(1, perSheetInvalid)
      .max(LABEL_LIMITS.perSheetMax, perSheetInvalid)
      .nullable()
      .default(null),
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
        message: invalid(BarcodeCode.tooManyLabels, 'barcode.too_many_labels', {
          count: total,
          max: LABEL_LIMITS.totalMax,
        }),
      });
    }
  });
export type PrintLabels = z.infer<typeof PrintLabels>;

/** `12.50` → `MYR 12.50`; nothing for no price or a price of 0 (a master code whose price was never set). */
const priceText = (amount: string | undefined, currency: string | undefined) =>
  amount === undefined || Number(amount) === 0 ? null : currency ? `${currency} ${amount}` : amount;

export const barcodeRoutes: FastifyPluginAsyncZod<InventoryDeps> = async (app, { db }) => {
  app.post(
    '/api/inventory/barcode/print',
    {
      config: { access: { permission: 'inventory-master-code' } },
      schema: {
        tags: ['inventory'],
        summary:
          'Barcode labels (Code 128 or QR) for master codes as a PDF: on A4 or Letter sheets, or one label per page on a continuous roll',
        body: PrintLabels,
        response: {
          200: {
            description: 'The labels; `content-disposition: attachment; filename="labels-YYYY-MM-DD.pdf"`',
            content: { 'application/pdf': { schema: z.any().meta({ type: 'string', format: 'binary' }) } },
          },
          ...refusals,
          413: ErrorAnswer,
        },
      },
    },
    async (request, reply) => {
      const { tenantId } = seller(request);
      const body = request.body;
      const language = request.language;

      // The sheet first: a layout that cannot work needs no lookup.
      try {
        pageLayout({
          paper: body.paper,
          widthMm: body.width_mm,
          heightMm: body.height_mm,
          orientation: body.orientation,
          perSheet: body.per_sheet,
        });
      } catch (error) {
        if (!(error instanceof LabelLayoutError)) throw error;
        throw new ApiError(400, BarcodeCode.doesNotFit, 'barcode.does_not_fit', {
          per_sheet: error.details.per_sheet ?? 0,
          capacity: error.details.capacity ?? 0,
          width: body.width_mm,
          height: body.height_mm,
          paper: translate(language, `barcode.paper.${body.paper}`),
          orientation: translate(language, `barcode.orientation.${body.orientation}`),
        });
      }

      // Another account's master code answers exactly like a missing one.
      const ids = [...new Set(body.master_codes.map((entry) => entry.id))];
      if (!ids.every(isUuid)) throw notFound();
      const [rows, tenant, listPrices] = await Promise.all([
        db
          .selectFrom('master_codes')
          .select(['id', 'code', 'name', 'unit_price'])
          .where('tenant_id', '=', tenantId)
          .where('id', 'in', ids)
          .execute(),
        db.selectFrom('tenants').select('country').where('id', '=', tenantId).executeTakeFirstOrThrow(),
        body.show_price && body.currency !== null
          ? db
              .selectFrom('master_code_prices')
              .select(['master_code_id', 'unit_price'])
              .where('tenant_id', '=', tenantId)
              .where('master_code_id', 'in', ids)
              .where('currency', '=', body.currency)
              .execute()
          : Promise.resolve([]),
      ]);
      if (rows.length !== ids.length) throw notFound();
      const byId = new Map(rows.map((row) => [row.id, row]));

      // The unit price is in the account's own currency; a price list entry in its currency.
      const home = country(tenant.country)?.currency;
      const listed = new Map(listPrices.map((row) => [row.master_code_id, row.unit_price]));
      const price = (row: { id: string; unit_price: string }) => {
        if (!body.show_price) return null;
        if (body.currency === null) return priceText(row.unit_price, home);
        const entry = listed.get(row.id);
        if (entry !== undefined) return priceText(entry, body.currency);
        return body.currency === home ? priceText(row.unit_price, home) : null;
      };

      const items: LabelItem[] = body.master_codes.map((entry) => {
        const row = byId.get(entry.id)!;
        return { code: row.code, name: row.name, price: price(row), copies: entry.copies };
      });
      if (body.symbology === 'code128') {
        const unprintable = items.find((item) => !isCode128Text(item.code));
        if (unprintable)
          throw new ApiError(400, BarcodeCode.notEncodable, 'barcode.not_encodable', {
            code: unprintable.code,
          });
      }

      const pdf = await renderLabels(
        {
          paper: body.paper,
          widthMm: body.width_mm,
          heightMm: body.height_mm,
          orientation: body.orientation,
          symbology: body.symbology,
          perSheet: body.per_sheet,
          showName: body.show_name,
          showPrice: body.show_price,
        },
        items,
      );
      const date = new Date().toISOString().slice(0, 10);
      return reply
        .code(200)
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="labels-${date}.pdf"`)
        .header('cache-control', 'no-store')
        .send(pdf);
    },
  );
};
