import type { ErrorTable } from '../shared/errors';

/**
 * The reports of `/reports/` (shell.md §2: sales, gross profit, unpaid and paid orders, top SKU, fees, postage fee,
 * refund, return reconciliation, transaction, subsidy, forecasting, statements, order count, fulfilment performance,
 * packer and wave throughput, and the stock ones): for each, its group on the index, its columns (a column's kind says
 * how it is shown and whether the totals row sums it), which of the date range, store and warehouse filters apply,
 * its default order, and what it cannot show yet because Kedai does not have the data (`missing`, a note shown with
 * it). The SQL of each is in projections/reports/reports.queries.ts; the console and the API read this list.
 */

export const REPORT_GROUPS = ['sales', 'orders', 'fulfilment', 'stock'] as const;
export type ReportGroup = (typeof REPORT_GROUPS)[number];

/** text; count (a whole number, summed); money (summed); quantity (summed); ratio and hours (averages, never summed). */
export const COLUMN_KINDS = ['text', 'day', 'instant', 'count', 'money', 'ratio', 'hours'] as const;
export type ColumnKind = (typeof COLUMN_KINDS)[number];

/** Data a report needs that Kedai does not import yet; each names a note in the reader's language. */
export const MISSING_DATA = ['pos_sales', 'marketplace_fees', 'subsidies', 'statements'] as const;
export type MissingData = (typeof MISSING_DATA)[number];

export interface ReportColumn {
  readonly id: string;
  readonly kind: ColumnKind;
}

export interface ReportDefinition {
  readonly id: string;
  readonly group: ReportGroup;
  readonly columns: readonly ReportColumn[];
  /** Which filters the report takes; the date range always. */
  readonly filters: { readonly store: boolean; readonly warehouse: boolean };
  readonly sort: { readonly colId: string; readonly sort: 'asc' | 'desc' };
  readonly missing: readonly MissingData[];
}

const column = (id: string, kind: ColumnKind): ReportColumn => ({ id, kind });
const text = (id: string) => column(id, 'text');
const count = (id: string) => column(id, 'count');
const money = (id: string) => column(id, 'money');

const BOTH = { store: true, warehouse: true } as const;
const STORE = { store: true, warehouse: false } as const;
const WAREHOUSE = { store: false, warehouse: true } as const;

const report = <const Id extends string>(
  id: Id,
  group: ReportGroup,
  columns: ReportColumn[],
  filters: ReportDefinition['filters'],
  sort: ReportDefinition['sort'],
  missing: MissingData[] = [],
): ReportDefinition & { readonly id: Id } => ({ id, group, columns, filters, sort, missing });

const newestDay = { colId: 'day', sort: 'desc' } as const;

