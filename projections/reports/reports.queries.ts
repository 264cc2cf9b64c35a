import { dayIn, timezoneOfCountry } from '@domain/batches/auto-batch';
import {
  EXPORT_ROW_CAP,
  type ReportDefinition,
  type ReportId,
  reportErrors,
  reportOf,
  summed,
} from '@domain/reports/catalogue';
import { refuser } from '@domain/shared/errors';
import type { Database } from '@infra/db';
import { withTenant } from '@infra/db/tenant';
import { type Kysely, type RawBuilder, type SqlBool, sql, type Transaction } from 'kysely';
import { allOf, pageWindow } from '../runtime/grid';

/**
 * The reports of domain/reports/catalogue.ts read from their read models: the facts of projections/reports/facts.ts
 * (orders, lines, returns), the stock ledger and levels (projections/stock.ts) and the average costs
 * (projections/average-cost.ts). Each report is one SELECT naming its columns as the catalogue does; a page, the
 * totals and an export all wrap that SELECT, so they cannot disagree. Days are the account's calendar days (its
 * country's time zone). Every query runs in a transaction row-level security confines to the tenant.
 */

const refuse = refuser(reportErrors);

export interface ReportFilters {
  from?: Date | undefined;
  to?: Date | undefined;
  store_id?: string | undefined;
  warehouse_id?: string | undefined;
}

export type ReportRow = Record<string, string | number | null>;

/** What a report's SELECT is built from: the tenant, its time zone and the filters. */
interface Scope extends ReportFilters {
  tenantId: string;
  zone: string;
}

type Source = (scope: Scope) => RawBuilder<ReportRow>;

// ---- pieces ----

const during = (column: RawBuilder<unknown>, scope: Scope): RawBuilder<SqlBool>[] => [
  ...(scope.from ? [sql<SqlBool>`${column} >= ${scope.from}`] : []),
  ...(scope.to ? [sql<SqlBool>`${column} < ${scope.to}`] : []),
];
const storeIs = (column: RawBuilder<unknown>, scope: Scope) =>
  scope.store_id ? [sql<SqlBool>`${column} = ${scope.store_id}`] : [];
const warehouseIs = (column: RawBuilder<unknown>, scope: Scope) =>
  scope.warehouse_id ? [sql<SqlBool>`${column} = ${scope.warehouse_id}`] : [];
const day = (column: RawBuilder<unknown>, scope: Scope) =>
  sql<string>`to_char(${column} AT TIME ZONE ${scope.zone}, 'YYYY-MM-DD')`;
const money = (expression: RawBuilder<unknown>) => sql`coalesce(${expression}, 0)::numeric(16, 2)::text`;
const whole = (expression: RawBuilder<unknown>) => sql`coalesce(${expression}, 0)::int8::float8`;
const hours = (from: RawBuilder<unknown>, to: RawBuilder<unknown>) =>
  sql`round((avg(extract(epoch FROM ${to} - ${from})) / 3600)::numeric, 2)::float8`;
const storeName = (tenant: RawBuilder<unknown>, store: RawBuilder<unknown>) =>
  sql`coalesce((SELECT s.name FROM stores s WHERE s.tenant_id = ${tenant} AND s.id::text = ${store}), ${store})`;
const warehouseName = (tenant: RawBuilder<unknown>, warehouse: RawBuilder<unknown>) =>
  sql`coalesce((SELECT w.code FROM warehouses w WHERE w.tenant_id = ${tenant} AND w.id::text = ${warehouse}), ${warehouse})`;
const o = (column: string) => sql.ref(`o.${column}`);

/** The orders of the scope's stores and warehouses (replacements are sent at no charge: never sales). */
const orderScope = (scope: Scope, moment: string) =>
  allOf([
    sql<SqlBool>`o.tenant_id = ${scope.tenantId}`,
    ...during(o(moment), scope),
    ...storeIs(o('store_id'), scope),
    ...warehouseIs(o('warehouse_id'), scope),
  ]);
