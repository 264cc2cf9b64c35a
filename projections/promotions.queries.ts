import type { GridPage } from '@api/contracts/common';
import type {
  ChannelSkuRow,
  PROMOTION_SORT_COLUMNS,
  PromotionListQuery,
  PromotionListRow,
} from '@api/contracts/promotions';
import { DEFAULT_PRICE_RULE, type PriceRule } from '@domain/promotions/pricing';
import {
  type ChannelSkuRef,
  type PromotionState,
  promotionStatus,
  skuKey,
} from '@domain/promotions/promotion';
import type { Database } from '@infra/db';
import { withTenant } from '@infra/db/tenant';
import { type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import { allOf, pageWindow, searchWhere, setWhere, sortTerms, textWhere } from './runtime/grid';

/**
 * The reads of promotions and price control: the stores and their channel SKUs (table channel_skus, with what each
 * may sell), the promotions' list (ag-grid; the status filter is worked out from the clock in SQL as
 * `promotionStatus` does) and each store's price rule (its pushes are in the push log: push-log.queries.ts).
 */

export interface PromotionStore {
  id: string;
  name: string;
  platform: string;
  status: string;
  warehouseId: string | null;
}

export async function promotionStores(db: Kysely<Database>, tenantId: string): Promise<PromotionStore[]> {
  const rows = await withTenant(db, tenantId, (trx) =>
    trx
      .selectFrom('stores')
      .select(['id', 'name', 'platform', 'status', 'warehouse_id'])
      .where('tenant_id', '=', tenantId)
      .orderBy('name')
      .execute(),
  );
  return rows.map((row) => ({ ...row, warehouseId: row.warehouse_id }));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The tenant's store, or null (another tenant's, or an id that is none, alike). */
export async function promotionStore(
  db: Kysely<Database>,
  tenantId: string,
  storeId: string,
): Promise<PromotionStore | null> {
  if (!UUID.test(storeId)) return null;
  const row = await withTenant(db, tenantId, (trx) =>
    trx
      .selectFrom('stores')
      .select(['id', 'name', 'platform', 'status', 'warehouse_id'])
      .where('tenant_id', '=', tenantId)
      .where('id', '=', storeId)
      .executeTakeFirst(),
  );
  return row ? { ...row, warehouseId: row.warehouse_id } : null;
}

interface SkuRow {
  item_id: string;
  model_id: string;
  seller_sku: string;
  item_name: string;
  model_name: string;
  price: string;
  channel_stock: number;
  master_code_id: string | null;
  code: string | null;
  unit_price: string | null;
  available: string | null;
}

/**
 * The store's channel SKUs (all, those named by `refs`, or those matching `search`), each with what it may sell:
 * its master code's available stock in the store's warehouse (every warehouse when the store names none; a combo
 * as many whole sets as its components give), else, unlinked, the channel's own figure.
 */
export async function channelSkusOfStore(
  db: Kysely<Database>,
  tenantId: string,
  store: Pick<PromotionStore, 'id' | 'warehouseId'>,
  options: { refs?: ChannelSkuRef[]; search?: string } = {},
): Promise<ChannelSkuRow[]> {
  const where: RawBuilder<SqlBool>[] = [
    sql<SqlBool>`cs.tenant_id = ${tenantId}`,
    sql<SqlBool>`cs.store_id = ${store.id}`,
    sql<SqlBool>`cs.status <> 'deleted'`,
  ];
  if (options.refs) {
    if (options.refs.length === 0) return [];
    const keys = [...new Set(options.refs.map(skuKey))];
    where.push(sql<SqlBool>`(cs.item_id || ':' || cs.model_id) IN (${sql.join(keys)})`);
  }
  const search = options.search?.trim();
  if (search)
    where.push(
      searchWhere(
        [sql<string>`cs.seller_sku`, sql<string>`cs.item_name`, sql<string>`cs.model_name`],
        search,
      ),
    );
  const inWarehouse = store.warehouseId ? sql`AND sl.warehouse_id = ${store.warehouseId}` : sql``;
  const rows = await withTenant(db, tenantId, (trx) =>
    sql<SkuRow>`
      WITH own AS (
        SELECT sl.master_code_id, sum(sl.available) AS available
        FROM stock_levels sl WHERE sl.tenant_id = ${tenantId} ${inWarehouse}
        GROUP BY sl.master_code_id
      ), combos AS (
        SELECT ci.combo_id::text AS master_code_id, min(floor(coalesce(own.available, 0) / ci.quantity)) AS available
        FROM combo_items ci LEFT JOIN own ON own.master_code_id = ci.component_id::text
        WHERE ci.tenant_id = ${tenantId}
        GROUP BY ci.combo_id
      )
      SELECT cs.item_id, cs.model_id, cs.seller_sku, cs.item_name, cs.model_name, cs.price::text AS price,
             cs.channel_stock, cs.master_code_id::text AS master_code_id, mc.code, mc.unit_price::text AS unit_price,
             CASE WHEN mc.type = 'combo' THEN coalesce(combos.available, 0) ELSE coalesce(own.available, 0) END::text
               AS available
      FROM channel_skus cs
      LEFT JOIN master_codes mc ON mc.tenant_id = cs.tenant_id AND mc.id = cs.master_code_id
      LEFT JOIN own ON own.master_code_id = cs.master_code_id::text
      LEFT JOIN combos ON combos.master_code_id = cs.master_code_id::text
      WHERE ${allOf(where)}
      ORDER BY cs.item_name, cs.seller_sku, cs.item_id, cs.model_id
      LIMIT 5000`.execute(trx),
  );
  return rows.rows.map((row) => ({
    item_id: row.item_id,
    model_id: row.model_id,
    seller_sku: row.seller_sku,
    item_name: row.item_name,
    model_name: row.model_name,
    price: row.price,
    available: row.master_code_id ? Math.max(0, Number(row.available ?? 0)) : row.channel_stock,
    master_code:
      row.master_code_id && row.code !== null
        ? { id: row.master_code_id, code: row.code, unit_price: row.unit_price ?? '0' }
        : null,
  }));
}

// ---- the promotions' list ----

type PromotionSort = (typeof PROMOTION_SORT_COLUMNS)[number];
const promotionSort: Record<PromotionSort, RawBuilder<unknown>> = {
  name: sql`lower(p.name)`,
  start_at: sql`p.start_at`,
  end_at: sql`p.end_at`,
  created_at: sql`p.created_at`,
};

/** `promotionStatus` in SQL, against the database's clock. */
const statusSql = sql<string>`CASE WHEN p.stopped_at IS NOT NULL THEN 'stopped'
  WHEN now() < p.start_at THEN 'upcoming' WHEN now() < p.end_at THEN 'ongoing' ELSE 'ended' END`;

export async function promotionPage(
  db: Kysely<Database>,
  tenantId: string,
  query: PromotionListQuery,
): Promise<GridPage<PromotionListRow>> {
  const where: RawBuilder<SqlBool>[] = [
    sql<SqlBool>`p.tenant_id = ${tenantId}`,
    sql<SqlBool>`p.kind = ${query.kind}`,
  ];
  if (query.store_id) where.push(sql<SqlBool>`p.store_id = ${query.store_id}`);
  const { filterModel } = query;
  if (filterModel.name) where.push(textWhere(sql<string>`p.name`, filterModel.name));
  if (filterModel.status) where.push(setWhere(statusSql, filterModel.status.values));
  const search = query.search?.trim();
  if (search) where.push(searchWhere([sql<string>`p.name`, sql<string>`coalesce(s.name, '')`], search));
  const condition = allOf(where);
  const order = [
    ...sortTerms(query.sortModel, promotionSort),
    ...(query.sortModel.length === 0 ? [sql`p.created_at DESC`] : []),
    sql`p.id DESC`,
  ];
  const { limit, offset } = pageWindow(query);
  const now = new Date();
  return withTenant(db, tenantId, async (trx) => {
    const rows = await sql<{
      state: PromotionState;
      store_name: string | null;
      platform: string | null;
      id: string;
    }>`
      SELECT p.id, p.state, s.name AS store_name, s.platform
      FROM promotions p LEFT JOIN stores s ON s.tenant_id = p.tenant_id AND s.id::text = p.store_id
      WHERE ${condition}
      ORDER BY ${sql.join(order)}
      LIMIT ${limit} OFFSET ${offset}`.execute(trx);
    const total = await sql<{ n: string }>`
      SELECT count(*) AS n FROM promotions p
      LEFT JOIN stores s ON s.tenant_id = p.tenant_id AND s.id::text = p.store_id
      WHERE ${condition}`.execute(trx);
    return {
      lastRow: Number(total.rows[0]?.n ?? 0),
      rows: rows.rows.map((row) =>
        promotionRowOf(row.id, row.state, { name: row.store_name ?? '', platform: row.platform ?? '' }, now),
      ),
    };
  });
}

/** A promotion as its list shows it, at `now`. */
export function promotionRowOf(
  id: string,
  state: PromotionState,
  store: { name: string; platform: string },
  now: Date,
): PromotionListRow {
  return {
    id,
    kind: state.kind,
    name: state.name,
    store: { id: state.storeId, ...store },
    start_at: state.startAt,
    end_at: state.endAt,
    status: promotionStatus(state, now),
    channel: { state: state.channel.state, id: state.channel.id, error: state.channel.error },
    item_count: state.discount ? state.discount.items.length : (state.gift?.gifts.length ?? 0),
    created_at: state.createdAt,
  };
}

// ---- price control ----

/** The store's price rule and when it was saved; the default (no markup, no rounding) before any. */
export async function priceRuleOf(
  db: Kysely<Database>,
  tenantId: string,
  storeId: string,
): Promise<{ rule: PriceRule; updatedAt: string | null }> {
  const row = await withTenant(db, tenantId, (trx) =>
    trx
      .selectFrom('price_rules')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('store_id', '=', storeId)
      .executeTakeFirst(),
  );
  if (!row) return { rule: DEFAULT_PRICE_RULE, updatedAt: null };
  return {
    rule: {
      markupPercent: Number(row.markup_percent),
      fixedAmount: row.fixed_amount,
      rounding: row.rounding,
      overrides: row.overrides as Record<string, string>,
    },
    updatedAt: row.updated_at.toISOString(),
  };
}
