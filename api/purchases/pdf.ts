import { refusals } from '@api/answers';
import { IdParams } from '@api/contracts/ids';
import { router } from '@api/route';
import { purchaseOrderPdf } from '@commands/purchases/purchase-pdf';
import { translate } from '@infra/i18n';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { commandDeps, type PurchaseDeps, tags, viewerOf, viewing } from './common';

/** The purchase order as a PDF to send the supplier (commands/purchases/purchase-pdf.ts draws it). */
export const purchasePdfRoutes: FastifyPluginAsyncZod<PurchaseDeps> = async (app, deps) => {
  router(app, { tags, access: viewing }).get(
    '/api/purchases/:id/pdf',
    {
      summary: "The purchase order as a PDF (labels in the caller's language)",
      params: IdParams,
      raw: {
        200: {
          description: 'The order; `content-disposition: inline; filename="<PO number>.pdf"`',
          content: { 'application/pdf': { schema: z.any().meta({ type: 'string', format: 'binary' }) } },
        } as never,
        ...refusals,
      },
    },
    async (request, reply) => {
      const { pdf, filename } = await purchaseOrderPdf(
        commandDeps(deps),
        viewerOf(request),
        request.params.id,
        (key, params) => translate(request.language, key, params),
      );
      return reply
        .code(200)
        .header('content-type', 'application/pdf')
        .header('cache-control', 'no-store')
        .header('content-disposition', `inline; filename="${filename}"`)
        .send(pdf);
    },
  );
};