/** A sale: paid (or cash on delivery and accepted), not a replacement, not cancelled. */
const sold = sql<SqlBool>`o.paid_at IS NOT NULL AND NOT o.replacement AND o.cancelled_at IS NULL`;

/** Per line sold in the scope: master code, seller SKU and name, units and revenue as sold (returns are refunds). */
const linesSold = (scope: Scope) => sql`
  SELECT l.master_code_id, l.seller_sku, l.name, o.order_id,
    l.quantity, l.quantity * l.unit_price AS revenue
  FROM report_orders o JOIN report_order_lines l ON l.tenant_id = o.tenant_id AND l.order_id = o.order_id
  WHERE ${orderScope(scope, 'paid_at')} AND ${sold} AND NOT l.removed AND l.quantity > 0`;

/**
 * Each shipped order of the scope on its shipping day (a sale's cost is known when its stock leaves): its revenue net
 * of what came back, and its cost of sales — the units shipped at the moving average cost of that moment, less those
 * returned at the average of theirs (cost_of_sales of projections/average-cost.ts, by the stock events' source).
 */
const shippedSales = (s: Scope) => sql`
  SELECT ${day(o('shipped_at'), s)} AS day, ${storeName(o('tenant_id'), o('store_id'))} AS store,
    (SELECT coalesce(sum((l.quantity - l.returned_quantity) * l.unit_price), 0) FROM report_order_lines l
      WHERE l.tenant_id = o.tenant_id AND l.order_id = o.order_id AND NOT l.removed AND NOT l.gift) AS revenue,
    (SELECT coalesce(sum(c.quantity * c.unit_cost), 0) FROM cost_of_sales c
      WHERE c.tenant_id = o.tenant_id AND (
        (c.source_type = 'order' AND c.source_id = o.order_id)
        OR (c.source_type = 'order_return' AND c.source_id IN (
          SELECT r.return_id FROM report_returns r WHERE r.tenant_id = o.tenant_id AND r.order_id = o.order_id))
      )) AS cost
  FROM report_orders o WHERE ${orderScope(s, 'shipped_at')} AND NOT o.replacement`;

/**
 * The rows of the daily sales tables (projections/reports/sales-daily.ts) in the scope: the local days the period
 * covers (its end excluded), so a month of a million orders is read as some thousand day rows, not the orders.
 */
function dailyScope(s: Scope, alias: 'd' | 'k') {
  const column = (name: string) => sql.ref(`${alias}.${name}`);
  return allOf([
    sql<SqlBool>`${column('tenant_id')} = ${s.tenantId}`,
    ...(s.from ? [sql<SqlBool>`${column('day')} >= ${dayIn(s.zone, s.from)}`] : []),
    ...(s.to ? [sql<SqlBool>`${column('day')} <= ${dayIn(s.zone, new Date(s.to.getTime() - 1))}`] : []),
    ...storeIs(column('store_id'), s),
    ...warehouseIs(column('warehouse_id'), s),
  ]);
}

// ---- the reports ----

