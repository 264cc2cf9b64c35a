import { performance } from 'node:perf_hooks';
import { ensurePackages } from '@commands/accounts/seed';
import type { ReportId } from '@domain/reports/catalogue';
import type { Database } from '@infra/db';
import { reportPage, reportTotals } from '@projections/reports/reports.queries';
import { type Kysely, sql } from 'kysely';
import { percentile, timed } from './load';

/**
 * `reportP95Ms` (issue 16, budget 200): the sales report and the top-SKU report over a year of 1,000,000 orders,
 * each opened for a random 30-day range as the console opens it — its first page of 100 rows and its totals row —
 * through the API's own functions (projections/reports/reports.queries.ts). Both read the daily sales tables
 * (projections/reports/sales-daily.ts), which are seeded here straight with SQL as 1,000,000 orders leave them:
 * 5 stores × 365 days, each day's orders spread over 300 of 2,000 SKUs.
 */

export const REPORTS_TENANT = 'bench-reports';
const STORES = 5;
const DAYS = 365;
const SKUS = 2_000;
const SKUS_PER_DAY = 300;
const FIRST_DAY = Date.UTC(2026, 0, 1);
const DAY_MS = 86_400_000;
const MEASURED: ReportId[] = ['sales', 'top-sku'];

export interface ReportsSeed {
  orders: number;
  dayRows: number;
  skuRows: number;
  seconds: number;
}

/** A year of daily sales for `orders` orders, written directly into the read models. */
export async function seedReports(db: Kysely<Database>, orders = 1_000_000): Promise<ReportsSeed> {
  const perDay = Math.max(1, Math.round(orders / (STORES * DAYS)));
  const { seconds } = await timed(async () => {
    await ensurePackages(db);
    await db
      .insertInto('tenants')
      .values({
        id: REPORTS_TENANT,
        name: REPORTS_TENANT,
        country: 'MY',
        package_id: 'growth',
        status: 'active',
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    await sql`
      INSERT INTO sales_daily (tenant_id, day, store_id, platform, warehouse_id, currency, orders, paid_orders,
        unpaid_orders, cancelled_orders, units, revenue, shipping, cancelled_amount, returned_units, returned_amount)
      SELECT ${REPORTS_TENANT}, to_char(date '2026-01-01' + d, 'YYYY-MM-DD'), 'store-' || s, 'shopee', 'WH-A', 'MYR',
        ${perDay}, ${perDay} - ${perDay} / 20, ${perDay} / 20, ${perDay} / 50, ${perDay} * 2, ${perDay} * 45.5,
        ${perDay} * 4.9, ${perDay} / 50 * 45.5, ${perDay} / 100, ${perDay} / 100 * 22.75
      FROM generate_series(0, ${DAYS - 1}) d, generate_series(1, ${STORES}) s`.execute(db);
    // Each store-day sells a different run of SKUs, so a 30-day range touches every one of them.
    await sql`
      INSERT INTO sku_sales_daily (tenant_id, day, store_id, platform, warehouse_id, currency, master_code_id,
        seller_sku, name, orders, units, revenue)
      SELECT ${REPORTS_TENANT}, to_char(date '2026-01-01' + d, 'YYYY-MM-DD'), 'store-' || s, 'shopee', 'WH-A', 'MYR',
        'mc-' || k, 'SKU-' || lpad(k::text, 5, '0'), 'Item ' || k,
        greatest(1, ${perDay} * 2 / ${SKUS_PER_DAY}), greatest(1, ${perDay} * 2 / ${SKUS_PER_DAY}) + (k % 3),
        (greatest(1, ${perDay} * 2 / ${SKUS_PER_DAY}) + (k % 3)) * (10 + k % 90)
      FROM generate_series(0, ${DAYS - 1}) d, generate_series(1, ${STORES}) s,
        LATERAL (SELECT ((d * 37 + s * 101 + i) % ${SKUS}) + 1 AS k FROM generate_series(1, ${SKUS_PER_DAY}) i) x`.execute(
      db,
    );
    await sql`ANALYZE sales_daily`.execute(db);
    await sql`ANALYZE sku_sales_daily`.execute(db);
  });
  const count = async (table: 'sales_daily' | 'sku_sales_daily') =>
    Number(
      (
        await sql<{
          n: string;
        }>`SELECT count(*) AS n FROM ${sql.table(table)} WHERE tenant_id = ${REPORTS_TENANT}`.execute(db)
      ).rows[0]!.n,
    );
  return {
    orders: perDay * STORES * DAYS,
    dayRows: await count('sales_daily'),
    skuRows: await count('sku_sales_daily'),
    seconds,
  };
}

export interface ReportsMeasurement {
  reportP95Ms: number;
  medianMs: number;
  maxMs: number;
  /** Reports opened (page and totals), half of each. */
  opens: number;
}

/** Opens the sales and top-SKU reports `opens` times in all, each for a random 30-day range of the seeded year. */
export async function measureReports(db: Kysely<Database>, opens = 200): Promise<ReportsMeasurement> {
  const times: number[] = [];
  for (let n = 0; n < opens; n++) {
    const report = MEASURED[n % MEASURED.length]!;
    const first = FIRST_DAY + Math.floor(Math.random() * (DAYS - 30)) * DAY_MS;
    // Local midnights (UTC+8) as the console sends them.
    const filters = {
      from: new Date(first - 8 * 3_600_000),
      to: new Date(first + 30 * DAY_MS - 8 * 3_600_000),
    };
    const started = performance.now();
    await Promise.all([
      reportPage(db, REPORTS_TENANT, report, { ...filters, startRow: 0, endRow: 100, sortModel: [] }),
      reportTotals(db, REPORTS_TENANT, report, filters),
    ]);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return {
    reportP95Ms: Math.round(percentile(times, 0.95) * 100) / 100,
    medianMs: Math.round(percentile(times, 0.5) * 100) / 100,
    maxMs: Math.round(times.at(-1)! * 100) / 100,
    opens,
  };
}
