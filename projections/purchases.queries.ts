import type {
  GoodsReceiptListQuery,
  GoodsReceiptListRow,
  MasterCodeOption,
  PlaceOption,
  PurchaseListQuery,
  PurchaseListRow,
  PurchaseSettings,
} from '@api/contracts/purchases';
import { GOODS_RECEIPT_STATUS_NAMES, type GoodsReceiptStatus } from '@domain/purchases/goods-receipt';
import { fromUnits, toUnits } from '@domain/purchases/money';
import type { PurchaseStatus } from '@domain/purchases/purchase';
import type { Database } from '@infra/db';
import { withTenant } from '@infra/db/tenant';
import { type Kysely, type RawBuilder, sql, type Transaction } from 'kysely';
import { allOf, dateWhere, literal, pageWindow, searchWhere, sortTerms, textWhere } from './runtime/grid';

/**
 * The queries the purchasing routes answer from: the purchase and goods receive note lists (projections/purchases.ts
 * keeps their tables), the account's purchase settings and the pickers of the purchase screens.
 */

type Db = Kysely<Database> | Transaction<Database>;
type Page<Row> = { rows: Row[]; lastRow: number };

// ---- purchase orders ----

const PURCHASE_COLUMNS: Record<PurchaseListQuery['sortModel'][number]['colId'], RawBuilder<unknown>> = {
  po_number: sql`p.po_number`,
  reference: sql`p.reference`,
  date: sql`p.purchase_date`,
  supplier_name: sql`s.name`,
  warehouse_name: sql`w.name`,
  status: sql`p.status`,
  item_count: sql`p.item_count`,
  quantity: sql`p.quantity`,
  received: sql`p.received`,
  total: sql`p.total`,
  estimated_arrival: sql`p.estimated_arrival`,
  created_at: sql`p.created_at`,
};

/** A page of the account's purchase orders (ag-grid Infinite Row Model). */
export async function purchaseList(
  db: Kysely<Database>,
  tenantId: string,
  query: PurchaseListQuery,
): Promise<Page<PurchaseListRow>> {
  const filter = query.filterModel;
  const where = [
    filter.po_number && textWhere(sql<string>`p.po_number`, filter.po_number),
    filter.reference && textWhere(sql<string>`p.reference`, filter.reference),
    filter.supplier_name && textWhere(sql<string>`coalesce(s.name, '')`, filter.supplier_name),
    filter.warehouse_name && textWhere(sql<string>`coalesce(w.name, '')`, filter.warehouse_name),
    filter.status && sql<boolean>`p.status = ANY(${filter.status.values}::text[])`,
    filter.date && dateWhere(sql<Date>`(p.purchase_date || 'T00:00:00Z')::timestamptz`, filter.date),
    filter.created_at && dateWhere(sql<Date>`p.created_at`, filter.created_at),
    query.supplier_id && sql<boolean>`p.supplier_id = ${query.supplier_id.toLowerCase()}`,
    query.status && sql<boolean>`p.status = ${query.status}`,
    query.search &&
      searchWhere([sql`p.po_number`, sql`p.reference`, sql`coalesce(s.name, '')`], query.search),
  ].filter((part) => !!part) as RawBuilder<boolean>[];
  const order = sortTerms(query.sortModel, PURCHASE_COLUMNS);
  const { limit, offset } = pageWindow(query);
  const base = (trx: Kysely<Database>) =>
    trx
      .selectFrom('purchases as p')
      .leftJoin('suppliers as s', (join) =>
        join
          .on(sql`s.id::text`, '=', sql.ref('p.supplier_id'))
          .on('s.tenant_id', '=', sql.ref('p.tenant_id')),
      )
      .leftJoin('warehouses as w', (join) =>
        join
          .on(sql`w.id::text`, '=', sql.ref('p.warehouse_id'))
          .on('w.tenant_id', '=', sql.ref('p.tenant_id')),
      )
      .where('p.tenant_id', '=', tenantId)
      .where(allOf(where));
  const { rows, count } = await withTenant(db, tenantId, async (trx) => ({
    rows: await base(trx)
      .selectAll('p')
      .select(['s.name as supplier_name', 'w.name as warehouse_name'])
      .orderBy(sql.join([...order, sql`p.created_at DESC`, sql`p.id DESC`]))
      .limit(limit)
      .offset(offset)
      .execute(),
    count: (await base(trx).select(sql<number>`count(*)::int`.as('count')).executeTakeFirstOrThrow()).count,
  }));
  return {
    rows: rows.map((row) => ({
      id: row.id,
      po_number: row.po_number,
      reference: row.reference,
      date: row.purchase_date,
      supplier_id: row.supplier_id,
      supplier_name: row.supplier_name,
      warehouse_id: row.warehouse_id,
      warehouse_name: row.warehouse_name,
      status: row.status as PurchaseStatus,
      item_count: row.item_count,
      quantity: Number(row.quantity),
      received: Number(row.received),
      subtotal: fromUnits(toUnits(row.subtotal)),
      discount: fromUnits(toUnits(row.discount)),
      total: fromUnits(toUnits(row.total)),
      estimated_arrival: row.estimated_arrival,
      open_receipts: row.open_receipts,
      created_at: row.created_at.toISOString(),
      updated_at: row.updated_at.toISOString(),
    })),
    lastRow: count,
  };
}