const SOURCES: Record<ReportId, Source> = {
  sales: (s) => sql`
    SELECT d.day, ${storeName(sql.ref('d.tenant_id'), sql.ref('d.store_id'))} AS store,
      sum(d.orders)::float8 AS orders, sum(d.paid_orders)::float8 AS paid_orders, sum(d.units)::float8 AS items,
      ${money(sql`sum(d.revenue)`)} AS revenue, ${money(sql`sum(d.shipping)`)} AS shipping_fee,
      sum(d.cancelled_orders)::float8 AS cancelled_orders, ${money(sql`sum(d.returned_amount)`)} AS returned_amount
    FROM sales_daily d WHERE ${dailyScope(s, 'd')}
    GROUP BY d.tenant_id, d.day, d.store_id`,
  'gross-profit': (s) => sql`
    SELECT g.day, g.store, count(*)::float8 AS orders, ${money(sql`sum(g.revenue)`)} AS revenue,
      ${money(sql`sum(g.cost)`)} AS cost_of_sales, ${money(sql`sum(g.revenue) - sum(g.cost)`)} AS gross_profit,
      CASE WHEN sum(g.revenue) = 0 THEN NULL
        ELSE round((sum(g.revenue) - sum(g.cost)) / sum(g.revenue) * 100, 2)::float8 END AS margin
    FROM (${shippedSales(s)}) g GROUP BY g.day, g.store`,
  'top-sku': (s) => sql`
    SELECT k.seller_sku, min(k.name) AS name, sum(k.units)::float8 AS quantity,
      ${money(sql`sum(k.revenue)`)} AS revenue, sum(k.orders)::float8 AS orders
    FROM sku_sales_daily k WHERE ${dailyScope(s, 'k')}
    GROUP BY k.seller_sku`,
  fees: (s) => sql`
    SELECT o.paid_at AS paid_at, o.order_number, ${storeName(o('tenant_id'), o('store_id'))} AS store,
      ${money(o('total_amount'))} AS total_amount, ${money(o('shipping_fee'))} AS shipping_fee
    FROM report_orders o WHERE ${orderScope(s, 'paid_at')} AND ${sold}`,
  'postage-fee': (s) => sql`
    SELECT ${day(o('paid_at'), s)} AS day, coalesce(o.shipping_provider, '') AS shipping_provider,
      count(*)::float8 AS orders, ${money(sql`sum(o.shipping_fee)`)} AS shipping_fee
    FROM report_orders o WHERE ${orderScope(s, 'paid_at')} AND ${sold} AND o.shipping_fee IS NOT NULL
    GROUP BY 1, 2`,
  refund: (s) => sql`
    SELECT r.recorded_at, r.order_number, ${storeName(sql.ref('r.tenant_id'), sql.ref('r.store_id'))} AS store,
      r.action, r.returned_quantity::float8 AS quantity, ${money(sql.ref('r.refund_to_buyer'))} AS refund_to_buyer,
      ${money(sql.ref('r.reversal_item_price'))} AS reversal_item_price
    FROM report_returns r WHERE ${returnScope(s)}`,
  transaction: (s) => sql`
    SELECT o.paid_at, o.order_number, ${storeName(o('tenant_id'), o('store_id'))} AS store, o.payment_method,
      CASE WHEN o.cod THEN 'cod' ELSE 'online' END AS cod, ${money(o('total_amount'))} AS amount
    FROM report_orders o WHERE ${orderScope(s, 'paid_at')} AND o.paid_at IS NOT NULL AND NOT o.replacement`,
  subsidy: (s) => sql`
    SELECT ${day(o('paid_at'), s)} AS day, ${storeName(o('tenant_id'), o('store_id'))} AS store,
      count(*)::float8 AS orders, ${money(sql`sum(o.total_amount)`)} AS revenue
    FROM report_orders o WHERE ${orderScope(s, 'paid_at')} AND ${sold}
    GROUP BY 1, 2, o.tenant_id, o.store_id`,
  statements: (s) => sql`
    SELECT t.month, t.store, sum(t.orders)::float8 AS orders, ${money(sql`sum(t.revenue)`)} AS revenue,
      ${money(sql`sum(t.shipping_fee)`)} AS shipping_fee, ${money(sql`sum(t.refunds)`)} AS refunds
    FROM (
      SELECT to_char(o.paid_at AT TIME ZONE ${s.zone}, 'YYYY-MM') AS month,
        ${storeName(o('tenant_id'), o('store_id'))} AS store, 1 AS orders, o.total_amount AS revenue,
        o.shipping_fee, 0 AS refunds
      FROM report_orders o WHERE ${orderScope(s, 'paid_at')} AND ${sold}
      UNION ALL
      SELECT to_char(r.recorded_at AT TIME ZONE ${s.zone}, 'YYYY-MM'),
        ${storeName(sql.ref('r.tenant_id'), sql.ref('r.store_id'))}, 0, 0, 0, r.refund_to_buyer
      FROM report_returns r WHERE ${returnScope(s)}
    ) t GROUP BY t.month, t.store`,
  forecasting: (s) => {
    // Sales velocity over the period (30 days to its end when no start is given) against the stock on hand now.
    const end = s.to ?? new Date();
    const start = s.from ?? new Date(end.getTime() - 30 * 86_400_000);
    const days = Math.max(1, (end.getTime() - start.getTime()) / 86_400_000);
    const period = { ...s, from: start, to: end };
    return sql`
      SELECT m.code AS master_code, m.name, ${whole(sql`x.sold`)} AS sold,
        round((coalesce(x.sold, 0) / ${days}::float8)::numeric, 2)::float8 AS per_day,
        ${whole(sql`k.on_hand`)} AS on_hand,
        CASE WHEN coalesce(x.sold, 0) = 0 THEN NULL
          ELSE round((coalesce(k.on_hand, 0) / (x.sold / ${days}::float8))::numeric, 1)::float8 END AS days_of_cover
      FROM master_codes m
      LEFT JOIN (SELECT master_code_id, sum(quantity) AS sold FROM (${linesSold(period)}) l GROUP BY 1) x
        ON x.master_code_id = m.id::text
      LEFT JOIN (
        SELECT master_code_id, sum(on_hand) AS on_hand FROM stock_levels
        WHERE ${allOf([sql<SqlBool>`tenant_id = ${s.tenantId}`, ...warehouseIs(sql.ref('warehouse_id'), s)])}
        GROUP BY 1
      ) k ON k.master_code_id = m.id::text
      WHERE m.tenant_id = ${s.tenantId} AND m.type = 'standard' AND (x.sold IS NOT NULL OR k.on_hand > 0)`;
  },
  'unpaid-orders': (s) => sql`
    SELECT o.ordered_at, o.order_number, ${storeName(o('tenant_id'), o('store_id'))} AS store, o.status,
      ${money(o('total_amount'))} AS total_amount
    FROM report_orders o
    WHERE ${orderScope(s, 'ordered_at')} AND o.paid_at IS NULL AND NOT o.cod AND o.cancelled_at IS NULL`,
  'paid-orders': (s) => sql`
    SELECT o.paid_at, o.order_number, ${storeName(o('tenant_id'), o('store_id'))} AS store, o.status,
      o.item_count::float8 AS items, ${money(o('total_amount'))} AS total_amount
    FROM report_orders o WHERE ${orderScope(s, 'paid_at')} AND ${sold}`,
  'order-count': (s) => sql`
    SELECT ${day(o('ordered_at'), s)} AS day, ${storeName(o('tenant_id'), o('store_id'))} AS store,
      count(*)::float8 AS orders, count(o.paid_at)::float8 AS paid, count(o.cancelled_at)::float8 AS cancelled,
      count(o.shipped_at)::float8 AS shipped, count(o.returned_at)::float8 AS returned
    FROM report_orders o WHERE ${orderScope(s, 'ordered_at')} AND NOT o.replacement
    GROUP BY 1, 2, o.tenant_id, o.store_id`,
  'return-reconciliation': (s) => sql`
    SELECT r.recorded_at, r.order_number, ${storeName(sql.ref('r.tenant_id'), sql.ref('r.store_id'))} AS store,
      r.returned_quantity::float8 AS returned, ${money(sql.ref('r.returned_value'))} AS returned_value,
      ${money(sql.ref('r.refund_to_buyer'))} AS refund_to_buyer, r.restocked_quantity::float8 AS restocked,
      (r.returned_quantity - r.restocked_quantity)::float8 AS not_restocked,
      CASE WHEN r.completed_at IS NULL THEN 'no' ELSE 'yes' END AS completed
    FROM report_returns r WHERE ${returnScope(s)}`,
  'fulfillment-performance': (s) => sql`
    SELECT ${day(o('paid_at'), s)} AS day, ${warehouseName(o('tenant_id'), o('warehouse_id'))} AS warehouse,
      count(*)::float8 AS paid, count(o.scanned_at)::float8 AS scanned, count(o.shipped_at)::float8 AS shipped,
      ${hours(o('paid_at'), o('scanned_at'))} AS paid_to_scanned,
      ${hours(o('scanned_at'), o('shipped_at'))} AS scanned_to_shipped,
      ${hours(o('paid_at'), o('shipped_at'))} AS paid_to_shipped
    FROM report_orders o WHERE ${orderScope(s, 'paid_at')} AND NOT o.replacement
    GROUP BY 1, 2, o.tenant_id, o.warehouse_id`,
  'packer-throughput': (s) => sql`
    SELECT coalesce(
        (SELECT nullif(trim(u.first_name || ' ' || u.last_name), '') FROM users u WHERE u.id::text = o.scanned_by),
        o.scanned_by) AS packer,
      count(*)::float8 AS orders,
      count(DISTINCT date_trunc('hour', o.scanned_at))::float8 AS hours,
      round((count(*)::numeric / count(DISTINCT date_trunc('hour', o.scanned_at))), 2)::float8 AS orders_per_hour
    FROM report_orders o WHERE ${orderScope(s, 'scanned_at')} AND o.scanned_by IS NOT NULL
    GROUP BY o.scanned_by`,
  'wave-throughput': (s) => sql`
    SELECT coalesce((SELECT b.label FROM batches b WHERE b.tenant_id = o.tenant_id AND b.id::text = o.batch_id),
        o.batch_id) AS wave,
      count(*)::float8 AS orders, min(o.scanned_at) AS first_scan, max(o.scanned_at) AS last_scan,
      round((extract(epoch FROM max(o.scanned_at) - min(o.scanned_at)) / 3600)::numeric, 2)::float8 AS duration,
      CASE WHEN max(o.scanned_at) = min(o.scanned_at) THEN NULL
        ELSE round((count(*) / (extract(epoch FROM max(o.scanned_at) - min(o.scanned_at)) / 3600))::numeric, 2)::float8
      END AS orders_per_hour
    FROM report_orders o WHERE ${orderScope(s, 'scanned_at')} AND o.batch_id IS NOT NULL
    GROUP BY o.tenant_id, o.batch_id`,
  'average-cost': (s) => sql`
    SELECT m.code AS master_code, m.name, a.on_hand::float8 AS on_hand,
      ${money(sql.ref('a.average_cost'))} AS average_cost, ${money(sql`a.on_hand * a.average_cost`)} AS value
    FROM average_costs a JOIN master_codes m ON m.tenant_id = a.tenant_id AND m.id::text = a.master_code_id
    WHERE a.tenant_id = ${s.tenantId}`,
  'daily-stock': (s) => sql`
    SELECT d.day, m.code AS master_code, ${warehouseName(sql.ref('d.tenant_id'), sql.ref('d.warehouse_id'))} AS warehouse,
      d.stock_in::float8 AS stock_in, d.stock_out::float8 AS stock_out, d.closing_stock::float8 AS closing_stock
    FROM (
      SELECT DISTINCT ON (1, sm.master_code_id, sm.warehouse_id) ${day(sql.ref('sm.occurred_at'), s)} AS day,
        sm.tenant_id, sm.master_code_id, sm.warehouse_id,
        sum(sm.stock_in) OVER w AS stock_in, sum(sm.stock_out) OVER w AS stock_out, sm.new_stock AS closing_stock
      FROM stock_movements sm
      WHERE ${allOf([
        sql<SqlBool>`sm.tenant_id = ${s.tenantId}`,
        ...during(sql.ref('sm.occurred_at'), s),
        ...warehouseIs(sql.ref('sm.warehouse_id'), s),
      ])}
      WINDOW w AS (PARTITION BY ${day(sql.ref('sm.occurred_at'), s)}, sm.master_code_id, sm.warehouse_id)
      ORDER BY 1, sm.master_code_id, sm.warehouse_id, sm.revision DESC
    ) d JOIN master_codes m ON m.tenant_id = d.tenant_id AND m.id::text = d.master_code_id`,
  // Each stock's balance before the period (its last movement's figure), what came in and went out in it, and the
  // balance at its end: the movements carry the figures after each, so no movement is summed from the start.
  'stock-balance-history': (s) => sql`
    SELECT m.code AS master_code, m.name, ${warehouseName(sql.ref('b.tenant_id'), sql.ref('b.warehouse_id'))} AS warehouse,
      b.opening_stock::float8 AS opening_stock, b.stock_in::float8 AS stock_in, b.stock_out::float8 AS stock_out,
      b.closing_stock::float8 AS closing_stock
    FROM (
      SELECT sm.tenant_id, sm.master_code_id, sm.warehouse_id,
        coalesce((array_agg(sm.new_stock ORDER BY sm.revision DESC)
          FILTER (WHERE ${s.from ? sql`sm.occurred_at < ${s.from}` : sql`false`}))[1], 0) AS opening_stock,
        coalesce(sum(sm.stock_in) FILTER (WHERE ${allOf(during(sql.ref('sm.occurred_at'), s))}), 0) AS stock_in,
        coalesce(sum(sm.stock_out) FILTER (WHERE ${allOf(during(sql.ref('sm.occurred_at'), s))}), 0) AS stock_out,
        (array_agg(sm.new_stock ORDER BY sm.revision DESC))[1] AS closing_stock
      FROM stock_movements sm
      WHERE ${allOf([
        sql<SqlBool>`sm.tenant_id = ${s.tenantId}`,
        ...(s.to ? [sql<SqlBool>`sm.occurred_at < ${s.to}`] : []),
        ...warehouseIs(sql.ref('sm.warehouse_id'), s),
      ])}
      GROUP BY sm.tenant_id, sm.master_code_id, sm.warehouse_id
    ) b JOIN master_codes m ON m.tenant_id = b.tenant_id AND m.id::text = b.master_code_id
    WHERE b.opening_stock <> 0 OR b.stock_in <> 0 OR b.stock_out <> 0 OR b.closing_stock <> 0`,
  'dead-stock': (s) => {
    // Stock that has not gone out since the period's start (90 days before its end when no start is given).
    const end = s.to ?? new Date();
    const since = s.from ?? new Date(end.getTime() - 90 * 86_400_000);
    return sql`
      SELECT m.code AS master_code, m.name, ${warehouseName(sql.ref('k.tenant_id'), sql.ref('k.warehouse_id'))} AS warehouse,
        k.on_hand::float8 AS on_hand,
        (SELECT max(sm.occurred_at) FROM stock_movements sm WHERE sm.tenant_id = k.tenant_id
          AND sm.master_code_id = k.master_code_id AND sm.warehouse_id = k.warehouse_id AND sm.stock_out > 0) AS last_out
      FROM stock_levels k JOIN master_codes m ON m.tenant_id = k.tenant_id AND m.id::text = k.master_code_id
      WHERE ${allOf([sql<SqlBool>`k.tenant_id = ${s.tenantId}`, ...warehouseIs(sql.ref('k.warehouse_id'), s)])}
        AND k.on_hand > 0
        AND NOT EXISTS (SELECT 1 FROM stock_movements sm WHERE sm.tenant_id = k.tenant_id
          AND sm.master_code_id = k.master_code_id AND sm.warehouse_id = k.warehouse_id AND sm.stock_out > 0
          AND sm.occurred_at >= ${since} AND sm.occurred_at < ${end})`;
  },
};

