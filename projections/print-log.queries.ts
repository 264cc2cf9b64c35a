import type { PrintLogPage, PrintLogQuery } from '@api/contracts/printing';
import type { PrintDocument } from '@domain/orders/order';
import type { Database } from '@infra/db';
import { withTenant } from '@infra/db/tenant';
import { type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import { allOf, dateWhere, pageWindow, searchWhere, setWhere, sortTerms } from './runtime/grid';

/** The print log (projections/print-log.ts keeps it): every print of an order document, who, when, from where. */

const logSort: Record<PrintLogQuery['sortModel'][number]['colId'], RawBuilder<unknown>> = {
  printed_at: sql`p.printed_at`,
  document: sql`p.document`,
  origin: sql`p.origin`,
  order_number: sql`lower(p.order_number)`,
};

export async function printLogPage(
  db: Kysely<Database>,
  tenantId: string,
  query: PrintLogQuery,
): Promise<PrintLogPage> {
  const where: RawBuilder<SqlBool>[] = [sql<SqlBool>`p.tenant_id = ${tenantId}`];
  const { filterModel } = query;
  if (filterModel.document) where.push(setWhere(sql<string>`p.document`, filterModel.document.values));
  if (filterModel.origin) where.push(setWhere(sql<string>`p.origin`, filterModel.origin.values));
  if (filterModel.printed_at) where.push(dateWhere(sql<Date>`p.printed_at`, filterModel.printed_at));
  if (query.order_id) where.push(sql<SqlBool>`p.order_id = ${query.order_id}`);
  if (query.document) where.push(sql<SqlBool>`p.document = ${query.document}`);
  if (query.origin) where.push(sql<SqlBool>`p.origin = ${query.origin}`);
  const search = query.search?.trim();
  if (search) {
    where.push(searchWhere([sql<string>`p.order_number`, sql<string>`p.tracking_number`], search));
  }
  const condition = allOf(where);
  const order = [
    ...sortTerms(query.sortModel, logSort),
    ...(query.sortModel.length === 0 ? [sql`p.printed_at DESC`] : []),
    sql`p.id DESC`,
  ];
  const { limit, offset } = pageWindow(query);
  const { rows, total } = await withTenant(db, tenantId, async (trx) => {
    const page = await sql<{
      id: string;
      order_id: string;
      order_number: string | null;
      tracking_number: string | null;
      document: PrintDocument;
      origin: string;
      printed_by: string | null;
      first_name: string | null;
      last_name: string | null;
      printed_at: Date;
    }>`
        SELECT p.id, p.order_id, p.order_number, p.tracking_number, p.document, p.origin, p.printed_by,
               u.first_name, u.last_name, p.printed_at
        FROM print_log p
        LEFT JOIN users u ON u.id::text = p.printed_by AND u.tenant_id = p.tenant_id
        WHERE ${condition}
        ORDER BY ${sql.join(order)}
        LIMIT ${limit} OFFSET ${offset}`.execute(trx);
    const count = await sql<{
      n: string;
    }>`SELECT count(*) AS n FROM print_log p WHERE ${condition}`.execute(trx);
    return { rows: page.rows, total: Number(count.rows[0]?.n ?? 0) };
  });
  return {
    rows: rows.map((row) => ({
      id: row.id,
      order_id: row.order_id,
      order_number: row.order_number,
      tracking_number: row.tracking_number,
      document: row.document,
      origin: row.origin,
      printed_by: row.printed_by
        ? { id: row.printed_by, name: `${row.first_name ?? ''} ${row.last_name ?? ''}`.trim() }
        : null,
      printed_at: row.printed_at.toISOString(),
    })),
    lastRow: total,
  };
}
