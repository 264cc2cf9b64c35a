import type {
  CountsQuery,
  ORDER_SORTS,
  OrderCounts,
  OrderListQuery,
  OrderListRow,
} from '@api/contracts/orders';
import { FILTER_STATUSES, ORDER_TABS, type OrderTab, TAB_STATUSES } from '@domain/orders/board';
import { ORDER_STATUSES, type OrderStatus, type ProcessFailure } from '@domain/orders/order';
import type { Database } from '@infra/db';
import { withTenant } from '@infra/db/tenant';
import { DEFAULT_LANGUAGE, type Language, translate } from '@infra/i18n';
import {
  allOf,
  dateWhere,
  literal,
  pageWindow,
  setWhere,
  sortTerms,
  textWhere,
} from '@projections/runtime/grid';
import { type Kysely, type RawBuilder, type SqlBool, sql, type Transaction } from 'kysely';
import { SCANNED_STATUSES } from './batches';
import type { OrderRow } from './orders';

/**
 * The order board's lists (ag-grid Infinite Row Model) from the read model of projections/orders.ts: a tab (spec
 * §2), a filter of spec §4, store, platform, payment, order and paid date ranges, search by the start of an order
 * or tracking number, column filters and sorts; newest paid first. The tab counts come from the counts the
 * projection keeps, and so does the row count of a list narrowed by tab, store and platform only; any other list
 * counts at most COUNT_CAP rows (beyond: -1, "more", until the last page shows where it ends).
 */

export const COUNT_CAP = 10_000;

// ---- conditions ----

function dayStart(text: string): Date {
  return new Date(text.length === 10 ? `${text}T00:00:00Z` : text);
}
/** The end of a range, exclusive: the day after a bare day, the instant itself otherwise. */
function dayEnd(text: string): Date {
  return text.length === 10 ? new Date(dayStart(text).getTime() + 86_400_000) : new Date(text);
}

const statusIn = (statuses: readonly OrderStatus[]) =>
  statuses.length === 1
    ? sql<SqlBool>`o.status = ${statuses[0]}`
    : sql<SqlBool>`o.status IN (${sql.join(statuses)})`;

/** Only the tab, store and platform narrow the list: its size is in the counts. */
const countedOnly = (query: OrderListQuery) =>
  !query.filter &&
  !query.payment &&
  !query.batch_id &&
  !query.ordered_from &&
  !query.ordered_to &&
  !query.paid_from &&
  !query.paid_to &&
  !query.search?.trim() &&
  Object.keys(query.filterModel).length === 0;

