import type { GridPage } from '@api/contracts/common';
import type {
  ApprovalSettingsAnswer,
  GIN_SORT_COLUMNS,
  GoodsIssueListQuery,
  GoodsIssueListRow,
} from '@api/contracts/goods-issue';

type GoodsIssueSort = (typeof GIN_SORT_COLUMNS)[number];

import { type ApprovalSettings, DEFAULT_APPROVAL_SETTINGS, ginApprovalKey } from '@domain/approvals/layers';
import { GIN_STATUS } from '@domain/goods-issue/decider';
import type { Database } from '@infra/db';
import { withTenant } from '@infra/db/tenant';
import { type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import { allOf, pageWindow, searchWhere, setWhere, sortTerms, textWhere } from './runtime/grid';

/**
 * The queries on the read model `goods_issues` (projections/goods-issue.ts): the list (ag-grid Infinite Row Model)
 * with text filters on reference and reason, a set filter on status, a search over reference, reason and remark,
 * and the status, warehouse and "waiting for me" (the notes whose waiting layer the caller holds the key of)
 * filters as plain query values; and the account's approval settings.
 */

const sortColumns: Record<GoodsIssueSort, RawBuilder<unknown>> = {
  reference: sql`lower(gi.reference)`,
  status: sql`gi.status`,
  warehouse: sql`lower(w.code)`,
  total_quantity: sql`gi.total_quantity`,
  created_at: sql`gi.created_at`,
  updated_at: sql`gi.updated_at`,
};

interface ListRow {
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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const fullName = (first: string | null, last: string | null) =>
  [first ?? '', last ?? ''].join(' ').trim();

export async function goodsIssuePage(
  db: Kysely<Database>,
  tenantId: string,
  query: GoodsIssueListQuery,
  /** The caller's keys: the layers whose key they hold are "waiting for me". */
  permissions: ReadonlySet<string>,
): Promise<GridPage<GoodsIssueListRow>> {
  const myLayers = [1, 2, 3].filter((layer) => permissions.has(ginApprovalKey(layer)));
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
  const page = await withTenant(db, tenantId, async (trx) => {
    const rows = await sql<ListRow>`
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
  return {
    lastRow: page.lastRow,
    rows: page.rows.map((row) => ({
      id: row.id,
      reference: row.reference,
      reason: row.reason,
      status: row.status,
      warehouse: { id: row.warehouse_id, code: row.warehouse_code ?? '', name: row.warehouse_name ?? '' },
      layers: row.layers,
      current_layer: row.current_layer,
      line_count: row.line_count,
      total_quantity: Number(row.total_quantity),
      issue_failed: row.issue_failed,
      created_by: { id: row.created_by, name: fullName(row.creator_first, row.creator_last) },
      created_at: row.created_at.toISOString(),
      updated_at: row.updated_at.toISOString(),
      waiting_for_me:
        row.status === GIN_STATUS.approveInProgress &&
        row.current_layer !== null &&
        myLayers.includes(row.current_layer),
    })),
  };
}

/** The account's approval settings (the defaults until the owner saves some) and when they last changed. */
export async function approvalSettingsOf(db: Kysely<Database>, tenantId: string) {
  const row = await db
    .selectFrom('approval_settings')
    .select(['layers', 'reminder_seconds', 'allow_same_approver', 'updated_at'])
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
  const settings: ApprovalSettings = row
    ? {
        layers: row.layers,
        reminderSeconds: row.reminder_seconds,
        allowSameApprover: row.allow_same_approver,
      }
    : { ...DEFAULT_APPROVAL_SETTINGS };
  return { settings, updatedAt: row?.updated_at ?? null };
}

/** The settings as the API answers them: the reminder in minutes, when they changed. */
export const settingsAnswer = (
  settings: ApprovalSettings,
  updatedAt: Date | null,
): ApprovalSettingsAnswer => ({
  layers: settings.layers,
  reminder_minutes: settings.reminderSeconds / 60,
  allow_same_approver: settings.allowSameApprover,
  updated_at: updatedAt?.toISOString() ?? null,
});

/** The account's approval settings as the API answers them. */
export async function approvalSettingsAnswer(db: Kysely<Database>, tenantId: string) {
  const { settings, updatedAt } = await approvalSettingsOf(db, tenantId);
  return settingsAnswer(settings, updatedAt);
}

/** The full names ("first last") of the account's users among `ids` that are uuids, by id. */
export async function peopleNames(db: Kysely<Database>, tenantId: string, ids: Iterable<string>) {
  const wanted = [...new Set(ids)].filter((id) => UUID.test(id));
  const rows =
    wanted.length === 0
      ? []
      : await db
          .selectFrom('users')
          .select(['id', 'first_name', 'last_name'])
          .where('tenant_id', '=', tenantId)
          .where('id', 'in', wanted)
          .execute();
  return new Map(rows.map((row) => [row.id, fullName(row.first_name, row.last_name)]));
}
