import type {
  AsOfOrderRow,
  AsOfOrdersExportQuery,
  AsOfOrdersPage,
  AsOfOrdersQuery,
  AsOfStockExportQuery,
  AsOfStockPage,
  AsOfStockQuery,
  AsOfStockRow,
} from '@api/contracts/audit';
import { auditErrors } from '@domain/audit/codes';
import {
  evolve,
  initialState,
  OPEN,
  type OrderEvent,
  type OrderState,
  orderStreamId,
} from '@domain/orders/order';
import { refuser } from '@domain/shared/errors';
import type { Database } from '@infra/db';
import { withTenant } from '@infra/db/tenant';
import type { EventStore } from '@infra/eventstore/port';
import { type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import { placeNamed } from './inventory/reference';
import { literal, pageWindow } from './runtime/grid';

/**
 * Reports as of a past instant, read from the history the read models keep (no repost job):
 * - the stock balance: each stock's figures after its last movement at or before the instant (`stock_movements`
 *   carries every figure after each movement), one backward index lookup per stock the tenant has;
 * - the stock valuation: that balance × the master code's moving average cost at the instant
 *   (`average_cost_history`, kept by projections/average-cost.ts), again one lookup; stock below zero (oversold)
 *   is worth nothing rather than a negative value;
 * - the open orders: those imported by then and neither shipped nor cancelled then. An order untouched since the
 *   instant stands as the board has it; one changed since is folded from its stream up to the instant with the
 *   order's own `evolve`.
 */

const refuse = refuser(auditErrors);

const checkPast = (at: Date) => {
  if (at.getTime() > Date.now()) throw refuse('AS_OF_IN_FUTURE');
};

// ---- stock balance and valuation ----

interface StockRowSql {
  master_code_id: string;
  warehouse_id: string;
  code: string | null;
  name: string | null;
  warehouse_code: string | null;
  warehouse_name: string | null;
  on_hand: string;
  reserved: string;
  in_process: string;
  on_hold: string;
  pos_on_hold: string;
  supplier_on_hold: string;
  incoming: string;
  occurred_at: Date;
  average_cost: string;
  value: string;
}

/**
 * The stocks at `at` after the stock `after` in key order (an export's chunk): each stock's last movement and its
 * master code's last average found by one index lookup each, so a chunk costs its own rows only.
 */
function stockAtSql(tenantId: string, at: Date, warehouseId: string | undefined, after?: [string, string]) {
  return sql`
    SELECT l.master_code_id, l.warehouse_id, s.new_stock AS on_hand, s.reserved, s.in_process, s.on_hold,
      s.pos_on_hold, s.supplier_on_hold, s.incoming, s.occurred_at,
      coalesce(c.average_cost, 0) AS average_cost,
      round(greatest(s.new_stock, 0) * coalesce(c.average_cost, 0), 2) AS value,
      m.code, m.name, w.code AS warehouse_code, w.name AS warehouse_name
    FROM stock_levels l
    CROSS JOIN LATERAL (
      SELECT * FROM stock_movements s
      WHERE s.tenant_id = ${tenantId} AND s.master_code_id = l.master_code_id AND s.warehouse_id = l.warehouse_id
        AND s.occurred_at <= ${at}
      ORDER BY s.occurred_at DESC, s.revision DESC LIMIT 1
    ) s
    LEFT JOIN LATERAL (
      SELECT h.average_cost FROM average_cost_history h
      WHERE h.tenant_id = ${tenantId} AND h.master_code_id = l.master_code_id AND h.occurred_at <= ${at}
      ORDER BY h.occurred_at DESC, h.global_position DESC LIMIT 1
    ) c ON true
    LEFT JOIN master_codes m ON m.tenant_id = ${tenantId} AND m.id::text = l.master_code_id
    LEFT JOIN warehouses w ON w.tenant_id = ${tenantId} AND w.id::text = l.warehouse_id
    WHERE l.tenant_id = ${tenantId}
      ${warehouseId === undefined ? sql`` : sql`AND l.warehouse_id = ${warehouseId}`}
      ${after ? sql`AND (l.master_code_id, l.warehouse_id) > (${after[0]}, ${after[1]})` : sql``}`;
}

/**
 * Every stock at `at` in one pass for a page and its totals: the last movement of each stock and the last average
 * of each master code, each read in its index's order (DISTINCT ON, no sort), rather than a lookup per stock.
 */
function stockAtOnceSql(tenantId: string, at: Date, warehouseId: string | undefined) {
  return sql`
    WITH s AS (
      SELECT DISTINCT ON (s.master_code_id, s.warehouse_id) s.master_code_id, s.warehouse_id, s.new_stock AS on_hand,
        s.reserved, s.in_process, s.on_hold, s.pos_on_hold, s.supplier_on_hold, s.incoming, s.occurred_at
      FROM stock_movements s
      WHERE s.tenant_id = ${tenantId} AND s.occurred_at <= ${at}
        ${warehouseId === undefined ? sql`` : sql`AND s.warehouse_id = ${warehouseId}`}
      ORDER BY s.master_code_id DESC, s.warehouse_id DESC, s.occurred_at DESC, s.revision DESC
    ), c AS (
      SELECT DISTINCT ON (h.master_code_id) h.master_code_id, h.average_cost
      FROM average_cost_history h
      WHERE h.tenant_id = ${tenantId} AND h.occurred_at <= ${at}
      ORDER BY h.master_code_id, h.occurred_at DESC, h.global_position DESC
    )
    SELECT s.*, coalesce(c.average_cost, 0) AS average_cost,
      round(greatest(s.on_hand, 0) * coalesce(c.average_cost, 0), 2) AS value,
      m.code, m.name, w.code AS warehouse_code, w.name AS warehouse_name
    FROM s
    LEFT JOIN c ON c.master_code_id = s.master_code_id
    LEFT JOIN master_codes m ON m.tenant_id = ${tenantId} AND m.id::text = s.master_code_id
    LEFT JOIN warehouses w ON w.tenant_id = ${tenantId} AND w.id::text = s.warehouse_id`;
}

const searchWhere = (search: string | undefined): RawBuilder<SqlBool> => {
  const text = search?.trim();
  if (!text) return sql<SqlBool>`true`;
  const pattern = `%${literal(text)}%`;
  return sql<SqlBool>`(r.code ILIKE ${pattern} OR r.name ILIKE ${pattern})`;
};

const STOCK_SORT: Record<AsOfStockQuery['sortModel'][number]['colId'], RawBuilder<unknown>> = {
  code: sql`r.code`,
  name: sql`r.name`,
  warehouse: sql`r.warehouse_code`,
  on_hand: sql`r.on_hand`,
  available: sql`(r.on_hand - r.reserved - r.in_process - r.on_hold - r.pos_on_hold - r.supplier_on_hold)`,
  value: sql`r.value`,
};

function toStockRow(row: StockRowSql): AsOfStockRow {
  const figures = {
    on_hand: Number(row.on_hand),
    reserved: Number(row.reserved),
    in_process: Number(row.in_process),
    on_hold: Number(row.on_hold),
    pos_on_hold: Number(row.pos_on_hold),
    supplier_on_hold: Number(row.supplier_on_hold),
    incoming: Number(row.incoming),
  };
  return {
    id: `${row.master_code_id}@${row.warehouse_id}`,
    master_code: { id: row.master_code_id, code: row.code, name: row.name },
    warehouse: { id: row.warehouse_id, code: row.warehouse_code, name: row.warehouse_name },
    ...figures,
    available:
      figures.on_hand -
      figures.reserved -
      figures.in_process -
      figures.on_hold -
      figures.pos_on_hold -
      figures.supplier_on_hold,
    last_movement_at: row.occurred_at.toISOString(),
    average_cost: Number(row.average_cost).toFixed(4),
    value: Number(row.value).toFixed(2),
  };
}

/** The warehouse a query names, checked (another tenant's is missing: 404). */
async function placeOf(db: Kysely<Database>, tenantId: string, warehouseId: string | undefined) {
  if (warehouseId === undefined) return undefined;
  return (await withTenant(db, tenantId, (trx) => placeNamed(trx, tenantId, warehouseId))).id;
}

/** A page of the stock balance and valuation at `at`, with the totals over every row the query selects. */
export async function stockAsOfPage(
  db: Kysely<Database>,
  tenantId: string,
  query: AsOfStockQuery,
): Promise<AsOfStockPage> {
  checkPast(query.at);
  const warehouseId = await placeOf(db, tenantId, query.warehouse_id);
  const { limit, offset } = pageWindow(query);
  const sortModel =
    query.sortModel.length > 0 ? query.sortModel : [{ colId: 'code' as const, sort: 'asc' as const }];
  const order = sql.join([
    ...sortModel.map(
      ({ colId, sort }) => sql`${STOCK_SORT[colId]} ${sort === 'asc' ? sql`ASC` : sql`DESC`} NULLS LAST`,
    ),
    sql`r.master_code_id`,
    sql`r.warehouse_id`,
  ]);
  const all = sql`SELECT * FROM (${stockAtOnceSql(tenantId, query.at, warehouseId)}) r WHERE ${searchWhere(query.search)}`;
  const { rows, totals } = await withTenant(db, tenantId, async (trx) => {
    // The totals in the same statement as the page: one pass over the stocks.
    const page = await sql<StockRowSql & { stocks: string; total_on_hand: string; total_value: string }>`
      SELECT r.*, count(*) OVER () AS stocks, sum(greatest(r.on_hand, 0)) OVER () AS total_on_hand,
        sum(r.value) OVER () AS total_value
      FROM (${all}) r ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}`.execute(trx);
    const first = page.rows[0];
    if (first || offset === 0)
      return {
        rows: page.rows,
        totals: {
          stocks: first?.stocks ?? '0',
          on_hand: first?.total_on_hand ?? '0',
          value: first?.total_value ?? '0',
        },
      };
    const whole = await sql<{ stocks: string; on_hand: string | null; value: string | null }>`
      SELECT count(*) AS stocks, sum(greatest(r.on_hand, 0)) AS on_hand, sum(r.value) AS value FROM (${all}) r`.execute(
      trx,
    );
    const found = whole.rows[0]!;
    return {
      rows: [],
      totals: { stocks: found.stocks, on_hand: found.on_hand ?? '0', value: found.value ?? '0' },
    };
  });
  return {
    rows: rows.map(toStockRow),
    lastRow: Number(totals.stocks),
    at: query.at.toISOString(),
    totals: {
      stocks: Number(totals.stocks),
      on_hand: Number(totals.on_hand),
      value: Number(totals.value).toFixed(2),
    },
  };
}

const EXPORT_CHUNK = 2000;

/** Every row of the stock at `at` for a file, a chunk at a time in the stocks' key order. */
export async function stockAsOfRows(db: Kysely<Database>, tenantId: string, query: AsOfStockExportQuery) {
  checkPast(query.at);
  const warehouseId = await placeOf(db, tenantId, query.warehouse_id);
  async function* rows(): AsyncGenerator<AsOfStockRow> {
    let after: [string, string] | undefined;
    for (;;) {
      const key = after;
      const chunk = await withTenant(db, tenantId, async (trx) => {
        const found = await sql<StockRowSql>`
          SELECT * FROM (${stockAtSql(tenantId, query.at, warehouseId, key)}) r WHERE ${searchWhere(query.search)}
          ORDER BY r.master_code_id, r.warehouse_id LIMIT ${EXPORT_CHUNK}`.execute(trx);
        return found.rows;
      });
      for (const row of chunk) yield toStockRow(row);
      const last = chunk.at(-1);
      if (!last || chunk.length < EXPORT_CHUNK) return;
      after = [last.master_code_id, last.warehouse_id];
    }
  }
  return rows();
}

// ---- open orders ----

interface OrderRowSql {
  id: string;
  order_number: string;
  store_id: string;
  platform: string;
  status: string;
  ordered_at: Date;
  imported_at: Date;
  updated_at: Date;
  currency: string;
  total_amount: string;
  item_count: number;
}

const OPEN_STATUSES = [...OPEN];
/** Orders folded from their streams at once. */
const FOLDS_AT_ONCE = 8;

/** An order's status at `at`, folded from its stream with the order's own evolve. */
async function statusAt(store: EventStore, tenantId: string, orderId: string, at: Date): Promise<string> {
  let state: OrderState = initialState;
  for await (const event of store.readStream(orderStreamId(tenantId, orderId))) {
    if (Date.parse(event.metadata.occurredAt) > at.getTime()) break;
    state = evolve(state, event as unknown as OrderEvent);
  }
  return state.status;
}

/**
 * The orders open at `at`: the ids and statuses then of those changed since (folded), for the SQL that lists the
 * others straight from the board.
 */
async function changedSinceOpen(db: Kysely<Database>, store: EventStore, tenantId: string, at: Date) {
  const changed = await withTenant(db, tenantId, (trx) =>
    trx
      .selectFrom('orders')
      .select('id')
      .where('tenant_id', '=', tenantId)
      .where('imported_at', '<=', at)
      .where('updated_at', '>', at)
      .execute(),
  );
  const open = new Map<string, string>();
  for (let index = 0; index < changed.length; index += FOLDS_AT_ONCE) {
    const slice = changed.slice(index, index + FOLDS_AT_ONCE);
    const statuses = await Promise.all(slice.map((row) => statusAt(store, tenantId, row.id, at)));
    slice.forEach((row, i) => {
      if ((OPEN_STATUSES as string[]).includes(statuses[i]!)) open.set(row.id, statuses[i]!);
    });
  }
  return open;
}

const ORDER_SORT: Record<AsOfOrdersQuery['sortModel'][number]['colId'], RawBuilder<unknown>> = {
  order_number: sql`o.order_number`,
  ordered_at: sql`o.ordered_at`,
  status: sql`o.status`,
  total_amount: sql`o.total_amount`,
};

function openOrdersSql(tenantId: string, at: Date, folded: Map<string, string>, search: string | undefined) {
  const text = search?.trim();
  const matches = text ? sql`AND o.order_number ILIKE ${`%${literal(text)}%`}` : sql``;
  return sql`
    FROM orders o
    WHERE o.tenant_id = ${tenantId} AND o.imported_at <= ${at} ${matches}
      AND ((o.updated_at <= ${at} AND o.status = ANY(${OPEN_STATUSES}::text[])) OR o.id = ANY(${[...folded.keys()]}::text[]))`;
}

const toOrderRow =
  (folded: Map<string, string>) =>
  (row: OrderRowSql): AsOfOrderRow => ({
    id: row.id,
    order_number: row.order_number,
    store_id: row.store_id,
    platform: row.platform,
    status: folded.get(row.id) ?? row.status,
    status_now: row.status,
    ordered_at: row.ordered_at.toISOString(),
    imported_at: row.imported_at.toISOString(),
    currency: row.currency,
    total_amount: row.total_amount,
    item_count: row.item_count,
  });

const ORDER_COLUMNS = sql`o.id, o.order_number, o.store_id, o.platform, o.status, o.ordered_at, o.imported_at,
  o.updated_at, o.currency, o.total_amount, o.item_count`;

/** A page of the orders open at `at`. */
export async function openOrdersAsOf(
  deps: { db: Kysely<Database>; store: EventStore },
  tenantId: string,
  query: AsOfOrdersQuery,
): Promise<AsOfOrdersPage> {
  checkPast(query.at);
  const folded = await changedSinceOpen(deps.db, deps.store, tenantId, query.at);
  const { limit, offset } = pageWindow(query);
  const sortModel =
    query.sortModel.length > 0 ? query.sortModel : [{ colId: 'ordered_at' as const, sort: 'asc' as const }];
  const order = sql.join([
    ...sortModel.map(({ colId, sort }) => sql`${ORDER_SORT[colId]} ${sort === 'asc' ? sql`ASC` : sql`DESC`}`),
    sql`o.id`,
  ]);
  const from = openOrdersSql(tenantId, query.at, folded, query.search);
  const { rows, count } = await withTenant(deps.db, tenantId, async (trx) => {
    const page = await sql<OrderRowSql>`
      SELECT ${ORDER_COLUMNS} ${from} ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}`.execute(trx);
    const total = await sql<{ n: string }>`SELECT count(*) AS n ${from}`.execute(trx);
    return { rows: page.rows, count: Number(total.rows[0]?.n ?? 0) };
  });
  return { rows: rows.map(toOrderRow(folded)), lastRow: count, at: query.at.toISOString() };
}

/** Every order open at `at`, for a file, a chunk at a time in id order. */
export async function openOrdersAsOfRows(
  deps: { db: Kysely<Database>; store: EventStore },
  tenantId: string,
  query: AsOfOrdersExportQuery,
) {
  checkPast(query.at);
  const folded = await changedSinceOpen(deps.db, deps.store, tenantId, query.at);
  const from = openOrdersSql(tenantId, query.at, folded, query.search);
  async function* rows(): AsyncGenerator<AsOfOrderRow> {
    let after: string | undefined;
    for (;;) {
      const key = after;
      const chunk = await withTenant(deps.db, tenantId, async (trx) => {
        const found = await sql<OrderRowSql>`
          SELECT ${ORDER_COLUMNS} ${from} ${key === undefined ? sql`` : sql`AND o.id > ${key}`}
          ORDER BY o.id LIMIT ${EXPORT_CHUNK}`.execute(trx);
        return found.rows;
      });
      for (const row of chunk) yield toOrderRow(folded)(row);
      const last = chunk.at(-1);
      if (!last || chunk.length < EXPORT_CHUNK) return;
      after = last.id;
    }
  }
  return rows();
}