function whereOf(tenantId: string, query: OrderListQuery): RawBuilder<SqlBool> {
  const parts: RawBuilder<SqlBool>[] = [sql<SqlBool>`o.tenant_id = ${tenantId}`];
  parts.push(statusIn(TAB_STATUSES[query.tab]));
  if (query.store_id) parts.push(sql<SqlBool>`o.store_id = ${query.store_id}`);
  if (query.platform) parts.push(sql<SqlBool>`o.platform = ${query.platform}`);
  if (query.filter) {
    const statuses = FILTER_STATUSES[query.filter];
    if (statuses) parts.push(statusIn(statuses));
    if (query.filter === 'waiting_assign') parts.push(sql<SqlBool>`o.picker_id IS NULL`);
    else if (query.filter === 'process_failed') parts.push(sql<SqlBool>`o.process_failure IS NOT NULL`);
    else if (query.filter === 'replacement') parts.push(sql<SqlBool>`o.replacement_of IS NOT NULL`);
    else if (query.filter === 'out_of_stock') parts.push(sql<SqlBool>`o.out_of_stock`);
    else if (query.filter === 'item_not_found') parts.push(sql<SqlBool>`o.item_not_found`);
    else if (query.filter === 'pre_order') parts.push(sql<SqlBool>`o.pre_order`);
    else if (query.filter === 'on_hold') parts.push(sql<SqlBool>`o.on_hold`);
  }
  // Paid means paid: an order the buyer has not paid yet (no paid time, not COD) is unpaid, not "paid".
  if (query.payment === 'cod') parts.push(sql<SqlBool>`o.cod`);
  else if (query.payment === 'paid') parts.push(sql<SqlBool>`NOT o.cod AND o.paid_at IS NOT NULL`);
  else if (query.payment === 'unpaid') parts.push(sql<SqlBool>`NOT o.cod AND o.paid_at IS NULL`);
  if (query.batch_id) parts.push(sql<SqlBool>`o.batch_id = ${query.batch_id}`);
  if (query.ordered_from) parts.push(sql<SqlBool>`o.ordered_at >= ${dayStart(query.ordered_from)}`);
  if (query.ordered_to) parts.push(sql<SqlBool>`o.ordered_at < ${dayEnd(query.ordered_to)}`);
  if (query.paid_from) parts.push(sql<SqlBool>`o.paid_at >= ${dayStart(query.paid_from)}`);
  if (query.paid_to) parts.push(sql<SqlBool>`o.paid_at < ${dayEnd(query.paid_to)}`);
  const filters = query.filterModel;
  if (filters.order_number) parts.push(textWhere(sql`o.order_number`, filters.order_number));
  if (filters.tracking_number) {
    parts.push(textWhere(sql`coalesce(o.tracking_number, '')`, filters.tracking_number));
  }
  if (filters.buyer_name) parts.push(textWhere(sql`o.buyer_name`, filters.buyer_name));
  if (filters.status) parts.push(setWhere(sql`o.status`, filters.status.values));
  if (filters.ordered_at) parts.push(dateWhere(sql`o.ordered_at`, filters.ordered_at));
  if (filters.paid_at) parts.push(dateWhere(sql`o.paid_at`, filters.paid_at));
  const search = query.search?.trim();
  if (search) {
    // The start of an order number or a tracking number, as typed or in capitals (both are upper case as a rule).
    const patterns = [...new Set([search, search.toUpperCase()])].map((text) => `${literal(text)}%`);
    parts.push(
      sql<SqlBool>`(${sql.join(
        patterns.flatMap((pattern) => [
          sql`o.order_number LIKE ${pattern}`,
          sql`o.tracking_number LIKE ${pattern}`,
        ]),
        sql` OR `,
      )})`,
    );
  }
  return allOf(parts);
}

const SORT_COLUMNS: Record<(typeof ORDER_SORTS)[number], RawBuilder<unknown>> = {
  order_number: sql`o.order_number`,
  paid_at: sql`o.paid_at`,
  ordered_at: sql`o.ordered_at`,
  total_amount: sql`o.total_amount`,
  status: sql`o.status`,
  item_count: sql`o.item_count`,
  tracking_number: sql`o.tracking_number`,
  buyer_name: sql`o.buyer_name`,
  scanned_at: sql`o.scanned_at`,
  updated_at: sql`o.updated_at`,
};

/** A text id that is a uuid, as a uuid (else null): how a text column meets a uuid key without failing a cast. */
const asUuid = (column: string) =>
  sql.raw(
    `(CASE WHEN ${column} ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' THEN ${column}::uuid END)`,
  );

// ---- queries ----

/** A board row as the list reads it: the table's columns, the store's and the scanner's names. */
type Row = Omit<
  OrderRow,
  'tenant_id' | 'state' | 'stock_stage' | 'cancel_reason' | 'imported_at' | 'total_amount'
> & {
  total_amount: string;
  store_name: string | null;
  scanned_by_name: string | null;
  picker_name: string | null;
};
const iso = (value: Date | null) => (value ? value.toISOString() : null);

export const SELECT_ROW = sql`o.id, o.order_number, o.store_id, o.platform, o.status, o.marketplace_status,
  o.payment_method, o.cod, o.currency, o.total_amount::text AS total_amount, o.ordered_at, o.paid_at,
  o.tracking_number, o.shipping_provider, o.buyer_username, o.buyer_name, o.warehouse_id, o.batch_id, o.item_count,
  o.line_count, o.item_not_found, o.out_of_stock, o.pre_order, o.on_hold, o.printed, o.preview, o.split_from,
  o.scanned_at, o.scanned_by, o.shipped_at, o.cancelled_at, o.updated_at, o.replacement_of, o.picker_id,
  o.process_failure,
  (SELECT s.name FROM stores s WHERE s.tenant_id = o.tenant_id AND s.id = ${asUuid('o.store_id')}) AS store_name,
  (SELECT nullif(trim(u.first_name || ' ' || u.last_name), '') FROM users u
    WHERE u.id = ${asUuid('o.scanned_by')}) AS scanned_by_name,
  (SELECT nullif(trim(u.first_name || ' ' || u.last_name), '') FROM users u
    WHERE u.id = ${asUuid('o.picker_id')}) AS picker_name`;