function returnScope(scope: Scope) {
  return allOf([
    sql<SqlBool>`r.tenant_id = ${scope.tenantId}`,
    ...during(sql.ref('r.recorded_at'), scope),
    ...storeIs(sql.ref('r.store_id'), scope),
    ...warehouseIs(sql.ref('r.warehouse_id'), scope),
  ]);
}

// ---- running a report ----

async function scopeOf(trx: Transaction<Database>, tenantId: string, filters: ReportFilters): Promise<Scope> {
  if (filters.from && filters.to && filters.from > filters.to) throw refuse('RANGE_INVALID');
  const tenant = await trx
    .selectFrom('tenants')
    .select('country')
    .where('id', '=', tenantId)
    .executeTakeFirst();
  return { ...filters, tenantId, zone: timezoneOfCountry(tenant?.country) };
}

/** A report's SELECT for the filters, with the filters its catalogue entry does not take left out. */
function selectOf(definition: ReportDefinition, scope: Scope) {
  const applies: Scope = {
    ...scope,
    store_id: definition.filters.store ? scope.store_id : undefined,
    warehouse_id: definition.filters.warehouse ? scope.warehouse_id : undefined,
  };
  return SOURCES[definition.id as ReportId](applies);
}

export interface ReportSort {
  colId: string;
  sort: 'asc' | 'desc';
}

