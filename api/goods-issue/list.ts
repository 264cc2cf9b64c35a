import { gridQuery, setFilter, TextFilter } from '@api/contracts/grid';
import type { Database } from '@infra/db';
import { withTenant } from '@infra/db/tenant';
import { allOf, pageWindow, searchWhere, setWhere, sortTerms, textWhere } from '@projections/runtime/grid';
import { type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import { z } from 'zod';

/**
 * The goods issue notes' list (ag-grid Infinite Row Model) over the read model `goods_issues`: text filters on
 * reference and reason, a set filter on status, a search over reference, reason and remark; the status, warehouse
 * and "waiting for me" (the notes whose waiting layer the caller holds the key of) filters as plain query values.
 */

export const GIN_SORT_COLUMNS = [
  'reference',
  'status',
  'warehouse',
  'total_quantity',
  'created_at',
  'updated_at',
] as const;
type SortColumn = (typeof GIN_SORT_COLUMNS)[number];

const StatusList = z
  .string()
  .max(20)
  .regex(/^[1-5](,[1-5])*$/)
  .transform((text) => [...new Set(text.split(',').map(Number))]);

export const GinGridQuery = gridQuery(GIN_SORT_COLUMNS, {
  reference: TextFilter,
  reason: TextFilter,
  status: setFilter(['1', '2', '3', '4', '5']),
}).extend({
  /** Comma list of statuses 1–5. */
  status: StatusList.optional(),
  warehouse_id: z.string().max(64).optional(),
  waiting_for_me: z.enum(['true', 'false']).optional(),
});
export type GinGridQuery = z.infer<typeof GinGridQuery>;

const sortColumns: Record<SortColumn, RawBuilder<unknown>> = {
  reference: sql`lower(gi.reference)`,
  status: sql`gi.status`,
  warehouse: sql`lower(w.code)`,
  total_quantity: sql`gi.total_quantity`,
  created_at: sql`gi.created_at`,
  updated_at: sql`gi.updated_at`,
};

export interface GinListRow {
  id: string;
  reference: string;
  reason: string;
  status: number;
  warehouse_id: string;
  warehouse_code: string | null;
  warehouse_name: string | null;
  layers: number | null;
  current_layer: number | null;
  line_count: number;
  total_quantity: string;
  issue_failed: boolean;
  created_by: string;
  creator_first: string | null;
  creator_last: string | null;
  created_at: Date;
  updated_at: Date;
}

export async function listGoodsIssues(
  db: Kysely<Database>,
  tenantId: string,
  query: GinGridQuery,
  /** The layers whose key the caller holds. */
  myLayers: readonly number[],
): Promise<{ rows: GinListRow[]; lastRow: number }> {
  const where: RawBuilder<SqlBool>[] = [sql<SqlBool>`gi.tenant_id = ${tenantId}`];
  const { filterModel } = query;
  if (filterModel.reference) where.push(textWhere(sql<string>`gi.reference`, filterModel.reference));
  if (filterModel.reason) where.push(textWhere(sql<string>`gi.reason`, filterModel.reason));
  if (filterModel.status) {
    where.push(setWhere(sql<string>`gi.status::text`, filterModel.status.values));
  }
  if (query.status) where.push(sql<SqlBool>`gi.status IN (${sql.join(query.status)})`);
  if (query.warehouse_id !== undefined) {
    where.push(sql<SqlBool>`gi.warehouse_id = ${query.warehouse_id}`);
  }
  if (query.waiting_for_me === 'true') {
    if (myLayers.length === 0) return { rows: [], lastRow: 0 };
    where.push(sql<SqlBool>`gi.status = 4 AND gi.current_layer IN (${sql.join([...myLayers])})`);
  }
  const search = query.search?.trim();
  if (search) {
    where.push(
      searchWhere([sql<string>`gi.reference`, sql<string>`gi.reason`, sql<string>`gi.remark`], search),
    );
  }
  const condition = allOf(where);
  const order = [
    ...sortTerms(query.sortModel, sortColumns),
    ...(query.sortModel.length === 0 ? [sql`gi.created_at DESC`] : []),
    sql`gi.id DESC`,
  ];
  const { limit, offset } = pageWindow(query);
  return withTenant(db, tenantId, async (trx) => {
    const rows = await sql<GinListRow>`
      SELECT gi.id, gi.reference, gi.reason, gi.status, gi.warehouse_id, w.code AS warehouse_code,
             w.name AS warehouse_name, gi.layers, gi.current_layer, gi.line_count, gi.total_quantity,
             gi.issue_failed, gi.created_by, u.first_name AS creator_first, u.last_name AS creator_last,
             gi.created_at, gi.updated_at
      FROM goods_issues gi
      LEFT JOIN warehouses w ON w.tenant_id = gi.tenant_id AND w.id::text = gi.warehouse_id
      LEFT JOIN users u ON u.id::text = gi.created_by
      WHERE ${condition}
      ORDER BY ${sql.join(order)}
      LIMIT ${limit} OFFSET ${offset}`.execute(trx);
    const total = await sql<{ n: string }>`
      SELECT count(*) AS n FROM goods_issues gi
      LEFT JOIN warehouses w ON w.tenant_id = gi.tenant_id AND w.id::text = gi.warehouse_id
      WHERE ${condition}`.execute(trx);
    return { rows: rows.rows, lastRow: Number(total.rows[0]?.n ?? 0) };
  });
}
