import type {
  Rack,
  RackGridQuery,
  RackLocationGridQuery,
  RackLocationRow,
} from '@api/contracts/inventory-racks';
import { locationKey } from '@domain/batches/pick-list';
import { isUuid } from '@domain/platform/ids';
import type { Database } from '@infra/db';
import { allOf, pageWindow, searchWhere, setWhere, sortTerms, textWhere } from '@projections/runtime/grid';
import { type Kysely, type RawBuilder, type SqlBool, sql, type Transaction } from 'kysely';
import { componentsOfCombos } from './combos';
import { locationOf, selectLocations } from './master-codes';

/** Reading racks and master codes' rack locations (plain tables; commands/inventory/racks.ts writes them). */

type Db = Kysely<Database> | Transaction<Database>;
const iso = (value: Date) => value.toISOString();

// ---- racks ----

const selectRacks = (db: Db, tenantId: string) =>
  db
    .selectFrom('racks as r')
    .innerJoin('warehouses as w', 'w.id', 'r.warehouse_id')
    .select([
      'r.id',
      'r.name',
      'r.status',
      'r.note',
      'r.created_at',
      'r.updated_at',
      'w.id as warehouse_id',
      'w.kind as warehouse_kind',
      'w.code as warehouse_code',
      'w.name as warehouse_name',
      sql<number>`(SELECT count(*)::int FROM master_code_locations l WHERE l.rack_id = r.id)`.as(
        'master_code_count',
      ),
    ])
    .where('r.tenant_id', '=', tenantId);

type RackRow = Awaited<ReturnType<ReturnType<typeof selectRacks>['executeTakeFirstOrThrow']>>;

const rack = (row: RackRow): Rack => ({
  id: row.id,
  warehouse: {
    id: row.warehouse_id,
    kind: row.warehouse_kind,
    code: row.warehouse_code,
    name: row.warehouse_name,
  },
  name: row.name,
  status: row.status,
  note: row.note,
  master_code_count: row.master_code_count,
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
});

export async function rackById(db: Db, tenantId: string, id: string): Promise<Rack | undefined> {
  const row = isUuid(id)
    ? await selectRacks(db, tenantId).where('r.id', '=', id).executeTakeFirst()
    : undefined;
  return row && rack(row);
}

/** A place id in the query that is not a uuid names no place: the list is empty. */
const scopeTo = (column: RawBuilder<string>, warehouseId: string | undefined): RawBuilder<SqlBool>[] =>
  warehouseId === undefined
    ? []
    : [isUuid(warehouseId) ? sql<SqlBool>`${column} = ${warehouseId}` : sql<SqlBool>`false`];

