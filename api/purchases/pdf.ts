import { refusals } from '@api/answers';
import { seller } from '@api/auth/session';
import { IdParams } from '@api/contracts/ids';
import { renderPurchasePdf } from '@commands/purchases/purchase-pdf';
import { translate } from '@infra/i18n';
import { supplierRow } from '@projections/suppliers.queries';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { commandStore, type PurchaseDeps, tags, viewing } from './common';
import { purchaseDetail } from './documents';

/** The purchase order as a PDF to send the supplier (commands/purchases/purchase-pdf.ts draws it). */
export const purchasePdfRoutes: FastifyPluginAsyncZod<PurchaseDeps> = async (app, deps) => {
  app.get(
    '/api/purchases/:id/pdf',
    {
      config: viewing,
      schema: {
        tags,
        summary: "The purchase order as a PDF (labels in the caller's language)",
        params: IdParams,
        response: {
          200: {
            description: 'The order; `content-disposition: inline; filename="<PO number>.pdf"`',
            content: { 'application/pdf': { schema: z.any().meta({ type: 'string', format: 'binary' }) } },
          },
          ...refusals,
        },
      },
    },
    async (request, reply) => {
      const session = seller(request);
      const order = await purchaseDetail(deps.db, commandStore(deps.store), session, request.params.id);
      const supplier = await supplierRow(deps.db, session.tenantId, order.supplier.id);
      const pdf = await renderPurchasePdf(
        order,
        (key, params) => translate(request.language, key, params),
        supplier?.currency ?? '',
      );
      return reply
        .code(200)
        .header('content-type', 'application/pdf')
        .header('cache-control', 'no-store')
        .header('content-disposition', `inline; filename="${order.po_number}.pdf"`)
        .send(pdf);
    },
  );
};