/** ORDER BY the grid's sort (columns of the report only), then the report's own, then every column: a stable order. */
function orderOf(definition: ReportDefinition, sortModel: readonly ReportSort[]) {
  const known = new Set(definition.columns.map((c) => c.id));
  const terms = [...sortModel.filter((s) => known.has(s.colId)), definition.sort].map(
    ({ colId, sort }) => sql`r.${sql.id(colId)} ${sort === 'asc' ? sql`ASC` : sql`DESC`} NULLS LAST`,
  );
  return sql.join([...terms, ...definition.columns.map((c) => sql`r.${sql.id(c.id)}`)]);
}

/** Instants as ISO text, counts and ratios as numbers, money as text with two decimals. */
function answerRow(row: Record<string, unknown>): ReportRow {
  return Object.fromEntries(
    Object.entries(row).map(([name, value]) => [
      name,
      value instanceof Date ? value.toISOString() : (value as string | number | null),
    ]),
  );
}

export interface ReportQuery extends ReportFilters {
  startRow: number;
  endRow: number;
  sortModel: readonly ReportSort[];
}

/** One page of a report for ag-grid; lastRow is known once a page comes back short. */
export async function reportPage(
  db: Kysely<Database>,
  tenantId: string,
  id: ReportId,
  query: ReportQuery,
): Promise<{ rows: ReportRow[]; lastRow: number }> {
  const definition = reportOf(id);
  const { limit, offset } = pageWindow(query);
  const rows = await withTenant(db, tenantId, async (trx) => {
    const scope = await scopeOf(trx, tenantId, query);
    return (
      await sql<Record<string, unknown>>`
        SELECT * FROM (${selectOf(definition, scope)}) r ORDER BY ${orderOf(definition, query.sortModel)}
        LIMIT ${limit} OFFSET ${offset}`.execute(trx)
    ).rows;
  });
  return { rows: rows.map(answerRow), lastRow: rows.length < limit ? offset + rows.length : -1 };
}

