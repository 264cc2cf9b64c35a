import type {
  PushLogPage,
  PushLogQuery,
  SkuRulePage,
  SkuRuleQuery,
  StoreAllocations,
  SyncStatusAnswer,
} from '@api/contracts/stock-push';
import type { PushField, PushOrigin, PushOutcome } from '@domain/channels/push-log';
import type { PushRule } from '@domain/channels/stock-push';
import type { Database } from '@infra/db';
import { withTenant } from '@infra/db/tenant';
import { type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import { allOf, dateWhere, pageWindow, searchWhere, setWhere, sortTerms } from './runtime/grid';

/**
 * The stock push's reads: the push log of stock and price pushes (projections/push-log.ts keeps it), each store's
 * push at a glance, and the push rules and warehouse links the allocation screens edit (plain settings tables).
 */

/** A push rule as its settings row keeps it. */
export const ruleOfRow = (row: {
  percent: string;
  fixed: number;
  buffer: number;
  minimum: number;
  maximum: number | null;
}): PushRule => ({
  percent: Number(row.percent),
  fixed: row.fixed,
  buffer: row.buffer,
  minimum: row.minimum,
  maximum: row.maximum,
});

// ---- the push log ----

const logSort: Record<PushLogQuery['sortModel'][number]['colId'], RawBuilder<unknown>> = {
  pushed_at: sql`l.pushed_at`,
  seller_sku: sql`lower(l.seller_sku)`,
  quantity: sql`l.quantity`,
  price: sql`l.price`,
  attempt: sql`l.attempt`,
};

/** The latest row of the same SKU in the same store is a retry still waiting. */
const WAITING = sql<SqlBool>`l.outcome = 'retrying' AND NOT EXISTS (
  SELECT 1 FROM channel_push_log n
  WHERE n.tenant_id = l.tenant_id AND n.store_id = l.store_id AND n.field = l.field AND n.item_id = l.item_id
    AND n.model_id = l.model_id AND (n.pushed_at, n.id) > (l.pushed_at, l.id))`;

export async function pushLogPage(
  db: Kysely<Database>,
  tenantId: string,
  query: PushLogQuery,
): Promise<PushLogPage> {
  const where: RawBuilder<SqlBool>[] = [sql<SqlBool>`l.tenant_id = ${tenantId}`];
  const { filterModel } = query;
  if (filterModel.outcome) where.push(setWhere(sql<string>`l.outcome`, filterModel.outcome.values));
  if (filterModel.origin) where.push(setWhere(sql<string>`l.origin`, filterModel.origin.values));
  if (filterModel.pushed_at) where.push(dateWhere(sql<Date>`l.pushed_at`, filterModel.pushed_at));
  if (query.store_id) where.push(sql<SqlBool>`l.store_id = ${query.store_id}`);
  if (query.field) where.push(sql<SqlBool>`l.field = ${query.field}`);
  if (query.master_code_id) where.push(sql<SqlBool>`l.master_code_id = ${query.master_code_id}`);
  if (query.sku?.trim()) where.push(searchWhere([sql<string>`l.seller_sku`], query.sku.trim()));
  if (query.from) where.push(sql<SqlBool>`l.pushed_at >= ${new Date(query.from)}`);
  if (query.to) where.push(sql<SqlBool>`l.pushed_at <= ${new Date(query.to)}`);
  if (query.failed_only) where.push(sql<SqlBool>`l.outcome <> 'ok'`);
  if (query.waiting_only) where.push(WAITING);
  const search = query.search?.trim();
  if (search)
    where.push(
      searchWhere([sql<string>`l.seller_sku`, sql<string>`l.reason`, sql<string>`l.answer`], search),
    );
  const condition = allOf(where);
  const order = [...sortTerms(query.sortModel, logSort), sql`l.pushed_at DESC`, sql`l.id DESC`];
  const { limit, offset } = pageWindow(query);
  const { rows, total } = await withTenant(db, tenantId, async (trx) => {
    const page = await sql<{
      id: string;
      store_id: string;
      store_name: string | null;
      platform: string;
      field: PushField;
      item_id: string;
      model_id: string;
      seller_sku: string;
      master_code_id: string | null;
      master_code: string | null;
      quantity: number | null;
      price: string | null;
      origin: PushOrigin;
      trigger_event_id: string | null;
      trigger_type: string | null;
      reason: string;
      attempt: number;
      outcome: PushOutcome;
      answer: string;
      pushed_at: Date;
    }>`
      SELECT l.id, l.store_id, s.name AS store_name, l.platform, l.field, l.item_id, l.model_id, l.seller_sku,
             l.master_code_id, m.code AS master_code, l.quantity, l.price::text AS price, l.origin,
             l.trigger_event_id, l.trigger_type, l.reason, l.attempt, l.outcome, l.answer, l.pushed_at
      FROM channel_push_log l
      LEFT JOIN stores s ON s.tenant_id = l.tenant_id AND s.id::text = l.store_id
      LEFT JOIN master_codes m ON m.tenant_id = l.tenant_id AND m.id::text = l.master_code_id
      WHERE ${condition}
      ORDER BY ${sql.join(order)}
      LIMIT ${limit} OFFSET ${offset}`.execute(trx);
    const count = await sql<{ n: string }>`
      SELECT count(*) AS n FROM channel_push_log l WHERE ${condition}`.execute(trx);
    return { rows: page.rows, total: Number(count.rows[0]?.n ?? 0) };
  });
  return {
    rows: rows.map((row) => ({ ...row, pushed_at: row.pushed_at.toISOString() })),
    lastRow: total,
  };
}

/** Each store's push: its linked SKUs, the last call, and the last day's pushes, failures and waiting retries. */
export async function syncStatus(db: Kysely<Database>, tenantId: string): Promise<SyncStatusAnswer> {
  const rows = await withTenant(db, tenantId, async (trx) => {
    const result = await sql<{
      store_id: string;
      name: string;
      platform: string;
      status: string;
      linked_skus: string;
      last_push_at: Date | null;
      pushed_today: string;
      failed_today: string;
      waiting: string;
    }>`
      SELECT s.id::text AS store_id, s.name, s.platform, s.status,
        (SELECT count(*) FROM channel_skus k
          WHERE k.tenant_id = s.tenant_id AND k.store_id = s.id::text AND k.master_code_id IS NOT NULL) AS linked_skus,
        (SELECT max(l.pushed_at) FROM channel_push_log l
          WHERE l.tenant_id = s.tenant_id AND l.store_id = s.id::text) AS last_push_at,
        (SELECT count(*) FROM channel_push_log l WHERE l.tenant_id = s.tenant_id AND l.store_id = s.id::text
          AND l.pushed_at > now() - interval '1 day' AND l.outcome = 'ok') AS pushed_today,
        (SELECT count(*) FROM channel_push_log l WHERE l.tenant_id = s.tenant_id AND l.store_id = s.id::text
          AND l.pushed_at > now() - interval '1 day' AND l.outcome <> 'ok') AS failed_today,
        (SELECT count(*) FROM channel_push_log l WHERE l.tenant_id = s.tenant_id AND l.store_id = s.id::text
          AND ${WAITING}) AS waiting
      FROM stores s
      WHERE s.tenant_id = ${tenantId}
      ORDER BY s.created_at, s.id`.execute(trx);
    return result.rows;
  });
  return {
    stores: rows.map((row) => ({
      ...row,
      linked_skus: Number(row.linked_skus),
      last_push_at: row.last_push_at?.toISOString() ?? null,
      pushed_today: Number(row.pushed_today),
      failed_today: Number(row.failed_today),
      waiting: Number(row.waiting),
    })),
  };
}

// ---- push rules ----

/** Every store with its rule, its warehouses and whether it is the main one; the account's lock. */
export async function storeAllocations(db: Kysely<Database>, tenantId: string): Promise<StoreAllocations> {
  const [stores, rules, links, warehouses, settings] = await Promise.all([
    db
      .selectFrom('stores')
      .select(['id', 'name', 'platform', 'status', 'warehouse_id'])
      .where('tenant_id', '=', tenantId)
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
    db.selectFrom('stock_push_rules').selectAll().where('tenant_id', '=', tenantId).execute(),
    db.selectFrom('stock_push_warehouses').selectAll().where('tenant_id', '=', tenantId).execute(),
    db
      .selectFrom('warehouses')
      .select(['id', 'name', 'is_default', 'kind'])
      .where('tenant_id', '=', tenantId)
      .orderBy('is_default', 'desc')
      .orderBy('created_at')
      .execute(),
    db.selectFrom('stock_push_settings').selectAll().where('tenant_id', '=', tenantId).executeTakeFirst(),
  ]);
  const nameOf = new Map(warehouses.map((w) => [w.id, w.name]));
  const fallback = warehouses.find((w) => w.kind === 'warehouse');
  const ruleByStore = new Map(rules.map((row) => [row.store_id, ruleOfRow(row)]));
  return {
    stores: stores.map((store) => {
      const own = links.filter((link) => link.store_id === store.id).map((link) => link.warehouse_id);
      const feeding =
        own.length > 0 ? own : [store.warehouse_id ?? fallback?.id].filter((id) => id !== undefined);
      return {
        store_id: store.id,
        name: store.name,
        platform: store.platform,
        status: store.status,
        rule: ruleByStore.get(store.id) ?? null,
        warehouses: feeding.map((id) => ({ id, name: nameOf.get(id) ?? '' })),
        default_warehouses: own.length === 0,
        is_main: settings?.main_store_id === store.id,
      };
    }),
    lock: { main_store_id: settings?.main_store_id ?? null, lock_below: settings?.lock_below ?? 0 },
  };
}

const skuSort: Record<SkuRuleQuery['sortModel'][number]['colId'], RawBuilder<unknown>> = {
  code: sql`lower(m.code)`,
  store: sql`lower(s.name)`,
};

/** The master codes with a rule of their own in a store. */
export async function skuRulePage(
  db: Kysely<Database>,
  tenantId: string,
  query: SkuRuleQuery,
): Promise<SkuRulePage> {
  const where: RawBuilder<SqlBool>[] = [sql<SqlBool>`r.tenant_id = ${tenantId}`];
  if (query.store_id) where.push(sql<SqlBool>`r.store_id::text = ${query.store_id}`);
  const search = query.search?.trim();
  if (search) where.push(searchWhere([sql<string>`m.code`, sql<string>`m.name`], search));
  const condition = allOf(where);
  const order = [...sortTerms(query.sortModel, skuSort), sql`lower(m.code)`, sql`r.store_id`];
  const { limit, offset } = pageWindow(query);
  return withTenant(db, tenantId, async (trx) => {
    const from = sql`FROM stock_push_sku_rules r
      JOIN master_codes m ON m.tenant_id = r.tenant_id AND m.id = r.master_code_id
      JOIN stores s ON s.tenant_id = r.tenant_id AND s.id = r.store_id`;
    const page = await sql<{
      store_id: string;
      store_name: string;
      master_code_id: string;
      code: string;
      name: string;
      percent: string;
      fixed: number;
      buffer: number;
      minimum: number;
      maximum: number | null;
      updated_at: Date;
    }>`
      SELECT r.store_id::text AS store_id, s.name AS store_name, r.master_code_id::text AS master_code_id,
             m.code, m.name, r.percent::text AS percent, r.fixed, r.buffer, r.minimum, r.maximum, r.updated_at
      ${from} WHERE ${condition} ORDER BY ${sql.join(order)} LIMIT ${limit} OFFSET ${offset}`.execute(trx);
    const count = await sql<{ n: string }>`SELECT count(*) AS n ${from} WHERE ${condition}`.execute(trx);
    return {
      rows: page.rows.map((row) => ({
        store_id: row.store_id,
        store_name: row.store_name,
        master_code_id: row.master_code_id,
        code: row.code,
        name: row.name,
        rule: ruleOfRow(row),
        updated_at: row.updated_at.toISOString(),
      })),
      lastRow: Number(count.rows[0]?.n ?? 0),
    };
  });
}
