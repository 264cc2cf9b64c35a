import { DateFilter, gridQuery, setFilter, TextFilter } from '@api/contracts/grid';
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
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { z } from 'zod';
import {
  MASTER_CODE_STATUSES,
  MASTER_CODE_TYPES,
  type MasterCodeRow,
  selectMasterCodes,
} from './master-code-data';

/**
 * The master code grid (ag-grid Infinite Row Model): one account's master codes, paged, sorted and filtered in SQL.
 * Text filters on code, name, category, brand, seller SKU and UPC; set filters on type and status; a date filter on
 * the last change; a free-text search over code, name, seller SKU and UPC.
 */

export const MASTER_CODE_SORT_COLUMNS = [
  'code',
  'name',
  'type',
  'status',
  'category',
  'brand',
  'seller_sku',
  'upc',
  'unit_price',
  'created_at',
  'updated_at',
] as const;
type SortColumn = (typeof MASTER_CODE_SORT_COLUMNS)[number];

export const MasterCodeGridQuery = gridQuery(MASTER_CODE_SORT_COLUMNS, {
  code: TextFilter,
  name: TextFilter,
  category: TextFilter,
  brand: TextFilter,
  seller_sku: TextFilter,
  upc: TextFilter,
  type: setFilter(MASTER_CODE_TYPES),
  status: setFilter(MASTER_CODE_STATUSES),
  updated_at: DateFilter,
});
export type MasterCodeGridQuery = z.infer<typeof MasterCodeGridQuery>;

const textColumns = {
  code: sql<string>`m.code`,
  name: sql<string>`m.name`,
  category: sql<string>`coalesce(c.name, '')`,
  brand: sql<string>`coalesce(b.name, '')`,
  seller_sku: sql<string>`m.seller_sku`,
  upc: sql<string>`m.upc`,
} as const;

const sortColumns: Record<SortColumn, RawBuilder<unknown>> = {
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
  const filtered = selectMasterCodes(db, tenantId).where(conditions(query));
  let page = filtered;
  for (const term of sortTerms(query.sortModel, sortColumns)) page = page.orderBy(term);
  if (query.sortModel.length === 0) page = page.orderBy('m.updated_at', 'desc');
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
