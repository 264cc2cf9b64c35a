import { PassThrough, Readable } from 'node:stream';
import { ErrorAnswer, GridPage, Ok, ok, refusals } from '@api/answers';
import { seller } from '@api/auth/session';
import { gridQuery, setFilter, TextFilter } from '@api/contracts/grid';
import { ApiError, invalid } from '@api/errors';
import { type Language, translate } from '@api/i18n';
import { isUuid, UUID_PATTERN } from '@api/ids';
import { StockCode } from '@domain/inventory/codes';
import { available, initialState, STOCK_EVENT_TYPES, type StockEventType } from '@domain/inventory/stock';
import type { Database } from '@infra/db';
import { withTenant } from '@infra/db/tenant';
import { masterCodeNamed, placeNamed, type StockTarget, stockTarget } from '@projections/inventory/reference';
import { allOf, literal, pageWindow, setWhere, textWhere } from '@projections/runtime/grid';
import { movementsUntil, type StockMovement, stockAt } from '@projections/stock';
import ExcelJS from 'exceljs';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import { z } from 'zod';
import { MASTER_CODE_STATUSES, MASTER_CODE_TYPES } from './master-code-data';
import { FigureFields, figureAnswer, Instant, RefId, type StockDeps, tags } from './stock-common';

/**
 * The stock reports (route list and shapes: api/inventory/stock.ts): the stock list per master code per warehouse
 * with combos derived from their components, the movement report and its CSV/XLSX export, and one stock at a past
 * instant, the movements that led to it, and its series for a chart. All read the stock read models
 * (projections/stock.ts) inside `withTenant`, joined with the master codes, warehouses and users they name.
 */

/** A text id as a uuid, or null when it is not one (streams name master codes and warehouses by text). */
const uuidOf = (column: RawBuilder<string>) =>
  sql`(CASE WHEN ${column} ~ ${sql.lit(UUID_PATTERN)} THEN ${column}::uuid END)`;

// ---- the stock list ----

/** The stock's own figures besides available: a combo has none (null). */
export const OWN_FIGURES = [
  'on_hand',
  'reserved',
  'in_process',
  'on_hold',
  'pos_on_hold',
  'supplier_on_hold',
  'incoming',
] as const;
type OwnFigure = (typeof OWN_FIGURES)[number];

export const STOCK_SORT_COLUMNS = [
  'code',
  'name',
  'seller_sku',
  'warehouse',
  'type',
  'status',
  ...OWN_FIGURES,
  'available',
  'available_percent',
  'last_movement_at',
] as const;
type StockSort = (typeof STOCK_SORT_COLUMNS)[number];

const booleanText = z
  .enum(['true', 'false'], { error: invalid(400, 'stock.flag_invalid') })
  .transform((value) => value === 'true');

export const StockListQuery = gridQuery(STOCK_SORT_COLUMNS, {
  code: TextFilter,
  name: TextFilter,
  seller_sku: TextFilter,
  warehouse: TextFilter,
  type: setFilter(MASTER_CODE_TYPES),
  status: setFilter(MASTER_CODE_STATUSES),
}).extend({
  warehouse_id: RefId.optional(),
  negative_only: booleanText.optional(),
});
export type StockListQuery = z.infer<typeof StockListQuery>;