export const REPORTS = [
  // ---- sales ----
  report(
    'sales',
    'sales',
    [
      column('day', 'day'),
      text('store'),
      count('orders'),
      count('paid_orders'),
      count('items'),
      money('revenue'),
      money('shipping_fee'),
      count('cancelled_orders'),
      money('returned_amount'),
    ],
    BOTH,
    newestDay,
    ['pos_sales'],
  ),
  report(
    'gross-profit',
    'sales',
    [
      column('day', 'day'),
      text('store'),
      count('orders'),
      money('revenue'),
      money('cost_of_sales'),
      money('gross_profit'),
      column('margin', 'ratio'),
    ],
    BOTH,
    newestDay,
    ['pos_sales'],
  ),
  report(
    'top-sku',
    'sales',
    [text('seller_sku'), text('name'), count('quantity'), money('revenue'), count('orders')],
    BOTH,
    { colId: 'revenue', sort: 'desc' },
    ['pos_sales'],
  ),
  report(
    'fees',
    'sales',
    [
      column('paid_at', 'instant'),
      text('order_number'),
      text('store'),
      money('total_amount'),
      money('shipping_fee'),
    ],
    BOTH,
    { colId: 'paid_at', sort: 'desc' },
    ['marketplace_fees'],
  ),
  report(
    'postage-fee',
    'sales',
    [column('day', 'day'), text('shipping_provider'), count('orders'), money('shipping_fee')],
    BOTH,
    newestDay,
  ),
  report(
    'refund',
    'sales',
    [
      column('recorded_at', 'instant'),
      text('order_number'),
      text('store'),
      text('action'),
      count('quantity'),
      money('refund_to_buyer'),
      money('reversal_item_price'),
    ],
    BOTH,
    { colId: 'recorded_at', sort: 'desc' },
  ),
  report(
    'transaction',
    'sales',
    [
      column('paid_at', 'instant'),
      text('order_number'),
      text('store'),
      text('payment_method'),
      text('cod'),
      money('amount'),
    ],
    BOTH,
    { colId: 'paid_at', sort: 'desc' },
    ['pos_sales'],
  ),
  report(
    'subsidy',
    'sales',
    [column('day', 'day'), text('store'), count('orders'), money('revenue')],
    STORE,
    newestDay,
    ['subsidies'],
  ),
  report(
    'statements',
    'sales',
    [
      text('month'),
      text('store'),
      count('orders'),
      money('revenue'),
      money('shipping_fee'),
      money('refunds'),
    ],
    STORE,
    { colId: 'month', sort: 'desc' },
    ['statements', 'marketplace_fees'],
  ),
  report(
    'forecasting',
    'sales',
    [
      text('master_code'),
      text('name'),
      count('sold'),
      column('per_day', 'ratio'),
      count('on_hand'),
      column('days_of_cover', 'ratio'),
    ],
    WAREHOUSE,
    { colId: 'per_day', sort: 'desc' },
  ),
  // ---- orders ----
  report(
    'unpaid-orders',
    'orders',
    [
      column('ordered_at', 'instant'),
      text('order_number'),
      text('store'),
      text('status'),
      money('total_amount'),
    ],
    BOTH,
    { colId: 'ordered_at', sort: 'desc' },
  ),
  report(
    'paid-orders',
    'orders',
    [
      column('paid_at', 'instant'),
      text('order_number'),
      text('store'),
      text('status'),
      count('items'),
      money('total_amount'),
    ],
    BOTH,
    { colId: 'paid_at', sort: 'desc' },
  ),
  report(
    'order-count',
    'orders',
    [
      column('day', 'day'),
      text('store'),
      count('orders'),
      count('paid'),
      count('cancelled'),
      count('shipped'),
      count('returned'),
    ],
    BOTH,
    newestDay,
  ),
  report(
    'return-reconciliation',
    'orders',
    [
      column('recorded_at', 'instant'),
      text('order_number'),
      text('store'),
      count('returned'),
      money('returned_value'),
      money('refund_to_buyer'),
      count('restocked'),
      count('not_restocked'),
      text('completed'),
    ],
    BOTH,
    { colId: 'recorded_at', sort: 'desc' },
  ),
  // ---- fulfilment ----
  report(
    'fulfillment-performance',
    'fulfilment',
    [
      column('day', 'day'),
      text('warehouse'),
      count('paid'),
      count('scanned'),
      count('shipped'),
      column('paid_to_scanned', 'hours'),
      column('scanned_to_shipped', 'hours'),
      column('paid_to_shipped', 'hours'),
    ],
    BOTH,
    newestDay,
  ),
  report(
    'packer-throughput',
    'fulfilment',
    [text('packer'), count('orders'), count('hours'), column('orders_per_hour', 'ratio')],
    BOTH,
    { colId: 'orders', sort: 'desc' },
  ),
  report(
    'wave-throughput',
    'fulfilment',
    [
      text('wave'),
      count('orders'),
      column('first_scan', 'instant'),
      column('last_scan', 'instant'),
      column('duration', 'hours'),
      column('orders_per_hour', 'ratio'),
    ],
    BOTH,
    { colId: 'first_scan', sort: 'desc' },
  ),
  // ---- stock ----
  report(
    'average-cost',
    'stock',
    [text('master_code'), text('name'), count('on_hand'), money('average_cost'), money('value')],
    { store: false, warehouse: false },
    { colId: 'value', sort: 'desc' },
  ),
  report(
    'daily-stock',
    'stock',
    [
      column('day', 'day'),
      text('master_code'),
      text('warehouse'),
      count('stock_in'),
      count('stock_out'),
      count('closing_stock'),
    ],
    WAREHOUSE,
    newestDay,
  ),
  report(
    'stock-balance-history',
    'stock',
    [
      text('master_code'),
      text('name'),
      text('warehouse'),
      count('opening_stock'),
      count('stock_in'),
      count('stock_out'),
      count('closing_stock'),
    ],
    WAREHOUSE,
    { colId: 'closing_stock', sort: 'desc' },
  ),
  report(
    'dead-stock',
    'stock',
    [text('master_code'), text('name'), text('warehouse'), count('on_hand'), column('last_out', 'instant')],
    WAREHOUSE,
    { colId: 'on_hand', sort: 'desc' },
  ),
] as const satisfies readonly ReportDefinition[];

export type ReportId = (typeof REPORTS)[number]['id'];
export const REPORT_IDS = REPORTS.map((r) => r.id) as [ReportId, ...ReportId[]];

export const reportOf = (id: ReportId): ReportDefinition => REPORTS.find((r) => r.id === id)!;

/** The columns the totals row sums (counts and money; ratios and durations are not sums). */
export const summed = (definition: ReportDefinition) =>
  definition.columns.filter((c) => c.kind === 'count' || c.kind === 'money').map((c) => c.id);

// ---- refusals (result codes 800–819) ----

export const ReportCode = {
  /** "Report cannot be exported": the report has no rows for the filters. */
  exportEmpty: 800,
  /** "Report cannot be exported": more rows than an export holds. */
  exportTooLarge: 801,
  /** The period's start is after its end. */
  rangeInvalid: 802,
  /** An unknown store or warehouse id, or a malformed date. */
  filterInvalid: 803,
  /** The export's format is not csv or xlsx. */
  formatInvalid: 804,
  /** No such report. */
  notFound: 805,
} as const;

export const EXPORT_FORMATS_OF_REPORTS = ['csv', 'xlsx'] as const;

/** The most rows one export writes; past it the export is refused (the message names it). */
export const EXPORT_ROW_CAP = 1_000_000;

export const REPORT_ERRORS = ['EXPORT_EMPTY', 'EXPORT_TOO_LARGE', 'RANGE_INVALID'] as const;
export type ReportErrorCode = (typeof REPORT_ERRORS)[number];

export const reportErrors = {
  EXPORT_EMPTY: { status: 400, code: ReportCode.exportEmpty, key: 'reports.export_empty' },
  EXPORT_TOO_LARGE: { status: 400, code: ReportCode.exportTooLarge, key: 'reports.export_too_large' },
  RANGE_INVALID: { status: 400, code: ReportCode.rangeInvalid, key: 'reports.range_invalid' },
} as const satisfies ErrorTable<ReportErrorCode>;