export async function listRacks(db: Kysely<Database>, tenantId: string, query: RackGridQuery) {
  const { filterModel } = query;
  const where = scopeTo(sql`r.warehouse_id`, query.warehouse_id);
  if (filterModel.name) where.push(textWhere(sql`r.name`, filterModel.name));
  if (filterModel.note) where.push(textWhere(sql`r.note`, filterModel.note));
  if (filterModel.warehouse) where.push(textWhere(sql`w.name`, filterModel.warehouse));
  if (filterModel.status) where.push(setWhere(sql`r.status`, filterModel.status.values));
  const search = query.search?.trim();
  if (search) where.push(searchWhere([sql`r.name`, sql`r.note`, sql`w.name`, sql`w.code`], search));
  const filtered = selectRacks(db, tenantId).where(allOf(where));
  let page = filtered;
  for (const term of sortTerms(query.sortModel, {
    name: sql`lower(r.name)`,
    status: sql`r.status`,
    warehouse: sql`lower(w.name)`,
    updated_at: sql`r.updated_at`,
  }))
    page = page.orderBy(term);
  if (query.sortModel.length === 0) page = page.orderBy(sql`lower(w.name)`).orderBy(sql`lower(r.name)`);
  const { limit, offset } = pageWindow(query);
  const [rows, total] = await Promise.all([
    page.orderBy('r.id').limit(limit).offset(offset).execute(),
    filtered
      .clearSelect()
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map(rack), lastRow: Number(total.n) };
}

// ---- rack locations ----

export async function listLocations(
  db: Kysely<Database>,
  tenantId: string,
  query: RackLocationGridQuery,
): Promise<{ rows: RackLocationRow[]; lastRow: number }> {
  const { filterModel } = query;
  const where = scopeTo(sql`l.warehouse_id`, query.warehouse_id);
  if (filterModel.code) where.push(textWhere(sql`m.code`, filterModel.code));
  if (filterModel.name) where.push(textWhere(sql`m.name`, filterModel.name));
  if (filterModel.warehouse) where.push(textWhere(sql`w.name`, filterModel.warehouse));
  if (filterModel.rack) where.push(textWhere(sql`coalesce(r.name, '')`, filterModel.rack));
  if (filterModel.note) where.push(textWhere(sql`l.note`, filterModel.note));
  const search = query.search?.trim();
  if (search)
    where.push(searchWhere([sql`m.code`, sql`m.name`, sql`coalesce(r.name, '')`, sql`l.note`], search));
  const filtered = selectLocations(db, tenantId)
    .innerJoin('master_codes as m', 'm.id', 'l.master_code_id')
    .select(['m.id as master_code_id', 'm.code', 'm.name', 'm.status'])
    .where(allOf(where));
  let page = filtered;
  for (const term of sortTerms(query.sortModel, {
    code: sql`lower(m.code)`,
    name: sql`lower(m.name)`,
    warehouse: sql`lower(w.name)`,
    rack: sql`lower(r.name)`,
    updated_at: sql`l.updated_at`,
  }))
    page = page.orderBy(term);
  if (query.sortModel.length === 0) page = page.orderBy(sql`lower(w.name)`).orderBy(sql`lower(m.code)`);
  const { limit, offset } = pageWindow(query);
  const [rows, total] = await Promise.all([
    page.orderBy('l.master_code_id').orderBy('l.warehouse_id').limit(limit).offset(offset).execute(),
    filtered
      .clearSelect()
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return {
    rows: rows.map((row) => ({
      master_code: { id: row.master_code_id, code: row.code, name: row.name, status: row.status },
      ...locationOf(row),
    })),
    lastRow: Number(total.n),
  };
}

// ---- where an order's items are kept ----

/**
 * The racks each master code is kept on in each warehouse, keyed `locationKey(masterCodeId, warehouseId)` and sorted
 * by name; a place without a rack reads as its note. Ids that cannot be a row's (not uuids) have none.
 */
export async function rackNamesOf(
  db: Db,
  tenantId: string,
  masterCodeIds: readonly string[],
  warehouseIds: readonly string[],
): Promise<Map<string, string[]>> {
  const masters = [...new Set(masterCodeIds.filter(isUuid))];
  const warehouses = [...new Set(warehouseIds.filter(isUuid))];
  const names = new Map<string, string[]>();
  if (masters.length === 0 || warehouses.length === 0) return names;
  const places = await db
    .selectFrom('master_code_locations as l')
    .leftJoin('racks as r', (join) =>
      join.onRef('r.id', '=', 'l.rack_id').onRef('r.tenant_id', '=', 'l.tenant_id'),
    )
    .select(['l.master_code_id', 'l.warehouse_id', 'r.name as rack', 'l.note'])
    .where('l.tenant_id', '=', tenantId)
    .where('l.master_code_id', 'in', masters)
    .where('l.warehouse_id', 'in', warehouses)
    .execute();
  for (const place of places) {
    const name = place.rack ?? place.note;
    if (!name) continue;
    const key = locationKey(place.master_code_id, place.warehouse_id);
    names.set(key, [...(names.get(key) ?? []), name].sort());
  }
  return names;
}

/**
 * The racks of order lines in their orders' warehouses (spec §3 "rack location"), by the caller's key for each line:
 * the master code's, or for a combo, which has no shelf of its own, its components'.
 */
export async function lineRackLocations(
  db: Db,
  tenantId: string,
  lines: readonly { key: string; warehouseId: string; masterCodeId: string | null }[],
): Promise<Map<string, string[]>> {
  const mapped = lines.flatMap((line) => (line.masterCodeId ? [line.masterCodeId] : []));
  const combos = await componentsOfCombos(db, tenantId, [...new Set(mapped.filter(isUuid))]);
  const partsOf = (masterCodeId: string) =>
    combos.get(masterCodeId)?.map((part) => part.masterCodeId) ?? [masterCodeId];
  const names = await rackNamesOf(
    db,
    tenantId,
    mapped.flatMap(partsOf),
    lines.map((line) => line.warehouseId),
  );
  const racksOf = (line: (typeof lines)[number]) =>
    line.masterCodeId
      ? [
          ...new Set(
            partsOf(line.masterCodeId).flatMap(
              (part) => names.get(locationKey(part, line.warehouseId)) ?? [],
            ),
          ),
        ].sort()
      : [];
  return new Map(lines.map((line) => [line.key, racksOf(line)]));
}
