import { Ok, ok, refusals } from '@api/answers';
import { seller } from '@api/auth/session';
import { PickListAnswer, PickListQuery } from '@api/contracts/batches';
import { IdParams } from '@api/contracts/ids';
import { pickListOfBatch } from '@commands/batches/pick-list';
import { renderPickListPdf } from '@commands/printing/pick-list-pdf';
import type { PickListFilter } from '@domain/batches/pick-list';
import { translate } from '@infra/i18n';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BATCH_KEY, type BatchDeps, batchIdOf, batchTags as tags } from './batches-common';

/**
 * A batch's pick list (commands/batches/pick-list.ts) as JSON for the console and as a PDF to print
 * (commands/printing/pick-list-pdf.ts, labels in the caller's language).
 */

// ---- routes ----

export const batchPickListRoutes: FastifyPluginAsyncZod<BatchDeps> = async (app, deps) => {
  const answerOf = (tenantId: string, id: string, filter: PickListFilter) =>
    pickListOfBatch(deps, tenantId, batchIdOf(id), filter);

  app.get(
    '/api/orders/batches/:id/pick-list',
    {
      config: { access: { permission: BATCH_KEY } },
      schema: {
        tags,
        summary:
          'The batch pick list: filter item (per master code), sku (per seller SKU), single (orders of one item), multiple (orders of several items) or all (per order line), with rack locations, in rack order',
        params: IdParams,
        querystring: PickListQuery,
        response: { 200: Ok(PickListAnswer), ...refusals },
      },
    },
    async (request) =>
      ok(request, await answerOf(seller(request).tenantId, request.params.id, request.query.filter)),
  );

  app.get(
    '/api/orders/batches/:id/pick-list.pdf',
    {
      config: { access: { permission: BATCH_KEY } },
      schema: {
        tags,
        summary: "The batch pick list as a PDF to print (labels in the caller's language)",
        params: IdParams,
        querystring: PickListQuery,
        response: {
          200: {
            description: 'The pick list; `content-disposition: inline; filename="pick-list-<label>.pdf"`',
            content: { 'application/pdf': { schema: z.any().meta({ type: 'string', format: 'binary' }) } },
          },
          ...refusals,
        },
      },
    },
    async (request, reply) => {
      const answer = await answerOf(seller(request).tenantId, request.params.id, request.query.filter);
      const pdf = await renderPickListPdf(answer, (key, params) =>
        translate(request.language, `batch.pick_pdf.${key}`, params),
      );
      const name = answer.batch.label.replace(/[^\w-]/g, '_');
      return reply
        .code(200)
        .header('content-type', 'application/pdf')
        .header('cache-control', 'no-store')
        .header('content-disposition', `inline; filename="pick-list-${name}.pdf"`)
        .send(pdf);
    },
  );
};