/** A refused step as a reader sees it: the step, its result code and the refusal's message in their language. */
export function processFailureOf(failure: ProcessFailure | null | undefined, language: Language) {
  if (!failure) return null;
  return {
    step: failure.request.step,
    code: failure.code,
    reason: translate(language, failure.key, failure.params),
  };
}

export function toListRow(row: Row, language: Language = DEFAULT_LANGUAGE): OrderListRow {
  return {
    id: row.id,
    order_number: row.order_number,
    store_id: row.store_id,
    store_name: row.store_name,
    platform: row.platform,
    status: row.status as OrderStatus,
    marketplace_status: row.marketplace_status,
    payment_method: row.payment_method,
    cod: row.cod,
    currency: row.currency,
    total_amount: row.total_amount,
    ordered_at: row.ordered_at.toISOString(),
    paid_at: iso(row.paid_at),
    tracking_number: row.tracking_number,
    shipping_provider: row.shipping_provider,
    buyer_username: row.buyer_username,
    buyer_name: row.buyer_name,
    warehouse_id: row.warehouse_id,
    batch_id: row.batch_id,
    item_count: row.item_count,
    line_count: row.line_count,
    item_not_found: row.item_not_found,
    out_of_stock: row.out_of_stock,
    pre_order: row.pre_order,
    on_hold: row.on_hold,
    printed: row.printed as OrderListRow['printed'],
    preview: row.preview,
    split_from: row.split_from,
    scanned_at: iso(row.scanned_at),
    scanned_by: row.scanned_by ? { id: row.scanned_by, name: row.scanned_by_name } : null,
    shipped_at: iso(row.shipped_at),
    cancelled_at: iso(row.cancelled_at),
    updated_at: row.updated_at.toISOString(),
    replacement_of: row.replacement_of,
    picker: row.picker_id ? { id: row.picker_id, name: row.picker_name } : null,
    process_failure: processFailureOf(row.process_failure as unknown as ProcessFailure | null, language),
  };
}

async function countedTotal(
  trx: Transaction<Database>,
  tenantId: string,
  statuses: readonly OrderStatus[],
  narrow: { store_id?: string; platform?: string },
): Promise<number> {
  const { rows } = await sql<{ n: string | null }>`
    SELECT sum(orders) AS n FROM order_counts
    WHERE tenant_id = ${tenantId} AND status IN (${sql.join(statuses)})
      ${narrow.store_id ? sql`AND store_id = ${narrow.store_id}` : sql``}
      ${narrow.platform ? sql`AND platform = ${narrow.platform}` : sql``}`.execute(trx);
  return Number(rows[0]?.n ?? 0);
}

/** The page of a list, with its row count (exact, or -1 beyond COUNT_CAP until the end shows). */
export async function listOrders(
  db: Kysely<Database>,
  tenantId: string,
  query: OrderListQuery,
  language: Language = DEFAULT_LANGUAGE,
) {
  const where = whereOf(tenantId, query);
  const order = sql.join([
    ...sortTerms(query.sortModel, SORT_COLUMNS),
    sql`o.paid_at DESC NULLS LAST`,
    sql`o.id`,
  ]);
  const { limit, offset } = pageWindow(query);
  return withTenant(db, tenantId, async (trx) => {
    const page = await sql<Row>`
      SELECT ${SELECT_ROW} FROM orders o
      WHERE ${where}
      ORDER BY ${order}
      LIMIT ${limit} OFFSET ${offset}`.execute(trx);
    let lastRow: number;
    if (countedOnly(query)) {
      lastRow = await countedTotal(trx, tenantId, TAB_STATUSES[query.tab], query);
    } else if (page.rows.length < limit) {
      lastRow = offset + page.rows.length;
    } else {
      const { rows } = await sql<{ n: string }>`
        SELECT count(*) AS n FROM (SELECT 1 FROM orders o WHERE ${where} LIMIT ${COUNT_CAP + 1}) capped`.execute(
        trx,
      );
      const n = Number(rows[0]?.n ?? 0);
      lastRow = n > COUNT_CAP ? -1 : n;
    }
    return { lastRow, rows: page.rows.map((row) => toListRow(row, language)) };
  });
}