// ---- goods receive notes ----

const GOODS_RECEIPT_COLUMNS: Record<
  GoodsReceiptListQuery['sortModel'][number]['colId'],
  RawBuilder<unknown>
> = {
  grn_number: sql`g.grn_number`,
  po_number: sql`g.po_number`,
  supplier_name: sql`s.name`,
  warehouse_name: sql`w.name`,
  status: sql`g.status`,
  received: sql`g.received`,
  damaged: sql`g.damaged`,
  returned: sql`g.returned`,
  created_at: sql`g.created_at`,
  updated_at: sql`g.updated_at`,
};

const userName = sql<
  string | null
>`nullif(trim(coalesce(cu.first_name, '') || ' ' || coalesce(cu.last_name, '')), '')`;
const approverName = sql<
  string | null
>`nullif(trim(coalesce(au.first_name, '') || ' ' || coalesce(au.last_name, '')), '')`;

/** A page of the account's goods receive notes (one order's with `purchase_id`). */
export async function goodsReceiptList(
  db: Kysely<Database>,
  tenantId: string,
  query: GoodsReceiptListQuery,
): Promise<Page<GoodsReceiptListRow>> {
  const filter = query.filterModel;
  const where = [
    filter.grn_number && textWhere(sql<string>`g.grn_number`, filter.grn_number),
    filter.po_number && textWhere(sql<string>`g.po_number`, filter.po_number),
    filter.supplier_name && textWhere(sql<string>`coalesce(s.name, '')`, filter.supplier_name),
    filter.warehouse_name && textWhere(sql<string>`coalesce(w.name, '')`, filter.warehouse_name),
    filter.status && sql<boolean>`g.status = ANY(${filter.status.values.map(Number)}::int[])`,
    filter.created_at && dateWhere(sql<Date>`g.created_at`, filter.created_at),
    query.purchase_id && sql<boolean>`g.purchase_id = ${query.purchase_id.toLowerCase()}`,
    query.status && sql<boolean>`g.status = ${query.status}`,
    query.search &&
      searchWhere(
        [sql`g.grn_number`, sql`g.po_number`, sql`g.reference`, sql`coalesce(s.name, '')`],
        query.search,
      ),
  ].filter((part) => !!part) as RawBuilder<boolean>[];
  const order = sortTerms(query.sortModel, GOODS_RECEIPT_COLUMNS);
  const { limit, offset } = pageWindow(query);
  const base = (trx: Kysely<Database>) =>
    trx
      .selectFrom('goods_receipts as g')
      .leftJoin('suppliers as s', (join) =>
        join
          .on(sql`s.id::text`, '=', sql.ref('g.supplier_id'))
          .on('s.tenant_id', '=', sql.ref('g.tenant_id')),
      )
      .leftJoin('warehouses as w', (join) =>
        join
          .on(sql`w.id::text`, '=', sql.ref('g.warehouse_id'))
          .on('w.tenant_id', '=', sql.ref('g.tenant_id')),
      )
      .leftJoin('users as cu', (join) => join.on(sql`cu.id::text`, '=', sql.ref('g.created_by')))
      .leftJoin('users as au', (join) => join.on(sql`au.id::text`, '=', sql.ref('g.approved_by')))
      .where('g.tenant_id', '=', tenantId)
      .where(allOf(where));
  const { rows, count } = await withTenant(db, tenantId, async (trx) => ({
    rows: await base(trx)
      .selectAll('g')
      .select([
        's.name as supplier_name',
        'w.name as warehouse_name',
        userName.as('created_by_name'),
        approverName.as('approved_by_name'),
      ])
      .orderBy(sql.join([...order, sql`g.created_at DESC`, sql`g.id DESC`]))
      .limit(limit)
      .offset(offset)
      .execute(),
    count: (await base(trx).select(sql<number>`count(*)::int`.as('count')).executeTakeFirstOrThrow()).count,
  }));
  return {
    rows: rows.map((row) => ({
      id: row.id,
      grn_number: row.grn_number,
      purchase_id: row.purchase_id,
      po_number: row.po_number,
      supplier_name: row.supplier_name,
      warehouse_name: row.warehouse_name,
      status: row.status,
      status_name: GOODS_RECEIPT_STATUS_NAMES[row.status as GoodsReceiptStatus] ?? String(row.status),
      reference: row.reference,
      line_count: row.line_count,
      received: Number(row.received),
      damaged: Number(row.damaged),
      returned: Number(row.returned),
      approval_required: row.approval_required,
      created_by: { id: row.created_by, name: row.created_by_name },
      approved_by: row.approved_by ? { id: row.approved_by, name: row.approved_by_name } : null,
      created_at: row.created_at.toISOString(),
      updated_at: row.updated_at.toISOString(),
    })),
    lastRow: count,
  };
}

