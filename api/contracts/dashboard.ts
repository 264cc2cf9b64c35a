import { z } from 'zod';
import { rule } from './rules';

/**
 * The sales dashboard (api/dashboard/; the console's web/src/api/dashboard.ts by z.infer), spec shell.md "Sales
 * dashboard": the periods and their comparisons, sales over time against the period before, by marketplace, the
 * product ranking, and what waits for the seller (unpaid orders, low stock, returns, documents to approve). Zod only.
 * Days are the seller's local calendar days, `yyyy-mm-dd`; amounts are decimal text in the figures' currency.
 */

/** The dashboard's result codes (880–889). */
export const DashboardCode = {
  filterInvalid: 880,
} as const;

/** The figures' periods: today and the day before, weeks (from Monday), months, and rolling 7 and 30 days. */
export const DASHBOARD_PERIODS = [
  'today',
  'yesterday',
  'this_week',
  'last_week',
  'this_month',
  'last_month',
  'last_7_days',
  'previous_7_days',
  'last_30_days',
  'previous_30_days',
] as const;
export type DashboardPeriod = (typeof DASHBOARD_PERIODS)[number];

/** The periods the chart and the ranking may show, each drawn against the one before it. */
export const TREND_PERIODS = ['last_7_days', 'last_30_days', 'this_week', 'this_month'] as const;
export type TrendPeriod = (typeof TREND_PERIODS)[number];

const filterInvalid = (field: string) =>
  rule(DashboardCode.filterInvalid, 'dashboard.filter_invalid', { field });

/** Which sales: the chart's period, and one store or one marketplace (all when absent). */
export const DashboardQuery = z.object({
  period: z.enum(TREND_PERIODS, { error: filterInvalid('period') }).default('last_7_days'),
  store_id: z
    .string({ error: filterInvalid('store_id') })
    .min(1, filterInvalid('store_id'))
    .max(100, filterInvalid('store_id'))
    .optional(),
  platform: z
    .string({ error: filterInvalid('platform') })
    .min(1, filterInvalid('platform'))
    .max(50, filterInvalid('platform'))
    .optional(),
  currency: z
    .string({ error: filterInvalid('currency') })
    .regex(/^[A-Z]{3}$/, filterInvalid('currency'))
    .optional(),
});
export type DashboardQuery = z.infer<typeof DashboardQuery>;

const Count = z.number().int();
const Amount = z.string();

/** A span's sales (projections/reports/sales-daily.ts says what each counts). */
export const SalesFigures = z.object({
  orders: Count,
  paid_orders: Count,
  unpaid_orders: Count,
  cancelled_orders: Count,
  units: Count,
  revenue: Amount,
  shipping: Amount,
  cancelled_amount: Amount,
  returned_units: Count,
  returned_amount: Amount,
});
export type SalesFigures = z.infer<typeof SalesFigures>;

export const PeriodFigures = SalesFigures.extend({
  period: z.enum(DASHBOARD_PERIODS),
  from: z.string(),
  to: z.string(),
});
export type PeriodFigures = z.infer<typeof PeriodFigures>;

/** One day of the chart, beside the day at the same place in the period before. */
export const TrendDay = z.object({
  day: z.string(),
  previous_day: z.string().nullable(),
  revenue: Amount,
  orders: Count,
  previous_revenue: Amount,
  previous_orders: Count,
  /** Revenue per marketplace (platform) that sold that day. */
  by_platform: z.record(z.string(), Amount),
});
export type TrendDay = z.infer<typeof TrendDay>;

/** A product of the ranking: a master code, or a seller SKU that maps to none. */
export const RankedProduct = z.object({
  master_code_id: z.string().nullable(),
  code: z.string().nullable(),
  name: z.string(),
  seller_sku: z.string(),
  orders: Count,
  units: Count,
  revenue: Amount,
});
export type RankedProduct = z.infer<typeof RankedProduct>;

export const SalesDashboard = z.object({
  /** The seller's today, in `timezone`. */
  today: z.string(),
  timezone: z.string(),
  /** The currency of every amount; `currencies` are those the account sold in over the last two months. */
  currency: z.string(),
  currencies: z.array(z.string()),
  periods: z.array(PeriodFigures),
  trend: z.object({
    period: z.enum(TREND_PERIODS),
    from: z.string(),
    to: z.string(),
    previous_from: z.string(),
    previous_to: z.string(),
    platforms: z.array(z.string()),
    days: z.array(TrendDay),
  }),
  ranking: z.object({ by_revenue: z.array(RankedProduct), by_units: z.array(RankedProduct) }),
  /** The account's stores, for the filter. */
  stores: z.array(z.object({ id: z.string(), name: z.string(), platform: z.string() })),
});
export type SalesDashboard = z.infer<typeof SalesDashboard>;

export const LowStockItem = z.object({
  master_code_id: z.string(),
  code: z.string(),
  name: z.string(),
  warehouse_id: z.string(),
  warehouse_name: z.string(),
  available: Count,
  soft_threshold: Count,
});
export type LowStockItem = z.infer<typeof LowStockItem>;

/** What waits for the seller now. */
export const DashboardTasks = z.object({
  unpaid_orders: Count,
  /** Active master codes whose available stock in a warehouse is at or below their soft threshold. */
  low_stock: z.object({ count: Count, items: z.array(LowStockItem) }),
  /** Returns recorded over the last 30 days: how many, their units, the refunds, and those not completed yet. */
  returns: z.object({ count: Count, units: Count, refund_to_buyer: Amount, open: Count }),
  /** Documents waiting for approval. */
  approvals: z.object({ transfer_requests: Count, goods_issues: Count, purchases: Count }),
});
export type DashboardTasks = z.infer<typeof DashboardTasks>;