/** How many orders each tab and each status holds (of one store or platform, or all). */
export async function orderCounts(
  db: Kysely<Database>,
  tenantId: string,
  query: CountsQuery,
): Promise<OrderCounts> {
  const rows = await withTenant(db, tenantId, (trx) =>
    trx
      .selectFrom('order_counts')
      .select(['status', (eb) => eb.fn.sum<string>('orders').as('n')])
      .where('tenant_id', '=', tenantId)
      .$if(query.store_id !== undefined, (qb) => qb.where('store_id', '=', query.store_id!))
      .$if(query.platform !== undefined, (qb) => qb.where('platform', '=', query.platform!))
      .groupBy('status')
      .execute(),
  );
  const statuses = Object.fromEntries(ORDER_STATUSES.map((status) => [status, 0])) as Record<
    OrderStatus,
    number
  >;
  for (const row of rows) {
    if ((ORDER_STATUSES as readonly string[]).includes(row.status))
      statuses[row.status as OrderStatus] = Number(row.n);
  }
  const tabs = Object.fromEntries(
    ORDER_TABS.map((tab: OrderTab) => [
      tab,
      TAB_STATUSES[tab].reduce((sum, status) => sum + statuses[status], 0),
    ]),
  ) as Record<OrderTab, number>;
  return { tabs, statuses };
}

/** The stores the account has orders of, with their names (when connected) and how many orders. */
export async function orderStores(db: Kysely<Database>, tenantId: string) {
  const { rows } = await withTenant(db, tenantId, (trx) =>
    sql<{ store_id: string; platform: string; orders: string; name: string | null }>`
      SELECT c.store_id, min(c.platform) AS platform, sum(c.orders) AS orders,
        (SELECT s.name FROM stores s WHERE s.tenant_id = ${tenantId} AND s.id = ${asUuid('c.store_id')}) AS name
      FROM order_counts c WHERE c.tenant_id = ${tenantId}
      GROUP BY c.store_id HAVING sum(c.orders) > 0
      ORDER BY c.store_id`.execute(trx),
  );
  return rows.map((row) => ({
    store_id: row.store_id,
    name: row.name,
    platform: row.platform,
    orders: Number(row.orders),
  }));
}

/** Which of these orders are scanned (or past scanning) on the board. */
export async function scannedOrdersAmong(
  db: Kysely<Database>,
  tenantId: string,
  orderIds: readonly string[],
): Promise<string[]> {
  if (orderIds.length === 0) return [];
  const rows = await withTenant(db, tenantId, (trx) =>
    trx
      .selectFrom('orders')
      .select('id')
      .where('tenant_id', '=', tenantId)
      .where('id', 'in', [...orderIds])
      .where('status', 'in', [...SCANNED_STATUSES])
      .execute(),
  );
  return rows.map((row) => row.id);
}

/** Master codes to map an order line to: code, name or seller SKU containing the search, active first. */
export function masterCodeOptions(
  db: Kysely<Database>,
  tenantId: string,
  query: { search?: string | undefined; limit: number },
) {
  const search = query.search?.trim();
  const pattern = search ? `%${literal(search)}%` : undefined;
  return db
    .selectFrom('master_codes')
    .select(['id', 'code', 'name', 'type', 'seller_sku'])
    .where('tenant_id', '=', tenantId)
    .$if(pattern !== undefined, (qb) =>
      qb.where((eb) =>
        eb.or([
          eb('code', 'ilike', pattern!),
          eb('name', 'ilike', pattern!),
          eb('seller_sku', 'ilike', pattern!),
        ]),
      ),
    )
    .orderBy('status')
    .orderBy('code')
    .limit(query.limit)
    .execute();
}

/** The name of the account's store an order came from (null: not a connected store). */
export async function storeNameOf(
  db: Kysely<Database>,
  tenantId: string,
  storeId: string,
): Promise<string | null> {
  const { rows } = await sql<{ name: string }>`
    SELECT name FROM stores WHERE tenant_id = ${tenantId} AND id::text = ${storeId}`.execute(db);
  return rows[0]?.name ?? null;
}
