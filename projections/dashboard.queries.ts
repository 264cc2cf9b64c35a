import type {
  DashboardPeriod,
  DashboardQuery,
  DashboardTasks,
  PeriodFigures,
  RankedProduct,
  SalesDashboard,
  SalesFigures,
  TrendDay,
  TrendPeriod,
} from '@api/contracts/dashboard';
import { timezoneOfCountry } from '@domain/batches/auto-batch';
import { GIN_STATUS } from '@domain/goods-issue/decider';
import type { Database } from '@infra/db';
import { withTenant } from '@infra/db/tenant';
import { type Kysely, type RawBuilder, type SqlBool, sql, type Transaction } from 'kysely';
import { localDay } from './reports/sales-daily';

/**
 * The sales dashboard's reads: the daily sales (projections/reports/sales-daily.ts) summed over the dashboard's
 * periods, the chart's days against the period before, the product ranking, and what waits for the seller from the
 * other read models (the board's counts, stock levels, returns, transfer requests, goods issue notes, purchases).
 */

// ---- calendar days (`yyyy-mm-dd`, no time zone: the seller's own calendar) ----

const toDate = (day: string) => new Date(`${day}T00:00:00.000Z`);
const dayOf = (date: Date) => date.toISOString().slice(0, 10);
export const addDays = (day: string, days: number) =>
  dayOf(new Date(toDate(day).getTime() + days * 86_400_000));
const startOfMonth = (day: string) => `${day.slice(0, 7)}-01`;
const startOfWeek = (day: string) => addDays(day, -((toDate(day).getUTCDay() + 6) % 7));
const daysBetween = (from: string, to: string) =>
  Math.round((toDate(to).getTime() - toDate(from).getTime()) / 86_400_000);

interface Span {
  from: string;
  to: string;
}

/** Each period's days, as of `today`. */
export function periodSpans(today: string): Record<DashboardPeriod, Span> {
  const monthStart = startOfMonth(today);
  const lastMonthEnd = addDays(monthStart, -1);
  const weekStart = startOfWeek(today);
  return {
    today: { from: today, to: today },
    yesterday: { from: addDays(today, -1), to: addDays(today, -1) },
    this_week: { from: weekStart, to: today },
    last_week: { from: addDays(weekStart, -7), to: addDays(weekStart, -1) },
    this_month: { from: monthStart, to: today },
    last_month: { from: startOfMonth(lastMonthEnd), to: lastMonthEnd },
    last_7_days: { from: addDays(today, -6), to: today },
    previous_7_days: { from: addDays(today, -13), to: addDays(today, -7) },
    last_30_days: { from: addDays(today, -29), to: today },
    previous_30_days: { from: addDays(today, -59), to: addDays(today, -30) },
  };
}

/** The chart's periods and the period each is drawn against. */
const TRENDS: Record<TrendPeriod, { current: DashboardPeriod; previous: DashboardPeriod }> = {
  last_7_days: { current: 'last_7_days', previous: 'previous_7_days' },
  last_30_days: { current: 'last_30_days', previous: 'previous_30_days' },
  this_week: { current: 'this_week', previous: 'last_week' },
  this_month: { current: 'this_month', previous: 'last_month' },
};

// ---- amounts: summed in cents, answered as decimal text ----

const cents = (amount: string | number) => Math.round(Number(amount) * 100);
const money = (amountInCents: number) => (amountInCents / 100).toFixed(2);

const COUNTS = [
  'orders',
  'paid_orders',
  'unpaid_orders',
  'cancelled_orders',
  'units',
  'returned_units',
] as const;
const AMOUNTS = ['revenue', 'shipping', 'cancelled_amount', 'returned_amount'] as const;
type Sums = Record<(typeof COUNTS)[number] | (typeof AMOUNTS)[number], number>;

const emptySums = (): Sums =>
  Object.fromEntries([...COUNTS, ...AMOUNTS].map((figure) => [figure, 0])) as Sums;
const figuresOf = (sums: Sums): SalesFigures =>
  ({
    ...Object.fromEntries(COUNTS.map((figure) => [figure, sums[figure]])),
    ...Object.fromEntries(AMOUNTS.map((figure) => [figure, money(sums[figure])])),
  }) as SalesFigures;

/** A day's sales of one marketplace in one currency, as the database sums them. */
interface DayRow {
  day: string;
  platform: string;
  currency: string;
  [figure: string]: string;
}

type Db = Kysely<Database> | Transaction<Database>;

/** The account's time zone: its country's (Malaysia's when it has none). */
async function timezoneOf(db: Db, tenantId: string) {
  const row = await db.selectFrom('tenants').select('country').where('id', '=', tenantId).executeTakeFirst();
  return timezoneOfCountry(row?.country);
}

