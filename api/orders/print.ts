import { ErrorAnswer, ok } from '@api/answers';
import { seller } from '@api/auth/session';
import { PrintBody, PrintLogPage, PrintLogQuery } from '@api/contracts/printing';
import { router } from '@api/route';
import { storesAwbSource } from '@commands/printing/awb';
import { printOrderDocuments } from '@commands/printing/print-documents';
import { printLogPage } from '@projections/print-log.queries';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { autoPrintRoutes } from './auto-print';
import {
  attachmentName,
  fileAnswers,
  type OrderDocumentsDeps,
  PRINT_KEYS,
  PRINT_LOG_KEY,
  sendFile,
  printTags as tags,
} from './print-common';
import { printSettingsRoutes } from './print-settings';

/**
 * Printing order documents (spec §2 "printing settings for invoice, AWB, delivery order, pack list and check
 * list"; §9 print log types AWB/INV/PL/CL/DO and origins unscan, smart scan, shipped, processed): one order or many
 * in one PDF, drawn by Kedai with the account's print settings (INV, PL, CL, DO) or the marketplace's shipping
 * document (AWB), each order then marked printed from the origin; and the print log. Print settings:
 * print-settings.ts.
 */

export const printingRoutes: FastifyPluginAsyncZod<OrderDocumentsDeps> = async (app, deps) => {
  const { db, store } = deps;
  const awb = deps.awb ?? storesAwbSource(db);
  await app.register(printSettingsRoutes, { db });
  await app.register(autoPrintRoutes, { db });
  const route = router(app, { tags, access: { permission: PRINT_LOG_KEY } });

  route.post(
    '/api/orders/print',
    {
      summary:
        'Print an order document (AWB, INV, PL, CL, DO) of one or many orders as one PDF, and log the print',
      access: { anyOf: PRINT_KEYS },
      body: PrintBody,
      raw: fileAnswers(
        'The documents as one PDF; `content-disposition: inline; filename="<document>-<order>.pdf"`',
        ['application/pdf'],
        { 409: ErrorAnswer },
      ),
    },
    async (request, reply) => {
      const { pdf, name } = await printOrderDocuments(
        { db, store, awb, warn: (err, message) => request.log.warn({ err }, message) },
        seller(request),
        { ...request.body, language: request.language },
      );
      return sendFile(reply, 'application/pdf', pdf, attachmentName(name, true));
    },
  );

  route.get(
    '/api/orders/print-log',
    {
      summary: 'The print log: every print of an order document, who printed it, when and from where',
      query: PrintLogQuery,
      answer: PrintLogPage,
    },
    async (request) => ok(request, await printLogPage(db, seller(request).tenantId, request.query)),
  );
};