/** The totals row (the sums of its count and money columns) and how many rows the report has. */
export async function reportTotals(
  db: Kysely<Database>,
  tenantId: string,
  id: ReportId,
  filters: ReportFilters,
): Promise<{ rows: number; totals: ReportRow }> {
  const definition = reportOf(id);
  const columns = summed(definition);
  const money = new Set(definition.columns.filter((c) => c.kind === 'money').map((c) => c.id));
  const row = await withTenant(db, tenantId, async (trx) => {
    const scope = await scopeOf(trx, tenantId, filters);
    const sums = columns.map((c) =>
      money.has(c)
        ? sql`coalesce(sum(r.${sql.id(c)}::numeric), 0)::numeric(18, 2)::text AS ${sql.id(c)}`
        : sql`coalesce(sum(r.${sql.id(c)}), 0)::float8 AS ${sql.id(c)}`,
    );
    return (
      await sql<Record<string, unknown>>`
        SELECT count(*)::float8 AS ${sql.id('#rows')} ${sums.length > 0 ? sql`, ${sql.join(sums)}` : sql``}
        FROM (${selectOf(definition, scope)}) r`.execute(trx)
    ).rows[0]!;
  });
  const { '#rows': count, ...totals } = row;
  return { rows: Number(count), totals: answerRow(totals) };
}