/** The filters every read of the daily tables takes (alias `s`). */
function salesWhere(tenantId: string, query: DashboardQuery, span: Span): RawBuilder<SqlBool> {
  const where: RawBuilder<SqlBool>[] = [
    sql<SqlBool>`s.tenant_id = ${tenantId}`,
    sql<SqlBool>`s.day BETWEEN ${span.from} AND ${span.to}`,
  ];
  if (query.store_id) where.push(sql<SqlBool>`s.store_id = ${query.store_id}`);
  if (query.platform) where.push(sql<SqlBool>`s.platform = ${query.platform}`);
  return sql.join(where, sql` AND `) as RawBuilder<SqlBool>;
}

async function rankedBy(
  trx: Transaction<Database>,
  tenantId: string,
  query: DashboardQuery,
  currency: string,
  span: Span,
  by: 'revenue' | 'units',
): Promise<RankedProduct[]> {
  // A master code is one product whatever seller SKUs sell it; an unmapped line is ranked by its seller SKU.
  const { rows } = await sql<{
    master_code_id: string;
    seller_sku: string;
    name: string;
    orders: string;
    units: string;
    revenue: string;
    code: string | null;
    master_name: string | null;
  }>`
    WITH ranked AS (
      SELECT s.master_code_id, min(s.seller_sku) AS seller_sku, max(s.name) AS name, sum(s.orders) AS orders,
        sum(s.units) AS units, sum(s.revenue) AS revenue
      FROM sku_sales_daily s
      WHERE ${salesWhere(tenantId, query, span)} AND s.currency = ${currency}
      GROUP BY s.master_code_id, CASE WHEN s.master_code_id = '' THEN s.seller_sku END
      ORDER BY ${by === 'revenue' ? sql`sum(s.revenue) DESC, sum(s.units) DESC` : sql`sum(s.units) DESC, sum(s.revenue) DESC`},
        min(s.seller_sku)
      LIMIT 10
    )
    SELECT r.*, m.code, m.name AS master_name
    FROM ranked r
    LEFT JOIN master_codes m ON m.tenant_id = ${tenantId} AND r.master_code_id <> '' AND m.id::text = r.master_code_id
    ORDER BY ${by === 'revenue' ? sql`r.revenue DESC, r.units DESC` : sql`r.units DESC, r.revenue DESC`}, r.seller_sku`.execute(
    trx,
  );
  return rows.map((row) => ({
    master_code_id: row.master_code_id || null,
    code: row.code,
    name: row.master_name ?? row.name,
    seller_sku: row.seller_sku,
    orders: Number(row.orders),
    units: Number(row.units),
    revenue: money(cents(row.revenue)),
  }));
}

/** The sales side of the dashboard, as of `now`. */
export async function salesDashboard(
  db: Kysely<Database>,
  tenantId: string,
  query: DashboardQuery,
  now: Date,
): Promise<SalesDashboard> {
  return withTenant(db, tenantId, async (trx) => {
    const timezone = await timezoneOf(trx, tenantId);
    const today = localDay(timezone, now.toISOString());
    const spans = periodSpans(today);
    const trend = TRENDS[query.period];
    const earliest = [spans.previous_30_days.from, spans.last_month.from].sort()[0]!;
    const { rows } = await sql<DayRow>`
      SELECT s.day, s.platform, s.currency,
        ${sql.join([...COUNTS, ...AMOUNTS].map((figure) => sql`sum(${sql.ref(`s.${figure}`)})::text AS ${sql.ref(figure)}`))}
      FROM sales_daily s
      WHERE ${salesWhere(tenantId, query, { from: earliest, to: today })}
      GROUP BY s.day, s.platform, s.currency`.execute(trx);

    // Amounts in several currencies are never added up: the figures are in one, by default the one sold most in.
    const byCurrency = new Map<string, number>();
    for (const row of rows)
      byCurrency.set(row.currency, (byCurrency.get(row.currency) ?? 0) + cents(row.revenue!));
    const currencies = [...byCurrency.keys()].sort();
    const currency =
      query.currency ??
      [...byCurrency].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0] ??
      'MYR';
    const sold = rows.filter((row) => row.currency === currency);

    const sumOver = (span: Span, platform?: string) => {
      const sums = emptySums();
      for (const row of sold) {
        if (row.day < span.from || row.day > span.to || (platform && row.platform !== platform)) continue;
        for (const figure of COUNTS) sums[figure] += Number(row[figure]);
        for (const figure of AMOUNTS) sums[figure] += cents(row[figure]!);
      }
      return sums;
    };
    const periods: PeriodFigures[] = (Object.entries(spans) as [DashboardPeriod, Span][]).map(
      ([period, span]) => ({
        period,
        ...span,
        ...figuresOf(sumOver(span)),
      }),
    );

    const current = spans[trend.current];
    const previous = spans[trend.previous];
    const platforms = [
      ...new Set(sold.filter((row) => row.day >= current.from).map((row) => row.platform)),
    ].sort();
    const days: TrendDay[] = [];
    for (let i = 0; i <= daysBetween(current.from, current.to); i += 1) {
      const day = addDays(current.from, i);
      const previousDay = addDays(previous.from, i) <= previous.to ? addDays(previous.from, i) : null;
      const now = sumOver({ from: day, to: day });
      const before = previousDay ? sumOver({ from: previousDay, to: previousDay }) : emptySums();
      days.push({
        day,
        previous_day: previousDay,
        revenue: money(now.revenue),
        orders: now.orders,
        previous_revenue: money(before.revenue),
        previous_orders: before.orders,
        by_platform: Object.fromEntries(
          platforms.map((platform) => [platform, money(sumOver({ from: day, to: day }, platform).revenue)]),
        ),
      });
    }

    const stores = await trx
      .selectFrom('stores')
      .select(['id', 'name', 'platform'])
      .where('tenant_id', '=', tenantId)
      .orderBy('name')
      .execute();
    return {
      today,
      timezone,
      currency,
      currencies,
      periods,
      trend: {
        period: query.period,
        ...current,
        previous_from: previous.from,
        previous_to: previous.to,
        platforms,
        days,
      },
      ranking: {
        by_revenue: await rankedBy(trx, tenantId, query, currency, current, 'revenue'),
        by_units: await rankedBy(trx, tenantId, query, currency, current, 'units'),
      },
      stores,
    };
  });
}

