import { GridQuery, Ok, ok, refusals } from '@api/answers';
import { seller } from '@api/auth/session';
import { IdParams } from '@api/contracts/ids';
import { Manifest, ManifestBody, ManifestPage } from '@api/contracts/manifests';
import { notFound } from '@api/errors';
import { createCarrierManifest } from '@commands/orders/carrier-manifest';
import { isUuid } from '@domain/platform/ids';
import type { Db } from '@infra/db';
import { translate } from '@infra/i18n';
import { csvText } from '@infra/sheets/write';
import { userNames } from '@projections/documents.queries';
import {
  accountZone,
  listManifests,
  type ManifestRecord,
  manifestMonth,
  shippedOrdersOfMonth,
} from '@projections/manifests.queries';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { attachmentName, MANIFEST_KEY, type OrderDocumentsDeps, manifestTags as tags } from './print-common';

/**
 * Carrier manifests (spec §3 "Carrier manifest": month, total shipped orders, created by): a month's shipped
 * orders counted per carrier (shipping provider) when the manifest is created, from the order fulfilment read
 * model (projections/print-log.ts `order_shipments`: an order counts in the month it shipped, in the account's
 * country's time zone). One manifest per month: creating it again counts again. All routes take
 * orders-manifest-export-v1.
 *
 * GET  /api/orders/carrier-manifests              → { rows: [{ id, month, total_shipped, carriers: [{ provider,
 *                                                   count }], created_by, created_at, updated_at }], lastRow }
 * POST /api/orders/carrier-manifests { month: "YYYY-MM" } (not a future month)
 * GET  /api/orders/carrier-manifests/:id/export   → text/csv: the month's shipped orders (order number, tracking
 *                                                   number, carrier, store, marketplace, shipped at)
 */

async function answersOf(db: Db, tenantId: string, rows: readonly ManifestRecord[]) {
  const names = await userNames(
    db,
    tenantId,
    rows.map((row) => row.created_by),
  );
  return rows.map((row) => ({
    id: row.id,
    month: row.month,
    total_shipped: row.total_shipped,
    carriers: row.carriers,
    created_by: row.created_by ? { id: row.created_by, name: names.get(row.created_by) ?? '' } : null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  }));
}

export const manifestRoutes: FastifyPluginAsyncZod<OrderDocumentsDeps> = async (app, { db }) => {
  const config = { access: { permission: MANIFEST_KEY } } as const;

  app.get(
    '/api/orders/carrier-manifests',
    {
      config,
      schema: {
        tags,
        summary: 'The carrier manifests of the account, newest month first',
        querystring: GridQuery,
        response: { 200: Ok(ManifestPage), ...refusals },
      },
    },
    async (request) => {
      const session = seller(request);
      const page = await listManifests(db, session.tenantId, request.query);
      return ok(request, { rows: await answersOf(db, session.tenantId, page.rows), lastRow: page.lastRow });
    },
  );

  app.post(
    '/api/orders/carrier-manifests',
    {
      config,
      schema: {
        tags,
        summary:
          "Create (or count again) a month's carrier manifest: the orders shipped that month, per carrier",
        body: ManifestBody,
        response: { 200: Ok(Manifest), ...refusals },
      },
    },
    async (request) => {
      const session = seller(request);
      const row = await createCarrierManifest({ db }, session, request.body);
      const [answer] = await answersOf(db, session.tenantId, [row]);
      return ok(request, answer!, 'manifests.created', { month: row.month, total: row.total_shipped });
    },
  );

  app.get(
    '/api/orders/carrier-manifests/:id/export',
    {
      config,
      schema: {
        tags,
        summary: "Export a manifest's shipped orders as CSV",
        params: IdParams,
        response: {
          200: {
            description: 'text/csv; charset=utf-8',
            content: { 'text/csv': { schema: z.string() } },
          },
          ...refusals,
        },
      },
    },
    async (request, reply) => {
      const session = seller(request);
      if (!isUuid(request.params.id)) throw notFound();
      const month = await manifestMonth(db, session.tenantId, request.params.id);
      if (!month) throw notFound();
      const zone = await accountZone(db, session.tenantId);
      const orders = await shippedOrdersOfMonth(db, session.tenantId, month, zone);
      const language = request.language;
      const header = ['order_number', 'tracking_number', 'carrier', 'store', 'marketplace', 'shipped_at'].map(
        (column) => translate(language, `manifests.columns.${column}`),
      );
      const time = new Intl.DateTimeFormat('sv-SE', {
        timeZone: zone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
      });
      const rows = orders.map((order) => [
        order.order_number,
        order.tracking_number ?? '',
        order.shipping_provider ?? '',
        order.store_name ?? '',
        order.platform,
        time.format(order.shipped_at),
      ]);
      return reply
        .code(200)
        .header('content-type', 'text/csv; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('content-disposition', attachmentName(`carrier-manifest-${month}.csv`))
        .send(csvText(header, rows));
    },
  );
};
