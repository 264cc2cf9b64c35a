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
import { PrintLabels } from '@api/contracts/inventory-barcode';
import { printLabels } from '@commands/printing/print-labels';
import { translate } from '@infra/i18n';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { InventoryDeps } from './common';

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
      const pdf = await printLabels({ db }, seller(request), request.body, (key) =>
        translate(request.language, key),
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