/** The notes of one order, oldest first. */
export const goodsReceiptsOfPurchase = (db: Kysely<Database>, tenantId: string, purchaseId: string) =>
  withTenant(db, tenantId, (trx) =>
    trx
      .selectFrom('goods_receipts')
      .select(['id', 'grn_number', 'status', 'created_at'])
      .where('tenant_id', '=', tenantId)
      .where('purchase_id', '=', purchaseId)
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
  );

// ---- settings ----

/** The account's purchase settings: whether orders and goods receive notes need an approval. */
export async function purchaseSettings(db: Db, tenantId: string): Promise<PurchaseSettings> {
  const row = await db
    .selectFrom('purchase_settings')
    .select(['purchase_approval', 'goods_receipt_approval', 'updated_at'])
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
  return row
    ? {
        purchase_approval: row.purchase_approval,
        goods_receipt_approval: row.goods_receipt_approval,
        updated_at: row.updated_at.toISOString(),
      }
    : { purchase_approval: false, goods_receipt_approval: false, updated_at: null };
}

// ---- pickers ----

/** The warehouses and branches an order can be delivered to, the default warehouse first. */
export const placeOptions = (db: Kysely<Database>, tenantId: string): Promise<PlaceOption[]> =>
  db
    .selectFrom('warehouses')
    .select(['id', 'code', 'name', 'kind'])
    .where('tenant_id', '=', tenantId)
    .orderBy('is_default', 'desc')
    .orderBy('kind', 'desc')
    .orderBy(sql`lower(name)`)
    .execute();

/** Standard master codes matching `search` (code, name, seller SKU), at most `limit`. */
export function masterCodeOptions(
  db: Kysely<Database>,
  tenantId: string,
  { search, limit }: { search: string; limit: number },
): Promise<MasterCodeOption[]> {
  const pattern = `%${literal(search)}%`;
  return db
    .selectFrom('master_codes')
    .select(['id', 'code', 'name', 'cost'])
    .where('tenant_id', '=', tenantId)
    .where('type', '=', 'standard')
    .where(
      search
        ? sql<boolean>`(code ILIKE ${pattern} OR name ILIKE ${pattern} OR seller_sku ILIKE ${pattern})`
        : sql<boolean>`true`,
    )
    .orderBy(sql`lower(code)`)
    .limit(limit)
    .execute();
}

/** The account's suppliers, warehouses and master codes by code (lower case), as a bulk file names them. */
export async function purchaseFileCodes(
  db: Kysely<Database>,
  tenantId: string,
  codes: { suppliers: string[]; warehouses: string[]; masterCodes: string[] },
) {
  const lower = (values: string[]) => [...new Set(values.map((value) => value.toLowerCase()))];
  const [suppliers, places, masterCodes] = await Promise.all([
    db
      .selectFrom('suppliers')
      .select(['id', 'status', 'name', sql<string>`lower(code)`.as('key')])
      .where('tenant_id', '=', tenantId)
      .where(sql<boolean>`lower(code) = ANY(${lower(codes.suppliers)}::text[])`)
      .execute(),
    db
      .selectFrom('warehouses')
      .select(['id', sql<string>`lower(code)`.as('key')])
      .where('tenant_id', '=', tenantId)
      .where(sql<boolean>`lower(code) = ANY(${lower(codes.warehouses)}::text[])`)
      .execute(),
    db
      .selectFrom('master_codes')
      .select(['id', 'code', 'type', sql<string>`lower(code)`.as('key')])
      .where('tenant_id', '=', tenantId)
      .where(sql<boolean>`lower(code) = ANY(${lower(codes.masterCodes)}::text[])`)
      .execute(),
  ]);
  return {
    suppliers: new Map(suppliers.map((row) => [row.key, row])),
    places: new Map(places.map((row) => [row.key, row])),
    masterCodes: new Map(masterCodes.map((row) => [row.key, row])),
  };
}