/** What waits for the seller: unpaid orders, low stock, the last 30 days' returns and documents to approve. */
export async function dashboardTasks(
  db: Kysely<Database>,
  tenantId: string,
  query: DashboardQuery,
  now: Date,
): Promise<DashboardTasks> {
  return withTenant(db, tenantId, async (trx) => {
    const byStore = (alias: string) => {
      const where: RawBuilder<SqlBool>[] = [sql<SqlBool>`${sql.ref(`${alias}.tenant_id`)} = ${tenantId}`];
      if (query.store_id) where.push(sql<SqlBool>`${sql.ref(`${alias}.store_id`)} = ${query.store_id}`);
      if (query.platform) where.push(sql<SqlBool>`${sql.ref(`${alias}.platform`)} = ${query.platform}`);
      return sql.join(where, sql` AND `);
    };
    const unpaid = await sql<{ n: string }>`
      SELECT coalesce(sum(c.orders), 0)::text AS n FROM order_counts c
      WHERE ${byStore('c')} AND c.status = 'unpaid'`.execute(trx);

    const { rows: low } = await sql<{
      total: string;
      master_code_id: string;
      code: string;
      name: string;
      warehouse_id: string;
      warehouse_name: string;
      available: string;
      soft_threshold: number;
    }>`
      SELECT count(*) OVER () AS total, l.master_code_id, m.code, m.name, l.warehouse_id, w.name AS warehouse_name,
        l.available, m.soft_threshold
      FROM stock_levels l
      JOIN master_codes m ON m.tenant_id = ${tenantId} AND l.master_code_id = m.id::text
      JOIN warehouses w ON w.tenant_id = ${tenantId} AND l.warehouse_id = w.id::text
      WHERE l.tenant_id = ${tenantId} AND m.status = 'active' AND m.soft_threshold > 0
        AND l.available <= m.soft_threshold
      ORDER BY l.available - m.soft_threshold, m.code, w.name
      LIMIT 10`.execute(trx);

    const since = new Date(now.getTime() - 30 * 86_400_000);
    const returns = await sql<{ count: string; units: string; refund: string; open: string }>`
      SELECT count(*)::text AS count, coalesce(sum(r.total_quantity), 0)::text AS units,
        coalesce(sum(r.refund_to_buyer), 0)::text AS refund, count(*) FILTER (WHERE NOT r.completed)::text AS open
      FROM order_returns r
      WHERE ${byStore('r')} AND r.created_at >= ${since}`.execute(trx);

    const approvals = await sql<{ transfer_requests: string; goods_issues: string; purchases: string }>`
      SELECT
        (SELECT count(*) FROM transfer_requests t WHERE t.tenant_id = ${tenantId} AND t.status = 'pending')::text
          AS transfer_requests,
        (SELECT count(*) FROM goods_issues g WHERE g.tenant_id = ${tenantId}
          AND g.status IN (${GIN_STATUS.pending}, ${GIN_STATUS.approveInProgress}))::text AS goods_issues,
        (SELECT count(*) FROM purchases p WHERE p.tenant_id = ${tenantId} AND p.status = 'pending approval')::text
          AS purchases`.execute(trx);
    const waiting = approvals.rows[0]!;
    const returned = returns.rows[0]!;
    return {
      unpaid_orders: Number(unpaid.rows[0]!.n),
      low_stock: {
        count: Number(low[0]?.total ?? 0),
        items: low.map(({ total: _total, available, ...item }) => ({
          ...item,
          available: Number(available),
        })),
      },
      returns: {
        count: Number(returned.count),
        units: Number(returned.units),
        refund_to_buyer: money(cents(returned.refund)),
        open: Number(returned.open),
      },
      approvals: {
        transfer_requests: Number(waiting.transfer_requests),
        goods_issues: Number(waiting.goods_issues),
        purchases: Number(waiting.purchases),
      },
    };
  });
}
