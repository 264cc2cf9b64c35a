import type {
  Rack,
  RackGridQuery,
  RackLocationGridQuery,
  RackLocationRow,
} from '@api/contracts/inventory-racks';
import { isUuid } from '@domain/platform/ids';
import type { Database } from '@infra/db';
import { allOf, pageWindow, searchWhere, setWhere, sortTerms, textWhere } from '@projections/runtime/grid';
import { type Kysely, type RawBuilder, type SqlBool, sql, type Transaction } from 'kysely';
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
