import type { LIST_SORT, ReturnRow, ReturnsQuery } from '@api/contracts/returns';
import type { RETURN_ACTIONS } from '@domain/returns/return';
import type { Database, OrderReturnsTable } from '@infra/db';
import { withTenant } from '@infra/db/tenant';
import { allOf, dateWhere, pageWindow, searchWhere, setWhere, sortTerms } from '@projections/runtime/grid';
import { type Kysely, type RawBuilder, type Selectable, type SqlBool, sql } from 'kysely';

/** The returns list and the order lookup of the returns screen (projections/returns.ts keeps the rows). */

const LIST_SORT_COLUMNS: Record<(typeof LIST_SORT)[number], RawBuilder<unknown>> = {
  created_at: sql`r.created_at`,
  order_number: sql`lower(r.order_number)`,
  refund_to_buyer: sql`r.refund_to_buyer`,
  total_quantity: sql`r.total_quantity`,
};

/** A row of the returns list: the table's columns (amounts as text), and who recorded it. */
type ListedReturn = Omit<
  Selectable<OrderReturnsTable>,
  | 'tenant_id'
  | 'store_id'
  | 'warehouse_id'
  | 'updated_at'
  | 'last_revision'
  | 'state'
  | 'action'
  | 'refund_to_buyer'
  | 'reversal_item_price'
> & {
  action: (typeof RETURN_ACTIONS)[number];
  refund_to_buyer: string;
  reversal_item_price: string;
  first_name: string | null;
  last_name: string | null;
};

/** A page of the account's returns (newest first), with the row count. */
export async function listReturns(
  db: Kysely<Database>,
  tenantId: string,
  query: ReturnsQuery,
): Promise<{ rows: ReturnRow[]; lastRow: number }> {
  const where: RawBuilder<SqlBool>[] = [sql<SqlBool>`r.tenant_id = ${tenantId}`];
  const { filterModel } = query;
  if (filterModel.action) where.push(setWhere(sql<string>`r.action`, filterModel.action.values));
  if (filterModel.completed)
    where.push(setWhere(sql<string>`r.completed::text`, filterModel.completed.values));
  if (filterModel.created_at) where.push(dateWhere(sql<Date>`r.created_at`, filterModel.created_at));
  if (query.order_id) where.push(sql<SqlBool>`r.order_id = ${query.order_id}`);
  const search = query.search?.trim();
  if (search) {
    where.push(
      searchWhere(
        [
          sql<string>`r.order_number`,
          sql<string>`r.tracking_number`,
          sql<string>`r.reason`,
          sql<string>`r.refund_reason`,
        ],
        search,
      ),
    );
  }
  const condition = allOf(where);
  const order = [
    ...sortTerms(query.sortModel, LIST_SORT_COLUMNS),
    ...(query.sortModel.length === 0 ? [sql`r.created_at DESC`] : []),
    sql`r.id DESC`,
  ];
  const { limit, offset } = pageWindow(query);
  const { rows, total } = await withTenant(db, tenantId, async (trx) => {
    const page = await sql<ListedReturn>`
      SELECT r.id, r.order_id, r.order_number, r.tracking_number, r.platform, r.action, r.reason,
             r.refund_to_buyer, r.include_shipping, r.refund_reason, r.reversal_item_price, r.currency,
             r.line_count, r.total_quantity, r.restocked_quantity, r.image_count, r.completed, r.created_by,
             u.first_name, u.last_name, r.created_at
      FROM order_returns r
      LEFT JOIN users u ON u.id::text = r.created_by AND u.tenant_id = r.tenant_id
      WHERE ${condition}
      ORDER BY ${sql.join(order)}
      LIMIT ${limit} OFFSET ${offset}`.execute(trx);
    const count = await sql<{
      n: string;
    }>`SELECT count(*) AS n FROM order_returns r WHERE ${condition}`.execute(trx);
    return { rows: page.rows, total: Number(count.rows[0]?.n ?? 0) };
  });
  return {
    rows: rows.map(({ first_name, last_name, created_by, created_at, ...row }) => ({
      ...row,
      created_by: created_by
        ? { id: created_by, name: `${first_name ?? ''} ${last_name ?? ''}`.trim() }
        : null,
      created_at: created_at.toISOString(),
    })),
    lastRow: total,
  };
}

/** The order a return is for, by its order number or tracking number (the latest shipment of either). */
export async function returnableOrderByNumber(
  db: Kysely<Database>,
  tenantId: string,
  q: string,
): Promise<string | undefined> {
  const found = await withTenant(db, tenantId, (trx) =>
    trx
      .selectFrom('order_shipments')
      .select('order_id')
      .where('tenant_id', '=', tenantId)
      .where((eb) =>
        eb.or([
          eb(sql`lower(order_number)`, '=', q.toLowerCase()),
          eb(sql`lower(tracking_number)`, '=', q.toLowerCase()),
        ]),
      )
      .orderBy('updated_at', 'desc')
      .executeTakeFirst(),
  );
  return found?.order_id;
}