/** How many rows a cursor fetches at a time while an export is written. */
export const EXPORT_BATCH = 2_000;

/**
 * A report's rows for an export, in the grid's order, read through a server-side cursor a batch at a time: however
 * many rows, only one batch is held at once. Refused before anything is written when the report has no rows, or
 * more than `cap`.
 */
export async function reportRowsForExport(
  db: Kysely<Database>,
  tenantId: string,
  id: ReportId,
  filters: ReportFilters & { sortModel: readonly ReportSort[] },
  cap = EXPORT_ROW_CAP,
): Promise<AsyncGenerator<ReportRow[]>> {
  const definition = reportOf(id);
  const count = await withTenant(db, tenantId, async (trx) => {
    const scope = await scopeOf(trx, tenantId, filters);
    return (
      await sql<{ n: string }>`
        SELECT count(*) AS n FROM (SELECT 1 FROM (${selectOf(definition, scope)}) r LIMIT ${cap + 1}) capped`.execute(
        trx,
      )
    ).rows[0]!.n;
  });
  if (Number(count) === 0) throw refuse('EXPORT_EMPTY');
  if (Number(count) > cap) throw refuse('EXPORT_TOO_LARGE', { max: cap });
  return cursorBatches(
    db,
    tenantId,
    (scope) =>
      sql`SELECT * FROM (${selectOf(definition, scope)}) r ORDER BY ${orderOf(definition, filters.sortModel)}`,
    filters,
  );
}

