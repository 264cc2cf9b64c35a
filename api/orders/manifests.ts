import { randomUUID } from 'node:crypto';
import { GridQuery, Ok, ok, refusals } from '@api/answers';
import { seller } from '@api/auth/session';
import { userNames } from '@api/documents';
import { ApiError, invalid, notFound } from '@api/errors';
import { translate } from '@api/i18n';
import { IdParams, isUuid } from '@api/ids';
import { csvField } from '@api/inventory/stock-reports';
import type { Database } from '@infra/db';
import { withTenant } from '@infra/db/tenant';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type Kysely, sql } from 'kysely';
import { z } from 'zod';
import {
  attachmentName,
  MANIFEST_KEY,
  type OrderDocumentsDeps,
  PrintCode,
  manifestTags as tags,
} from './print-common';

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

/** The time zone a country's business days are counted in. */
export const COUNTRY_ZONES: Record<string, string> = {
  MY: 'Asia/Kuala_Lumpur',
  SG: 'Asia/Singapore',
  TH: 'Asia/Bangkok',
  TW: 'Asia/Taipei',
  PH: 'Asia/Manila',
  ID: 'Asia/Jakarta',
  CN: 'Asia/Shanghai',
  VN: 'Asia/Ho_Chi_Minh',
  IN: 'Asia/Kolkata',
  BN: 'Asia/Brunei',
};

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

const ManifestBody = z.strictObject({
  month: z
    .string({ error: invalid(PrintCode.manifestMonthInvalid, 'manifests.month_invalid') })
    .trim()
    .regex(MONTH, invalid(PrintCode.manifestMonthInvalid, 'manifests.month_invalid')),
});

const Carrier = z.object({ provider: z.string(), count: z.number().int() });
const Manifest = z.object({
  id: z.string(),
  month: z.string(),
  total_shipped: z.number().int(),
  carriers: z.array(Carrier),
  created_by: z.object({ id: z.string(), name: z.string() }).nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

async function zoneOf(db: Kysely<Database>, tenantId: string): Promise<string> {
  const tenant = await db
    .selectFrom('tenants')
    .select('country')
    .where('id', '=', tenantId)
    .executeTakeFirst();
  return COUNTRY_ZONES[tenant?.country ?? ''] ?? 'UTC';
}

/** This month in `zone`, as YYYY-MM. */
function currentMonth(zone: string, now = new Date()): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
  }).formatToParts(now);
  return `${parts.find((p) => p.type === 'year')!.value}-${parts.find((p) => p.type === 'month')!.value}`;
}

const nextMonth = (month: string) => {
  const [year, mm] = month.split('-').map(Number) as [number, number];
  return mm === 12 ? `${year + 1}-01` : `${year}-${String(mm + 1).padStart(2, '0')}`;
};

/** The month's bounds as instants: from its first midnight in `zone` to the next month's. */
const monthBounds = (month: string, zone: string) => ({
  from: sql<Date>`(${`${month}-01 00:00:00`}::timestamp AT TIME ZONE ${zone})`,
  to: sql<Date>`(${`${nextMonth(month)}-01 00:00:00`}::timestamp AT TIME ZONE ${zone})`,
});

type ManifestRow = {
  id: string;
  month: string;
  total_shipped: number;
  carriers: unknown;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
};

