import type { GridPage } from '@api/contracts/common';
import type {
  PickerMasterCode,
  PickerPlace,
  RequestListQuery,
  RequestListRow,
  TransferListQuery,
  TransferListRow,
} from '@api/contracts/transfers';
import { type REQUEST_STATUSES, refuseTransfer, type TRANSFER_STATUSES } from '@domain/transfers/rules';
import type { Database } from '@infra/db';
import { withTenant } from '@infra/db/tenant';
import { type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import { placeOfTenant } from './documents.queries';
import { knownPlaces } from './inventory/warehouses';
import {
  allOf,
  dateWhere,
  literal,
  pageWindow,
  searchWhere,
  setWhere,
  sortTerms,
  textWhere,
} from './runtime/grid';

/**
 * The queries on the read model of projections/transfers.ts: the request and transfer lists (ag-grid Infinite Row
 * Model) with filters, sort and paging in SQL, the places and people named by joins, the tenant in every query and
 * row-level security behind it; and what the transfer forms pick from.
 */

const iso = (value: Date | null) => (value ? value.toISOString() : null);

/** A place a list is narrowed to: the account's, or 404 (another account's, or no such id). */
async function placeId(db: Kysely<Database>, tenantId: string, id: string | undefined) {
  if (id === undefined) return undefined;
  const row = await placeOfTenant(db, tenantId, id);
  if (!row) throw refuseTransfer('DOCUMENT_NOT_FOUND');
  return row.id;
}

const placeName = (alias: 'fw' | 'tw') =>
  sql<string>`coalesce(${sql.raw(alias)}.name || ' ' || ${sql.raw(alias)}.code, '')`;

/** The conditions both lists share: places, text filters on places and reference, status, search. */
async function commonWhere(
  db: Kysely<Database>,
  tenantId: string,
  query: RequestListQuery | TransferListQuery,
): Promise<RawBuilder<SqlBool>[]> {
  const parts: RawBuilder<SqlBool>[] = [sql<SqlBool>`d.tenant_id = ${tenantId}`];
  const from = await placeId(db, tenantId, query.from_warehouse_id);
  const to = await placeId(db, tenantId, query.to_warehouse_id);
  const either = await placeId(db, tenantId, query.warehouse_id);
  if (from) parts.push(sql<SqlBool>`d.from_warehouse_id = ${from}`);
  if (to) parts.push(sql<SqlBool>`d.to_warehouse_id = ${to}`);
  if (either) parts.push(sql<SqlBool>`(d.from_warehouse_id = ${either} OR d.to_warehouse_id = ${either})`);
  if (query.status) parts.push(sql<SqlBool>`d.status = ${query.status}`);
  const filters = query.filterModel;
  if (filters.reference) parts.push(textWhere(sql`d.reference`, filters.reference));
  if (filters.remark) parts.push(textWhere(sql`d.remark`, filters.remark));
  if (filters.from) parts.push(textWhere(placeName('fw'), filters.from));
  if (filters.to) parts.push(textWhere(placeName('tw'), filters.to));
  if (filters.status) parts.push(setWhere(sql`d.status`, filters.status.values));
  if (filters.created_at) parts.push(dateWhere(sql`d.created_at`, filters.created_at));
  const search = query.search?.trim();
  if (search) parts.push(searchWhere([sql`d.reference`, sql`d.remark`], search));
  return parts;
}

const joins = (tenantId: string) => sql`
  LEFT JOIN ${knownPlaces(tenantId)} fw ON fw.id = d.from_warehouse_id
  LEFT JOIN ${knownPlaces(tenantId)} tw ON tw.id = d.to_warehouse_id`;

const commonSorts = {
  reference: sql`d.reference`,
  from: placeName('fw'),
  to: placeName('tw'),
  status: sql`d.status`,
  total_quantity: sql`d.total_quantity`,
  created_at: sql`d.created_at`,
  updated_at: sql`d.updated_at`,
};

interface PlaceColumns {
  fw_code: string | null;
  fw_name: string | null;
  fw_kind: 'warehouse' | 'branch' | null;
  tw_code: string | null;
  tw_name: string | null;
  tw_kind: 'warehouse' | 'branch' | null;
}

const placesOf = (row: PlaceColumns & { from_warehouse_id: string; to_warehouse_id: string }) => ({
  from_warehouse: { id: row.from_warehouse_id, code: row.fw_code, name: row.fw_name, kind: row.fw_kind },
  to_warehouse: { id: row.to_warehouse_id, code: row.tw_code, name: row.tw_name, kind: row.tw_kind },
});

const userColumn = (column: string, alias: string) =>
  sql.raw(
    `(SELECT nullif(trim(u.first_name || ' ' || u.last_name), '') FROM users u WHERE u.id = d.${column}) AS ${alias}`,
  );

const person = (id: string | null, name: string | null) => (id ? { id, name } : null);

/**
 * One page of `table`'s documents (ag-grid's window of `query`, its sort then the newest first) with their places
 * and the names of the people in `people` (columns of user ids, answered as `<column>_name`), and how many match.
 */
async function documentPage<Row>(
  db: Kysely<Database>,
  tenantId: string,
  table: 'transfer_requests' | 'transfers',
  query: RequestListQuery | TransferListQuery,
  where: RawBuilder<SqlBool>[],
  sorts: Record<string, RawBuilder<unknown>>,
  people: readonly string[],
): Promise<{ rows: (PlaceColumns & Row)[]; lastRow: number }> {
  const condition = allOf(where);
  const order = sql.join([...sortTerms(query.sortModel, sorts), sql`d.created_at DESC`, sql`d.id`]);
  const { limit, offset } = pageWindow(query);
  const names = sql.join(people.map((column) => userColumn(column, `${column}_name`)));
  return withTenant(db, tenantId, async (trx) => {
    const rows = await sql<PlaceColumns & Row>`
      SELECT d.*, fw.code AS fw_code, fw.name AS fw_name, fw.kind AS fw_kind,
        tw.code AS tw_code, tw.name AS tw_name, tw.kind AS tw_kind, ${names}
      FROM ${sql.table(table)} d ${joins(tenantId)}
      WHERE ${condition}
      ORDER BY ${order}
      LIMIT ${limit} OFFSET ${offset}`.execute(trx);
    const count = await sql<{ n: string }>`
      SELECT count(*) AS n FROM ${sql.table(table)} d ${joins(tenantId)} WHERE ${condition}`.execute(trx);
    return { rows: rows.rows, lastRow: Number(count.rows[0]?.n ?? 0) };
  });
}

export async function requestPage(
  db: Kysely<Database>,
  tenantId: string,
  query: RequestListQuery,
): Promise<GridPage<RequestListRow>> {
  const { rows, lastRow } = await documentPage<{
    id: string;
    reference: string;
    status: (typeof REQUEST_STATUSES)[number];
    from_warehouse_id: string;
    to_warehouse_id: string;
    remark: string;
    reject_reason: string | null;
    line_count: number;
    total_quantity: string;
    transfer_id: string | null;
    created_by: string | null;
    created_by_name: string | null;
    created_at: Date;
    approved_at: Date | null;
    rejected_at: Date | null;
    cancelled_at: Date | null;
    updated_at: Date;
  }>(db, tenantId, 'transfer_requests', query, await commonWhere(db, tenantId, query), commonSorts, [
    'created_by',
  ]);
  return {
    lastRow,
    rows: rows.map((row) => ({
      id: row.id,
      reference: row.reference,
      status: row.status,
      ...placesOf(row),
      remark: row.remark,
      reject_reason: row.reject_reason,
      line_count: row.line_count,
      total_quantity: Number(row.total_quantity),
      transfer_id: row.transfer_id,
      created_by: person(row.created_by, row.created_by_name),
      created_at: row.created_at.toISOString(),
      approved_at: iso(row.approved_at),
      rejected_at: iso(row.rejected_at),
      cancelled_at: iso(row.cancelled_at),
      updated_at: row.updated_at.toISOString(),
    })),
  };
}

export async function transferPage(
  db: Kysely<Database>,
  tenantId: string,
  query: TransferListQuery,
): Promise<GridPage<TransferListRow>> {
  const where = await commonWhere(db, tenantId, query);
  if (query.filterModel.shipped_at) where.push(dateWhere(sql`d.shipped_at`, query.filterModel.shipped_at));
  const sorts = {
    ...commonSorts,
    received_quantity: sql`d.received_quantity`,
    shipped_at: sql`d.shipped_at`,
    received_at: sql`d.received_at`,
  };
  const { rows, lastRow } = await documentPage<{
    id: string;
    reference: string;
    request_id: string | null;
    status: (typeof TRANSFER_STATUSES)[number];
    confirmed: boolean;
    from_warehouse_id: string;
    to_warehouse_id: string;
    remark: string;
    cancel_reason: string | null;
    line_count: number;
    total_quantity: string;
    shipped_quantity: string;
    received_quantity: string;
    returned_quantity: string;
    created_by: string | null;
    created_by_name: string | null;
    created_at: Date;
    shipped_by: string | null;
    shipped_by_name: string | null;
    shipped_at: Date | null;
    received_by: string | null;
    received_by_name: string | null;
    received_at: Date | null;
    cancelled_by: string | null;
    cancelled_by_name: string | null;
    cancelled_at: Date | null;
    completed_at: Date | null;
    updated_at: Date;
  }>(db, tenantId, 'transfers', query, where, sorts, [
    'created_by',
    'shipped_by',
    'received_by',
    'cancelled_by',
  ]);
  return {
    lastRow,
    rows: rows.map((row) => {
      const shipped = Number(row.shipped_quantity);
      const received = Number(row.received_quantity);
      const returned = Number(row.returned_quantity);
      return {
        id: row.id,
        reference: row.reference,
        request_id: row.request_id,
        status: row.status,
        confirmed: row.confirmed,
        ...placesOf(row),
        remark: row.remark,
        cancel_reason: row.cancel_reason,
        line_count: row.line_count,
        total_quantity: Number(row.total_quantity),
        shipped_quantity: shipped,
        received_quantity: received,
        returned_quantity: returned,
        in_transit_quantity: shipped - received - returned,
        created_by: person(row.created_by, row.created_by_name),
        created_at: row.created_at.toISOString(),
        shipped_by: person(row.shipped_by, row.shipped_by_name),
        shipped_at: iso(row.shipped_at),
        received_by: person(row.received_by, row.received_by_name),
        received_at: iso(row.received_at),
        cancelled_by: person(row.cancelled_by, row.cancelled_by_name),
        cancelled_at: iso(row.cancelled_at),
        completed_at: iso(row.completed_at),
        updated_at: row.updated_at.toISOString(),
      };
    }),
  };
}

// ---- what the forms pick from ----

/** The account's warehouses (default first) and branches: for users who hold a transfer key but no inventory one. */
export async function pickerPlaces(db: Kysely<Database>, tenantId: string): Promise<PickerPlace[]> {
  return db
    .selectFrom('warehouses')
    .select(['id', 'code', 'name', 'kind'])
    .where('tenant_id', '=', tenantId)
    .orderBy('kind', 'desc')
    .orderBy('is_default', 'desc')
    .orderBy('name')
    .execute();
}

/** Standard master codes (combos have no stock to move) whose code, name or seller SKU contains `search`. */
export async function pickerMasterCodes(
  db: Kysely<Database>,
  tenantId: string,
  opts: { search?: string | undefined; limit: number },
): Promise<PickerMasterCode[]> {
  const search = opts.search?.trim();
  let query = db
    .selectFrom('master_codes')
    .select(['id', 'code', 'name', 'status'])
    .where('tenant_id', '=', tenantId)
    .where('type', '=', 'standard');
  if (search) {
    const pattern = `%${literal(search)}%`;
    query = query.where(
      sql<boolean>`(code ILIKE ${pattern} OR name ILIKE ${pattern} OR seller_sku ILIKE ${pattern})`,
    );
  }
  return query.orderBy('code').limit(opts.limit).execute();
}