export const StockRow = z.object({
  key: z.string(),
  master_code_id: z.string(),
  code: z.string(),
  name: z.string(),
  seller_sku: z.string(),
  type: z.enum(MASTER_CODE_TYPES),
  status: z.enum(MASTER_CODE_STATUSES),
  soft_threshold: z.number().int(),
  warehouse_id: z.string(),
  warehouse_code: z.string(),
  warehouse_name: z.string(),
  warehouse_kind: z.enum(['warehouse', 'branch']),
  on_hand: z.number().int().nullable(),
  reserved: z.number().int().nullable(),
  in_process: z.number().int().nullable(),
  on_hold: z.number().int().nullable(),
  pos_on_hold: z.number().int().nullable(),
  supplier_on_hold: z.number().int().nullable(),
  incoming: z.number().int().nullable(),
  /** Available online: on hand − reserved − in process − the three holds (a combo's: from its components). */
  available: z.number().int(),
  /** Available as a percent of on hand, one decimal; null when on hand ≤ 0, and for a combo. */
  available_percent: z.number().nullable(),
  negative: z.boolean(),
  low: z.boolean(),
  last_movement_at: z.string().nullable(),
});
export type StockRow = z.infer<typeof StockRow>;

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
export async function listStock(
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

const actionList = z
  .string({ error: invalid(400, 'stock.action_invalid') })
  .max(400, invalid(400, 'stock.action_invalid'))
  .transform((text, ctx) => {
    const actions = text
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean);
    if (actions.length === 0 || actions.some((action) => !(STOCK_EVENT_TYPES as string[]).includes(action))) {
      ctx.addIssue({ code: 'custom', message: invalid(400, 'stock.action_invalid') });
      return z.NEVER;
    }
    return [...new Set(actions)] as StockEventType[];
  });

const movementFilters = {
  master_code_id: RefId.optional(),
  warehouse_id: RefId.optional(),
  from: Instant.optional(),
  to: Instant.optional(),
  action: actionList.optional(),
};

export const MovementQuery = gridQuery(['occurred_at'], {}).extend(movementFilters);
export type MovementQuery = z.infer<typeof MovementQuery>;

export const EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export const ExportQuery = z.strictObject({
  format: z.enum(EXPORT_FORMATS, { error: invalid(400, 'stock.export.format_invalid') }),
  search: z.string().max(200).optional(),
  sortModel: MovementQuery.shape.sortModel,
  ...movementFilters,
});
export type ExportQuery = z.infer<typeof ExportQuery>;

const NamedRef = z.object({ id: z.string(), code: z.string().nullable(), name: z.string().nullable() });

export const MovementRow = z.object({
  id: z.string(),
  master_code: NamedRef,
  warehouse: NamedRef,
  revision: z.number().int(),
  occurred_at: z.string(),
  action: z.enum(STOCK_EVENT_TYPES),
  mode: z.string().nullable(),
  quantity: z.number().int(),
  previous_stock: z.number().int(),
  change: z.number().int(),
  stock_in: z.number().int(),
  stock_out: z.number().int(),
  /** On hand after the movement. */
  new_stock: z.number().int(),
  reserved: FigureFields.reserved,
  in_process: FigureFields.in_process,
  on_hold: FigureFields.on_hold,
  pos_on_hold: FigureFields.pos_on_hold,
  supplier_on_hold: FigureFields.supplier_on_hold,
  incoming: FigureFields.incoming,
  available: FigureFields.available,
  description: z.string().nullable(),
  source: z.object({ type: z.string(), id: z.string() }).nullable(),
  counterpart_warehouse: NamedRef.nullable(),
  created_by: z.object({ id: z.string(), name: z.string() }).nullable(),
});
export type MovementRow = z.infer<typeof MovementRow>;

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