async function answersOf(db: Kysely<Database>, tenantId: string, rows: readonly ManifestRow[]) {
  const names = await userNames(
    db,
    tenantId,
    rows.map((row) => row.created_by),
  );
  return rows.map((row) => ({
    id: row.id,
    month: row.month,
    total_shipped: row.total_shipped,
    carriers: row.carriers as z.infer<typeof Carrier>[],
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
        response: { 200: Ok(z.object({ rows: z.array(Manifest), lastRow: z.number().int() })), ...refusals },
      },
    },
    async (request) => {
      const session = seller(request);
      const { startRow, endRow } = request.query;
      const search = request.query.search?.trim();
      let query = db.selectFrom('carrier_manifests').where('tenant_id', '=', session.tenantId);
      if (search) query = query.where('month', 'like', `%${search.replace(/[\\%_]/g, '')}%`);
      const rows = await query
        .select(['id', 'month', 'total_shipped', 'carriers', 'created_by', 'created_at', 'updated_at'])
        .orderBy('month', 'desc')
        .limit(Math.min(endRow - startRow, 500))
        .offset(startRow)
        .execute();
      const total = await query.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirst();
      return ok(request, {
        rows: await answersOf(db, session.tenantId, rows),
        lastRow: Number(total?.n ?? 0),
      });
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
      const { month } = request.body;
      const zone = await zoneOf(db, session.tenantId);
      if (month > currentMonth(zone)) {
        throw new ApiError(400, PrintCode.manifestMonthFuture, 'manifests.month_future', { month });
      }
      const { from, to } = monthBounds(month, zone);
      const counts = await withTenant(db, session.tenantId, async (trx) => {
        const result = await sql<{ provider: string; count: string }>`
          SELECT coalesce(nullif(trim(shipping_provider), ''), '') AS provider, count(*) AS count
          FROM order_shipments
          WHERE tenant_id = ${session.tenantId} AND shipped_at >= ${from} AND shipped_at < ${to}
          GROUP BY 1
          ORDER BY count(*) DESC, 1`.execute(trx);
        return result.rows;
      });
      const carriers = counts.map((row) => ({ provider: row.provider, count: Number(row.count) }));
      const total = carriers.reduce((sum, carrier) => sum + carrier.count, 0);
      const row = await db
        .insertInto('carrier_manifests')
        .values({
          id: randomUUID(),
          tenant_id: session.tenantId,
          month,
          total_shipped: total,
          carriers: JSON.stringify(carriers),
          created_by: session.userId,
        })
        .onConflict((oc) =>
          oc.columns(['tenant_id', 'month']).doUpdateSet({
            total_shipped: total,
            carriers: JSON.stringify(carriers),
            created_by: session.userId,
            updated_at: new Date(),
          }),
        )
        .returning(['id', 'month', 'total_shipped', 'carriers', 'created_by', 'created_at', 'updated_at'])
        .executeTakeFirstOrThrow();
      const [answer] = await answersOf(db, session.tenantId, [row]);
      return ok(request, answer!, 'manifests.created', { month, total });
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
      const manifest = await db
        .selectFrom('carrier_manifests')
        .select(['month'])
        .where('tenant_id', '=', session.tenantId)
        .where('id', '=', request.params.id)
        .executeTakeFirst();
      if (!manifest) throw notFound();
      const zone = await zoneOf(db, session.tenantId);
      const { from, to } = monthBounds(manifest.month, zone);
      const orders = await withTenant(db, session.tenantId, async (trx) => {
        const result = await sql<{
          order_number: string;
          tracking_number: string | null;
          shipping_provider: string | null;
          store_name: string | null;
          platform: string;
          shipped_at: Date;
        }>`
          SELECT o.order_number, o.tracking_number, o.shipping_provider, s.name AS store_name, o.platform,
                 o.shipped_at
          FROM order_shipments o
          LEFT JOIN stores s ON s.tenant_id = o.tenant_id AND s.id::text = o.store_id
          WHERE o.tenant_id = ${session.tenantId} AND o.shipped_at >= ${from} AND o.shipped_at < ${to}
          ORDER BY o.shipping_provider NULLS FIRST, o.shipped_at, o.order_number`.execute(trx);
        return result.rows;
      });
      const language = request.language;
      const header = ['order_number', 'tracking_number', 'carrier', 'store', 'marketplace', 'shipped_at'].map(
        (column) => csvField(translate(language, `manifests.columns.${column}`)),
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
      const lines = [
        `\ufeff${header.join(',')}`,
        ...orders.map((order) =>
          [
            order.order_number,
            order.tracking_number ?? '',
            order.shipping_provider ?? '',
            order.store_name ?? '',
            order.platform,
            time.format(order.shipped_at),
          ]
            .map(csvField)
            .join(','),
        ),
      ];
      return reply
        .code(200)
        .header('content-type', 'text/csv; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('content-disposition', attachmentName(`carrier-manifest-${manifest.month}.csv`))
        .send(`${lines.join('\r\n')}\r\n`);
    },
  );
};
