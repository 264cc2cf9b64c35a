import {
  type ComboItem,
  type MasterCode,
  type MasterCodeDetail,
  type MasterCodeGridQuery,
  type MasterCodeLocation,
  type MasterCodeSortColumn,
  PRICE_CURRENCIES,
} from '@api/contracts/inventory-master-codes';
import { isUuid } from '@domain/platform/ids';
import type { Database } from '@infra/db';
import {
  allOf,
  dateWhere,
  pageWindow,
  searchWhere,
  setWhere,
  sortTerms,
  textWhere,
} from '@projections/runtime/grid';
import { type Kysely, type RawBuilder, type SqlBool, sql, type Transaction } from 'kysely';

/**
 * Reading master codes (a plain table with its price list, combo items and rack locations;
 * commands/inventory/master-codes.ts writes them).
 */

const iso = (value: Date) => value.toISOString();

type Db = Kysely<Database> | Transaction<Database>;

/** Spec §4 "bound or unbound to listings": some channel SKU of a connected store is linked to the master code. */
const boundColumn = sql<boolean>`EXISTS (SELECT 1 FROM channel_skus s WHERE s.tenant_id = m.tenant_id AND s.master_code_id = m.id)`;

/** Whether a channel SKU is linked to the master code (its code then no longer changes). */
export async function isBound(db: Db, tenantId: string, masterCodeId: string): Promise<boolean> {
  const found = await db
    .selectFrom('channel_skus')
    .select('item_id')
    .where('tenant_id', '=', tenantId)
    .where('master_code_id', '=', masterCodeId)
    .limit(1)
    .executeTakeFirst();
  return found !== undefined;
}

export const selectMasterCodes = (db: Db, tenantId: string) =>
  db
    .selectFrom('master_codes as m')
    .leftJoin('inventory_categories as c', 'c.id', 'm.category_id')
    .leftJoin('brands as b', 'b.id', 'm.brand_id')
    .leftJoin('units as u', 'u.id', 'm.unit_id')
    .select([
      'm.id',
      'm.code',
      'm.name',
      'm.type',
      'm.status',
      'm.category_id',
      'c.name as category_name',
      'm.brand_id',
      'b.name as brand_name',
      'm.unit_id',
      'u.name as unit_name',
      'm.image_url',
      'm.image_id',
      'm.unit_price',
      'm.cost',
      'm.weight_kg',
      'm.seller_sku',
      'm.upc',
      'm.einvoice_classification',
      'm.remark',
      'm.soft_threshold',
      'm.initial_quantity',
      'm.pos_app_name',
      boundColumn.as('bound'),
      'm.created_at',
      'm.updated_at',
    ])
    .where('m.tenant_id', '=', tenantId);

export type MasterCodeRow = Awaited<
  ReturnType<ReturnType<typeof selectMasterCodes>['executeTakeFirstOrThrow']>
>;

const named = (id: string | null, name: string | null) => (id && name !== null ? { id, name } : null);

