import type { Carrier, Manifest } from '@api/contracts/manifests';
import { nextMonth, zoneOfCountry } from '@domain/orders/carrier-manifest';
import type { Database } from '@infra/db';
import { withTenant } from '@infra/db/tenant';
import { type Kysely, sql } from 'kysely';
import { userNames } from './documents.queries';
import { pageWindow } from './runtime/grid';

/**
 * Carrier manifests (plain rows, `carrier_manifests`) and the month's shipped orders they count, from the order
 * fulfilment read model (projections/print-log.ts `order_shipments`: an order counts in the month it shipped, in the
 * account's country's time zone).
 */

export interface ManifestRecord {
  id: string;
  month: string;
  total_shipped: number;
  carriers: Carrier[];
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = [
  'id',
  'month',
  'total_shipped',
  'carriers',
  'created_by',
  'created_at',
  'updated_at',
] as const;

/** The account's time zone (its country's). */
export async function accountZone(db: Kysely<Database>, tenantId: string): Promise<string> {
  const tenant = await db
    .selectFrom('tenants')
    .select('country')
    .where('id', '=', tenantId)
    .executeTakeFirst();
  return zoneOfCountry(tenant?.country);
}

/** The month's bounds as instants: from its first midnight in `zone` to the next month's. */
const monthBounds = (month: string, zone: string) => ({
  from: sql<Date>`(${`${month}-01 00:00:00`}::timestamp AT TIME ZONE ${zone})`,
  to: sql<Date>`(${`${nextMonth(month)}-01 00:00:00`}::timestamp AT TIME ZONE ${zone})`,
});

/** Manifests as the API answers them, with who created them. */
export async function manifestAnswers(
  db: Kysely<Database>,
  tenantId: string,
  rows: readonly ManifestRecord[],
): Promise<Manifest[]> {
  const names = await userNames(
    db,
    tenantId,
    rows.map((row) => row.created_by),
  );
  return rows.map((row) => ({
    ...row,
    created_by: row.created_by ? { id: row.created_by, name: names.get(row.created_by) ?? '' } : null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  }));
}

/** A page of the account's manifests, newest month first; `search` a part of the month. */
export async function listManifests(
  db: Kysely<Database>,
  tenantId: string,
  page: { startRow: number; endRow: number; search?: string | undefined },
): Promise<{ rows: Manifest[]; lastRow: number }> {
  const search = page.search?.trim();
  let query = db.selectFrom('carrier_manifests').where('tenant_id', '=', tenantId);
  if (search) query = query.where('month', 'like', `%${search.replace(/[\\%_]/g, '')}%`);
  const { limit, offset } = pageWindow(page);
  const rows = await query
    .select([...COLUMNS])
    .orderBy('month', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
  const total = await query.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirst();
  return {
    rows: await manifestAnswers(db, tenantId, rows as ManifestRecord[]),
    lastRow: Number(total?.n ?? 0),
  };
}

/** A manifest's month (undefined: not the account's). */
export async function manifestMonth(db: Kysely<Database>, tenantId: string, id: string) {
  const row = await db
    .selectFrom('carrier_manifests')
    .select(['month'])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row?.month;
}

/** The month's shipped orders counted per carrier, most first. */
export async function carriersOfMonth(db: Kysely<Database>, tenantId: string, month: string, zone: string) {
  const { from, to } = monthBounds(month, zone);
  return withTenant(db, tenantId, async (trx) => {
    const result = await sql<{ provider: string; count: string }>`
      SELECT coalesce(nullif(trim(shipping_provider), ''), '') AS provider, count(*) AS count
      FROM order_shipments
      WHERE tenant_id = ${tenantId} AND shipped_at >= ${from} AND shipped_at < ${to}
      GROUP BY 1
      ORDER BY count(*) DESC, 1`.execute(trx);
    return result.rows.map((row): Carrier => ({ provider: row.provider, count: Number(row.count) }));
  });
}

/** The month's shipped orders as the manifest's export lists them. */
export async function shippedOrdersOfMonth(
  db: Kysely<Database>,
  tenantId: string,
  month: string,
  zone: string,
) {
  const { from, to } = monthBounds(month, zone);
  return withTenant(db, tenantId, async (trx) => {
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
      WHERE o.tenant_id = ${tenantId} AND o.shipped_at >= ${from} AND o.shipped_at < ${to}
      ORDER BY o.shipping_provider NULLS FIRST, o.shipped_at, o.order_number`.execute(trx);
    return result.rows;
  });
}

// ---- the manifest invoice ----

/** One carrier's parcels of the month in one currency, as the invoice adds them up. */
export interface InvoiceRow {
  provider: string;
  currency: string;
  parcels: number;
  units: number;
  weight_kg: string;
  unweighed_parcels: number;
  postage: string;
  unpriced_parcels: number;
}

/**
 * The month's shipped orders with what billing needs of each: units and weight from its lines (a line's master code
 * weight times its quantity; unknown when a line has no master code or the code no weight) and the postage the
 * marketplace gave (the order's shipping fee).
 */
const billedOrders = (tenantId: string, month: string, zone: string) => {
  const { from, to } = monthBounds(month, zone);
  return sql`
    WITH shipped AS (
      SELECT s.order_id, s.order_number, s.tracking_number, s.shipped_at,
             coalesce(nullif(trim(s.shipping_provider), ''), '') AS provider,
             coalesce(o.currency, '') AS currency,
             (o.state->'details'->>'shippingFee')::numeric AS postage
      FROM order_shipments s
      LEFT JOIN orders o ON o.tenant_id = s.tenant_id AND o.id = s.order_id
      WHERE s.tenant_id = ${tenantId} AND s.shipped_at >= ${from} AND s.shipped_at < ${to}
    ), weighed AS (
      SELECT l.order_id, sum(l.quantity)::int4 AS units, sum(l.quantity * coalesce(m.weight_kg, 0)) AS weight_kg,
             bool_or(m.id IS NULL OR m.weight_kg = 0) AS unweighed
      FROM order_lines l
      LEFT JOIN master_codes m ON m.tenant_id = l.tenant_id AND m.id::text = l.master_code_id
      WHERE l.tenant_id = ${tenantId} AND NOT l.removed AND l.order_id IN (SELECT order_id FROM shipped)
      GROUP BY l.order_id
    )
    SELECT shipped.*, coalesce(w.units, 0) AS units, coalesce(w.weight_kg, 0) AS weight_kg,
           coalesce(w.unweighed, true) AS unweighed
    FROM shipped LEFT JOIN weighed w USING (order_id)`;
};

/** The month's invoice lines: per carrier and currency, most parcels first. */
export async function invoiceRowsOfMonth(
  db: Kysely<Database>,
  tenantId: string,
  month: string,
  zone: string,
): Promise<InvoiceRow[]> {
  return withTenant(db, tenantId, async (trx) => {
    const result = await sql<InvoiceRow>`
      SELECT provider, currency, count(*)::int4 AS parcels, sum(units)::int4 AS units,
             sum(CASE WHEN unweighed THEN 0 ELSE weight_kg END)::numeric(14, 3)::text AS weight_kg,
             (count(*) FILTER (WHERE unweighed))::int4 AS unweighed_parcels,
             coalesce(sum(postage), 0)::numeric(14, 2)::text AS postage,
             (count(*) FILTER (WHERE postage IS NULL))::int4 AS unpriced_parcels
      FROM (${billedOrders(tenantId, month, zone)}) billed
      GROUP BY provider, currency
      ORDER BY sum(count(*)) OVER (PARTITION BY provider) DESC, provider, currency`.execute(trx);
    return result.rows;
  });
}

/** The month's billed orders one by one, by carrier then shipping time: the invoice's export. */
export async function invoiceOrdersOfMonth(
  db: Kysely<Database>,
  tenantId: string,
  month: string,
  zone: string,
) {
  return withTenant(db, tenantId, async (trx) => {
    const result = await sql<{
      order_number: string;
      tracking_number: string | null;
      provider: string;
      shipped_at: Date;
      currency: string;
      units: number;
      weight_kg: string;
      unweighed: boolean;
      postage: string | null;
    }>`
      SELECT order_number, tracking_number, provider, shipped_at, currency, units,
             weight_kg::numeric(14, 3)::text AS weight_kg, unweighed, postage::numeric(14, 2)::text AS postage
      FROM (${billedOrders(tenantId, month, zone)}) billed
      ORDER BY provider, shipped_at, order_number`.execute(trx);
    return result.rows;
  });
}

/** The month's carrier manifest, if one was created. */
export async function manifestOfMonth(db: Kysely<Database>, tenantId: string, month: string) {
  return db
    .selectFrom('carrier_manifests')
    .select(['id', 'updated_at'])
    .where('tenant_id', '=', tenantId)
    .where('month', '=', month)
    .executeTakeFirst();
}
