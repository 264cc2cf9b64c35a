/**
 * Carrier manifests (spec §3 "Carrier manifest"): a month's shipped orders counted per carrier when the manifest is
 * created (commands/orders/carrier-manifest.ts), the list, and a manifest's orders as CSV. One manifest per month:
 * creating it again counts again. The manifest invoice (commands/orders/manifest-invoice.ts) is the month's billing
 * view per carrier, as JSON and CSV. All routes take orders-manifest-export-v1.
 */
import { GridQuery, ok } from '@api/answers';
import { seller } from '@api/auth/session';
import { refusals } from '@api/contracts/common';
import { IdParams } from '@api/contracts/ids';
import {
  InvoiceQuery,
  Manifest,
  ManifestBody,
  ManifestInvoice,
  ManifestPage,
} from '@api/contracts/manifests';
import { notFound } from '@api/errors';
import { router } from '@api/route';
import { carrierManifestFile, createCarrierManifest } from '@commands/orders/carrier-manifest';
import { manifestInvoice, manifestInvoiceFile } from '@commands/orders/manifest-invoice';
import { isUuid } from '@domain/platform/ids';
import { listManifests } from '@projections/manifests.queries';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { attachmentName, MANIFEST_KEY, type OrderDocumentsDeps, manifestTags as tags } from './print-common';

/** A CSV download's answers (an OpenAPI media map, not a zod shape, hence the cast), with the common refusals. */
const csvAnswers = {
  200: {
    description: 'text/csv; charset=utf-8',
    content: { 'text/csv': { schema: z.string() } },
  } as never,
  ...refusals,
};

/** Sends an export as a CSV attachment, never cached. */
const sendCsv = (reply: FastifyReply, file: { name: string; csv: string }) =>
  reply
    .code(200)
    .header('content-type', 'text/csv; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('content-disposition', attachmentName(file.name))
    .send(file.csv);

export const manifestRoutes: FastifyPluginAsyncZod<OrderDocumentsDeps> = async (app, { db }) => {
  const route = router(app, { tags, access: { permission: MANIFEST_KEY } });

  route.get(
    '/api/orders/carrier-manifests',
    {
      summary: 'The carrier manifests of the account, newest month first',
      query: GridQuery,
      answer: ManifestPage,
    },
    async (request) => ok(request, await listManifests(db, seller(request).tenantId, request.query)),
  );

  route.post(
    '/api/orders/carrier-manifests',
    {
      summary:
        "Create (or count again) a month's carrier manifest: the orders shipped that month, per carrier",
      body: ManifestBody,
      answer: Manifest,
    },
    async (request) => {
      const manifest = await createCarrierManifest({ db }, seller(request), request.body);
      return ok(request, manifest, 'manifests.created', {
        month: manifest.month,
        count: manifest.total_shipped,
      });
    },
  );

  route.get(
    '/api/orders/carrier-manifests/:id/export',
    {
      summary: "Export a manifest's shipped orders as CSV",
      module: 'downloadModule',
      params: IdParams,
      raw: csvAnswers,
    },
    async (request, reply) => {
      const { id } = request.params;
      const file =
        isUuid(id) &&
        (await carrierManifestFile({ db }, seller(request), { id, language: request.language }));
      if (!file) throw notFound();
      return sendCsv(reply, file);
    },
  );

  route.get(
    '/api/orders/manifest-invoice',
    {
      summary:
        "A month's manifest invoice: per carrier the parcels shipped, their units, weight (kg, from the master codes) and postage per currency, with totals; unknown weights and postage counted apart",
      query: InvoiceQuery,
      answer: ManifestInvoice,
    },
    async (request) => ok(request, await manifestInvoice({ db }, seller(request), request.query)),
  );

  route.get(
    '/api/orders/manifest-invoice/export',
    {
      summary: "Export a month's manifest invoice as CSV, one row per parcel",
      module: 'downloadModule',
      query: InvoiceQuery,
      raw: csvAnswers,
    },
    async (request, reply) => {
      const file = await manifestInvoiceFile({ db }, seller(request), {
        month: request.query.month,
        language: request.language,
      });
      return sendCsv(reply, file);
    },
  );
};