/** A promise with its resolve and reject at hand (Promise.withResolvers, which Node 20 lacks). */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // Awaited by the reader; a failure nobody waits for any more must not end the process.
  promise.catch(() => {});
  return { promise, resolve, reject };
}

/**
 * The rows of a query a batch at a time through a cursor, in one transaction held while the reader reads. The
 * transaction runs as a task of its own and fetches the next batch only when the reader asks for it (`turn`), handing
 * it over through `reply`: a slow reader holds the cursor open, never more than one batch of rows.
 */
async function* cursorBatches(
  db: Kysely<Database>,
  tenantId: string,
  query: (scope: Scope) => RawBuilder<unknown>,
  filters: ReportFilters,
): AsyncGenerator<ReportRow[]> {
  let turn = deferred<boolean>();
  let reply = deferred<ReportRow[]>();
  const cursor = sql.id('report_export');
  const work = withTenant(db, tenantId, async (trx) => {
    const scope = await scopeOf(trx, tenantId, filters);
    await sql`DECLARE ${cursor} NO SCROLL CURSOR FOR ${query(scope)}`.execute(trx);
    while (await turn.promise) {
      turn = deferred<boolean>();
      const { rows } = await sql<
        Record<string, unknown>
      >`FETCH ${sql.lit(EXPORT_BATCH)} FROM ${cursor}`.execute(trx);
      const answered = reply;
      reply = deferred<ReportRow[]>();
      answered.resolve(rows.map(answerRow));
      if (rows.length === 0) return;
    }
  }).catch((error: unknown) => reply.reject(error));
  try {
    for (;;) {
      const answered = reply;
      turn.resolve(true);
      const rows = await answered.promise;
      if (rows.length === 0) return;
      yield rows;
    }
  } finally {
    turn.resolve(false);
    await work;
  }
}
