import { ErrorAnswer, Ok, ok, refusals } from '@api/answers';
import { seller } from '@api/auth/session';
import { PrintBody, PrintLogPage, PrintLogQuery } from '@api/contracts/printing';
import { storesAwbSource } from '@commands/printing/awb';
import { printOrderDocuments } from '@commands/printing/print-documents';
import { translate } from '@infra/i18n';
import { printLogPage } from '@projections/print-log.queries';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  assertMayPrint,
  attachmentName,
  type OrderDocumentsDeps,
  PRINT_LOG_KEY,
  printTags as tags,
} from './print-common';
import { printSettingsRoutes } from './print-settings';

/**
 * Printing order documents (spec §2 "printing settings for invoice, AWB, delivery order, pack list and check
 * list"; §9 print log types AWB/INV/PL/CL/DO and origins unscan, smart scan, shipped, processed):
 *
 * POST /api/orders/print { document: AWB|INV|PL|CL|DO, order_ids: [1..200], origin } → application/pdf
 *   One order or many in one PDF, in the order given (each order on its own page or pages). INV, PL, CL and DO are
 *   drawn by Kedai with the account's print settings (commands/printing/order-documents-pdf.ts); AWB is the marketplace's shipping
 *   document (commands/printing/awb.ts), the documents of several stores or batches merged into one PDF. Each
 *   order is then marked printed for the document from the origin (its print log row follows). An order of
 *   another account, or none, answers 404; a user under a one-print limit who asks again for an order already
 *   printed gets 403 (655 AWB, 656 DO) and nothing is printed. AWB failures: 409 "Failed Print Airway Bill"
 *   (653; 657 without a tracking number; 678 the store is not connected) or "Failed to generate Waybill for the
 *   following tracking: …" (654) with the tracking numbers the marketplace refused.
 * GET /api/orders/print-log — the print log (ag-grid Infinite Row Model): sortModel printed_at | document | origin
 *   | order_number; filterModel { document?, origin? (sets), printed_at? (date) }; order_id, document, origin;
 *   search (order number,
 *   tracking number) → { rows: [{ id, order_id, order_number, tracking_number, document, origin, printed_by
 *   {id, name}, printed_at }], lastRow }.
 * Print settings: see api/orders/print-settings.ts.
 */

const PDF_RESPONSE = {
  description: 'The documents as one PDF; `content-disposition: inline; filename="<document>-<order>.pdf"`',
  content: { 'application/pdf': { schema: z.any().meta({ type: 'string', format: 'binary' }) } },
};

export const printingRoutes: FastifyPluginAsyncZod<OrderDocumentsDeps> = async (app, deps) => {
  const { db, store } = deps;
  const awb = deps.awb ?? storesAwbSource(db);
  await app.register(printSettingsRoutes, { db });

  app.post(
    '/api/orders/print',
    {
      config: { access: 'seller' },
      schema: {
        tags,
        summary:
          'Print an order document (AWB, INV, PL, CL, DO) of one or many orders as one PDF, and log the print',
        body: PrintBody,
        response: { 200: PDF_RESPONSE, ...refusals, 409: ErrorAnswer },
      },
    },
    async (request, reply) => {
      const session = seller(request);
      assertMayPrint(session);
      const { pdf, name } = await printOrderDocuments(
        { db, store, awb, warn: (err, message) => request.log.warn({ err }, message) },
        {
          tenantId: session.tenantId,
          userId: session.userId,
          kind: session.kind,
          permissions: session.permissions,
        },
        {
          document: request.body.document,
          origin: request.body.origin,
          orderIds: request.body.order_ids,
          language: request.language,
          label: (key, params) => translate(request.language, `printing.pdf.${key}`, params),
        },
      );
      return reply
        .code(200)
        .header('content-type', 'application/pdf')
        .header('cache-control', 'no-store')
        .header('content-disposition', attachmentName(name, true))
        .send(pdf);
    },
  );

  app.get(
    '/api/orders/print-log',
    {
      config: { access: { permission: PRINT_LOG_KEY } },
      schema: {
        tags,
        summary: 'The print log: every print of an order document, who printed it, when and from where',
        querystring: PrintLogQuery,
        response: { 200: Ok(PrintLogPage), ...refusals },
      },
    },
    async (request) => ok(request, await printLogPage(db, seller(request).tenantId, request.query)),
  );
};
