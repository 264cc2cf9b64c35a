import type { Supplier, SupplierOption, SupplierQuery } from '@api/contracts/purchases';
import type { Database } from '@infra/db';
import { type Kysely, type RawBuilder, type Selectable, sql, type Transaction } from 'kysely';
import { allOf, pageWindow, searchWhere, sortTerms, textWhere } from './runtime/grid';

/**
 * The purchasing suppliers (a plain table of reference data; commands/purchases/suppliers.ts writes it): the grid,
 * the purchase form's options, one supplier, and the lookups purchase orders start with.
 */

type Db = Kysely<Database> | Transaction<Database>;
export type SupplierRow = Selectable<Database['suppliers']>;

const isUuid = (value: string) =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);

const selectSuppliers = (db: Db, tenantId: string) =>
  db.selectFrom('suppliers').selectAll().where('tenant_id', '=', tenantId);

export const supplierAnswer = (row: SupplierRow): Supplier => ({
  id: row.id,
  code: row.code,
  name: row.name,
  company: row.company,
  contact_number: row.contact_number,
  email: row.email,
  address: row.address,
  city: row.city,
  postal_code: row.postal_code,
  state: row.state,
  country: row.country,
  currency: row.currency,
  vat_number: row.vat_number,
  status: row.status,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

/** The account's supplier by id; undefined for another account's or an unknown id. */
export async function supplierRow(db: Db, tenantId: string, id: string): Promise<SupplierRow | undefined> {
  return isUuid(id)
    ? selectSuppliers(db, tenantId).where('id', '=', id.toLowerCase()).executeTakeFirst()
    : undefined;
}

const column = (name: string): RawBuilder<string> => sql<string>`${sql.ref(name)}`;

/** A page of the account's suppliers (ag-grid Infinite Row Model). */
export async function supplierList(db: Kysely<Database>, tenantId: string, query: SupplierQuery) {
  const filter = query.filterModel;
  const where = [
    filter.code && textWhere(column('code'), filter.code),
    filter.name && textWhere(column('name'), filter.name),
    filter.company && textWhere(column('company'), filter.company),
    filter.contact_number && textWhere(column('contact_number'), filter.contact_number),
    filter.city && textWhere(column('city'), filter.city),
    filter.country && textWhere(column('country'), filter.country),
    filter.status && sql<boolean>`status = ANY(${filter.status.values}::text[])`,
    query.search &&
      searchWhere(
        [column('code'), column('name'), column('company'), column('contact_number'), column('email')],
        query.search,
      ),
  ].filter((part) => !!part) as RawBuilder<boolean>[];
  // Every sortable column is the table's column of that name.
  const columns = Object.fromEntries(query.sortModel.map(({ colId }) => [colId, column(colId)])) as Record<
    SupplierQuery['sortModel'][number]['colId'],
    RawBuilder<unknown>
  >;
  const order = sortTerms(query.sortModel, columns);
  const { limit, offset } = pageWindow(query);
  const rows = await selectSuppliers(db, tenantId)
    .where(allOf(where))
    .orderBy(sql.join([...order, sql`lower(name) ASC`, sql`id ASC`]))
    .limit(limit)
    .offset(offset)
    .execute();
  const { count } = await db
    .selectFrom('suppliers')
    .select(sql<number>`count(*)::int`.as('count'))
    .where('tenant_id', '=', tenantId)
    .where(allOf(where))
    .executeTakeFirstOrThrow();
  return { rows: rows.map(supplierAnswer), lastRow: count };
}

/** The active suppliers, by name, for the purchase form. */
export const supplierOptions = (db: Kysely<Database>, tenantId: string): Promise<SupplierOption[]> =>
  db
    .selectFrom('suppliers')
    .select(['id', 'code', 'name', 'company', 'currency'])
    .where('tenant_id', '=', tenantId)
    .where('status', '=', 'active')
    .orderBy(sql`lower(name)`)
    .orderBy('id')
    .execute();

/** The supplier a document names, as its detail shows it (nulls when it is gone). */
export async function supplierNamed(db: Kysely<Database>, tenantId: string, id: string) {
  const row = await supplierRow(db, tenantId, id);
  return { id, code: row?.code ?? null, name: row?.name ?? null, company: row?.company ?? null };
}
