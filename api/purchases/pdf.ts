import { IdParams } from '@api/contracts/ids';
import { attachmentName, fileAnswers, sendFile } from '@api/files';
import { router } from '@api/route';
import { purchaseOrderPdf } from '@commands/purchases/purchase-pdf';
import { translate } from '@infra/i18n';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { commandDeps, type PurchaseDeps, tags, viewerOf, viewing } from './common';

/** The purchase order as a PDF to send the supplier (commands/purchases/purchase-pdf.ts draws it). */
export const purchasePdfRoutes: FastifyPluginAsyncZod<PurchaseDeps> = async (app, deps) => {
  router(app, { tags, access: viewing }).get(
    '/api/purchases/:id/pdf',
    {
      summary: "The purchase order as a PDF (labels in the caller's language)",
      params: IdParams,
      raw: fileAnswers('The order; `content-disposition: inline; filename="<PO number>.pdf"`', [
        'application/pdf',
      ]),
    },
    async (request, reply) => {
      const { pdf, filename } = await purchaseOrderPdf(
        commandDeps(deps),
        viewerOf(request),
        request.params.id,
        (key, params) => translate(request.language, key, params),
      );
      return sendFile(reply, 'application/pdf', pdf, attachmentName(filename, true));
    },
  );
};