export function masterCode(row: MasterCodeRow): MasterCode {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    type: row.type,
    status: row.status,
    category: named(row.category_id, row.category_name),
    brand: named(row.brand_id, row.brand_name),
    unit: named(row.unit_id, row.unit_name),
    image_url: row.image_url,
    image_id: row.image_id,
    unit_price: row.unit_price,
    cost: row.cost,
    weight_kg: row.weight_kg,
    seller_sku: row.seller_sku,
    upc: row.upc,
    einvoice_classification: row.einvoice_classification,
    remark: row.remark,
    soft_threshold: row.soft_threshold,
    initial_quantity: row.initial_quantity,
    pos_app_name: row.pos_app_name,
    bound: row.bound,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

/** The components of some combos, each combo's in order (the combo grid and one combo read them alike). */
export const comboItemsOf = (db: Db, tenantId: string, comboIds: readonly string[]) =>
  db
    .selectFrom('combo_items as i')
    .innerJoin('master_codes as p', 'p.id', 'i.component_id')
    .select(['i.combo_id', 'i.component_id', 'p.code', 'p.name', 'p.status', 'i.quantity'])
    .where('i.tenant_id', '=', tenantId)
    .where('i.combo_id', 'in', comboIds)
    .orderBy('i.combo_id')
    .orderBy('i.position')
    .execute();

/** A combo's components, in order. */
export async function comboItems(db: Db, tenantId: string, comboId: string): Promise<ComboItem[]> {
  return (await comboItemsOf(db, tenantId, [comboId])).map(({ combo_id: _, ...item }) => item);
}

/** Master codes' places and racks (one master code's locations and the rack location grid read them alike). */
export const selectLocations = (db: Db, tenantId: string) =>
  db
    .selectFrom('master_code_locations as l')
    .innerJoin('warehouses as w', 'w.id', 'l.warehouse_id')
    .leftJoin('racks as r', 'r.id', 'l.rack_id')
    .select([
      'w.id as warehouse_id',
      'w.kind as warehouse_kind',
      'w.code as warehouse_code',
      'w.name as warehouse_name',
      'r.id as rack_id',
      'r.name as rack_name',
      'r.status as rack_status',
      'l.note',
      'l.updated_at',
    ])
    .where('l.tenant_id', '=', tenantId);

type LocationRow = Awaited<ReturnType<ReturnType<typeof selectLocations>['execute']>>[number];

export const locationOf = (row: LocationRow): MasterCodeLocation => ({
  warehouse: {
    id: row.warehouse_id,
    kind: row.warehouse_kind,
    code: row.warehouse_code,
    name: row.warehouse_name,
  },
  rack:
    row.rack_id && row.rack_name !== null && row.rack_status !== null
      ? { id: row.rack_id, name: row.rack_name, status: row.rack_status }
      : null,
  note: row.note,
  updated_at: iso(row.updated_at),
});

export async function masterCodeLocations(
  db: Db,
  tenantId: string,
  masterCodeId: string,
): Promise<MasterCodeLocation[]> {
  const rows = await selectLocations(db, tenantId)
    .where('l.master_code_id', '=', masterCodeId)
    .orderBy('w.is_default', 'desc')
    .orderBy((eb) => eb.fn('lower', ['w.name']))
    .orderBy('w.id')
    .execute();
  return rows.map(locationOf);
}

/** The master code row of this tenant, or undefined (an id that is not a uuid names nothing). */
export async function findMasterCodeRow(db: Db, tenantId: string, id: string) {
  return isUuid(id) ? selectMasterCodes(db, tenantId).where('m.id', '=', id).executeTakeFirst() : undefined;
}

/** One master code with its price list, combo items and rack locations; another tenant's answers as missing. */
export async function masterCodeById(
  db: Db,
  tenantId: string,
  id: string,
): Promise<MasterCodeDetail | undefined> {
  const row = await findMasterCodeRow(db, tenantId, id);
  if (!row) return undefined;
  const [prices, items, locations] = await Promise.all([
    db
      .selectFrom('master_code_prices')
      .select(['currency', 'unit_price'])
      .where('tenant_id', '=', tenantId)
      .where('master_code_id', '=', row.id)
      .execute(),
    row.type === 'combo' ? comboItems(db, tenantId, row.id) : Promise.resolve([]),
    masterCodeLocations(db, tenantId, row.id),
  ]);
  prices.sort((a, b) => PRICE_CURRENCIES.indexOf(a.currency) - PRICE_CURRENCIES.indexOf(b.currency));
  return { ...masterCode(row), prices, items, locations };
}

// ---- the master code grid ----

const textColumns = {
  code: sql<string>`m.code`,
  name: sql<string>`m.name`,
  category: sql<string>`coalesce(c.name, '')`,
  brand: sql<string>`coalesce(b.name, '')`,
  seller_sku: sql<string>`m.seller_sku`,
  upc: sql<string>`m.upc`,
} as const;

const sortColumns: Record<MasterCodeSortColumn, RawBuilder<unknown>> = {
  code: sql`lower(m.code)`,
  name: sql`lower(m.name)`,
  type: sql`m.type`,
  status: sql`m.status`,
  category: sql`lower(c.name)`,
  brand: sql`lower(b.name)`,
  seller_sku: sql`lower(m.seller_sku)`,
  upc: sql`m.upc`,
  unit_price: sql`m.unit_price`,
  created_at: sql`m.created_at`,
  updated_at: sql`m.updated_at`,
};

function conditions(query: MasterCodeGridQuery) {
  const where = [];
  const { filterModel } = query;
  for (const column of Object.keys(textColumns) as (keyof typeof textColumns)[]) {
    const filter = filterModel[column];
    if (filter) where.push(textWhere(textColumns[column], filter));
  }
  if (filterModel.type) where.push(setWhere(sql`m.type`, filterModel.type.values));
  if (filterModel.status) where.push(setWhere(sql`m.status`, filterModel.status.values));
  if (filterModel.bound) {
    const wanted = new Set(filterModel.bound.values);
    if (wanted.size === 1) where.push(wanted.has('bound') ? boundColumn : sql<boolean>`NOT ${boundColumn}`);
    else if (wanted.size === 0) where.push(sql<boolean>`false`);
  }
  if (filterModel.updated_at) where.push(dateWhere(sql<Date>`m.updated_at`, filterModel.updated_at));
  const search = query.search?.trim();
  if (search) {
    where.push(
      searchWhere([textColumns.code, textColumns.name, textColumns.seller_sku, textColumns.upc], search),
    );
  }
  return allOf(where);
}

export async function listMasterCodes(
  db: Kysely<Database>,
  tenantId: string,
  query: MasterCodeGridQuery,
): Promise<{ rows: MasterCodeRow[]; lastRow: number }> {
  return masterCodePage(db, tenantId, conditions(query), sortTerms(query.sortModel, sortColumns), query);
}

/** A page of the account's master codes matching `where`, in `order` (else newest change first), and the count. */
export async function masterCodePage(
  db: Kysely<Database>,
  tenantId: string,
  where: RawBuilder<SqlBool>,
  order: RawBuilder<unknown>[],
  query: { startRow: number; endRow: number },
) {
  const filtered = selectMasterCodes(db, tenantId).where(where);
  let page = filtered;
  for (const term of order) page = page.orderBy(term);
  if (order.length === 0) page = page.orderBy('m.updated_at', 'desc');
  const { limit, offset } = pageWindow(query);
  const [rows, total] = await Promise.all([
    page.orderBy('m.id').limit(limit).offset(offset).execute(),
    filtered
      .clearSelect()
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, lastRow: Number(total.n) };
}

/**
 * What barcode labels print of the named master codes: code, name and unit price (the tenant's own; only the
 * account's codes), the account's country, and the price list entries in `currency` when one is asked for.
 */
export async function labelSources(
  db: Db,
  tenantId: string,
  ids: readonly string[],
  currency: (typeof PRICE_CURRENCIES)[number] | null,
) {
  const [rows, tenant, listPrices] = await Promise.all([
    db
      .selectFrom('master_codes')
      .select(['id', 'code', 'name', 'unit_price'])
      .where('tenant_id', '=', tenantId)
      .where('id', 'in', ids)
      .execute(),
    db.selectFrom('tenants').select('country').where('id', '=', tenantId).executeTakeFirstOrThrow(),
    currency !== null
      ? db
          .selectFrom('master_code_prices')
          .select(['master_code_id', 'unit_price'])
          .where('tenant_id', '=', tenantId)
          .where('master_code_id', 'in', ids)
          .where('currency', '=', currency)
          .execute()
      : Promise.resolve([]),
  ]);
  return { rows, country: tenant.country, listPrices };
}