const toMovementRow = (row: LedgerRow): MovementRow => {
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
    description: row.reason,
    source:
      row.source_type !== null && row.source_id !== null
        ? { type: row.source_type, id: row.source_id }
        : null,
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
    nullif(trim(u.first_name || ' ' || u.last_name), '') AS user_name
  FROM (${page}) s
  LEFT JOIN master_codes m ON m.tenant_id = ${tenantId} AND m.id = ${uuidOf(sql`s.master_code_id`)}
  LEFT JOIN warehouses w ON w.tenant_id = ${tenantId} AND w.id = ${uuidOf(sql`s.warehouse_id`)}
  LEFT JOIN warehouses cw ON cw.tenant_id = ${tenantId} AND cw.id = ${uuidOf(sql`s.counterpart_warehouse_id`)}
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
async function ledgerFilter(
  db: Kysely<Database>,
  tenantId: string,
  query: Pick<MovementQuery, keyof typeof movementFilters | 'search'>,
): Promise<LedgerFilter> {
  const masterCode = query.master_code_id
    ? await masterCodeNamed(db, tenantId, query.master_code_id)
    : undefined;
  const warehouse = query.warehouse_id ? await placeNamed(db, tenantId, query.warehouse_id) : undefined;
  if (query.from && query.to && query.from > query.to) {
    throw new ApiError(400, StockCode.timeInvalid, 'stock.range_invalid');
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
    return { rows: rows.rows.map(toMovementRow), lastRow };
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
    for (const row of rows) yield toMovementRow(row);
    if (rows.length < EXPORT_CHUNK) return;
    after = rows.at(-1);
  }
}

const EXPORT_COLUMNS = [
  'time',
  'master_code',
  'name',
  'warehouse',
  'action',
  'mode',
  'quantity',
  'previous_stock',
  'change',
  'stock_in',
  'stock_out',
  'new_stock',
  'reserved',
  'in_process',
  'on_hold',
  'pos_on_hold',
  'supplier_on_hold',
  'incoming',
  'available',
  'description',
  'source',
  'created_by',
] as const;

function exportCells(language: Language, row: MovementRow): (string | number | Date)[] {
  return [
    new Date(row.occurred_at),
    row.master_code.code ?? row.master_code.id,
    row.master_code.name ?? '',
    row.warehouse.code ?? row.warehouse.id,
    translate(language, `stock.action.${row.action}`),
    row.mode ? translate(language, `stock.mode.${row.mode}`) : '',
    row.quantity,
    row.previous_stock,
    row.change,
    row.stock_in,
    row.stock_out,
    row.new_stock,
    row.reserved,
    row.in_process,
    row.on_hold,
    row.pos_on_hold,
    row.supplier_on_hold,
    row.incoming,
    row.available,
    row.description ?? '',
    row.source ? `${row.source.type}:${row.source.id}` : '',
    row.created_by?.name ?? '',
  ];
}

/**
 * One CSV field: quoted when it holds a quote, comma or line break (quotes doubled). Text that a spreadsheet would
 * run as a formula (=, +, -, @, tab, CR first) is prefixed with an apostrophe; numbers are written as they are.
 */
export function csvField(value: string | number | Date): string {
  if (typeof value === 'number') return String(value);
  let text = value instanceof Date ? value.toISOString() : value;
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

async function* csvLines(language: Language, rows: AsyncIterable<MovementRow>): AsyncGenerator<string> {
  // A BOM so that spreadsheets read the UTF-8 (names in Chinese or Thai) as UTF-8.
  yield `\ufeff${EXPORT_COLUMNS.map((column) => csvField(translate(language, `stock.export.columns.${column}`))).join(',')}\r\n`;
  let batch = '';
  let count = 0;
  for await (const row of rows) {
    batch += `${exportCells(language, row).map(csvField).join(',')}\r\n`;
    if (++count % 500 === 0) {
      yield batch;
      batch = '';
    }
  }
  if (batch) yield batch;
}

function xlsxStream(
  language: Language,
  rows: AsyncIterable<MovementRow>,
  log: (error: unknown) => void,
): PassThrough {
  const out = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useStyles: true,
    useSharedStrings: false,
  });
  const sheet = workbook.addWorksheet(translate(language, 'stock.export.sheet'));
  sheet.columns = EXPORT_COLUMNS.map((column) => ({
    header: translate(language, `stock.export.columns.${column}`),
    key: column,
    width: column === 'time' ? 22 : column === 'description' || column === 'name' ? 30 : 14,
    ...(column === 'time' ? { style: { numFmt: 'yyyy-mm-dd hh:mm:ss' } } : {}),
  }));
  void (async () => {
    for await (const row of rows) sheet.addRow(exportCells(language, row)).commit();
    sheet.commit();
    await workbook.commit();
  })().catch((error: unknown) => {
    log(error);
    out.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  return out;
}

// ---- one stock in time ----

const TargetQuery = { master_code_id: RefId, warehouse_id: RefId };
export const AtQuery = z.strictObject({ ...TargetQuery, at: Instant });
export const HistoryQuery = z.strictObject({
  ...TargetQuery,
  until: Instant.optional(),
  limit: z.coerce
    .number({ error: invalid(400, 'stock.limit_invalid', { max: 1000 }) })
    .int(invalid(400, 'stock.limit_invalid', { max: 1000 }))
    .min(1, invalid(400, 'stock.limit_invalid', { max: 1000 }))
    .max(1000, invalid(400, 'stock.limit_invalid', { max: 1000 }))
    .default(100),
  before_revision: z.coerce
    .number({ error: invalid(400, 'stock.revision_invalid') })
    .int(invalid(400, 'stock.revision_invalid'))
    .min(0, invalid(400, 'stock.revision_invalid'))
    .max(Number.MAX_SAFE_INTEGER, invalid(400, 'stock.revision_invalid'))
    .optional(),
});
export const SERIES_MAX_POINTS = 1000;
export const SeriesQuery = z.strictObject({
  ...TargetQuery,
  from: Instant.optional(),
  to: Instant.optional(),
  points: z.coerce
    .number({ error: invalid(400, 'stock.points_invalid', { max: SERIES_MAX_POINTS }) })
    .int(invalid(400, 'stock.points_invalid', { max: SERIES_MAX_POINTS }))
    .min(2, invalid(400, 'stock.points_invalid', { max: SERIES_MAX_POINTS }))
    .max(SERIES_MAX_POINTS, invalid(400, 'stock.points_invalid', { max: SERIES_MAX_POINTS }))
    .default(200),
});

const StockFigures = z.object({ ...FigureFields, as_of_movement: MovementRow.nullable() });
const History = StockFigures.extend({ movements: z.array(MovementRow), total: z.number().int() });
const SeriesPoint = z.object({ at: z.string(), ...FigureFields });
const Series = z.object({
  from: z.string(),
  to: z.string(),
  kind: z.enum(['movements', 'sampled']),
  points: z.array(SeriesPoint),
});

/** Ledger rows from the projection's queries, with the names the report shows. */
async function named(
  db: Kysely<Database>,
  tenantId: string,
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
  const [users, places] = await Promise.all([
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
  ]);
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
    description: m.reason,
    source: m.source,
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

const FIGURE_COLUMNS = [
  'new_stock',
  'reserved',
  'in_process',
  'on_hold',
  'pos_on_hold',
  'supplier_on_hold',
  'incoming',
] as const;

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

async function series(
  db: Kysely<Database>,
  tenantId: string,
  masterCodeId: string,
  warehouseId: string,
  query: { from?: Date; to?: Date; points: number },
): Promise<z.infer<typeof Series>> {
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
  if (from > to) throw new ApiError(400, StockCode.timeInvalid, 'stock.range_invalid');
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

// ---- routes ----

const movementAccess = { access: { permission: 'inventory-stock-movement' } } as const;

export const stockReportRoutes: FastifyPluginAsyncZod<StockDeps> = async (app, { db }) => {
  app.get(
    '/api/inventory/stock',
    {
      config: { access: { permission: 'inventory-master-code' } },
      schema: {
        tags,
        summary:
          'The stock list per master code per warehouse for ag-grid (combos derived from their components); filter, search, sort, page',
        querystring: StockListQuery,
        response: { 200: Ok(GridPage(StockRow)), ...refusals },
      },
    },
    async (request) => ok(request, await listStock(db, seller(request).tenantId, request.query)),
  );

  app.get(
    '/api/inventory/stock/movements',
    {
      config: movementAccess,
      schema: {
        tags,
        summary:
          'The stock movement report, newest first: previous stock, change, in, out, new stock, warehouse, time, action, description, created by',
        querystring: MovementQuery,
        response: { 200: Ok(GridPage(MovementRow)), ...refusals },
      },
    },
    async (request) => ok(request, await listMovements(db, seller(request).tenantId, request.query)),
  );

  app.get(
    '/api/inventory/stock/movements/export',
    {
      config: { access: { permission: 'inventory-list-export' } },
      schema: {
        tags,
        summary: `The movement report as a CSV or XLSX file, with the report's filters (at most ${EXPORT_MAX_ROWS} rows)`,
        querystring: ExportQuery,
        response: {
          200: z.unknown().describe('The file: text/csv (UTF-8 with a BOM) or XLSX, as an attachment'),
          ...refusals,
        },
      },
    },
    async (request, reply) => {
      const { tenantId } = seller(request);
      const query = request.query;
      const filter = await ledgerFilter(db, tenantId, query);
      const where = ledgerWhere(tenantId, filter);
      const count = await withTenant(db, tenantId, (trx) =>
        sql<{ n: string }>`
          SELECT count(*) AS n FROM (
            SELECT 1 FROM stock_movements s WHERE ${where} LIMIT ${EXPORT_MAX_ROWS + 1}
          ) capped`.execute(trx),
      );
      if (Number(count.rows[0]?.n ?? 0) > EXPORT_MAX_ROWS) {
        throw new ApiError(400, StockCode.exportTooLarge, 'stock.export.too_many', { max: EXPORT_MAX_ROWS });
      }
      const direction = query.sortModel[0]?.sort ?? 'desc';
      const rows = ledgerRows(db, tenantId, filter, direction);
      const stamp = new Date().toISOString().slice(0, 10).replace(/-/g, '');
      const filename = `stock-movements-${stamp}.${query.format}`;
      reply.header('content-disposition', `attachment; filename="${filename}"`);
      reply.header('cache-control', 'no-store');
      if (query.format === 'csv') {
        reply.type('text/csv; charset=utf-8');
        return reply.send(Readable.from(csvLines(request.language, rows)));
      }
      reply.type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
      return reply.send(
        xlsxStream(request.language, rows, (error) =>
          request.log.error({ err: error }, 'xlsx export failed'),
        ),
      );
    },
  );

  app.get(
    '/api/inventory/stock/at',
    {
      config: movementAccess,
      schema: {
        tags,
        summary:
          'The stock of a master code in a warehouse as it was at a past instant, and the movement that left it so',
        querystring: AtQuery,
        response: { 200: Ok(StockFigures), ...refusals, 409: ErrorAnswer },
      },
    },
    async (request) => {
      const { tenantId } = seller(request);
      const target = await stockTarget(
        db,
        tenantId,
        request.query.master_code_id,
        request.query.warehouse_id,
      );
      const at = await stockAt(db, tenantId, target.masterCode.id, target.warehouse.id, request.query.at);
      const [asOf] = at.asOf ? await named(db, tenantId, refTarget(target), [at.asOf]) : [];
      return ok(request, { ...figureAnswer(at), as_of_movement: asOf ?? null });
    },
  );

  app.get(
    '/api/inventory/stock/history',
    {
      config: movementAccess,
      schema: {
        tags,
        summary:
          "The auditor's replay: a stock as of an instant and the movements that led to it, a page at a time (oldest first)",
        querystring: HistoryQuery,
        response: { 200: Ok(History), ...refusals, 409: ErrorAnswer },
      },
    },
    async (request) => {
      const { tenantId } = seller(request);
      const query = request.query;
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
        refTarget(target),
        history.asOf ? [history.asOf, ...history.movements] : [],
      );
      const [asOf, ...movements] = rows;
      return ok(request, {
        ...figureAnswer(history.asOf ?? initialState),
        as_of_movement: asOf ?? null,
        movements,
        total: history.total,
      });
    },
  );

  app.get(
    '/api/inventory/stock/series',
    {
      config: movementAccess,
      schema: {
        tags,
        summary:
          'A stock over time for a chart: every movement in the period, or the stock sampled at evenly spaced instants',
        querystring: SeriesQuery,
        response: { 200: Ok(Series), ...refusals, 409: ErrorAnswer },
      },
    },
    async (request) => {
      const { tenantId } = seller(request);
      const query = request.query;
      const target = await stockTarget(db, tenantId, query.master_code_id, query.warehouse_id);
      return ok(request, await series(db, tenantId, target.masterCode.id, target.warehouse.id, query));
    },
  );
};
