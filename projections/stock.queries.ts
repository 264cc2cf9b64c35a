import {
  type AtQuery,
  type ExportQuery,
  type FigureAnswer,
  type HistoryQuery,
  type MovementQuery,
  type MovementRow,
  OWN_FIGURES,
  type OwnFigure,
  type SeriesQuery,
  type StockFiguresAnswer,
  type StockHistory,
  type StockListQuery,
  type StockRow,
  type StockSeries,
  type StockSort,
} from '@api/contracts/inventory-stock';
import { readMovementReason } from '@domain/inventory/movement-reasons';
import { available, initialState, type StockEventType, stockReportErrors } from '@domain/inventory/stock';
import { refuser } from '@domain/shared/errors';
import type { Database } from '@infra/db';
import { withTenant } from '@infra/db/tenant';
import { type Language, translate } from '@infra/i18n';
import { type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import { masterCodeNamed, placeNamed, type StockTarget, stockTarget } from './inventory/reference';
import { knownPlaces } from './inventory/warehouses';
import { allOf, literal, pageWindow, setWhere, textWhere } from './runtime/grid';
import { movementsUntil, type StockMovement, stockAt } from './stock';

/**
 * The stock reports' queries (GET /api/inventory/stock…): the stock list per master code per warehouse with combos
 * derived from their components, the movement report and its export rows, and one stock at a past instant, the
 * movements that led to it, and its series for a chart. All read the stock read models (./stock.ts) inside
 * `withTenant`, joined with the master codes, warehouses and users they name, and answer the contract's rows.
 */

const refuse = refuser(stockReportErrors);

const UUID_PATTERN = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';
const isUuid = (id: string) => new RegExp(UUID_PATTERN, 'i').test(id);

/** A text id as a uuid, or null when it is not one (streams name master codes and warehouses by text). */
const uuidOf = (column: RawBuilder<string>) =>
  sql`(CASE WHEN ${column} ~ ${sql.lit(UUID_PATTERN)} THEN ${column}::uuid END)`;

/**
 * The number a seller knows a movement's source document by (s.source_type, s.source_id): the note's, order's or
 * transfer's number, the master code's code, or the seller's own reference or file name; null when the document is
 * gone. The ledger shows it instead of the internal id.
 */
const sourceNumber = (tenantId: string) => sql<string | null>`CASE s.source_type
    WHEN 'grn' THEN (SELECT d.grn_number FROM goods_receipts d WHERE d.tenant_id = ${tenantId} AND d.id = s.source_id)
    WHEN 'purchase' THEN (SELECT d.po_number FROM purchases d WHERE d.tenant_id = ${tenantId} AND d.id = s.source_id)
    WHEN 'gin' THEN (SELECT d.reference FROM goods_issues d WHERE d.tenant_id = ${tenantId} AND d.id = s.source_id)
    WHEN 'order' THEN (SELECT d.order_number FROM orders d WHERE d.tenant_id = ${tenantId} AND d.id = s.source_id)
    WHEN 'order_return' THEN
      (SELECT d.order_number FROM order_returns d WHERE d.tenant_id = ${tenantId} AND d.id = s.source_id)
    WHEN 'transfer' THEN
      (SELECT d.reference FROM transfers d WHERE d.tenant_id = ${tenantId} AND d.id = ${uuidOf(sql`s.source_id`)})
    WHEN 'master_code' THEN
      (SELECT d.code FROM master_codes d WHERE d.tenant_id = ${tenantId} AND d.id = ${uuidOf(sql`s.source_id`)})
    WHEN 'reference' THEN s.source_id
    WHEN 'file' THEN s.source_id
  END`;

const sourceAnswer = (type: string | null, id: string | null, number: string | null) =>
  type !== null && id !== null ? { type, id, number } : null;

// ---- the stock list ----

const stockTextColumns = {
  code: sql<string>`m.code`,
  name: sql<string>`m.name`,
  seller_sku: sql<string>`m.seller_sku`,
  warehouse: sql<string>`w.code`,
} as const;

/** The list's filters and search; each names the master code or the warehouse, so any of them needs the joins. */
function stockConditions(query: StockListQuery): RawBuilder<SqlBool>[] {
  const where: RawBuilder<SqlBool>[] = [];
  const { filterModel } = query;
  for (const column of Object.keys(stockTextColumns) as (keyof typeof stockTextColumns)[]) {
    const filter = filterModel[column];
    if (filter) where.push(textWhere(stockTextColumns[column], filter));
  }
  if (filterModel.type) where.push(setWhere(sql`m.type`, filterModel.type.values));
  if (filterModel.status) where.push(setWhere(sql`m.status`, filterModel.status.values));
  const search = query.search?.trim();
  if (search) {
    const pattern = `%${literal(search)}%`;
    where.push(
      sql<SqlBool>`(m.code ILIKE ${pattern} OR m.name ILIKE ${pattern} OR m.seller_sku ILIKE ${pattern})`,
    );
  }
  return where;
}

type StockListRow = Record<OwnFigure, string | null> & {
  master_code_id: string;
  warehouse_id: string;
  available: string;
  last_movement_at: Date | null;
  code: string;
  name: string;
  seller_sku: string;
  type: 'standard' | 'combo';
  status: 'active' | 'inactive';
  soft_threshold: number;
  warehouse_code: string;
  warehouse_name: string;
  warehouse_kind: 'warehouse' | 'branch';
};

const figureOrNull = (value: string | null) => (value === null ? null : Number(value));

/**
 * Available as a percent of on hand to one decimal, half away from zero, in integers (no floating-point drift);
 * null when there is nothing on hand to be a percent of.
 */
export function availablePercent(onHand: number | null, available: number): number | null {
  if (onHand === null || onHand <= 0) return null;
  const tenths = Math.floor((Math.abs(available) * 2000 + onHand) / (2 * onHand));
  return (Math.sign(available) * tenths) / 10 || 0;
}

const toStockRow = (row: StockListRow): StockRow => {
  const available = Number(row.available);
  const onHand = figureOrNull(row.on_hand);
  return {
    key: `${row.master_code_id}@${row.warehouse_id}`,
    master_code_id: row.master_code_id,
    code: row.code,
    name: row.name,
    seller_sku: row.seller_sku,
    type: row.type,
    status: row.status,
    soft_threshold: row.soft_threshold,
    warehouse_id: row.warehouse_id,
    warehouse_code: row.warehouse_code,
    warehouse_name: row.warehouse_name,
    warehouse_kind: row.warehouse_kind,
    on_hand: onHand,
    reserved: figureOrNull(row.reserved),
    in_process: figureOrNull(row.in_process),
    on_hold: figureOrNull(row.on_hold),
    pos_on_hold: figureOrNull(row.pos_on_hold),
    supplier_on_hold: figureOrNull(row.supplier_on_hold),
    incoming: figureOrNull(row.incoming),
    available,
    available_percent: availablePercent(onHand, available),
    negative: available < 0,
    low: row.soft_threshold > 0 && available <= row.soft_threshold,
    last_movement_at: row.last_movement_at?.toISOString() ?? null,
  };
};

/** The stock's own figures: a list sorted by them alone is cut from the levels before any join. */
const LEVEL_SORTS = [...OWN_FIGURES, 'available', 'available_percent', 'last_movement_at'] as const;
type LevelSort = (typeof LEVEL_SORTS)[number];
const isLevelSort = (column: StockSort): column is LevelSort =>
  (LEVEL_SORTS as readonly string[]).includes(column);

/**
 * Available as a share of on hand, for sorting: the exact ratio (what the row shows is it rounded to a tenth of a
 * percent); null when on hand ≤ 0 or for a combo.
 */
const percentOf = (alias: string) =>
  sql`(CASE WHEN ${sql.ref(`${alias}.on_hand`)} > 0 THEN ${sql.ref(`${alias}.available`)}::numeric / ${sql.ref(`${alias}.on_hand`)} END)`;

const figureSorts = (alias: string) =>
  Object.fromEntries(
    [...OWN_FIGURES, 'available', 'last_movement_at'].map((column) => [
      column,
      sql.ref(`${alias}.${column}`),
    ]),
  ) as Record<OwnFigure | 'available' | 'last_movement_at', RawBuilder<unknown>>;

/** Sort expressions inside a branch (`alias` names its level or combo rows, next to `m` and `w`). */
const innerSort = (alias: string): Record<StockSort, RawBuilder<unknown>> => ({
  code: sql`lower(m.code)`,
  name: sql`lower(m.name)`,
  seller_sku: sql`lower(m.seller_sku)`,
  warehouse: sql`lower(w.code)`,
  type: sql`m.type`,
  status: sql`m.status`,
  ...figureSorts(alias),
  available_percent: percentOf(alias),
});

/** The same expressions over the branches' output (`s`). */
const outerSort: Record<StockSort, RawBuilder<unknown>> = {
  code: sql`lower(s.code)`,
  name: sql`lower(s.name)`,
  seller_sku: sql`lower(s.seller_sku)`,
  warehouse: sql`lower(s.warehouse_code)`,
  type: sql`s.type`,
  status: sql`s.status`,
  ...figureSorts('s'),
  available_percent: percentOf('s'),
};

/** Beyond this many rows the list's lastRow stays unknown (-1) until its last page comes back short. */
export const STOCK_COUNT_CAP = 10_000;

type SortModel = { colId: StockSort; sort: 'asc' | 'desc' }[];
const direction = (sort: 'asc' | 'desc') => (sort === 'asc' ? sql`ASC` : sql`DESC`);

/**
 * ORDER BY: the sort model, then the stock's key (`alias`) in the first sort's direction. With `nulls`, combos (no
 * figures of their own but available) sort after every level; a levels-only branch leaves the null order of its
 * columns (never null there) alone, so that a backward index scan serves a descending sort. The percent is null
 * for a level with nothing on hand too: it sorts last everywhere, so that each branch is cut in the page's order.
 */
function orderBy(
  alias: string,
  sortModel: SortModel,
  terms: Record<StockSort, RawBuilder<unknown>>,
  nulls: boolean,
) {
  const tie = direction(sortModel[0]!.sort);
  const parts = sortModel.map(({ colId, sort }) =>
    (nulls && colId !== 'available') || colId === 'available_percent'
      ? sql`${terms[colId]} ${direction(sort)} NULLS LAST`
      : sql`${terms[colId]} ${direction(sort)}`,
  );
  return sql`ORDER BY ${sql.join(parts)}, ${sql.ref(`${alias}.master_code_id`)} ${tie}, ${sql.ref(`${alias}.warehouse_id`)} ${tie}`;
}

/** Which stock the list covers: the tenant, its places asked for (one, or all it has), and the oversold only. */
interface Scope {
  tenantId: string;
  placeIds: string[];
  negativeOnly: boolean;
}

const LEVEL_COLUMNS = ['master_code_id', 'warehouse_id', ...OWN_FIGURES, 'available', 'last_movement_at'];
const levelColumns = (alias: string) =>
  sql.join(LEVEL_COLUMNS.map((column) => sql.ref(`${alias}.${column}`)));
const nameColumns = sql`m.code, m.name, m.seller_sku, m.type, m.status, m.soft_threshold,
  w.code AS warehouse_code, w.name AS warehouse_name, w.kind AS warehouse_kind`;

/** The stock levels in scope: standard master codes whose stock has moved in a place (driven by their indexes). */
const levelsWhere = (scope: Scope) => sql`
  l.tenant_id = ${scope.tenantId} AND l.warehouse_id = ANY(${scope.placeIds}::text[])
  ${scope.negativeOnly ? sql`AND l.negative` : sql``}`;

/**
 * Every combo in every place in scope where one of its components has a level: available = min over components of
 * floor(available ÷ quantity), a component without stock there counting 0. Driven by the combo items, each
 * component's level found by its primary key.
 */
function combos(scope: Scope) {
  const available = sql`min(floor(coalesce(c.available, 0)::numeric / i.quantity))::bigint`;
  return sql`
    SELECT i.combo_id AS combo_uuid, i.combo_id::text AS master_code_id, p.place AS warehouse_id,
      ${sql.join(OWN_FIGURES.map((figure) => sql`NULL::bigint AS ${sql.ref(figure)}`))}, ${available} AS available,
      max(c.last_movement_at) AS last_movement_at
    FROM combo_items i
    CROSS JOIN unnest(${scope.placeIds}::text[]) AS p(place)
    LEFT JOIN stock_levels c
      ON c.tenant_id = ${scope.tenantId} AND c.master_code_id = i.component_id::text AND c.warehouse_id = p.place
    WHERE i.tenant_id = ${scope.tenantId}
    GROUP BY i.combo_id, p.place
    HAVING count(c.master_code_id) > 0 ${scope.negativeOnly ? sql`AND ${available} < 0` : sql``}`;
}

/**
 * The SQL of a stock list page and of its capped count. The levels and the combos are two branches; each is cut to
 * the rows the page can need in the page's order before they are merged, so an index gives the order and Postgres
 * stops early, whatever its statistics say. Sorted by stock figures with no filter on names (the stock board), the
 * branches are the levels alone and only the page's rows are joined with their master code and warehouse.
 */
export function stockListSql(scope: Scope, query: StockListQuery) {
  const conditions = allOf(stockConditions(query));
  const hasConditions = stockConditions(query).length > 0;
  const sortModel: SortModel =
    query.sortModel.length > 0 ? query.sortModel : [{ colId: 'code', sort: 'asc' }];
  const { limit, offset } = pageWindow(query);
  const rows = offset + limit;
  const pageOrder = orderBy('s', sortModel, outerSort, true);
  const capped = (branches: RawBuilder<unknown>) =>
    sql<{
      n: string;
    }>`SELECT count(*) AS n FROM (SELECT 1 FROM (${branches}) u LIMIT ${STOCK_COUNT_CAP + 1}) capped`;
  const { tenantId } = scope;

  if (!hasConditions && sortModel.every(({ colId }) => isLevelSort(colId))) {
    const levels = sql`
      SELECT ${levelColumns('l')} FROM stock_levels l WHERE ${levelsWhere(scope)}
      ${orderBy('l', sortModel, innerSort('l'), false)} LIMIT ${rows}`;
    const comboRows = sql`
      SELECT ${levelColumns('k')} FROM (${combos(scope)}) k
      ${orderBy('k', sortModel, innerSort('k'), true)} LIMIT ${rows}`;
    const page = sql<StockListRow>`
      SELECT ${levelColumns('s')}, ${nameColumns}
      FROM (SELECT * FROM ((${levels}) UNION ALL (${comboRows})) s ${pageOrder} LIMIT ${limit} OFFSET ${offset}) s
      JOIN master_codes m ON m.tenant_id = ${tenantId} AND m.id = ${uuidOf(sql`s.master_code_id`)}
      JOIN warehouses w ON w.tenant_id = ${tenantId} AND w.id = ${uuidOf(sql`s.warehouse_id`)}
      ${pageOrder}`;
    const count = capped(
      sql`(SELECT 1 FROM stock_levels l WHERE ${levelsWhere(scope)}) UNION ALL (SELECT 1 FROM (${combos(scope)}) k)`,
    );
    return { page, count, limit, offset };
  }

  // Joined on the text ids: a filter on the master code drives the levels' primary key, or the levels drive a hash.
  const levelsJoined = sql`
    FROM stock_levels l
    JOIN master_codes m ON m.tenant_id = ${tenantId} AND l.master_code_id = m.id::text
    JOIN warehouses w ON w.tenant_id = ${tenantId} AND l.warehouse_id = w.id::text
    WHERE ${levelsWhere(scope)} AND ${conditions}`;
  const combosJoined = sql`
    FROM (${combos(scope)}) k
    JOIN master_codes m ON m.tenant_id = ${tenantId} AND m.id = k.combo_uuid
    JOIN warehouses w ON w.tenant_id = ${tenantId} AND k.warehouse_id = w.id::text
    WHERE ${conditions}`;
  const levels = sql`
    SELECT ${levelColumns('l')}, ${nameColumns} ${levelsJoined}
    ${orderBy('l', sortModel, innerSort('l'), false)} LIMIT ${rows}`;
  const comboRows = sql`
    SELECT ${levelColumns('k')}, ${nameColumns} ${combosJoined}
    ${orderBy('k', sortModel, innerSort('k'), true)} LIMIT ${rows}`;
  const page = sql<StockListRow>`
    SELECT * FROM ((${levels}) UNION ALL (${comboRows})) s ${pageOrder} LIMIT ${limit} OFFSET ${offset}`;
  const count = capped(sql`(SELECT 1 ${levelsJoined}) UNION ALL (SELECT 1 ${combosJoined})`);
  return { page, count, limit, offset };
}

/**
 * One page of the stock list, and ag-grid's lastRow: exact up to STOCK_COUNT_CAP rows or once the page comes back
 * short, else -1 (unknown: the grid grows as the seller scrolls).
 */
export async function stockList(
  db: Kysely<Database>,
  tenantId: string,
  query: StockListQuery,
): Promise<{ rows: StockRow[]; lastRow: number }> {
  // One place (checked: unknown or another tenant's is a 404), or every place the tenant has now: a deleted place
  // leaves its 0-stock levels behind, and they are not listed.
  const placeIds =
    query.warehouse_id !== undefined
      ? [(await placeNamed(db, tenantId, query.warehouse_id)).id]
      : (await db.selectFrom('warehouses').select('id').where('tenant_id', '=', tenantId).execute()).map(
          (row) => row.id,
        );
  const scope = { tenantId, placeIds, negativeOnly: query.negative_only ?? false };
  const { page, count, limit, offset } = stockListSql(scope, query);
  return withTenant(db, tenantId, async (trx) => {
    const rows = (await page.execute(trx)).rows;
    let lastRow: number;
    if (rows.length < limit && (rows.length > 0 || offset === 0)) lastRow = offset + rows.length;
    else {
      const n = Number((await count.execute(trx)).rows[0]?.n ?? 0);
      lastRow = n > STOCK_COUNT_CAP ? -1 : n;
    }
    return { rows: rows.map(toStockRow), lastRow };
  });
}

// ---- movements ----

interface LedgerRow {
  /** occurred_at exactly as Postgres has it (microseconds), for keyset paging. */
  occurred_text: string;
  master_code_id: string;
  warehouse_id: string;
  revision: string;
  occurred_at: Date;
  action: string;
  mode: string | null;
  quantity: string;
  previous_stock: string;
  change: string;
  stock_in: string;
  stock_out: string;
  new_stock: string;
  reserved: string;
  in_process: string;
  on_hold: string;
  pos_on_hold: string;
  supplier_on_hold: string;
  incoming: string;
  counterpart_warehouse_id: string | null;
  reason: string | null;
  source_type: string | null;
  source_id: string | null;
  source_number: string | null;
  created_by: string | null;
  master_code_code: string | null;
  master_code_name: string | null;
  warehouse_code: string | null;
  warehouse_name: string | null;
  counterpart_code: string | null;
  counterpart_name: string | null;
  user_name: string | null;
}

/** The figures a ledger row (or a series point) states, snake-cased texts from Postgres. */
const ledgerFigures = (row: {
  new_stock: string | null;
  reserved: string | null;
  in_process: string | null;
  on_hold: string | null;
  pos_on_hold: string | null;
  supplier_on_hold: string | null;
  incoming: string | null;
}) =>
  figureAnswer({
    onHand: Number(row.new_stock ?? 0),
    reserved: Number(row.reserved ?? 0),
    inProcess: Number(row.in_process ?? 0),
    onHold: Number(row.on_hold ?? 0),
    posOnHold: Number(row.pos_on_hold ?? 0),
    supplierOnHold: Number(row.supplier_on_hold ?? 0),
    incoming: Number(row.incoming ?? 0),
  });

/** A movement's reason as the reader reads it: Kedai's own words translated, a person's words as they wrote them. */
function describeMovement(
  language: Language,
  reason: string | null,
  sourceType: string | null,
): string | null {
  if (reason === null) return null;
  const ours = readMovementReason(reason, sourceType);
  return ours ? translate(language, `stock.reason.${ours.kind}`, ours.params) : reason;
}

const toMovementRow =
  (language: Language) =>
  (row: LedgerRow): MovementRow => {
    const { on_hand, ...figures } = ledgerFigures(row);
    return {
      id: `${row.master_code_id}@${row.warehouse_id}#${row.revision}`,
      master_code: { id: row.master_code_id, code: row.master_code_code, name: row.master_code_name },
      warehouse: { id: row.warehouse_id, code: row.warehouse_code, name: row.warehouse_name },
      revision: Number(row.revision),
      occurred_at: row.occurred_at.toISOString(),
      action: row.action as StockEventType,
      mode: row.mode,
      quantity: Number(row.quantity),
      previous_stock: Number(row.previous_stock),
      change: Number(row.change),
      stock_in: Number(row.stock_in),
      stock_out: Number(row.stock_out),
      new_stock: on_hand,
      ...figures,
      description: describeMovement(language, row.reason, row.source_type),
      source: sourceAnswer(row.source_type, row.source_id, row.source_number),
      counterpart_warehouse:
        row.counterpart_warehouse_id === null
          ? null
          : { id: row.counterpart_warehouse_id, code: row.counterpart_code, name: row.counterpart_name },
      created_by:
        row.created_by === null ? null : { id: row.created_by, name: row.user_name ?? row.created_by },
    };
  };

/** The names a ledger row shows, joined onto the ledger rows `page` (a query aliased `s`). */
const withNames = (tenantId: string, page: RawBuilder<unknown>) => sql<LedgerRow>`
  SELECT s.*, m.code AS master_code_code, m.name AS master_code_name, w.code AS warehouse_code,
    w.name AS warehouse_name, cw.code AS counterpart_code, cw.name AS counterpart_name,
    nullif(trim(u.first_name || ' ' || u.last_name), '') AS user_name, ${sourceNumber(tenantId)} AS source_number
  FROM (${page}) s
  LEFT JOIN master_codes m ON m.tenant_id = ${tenantId} AND m.id = ${uuidOf(sql`s.master_code_id`)}
  LEFT JOIN ${knownPlaces(tenantId)} w ON w.id = ${uuidOf(sql`s.warehouse_id`)}
  LEFT JOIN ${knownPlaces(tenantId)} cw ON cw.id = ${uuidOf(sql`s.counterpart_warehouse_id`)}
  LEFT JOIN users u ON u.tenant_id = ${tenantId} AND u.id = ${uuidOf(sql`s.created_by`)}`;

const LEDGER_COLUMNS = sql.raw(
  `s.master_code_id, s.warehouse_id, s.revision, s.occurred_at, s.action, s.mode, s.quantity, s.previous_stock,
   s.change, s.stock_in, s.stock_out, s.new_stock, s.reserved, s.in_process, s.on_hold, s.pos_on_hold,
   s.supplier_on_hold, s.incoming, s.counterpart_warehouse_id, s.reason, s.source_type,
   s.source_id, s.created_by, s.occurred_at::text AS occurred_text`,
);

interface LedgerFilter {
  masterCodeId?: string;
  warehouseId?: string;
  from?: Date;
  to?: Date;
  actions?: StockEventType[];
  search?: string;
}

/** Checks the master code and warehouse a report names (404 as missing) and gathers its filters. */
export async function ledgerFilter(
  db: Kysely<Database>,
  tenantId: string,
  query: Pick<MovementQuery, 'master_code_id' | 'warehouse_id' | 'from' | 'to' | 'action' | 'search'>,
): Promise<LedgerFilter> {
  const masterCode = query.master_code_id
    ? await masterCodeNamed(db, tenantId, query.master_code_id)
    : undefined;
  const warehouse = query.warehouse_id ? await placeNamed(db, tenantId, query.warehouse_id) : undefined;
  if (query.from && query.to && query.from > query.to) {
    throw refuse('RANGE_INVALID');
  }
  return {
    masterCodeId: masterCode?.id,
    warehouseId: warehouse?.id,
    from: query.from,
    to: query.to,
    actions: query.action,
    search: query.search?.trim() || undefined,
  };
}

function ledgerWhere(tenantId: string, filter: LedgerFilter): RawBuilder<SqlBool> {
  const parts: RawBuilder<SqlBool>[] = [sql<SqlBool>`s.tenant_id = ${tenantId}`];
  if (filter.masterCodeId) parts.push(sql<SqlBool>`s.master_code_id = ${filter.masterCodeId}`);
  if (filter.warehouseId) parts.push(sql<SqlBool>`s.warehouse_id = ${filter.warehouseId}`);
  if (filter.from) parts.push(sql<SqlBool>`s.occurred_at >= ${filter.from}`);
  if (filter.to) parts.push(sql<SqlBool>`s.occurred_at <= ${filter.to}`);
  if (filter.actions) parts.push(setWhere(sql`s.action`, filter.actions));
  if (filter.search) parts.push(sql<SqlBool>`s.reason ILIKE ${`%${literal(filter.search)}%`}`);
  return allOf(parts);
}

const ledgerOrder = (direction: 'asc' | 'desc') => {
  const d = direction === 'asc' ? sql`ASC` : sql`DESC`;
  return sql`s.occurred_at ${d}, s.master_code_id ${d}, s.warehouse_id ${d}, s.revision ${d}`;
};

/** Beyond this many matching movements the report's lastRow stays unknown (-1) until the last page. */
export const MOVEMENT_COUNT_CAP = 10_000;

export async function listMovements(
  db: Kysely<Database>,
  tenantId: string,
  query: MovementQuery,
  language: Language,
): Promise<{ rows: MovementRow[]; lastRow: number }> {
  const filter = await ledgerFilter(db, tenantId, query);
  const where = ledgerWhere(tenantId, filter);
  const direction = query.sortModel[0]?.sort ?? 'desc';
  const { limit, offset } = pageWindow(query);
  return withTenant(db, tenantId, async (trx) => {
    const page = sql`
      SELECT ${LEDGER_COLUMNS} FROM stock_movements s WHERE ${where}
      ORDER BY ${ledgerOrder(direction)} LIMIT ${limit} OFFSET ${offset}`;
    const rows =
      await sql<LedgerRow>`${withNames(tenantId, page)} ORDER BY ${ledgerOrder(direction)}`.execute(trx);
    let lastRow: number;
    if (rows.rows.length < limit && (rows.rows.length > 0 || offset === 0))
      lastRow = offset + rows.rows.length;
    else {
      const count = await sql<{ n: string }>`
        SELECT count(*) AS n FROM (
          SELECT 1 FROM stock_movements s WHERE ${where} LIMIT ${MOVEMENT_COUNT_CAP + 1}
        ) capped`.execute(trx);
      const n = Number(count.rows[0]?.n ?? 0);
      lastRow = n > MOVEMENT_COUNT_CAP ? -1 : n;
    }
    return { rows: rows.rows.map(toMovementRow(language)), lastRow };
  });
}

// ---- export ----

export const EXPORT_MAX_ROWS = 100_000;
const EXPORT_CHUNK = 2_000;

/** The ledger rows of an export in order, a chunk at a time (keyset paging, so each chunk is one index range). */
async function* ledgerRows(
  db: Kysely<Database>,
  tenantId: string,
  filter: LedgerFilter,
  direction: 'asc' | 'desc',
  language: Language,
): AsyncGenerator<MovementRow> {
  const where = ledgerWhere(tenantId, filter);
  const comparison = direction === 'asc' ? sql`>` : sql`<`;
  let after: LedgerRow | undefined;
  for (;;) {
    const key = after;
    const rows = await withTenant(db, tenantId, async (trx) => {
      const next = key
        ? sql`AND (s.occurred_at, s.master_code_id, s.warehouse_id, s.revision) ${comparison}
            (${key.occurred_text}::timestamptz, ${key.master_code_id}, ${key.warehouse_id}, ${key.revision}::bigint)`
        : sql``;
      const page = sql`
        SELECT ${LEDGER_COLUMNS} FROM stock_movements s WHERE ${where} ${next}
        ORDER BY ${ledgerOrder(direction)} LIMIT ${EXPORT_CHUNK}`;
      return (
        await sql<LedgerRow>`${withNames(tenantId, page)} ORDER BY ${ledgerOrder(direction)}`.execute(trx)
      ).rows;
    });
    for (const row of rows) yield toMovementRow(language)(row);
    if (rows.length < EXPORT_CHUNK) return;
    after = rows.at(-1);
  }
}

// ---- one stock in time ----

/** The figures of the projection's or the domain's camel-case shape, as the API names them. */
export function figureAnswer(figures: {
  onHand: number;
  reserved: number;
  inProcess: number;
  onHold: number;
  posOnHold: number;
  supplierOnHold: number;
  incoming: number;
}): FigureAnswer {
  return {
    on_hand: figures.onHand,
    reserved: figures.reserved,
    in_process: figures.inProcess,
    on_hold: figures.onHold,
    pos_on_hold: figures.posOnHold,
    supplier_on_hold: figures.supplierOnHold,
    incoming: figures.incoming,
    available: available(figures),
  };
}

/** Movements of one stock as the movement report answers them: with names, reasons in words and source numbers. */
export async function named(
  db: Kysely<Database>,
  tenantId: string,
  language: Language,
  target: {
    masterCode: { id: string; code: string; name: string };
    warehouse: { id: string; code: string; name: string };
  },
  movements: StockMovement[],
): Promise<MovementRow[]> {
  const userIds = [...new Set(movements.map((m) => m.createdBy).filter((id): id is string => id !== null))];
  const placeIds = [
    ...new Set(movements.map((m) => m.counterpartWarehouseId).filter((id): id is string => id !== null)),
  ];
  const uuids = (ids: string[]) => ids.filter(isUuid);
  const sources = movements.flatMap((m) => (m.source ? [m.source] : []));
  const [users, places, numbers] = await Promise.all([
    uuids(userIds).length === 0
      ? []
      : db
          .selectFrom('users')
          .select(['id', sql<string>`nullif(trim(first_name || ' ' || last_name), '')`.as('name')])
          .where('tenant_id', '=', tenantId)
          .where('id', 'in', uuids(userIds))
          .execute(),
    uuids(placeIds).length === 0
      ? []
      : db
          .selectFrom('warehouses')
          .select(['id', 'code', 'name'])
          .where('tenant_id', '=', tenantId)
          .where('id', 'in', uuids(placeIds))
          .execute(),
    sources.length === 0
      ? []
      : withTenant(db, tenantId, async (trx) => {
          const found = await sql<{ source_type: string; source_id: string; source_number: string | null }>`
            SELECT s.source_type, s.source_id, ${sourceNumber(tenantId)} AS source_number
            FROM unnest(${sources.map((x) => x.type)}::text[], ${sources.map((x) => x.id)}::text[])
              AS s(source_type, source_id)`.execute(trx);
          return found.rows;
        }),
  ]);
  const numberOf = new Map(
    numbers.map((row) => [`${row.source_type}\u0000${row.source_id}`, row.source_number]),
  );
  const userName = new Map(users.map((user) => [user.id, user.name]));
  const place = new Map(places.map((row) => [row.id, row]));
  return movements.map((m) => ({
    id: `${m.masterCodeId}@${m.warehouseId}#${m.revision}`,
    master_code: { ...target.masterCode },
    warehouse: { ...target.warehouse },
    revision: m.revision,
    occurred_at: m.occurredAt.toISOString(),
    action: m.action,
    mode: m.mode,
    quantity: m.quantity,
    previous_stock: m.previousStock,
    change: m.change,
    stock_in: m.stockIn,
    stock_out: m.stockOut,
    new_stock: m.newStock,
    reserved: m.reserved,
    in_process: m.inProcess,
    on_hold: m.onHold,
    pos_on_hold: m.posOnHold,
    supplier_on_hold: m.supplierOnHold,
    incoming: m.incoming,
    available: available(m),
    description: describeMovement(language, m.reason, m.source?.type ?? null),
    source:
      m.source &&
      sourceAnswer(m.source.type, m.source.id, numberOf.get(`${m.source.type}\u0000${m.source.id}`) ?? null),
    counterpart_warehouse:
      m.counterpartWarehouseId === null
        ? null
        : {
            id: m.counterpartWarehouseId,
            code: place.get(m.counterpartWarehouseId)?.code ?? null,
            name: place.get(m.counterpartWarehouseId)?.name ?? null,
          },
    created_by:
      m.createdBy === null ? null : { id: m.createdBy, name: userName.get(m.createdBy) ?? m.createdBy },
  }));
}

const refTarget = (target: StockTarget) => ({
  masterCode: { id: target.masterCode.id, code: target.masterCode.code, name: target.masterCode.name },
  warehouse: { id: target.warehouse.id, code: target.warehouse.code, name: target.warehouse.name },
});

/** The ledger's figures: on hand after a movement is its new stock. */
const [, ...HELD_FIGURES] = OWN_FIGURES;
const FIGURE_COLUMNS = ['new_stock', ...HELD_FIGURES] as const;

type SeriesPointRow = { at: Date } & Record<(typeof FIGURE_COLUMNS)[number], string | null>;

/** The stock at each instant: one backward index lookup per instant, in one statement. */
async function stockAtInstants(
  db: Kysely<Database>,
  tenantId: string,
  masterCodeId: string,
  warehouseId: string,
  instants: Date[],
): Promise<SeriesPointRow[]> {
  const texts = instants.map((instant) => instant.toISOString());
  return withTenant(
    db,
    tenantId,
    async (trx) =>
      (
        await sql<SeriesPointRow>`
        SELECT t.at, ${sql.join(FIGURE_COLUMNS.map((column) => sql.ref(`m.${column}`)))}
        FROM unnest(${texts}::timestamptz[]) AS t(at)
        LEFT JOIN LATERAL (
          SELECT ${sql.join(FIGURE_COLUMNS.map((column) => sql.ref(column)))} FROM stock_movements
          WHERE tenant_id = ${tenantId} AND master_code_id = ${masterCodeId} AND warehouse_id = ${warehouseId}
            AND occurred_at <= t.at
          ORDER BY occurred_at DESC, revision DESC LIMIT 1
        ) m ON true
        ORDER BY t.at`.execute(trx)
      ).rows,
  );
}

/** A series point: the figures a ledger row states (all 0 before the first movement). */
const pointOf = (at: Date, row: Omit<SeriesPointRow, 'at'> | undefined) => ({
  at: at.toISOString(),
  ...ledgerFigures(
    row ?? {
      new_stock: null,
      reserved: null,
      in_process: null,
      on_hold: null,
      pos_on_hold: null,
      supplier_on_hold: null,
      incoming: null,
    },
  ),
});

async function seriesOf(
  db: Kysely<Database>,
  tenantId: string,
  masterCodeId: string,
  warehouseId: string,
  query: { from?: Date; to?: Date; points: number },
): Promise<StockSeries> {
  const to = query.to ?? new Date();
  let from = query.from;
  if (!from) {
    const first = await withTenant(db, tenantId, (trx) =>
      trx
        .selectFrom('stock_movements')
        .select('occurred_at')
        .where('tenant_id', '=', tenantId)
        .where('master_code_id', '=', masterCodeId)
        .where('warehouse_id', '=', warehouseId)
        .orderBy('occurred_at')
        .orderBy('revision')
        .limit(1)
        .executeTakeFirst(),
    );
    from = first?.occurred_at ?? new Date(to.getTime() - 30 * 86_400_000);
    if (from > to) from = to;
  }
  if (from > to) throw refuse('RANGE_INVALID');
  const start = from;
  const inRange = await withTenant(db, tenantId, (trx) =>
    trx
      .selectFrom('stock_movements')
      .select(['occurred_at', ...FIGURE_COLUMNS])
      .where('tenant_id', '=', tenantId)
      .where('master_code_id', '=', masterCodeId)
      .where('warehouse_id', '=', warehouseId)
      .where('occurred_at', '>=', start)
      .where('occurred_at', '<=', to)
      .orderBy('occurred_at')
      .orderBy('revision')
      .limit(query.points - 1)
      .execute(),
  );
  if (inRange.length < query.points - 1) {
    const [before, after] = await stockAtInstants(db, tenantId, masterCodeId, warehouseId, [
      new Date(start.getTime() - 1),
      to,
    ]);
    const points = [
      pointOf(start, before),
      ...inRange.map((m) => pointOf(m.occurred_at, m)),
      pointOf(to, after),
    ];
    return { from: start.toISOString(), to: to.toISOString(), kind: 'movements', points };
  }
  const step = (to.getTime() - start.getTime()) / (query.points - 1);
  const instants = Array.from(
    { length: query.points },
    (_, i) => new Date(Math.round(start.getTime() + i * step)),
  );
  const rows = await stockAtInstants(db, tenantId, masterCodeId, warehouseId, instants);
  return {
    from: start.toISOString(),
    to: to.toISOString(),
    kind: 'sampled',
    points: rows.map((row) => pointOf(row.at, row)),
  };
}

// ---- the reports as the routes ask them ----

/** The movement report's rows for an export, in order; refused when there are more than EXPORT_MAX_ROWS. */
export async function movementsForExport(
  db: Kysely<Database>,
  tenantId: string,
  query: ExportQuery,
  language: Language,
): Promise<AsyncGenerator<MovementRow>> {
  const filter = await ledgerFilter(db, tenantId, query);
  const where = ledgerWhere(tenantId, filter);
  const count = await withTenant(db, tenantId, (trx) =>
    sql<{ n: string }>`
      SELECT count(*) AS n FROM (
        SELECT 1 FROM stock_movements s WHERE ${where} LIMIT ${EXPORT_MAX_ROWS + 1}
      ) capped`.execute(trx),
  );
  if (Number(count.rows[0]?.n ?? 0) > EXPORT_MAX_ROWS)
    throw refuse('EXPORT_TOO_LARGE', { max: EXPORT_MAX_ROWS });
  return ledgerRows(db, tenantId, filter, query.sortModel[0]?.sort ?? 'desc', language);
}

/** A stock as it was at an instant, and the movement that left it so. */
export async function stockAsOf(
  db: Kysely<Database>,
  tenantId: string,
  query: AtQuery,
  language: Language,
): Promise<StockFiguresAnswer> {
  const target = await stockTarget(db, tenantId, query.master_code_id, query.warehouse_id);
  const at = await stockAt(db, tenantId, target.masterCode.id, target.warehouse.id, query.at);
  const [asOf] = at.asOf ? await named(db, tenantId, language, refTarget(target), [at.asOf]) : [];
  return { ...figureAnswer(at), as_of_movement: asOf ?? null };
}

/** The auditor's replay: a stock as of an instant and the movements that led to it, a page at a time. */
export async function stockHistory(
  db: Kysely<Database>,
  tenantId: string,
  query: HistoryQuery,
  language: Language,
): Promise<StockHistory> {
  const target = await stockTarget(db, tenantId, query.master_code_id, query.warehouse_id);
  const history = await movementsUntil(
    db,
    tenantId,
    target.masterCode.id,
    target.warehouse.id,
    query.until ?? new Date(),
    {
      limit: query.limit,
      ...(query.before_revision === undefined ? {} : { beforeRevision: query.before_revision }),
    },
  );
  const rows = await named(
    db,
    tenantId,
    language,
    refTarget(target),
    history.asOf ? [history.asOf, ...history.movements] : [],
  );
  const [asOf, ...movements] = rows;
  return {
    ...figureAnswer(history.asOf ?? initialState),
    as_of_movement: asOf ?? null,
    movements,
    total: history.total,
  };
}

/** A stock over time for a chart. */
export async function stockSeries(
  db: Kysely<Database>,
  tenantId: string,
  query: SeriesQuery,
): Promise<StockSeries> {
  const target = await stockTarget(db, tenantId, query.master_code_id, query.warehouse_id);
  return seriesOf(db, tenantId, target.masterCode.id, target.warehouse.id, query);
}
