import type {
  ExistSkuAnswer,
  ListingListQuery,
  ListingListRow,
  ListingStatusFilter,
} from '@api/contracts/listings';
import type { OpenListing } from '@domain/listings/listing';
import { variantInfoOf } from '@domain/listings/rules';
import type { Database } from '@infra/db';
import { withTenant } from '@infra/db/tenant';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import { allOf, dateWhere, pageWindow, searchWhere, sortTerms, textWhere } from './runtime/grid';

/**
 * The queries the listing routes answer from: the list (projections/listings.ts keeps its table) with the status
 * filter of spec §4, the SKU existence check (§5, §7 `exist_sku`), and the pickers of the editor.
 */

const SORTS: Record<ListingListQuery['sortModel'][number]['colId'], RawBuilder<unknown>> = {
  product_name: sql`l.product_name`,
  parent_sku: sql`l.parent_sku`,
  total_stock: sql`l.total_stock`,
  min_price: sql`l.min_price`,
  status: sql`l.status`,
  updated_at: sql`l.updated_at`,
  created_at: sql`l.created_at`,
};

/** A store's channel copy of the listing the marketplace has banned (download records the channel's status). */
const banned = sql<boolean>`EXISTS (SELECT 1 FROM channel_skus c WHERE c.tenant_id = l.tenant_id AND c.listing_id = l.id AND c.status = 'banned')`;

/**
 * The status filter (spec §4) over a listing: draft never published; active listed on a store; inactive published
 * and unlisted everywhere; deleted; banned by a marketplace; new and used by the item's condition; sold out when
 * published with no stock left; pending while a publish, sync or unlist runs; error when a store's last run failed.
 */
export function statusWhere(status: ListingStatusFilter): RawBuilder<boolean> {
  const live = sql<boolean>`l.status <> 'deleted'`;
  switch (status) {
    case 'all':
      return live;
    case 'draft':
      return sql<boolean>`l.status = 'draft'`;
    case 'active':
      return sql<boolean>`l.status = 'published' AND l.listed`;
    case 'inactive':
      return sql<boolean>`l.status = 'published' AND NOT l.listed`;
    case 'deleted':
      return sql<boolean>`l.status = 'deleted'`;
    case 'banned':
      return sql<boolean>`${live} AND ${banned}`;
    case 'new':
      return sql<boolean>`${live} AND l.condition = 'new'`;
    case 'used':
      return sql<boolean>`${live} AND l.condition = 'used'`;
    case 'sold out':
      return sql<boolean>`l.status = 'published' AND l.total_stock = 0`;
    case 'pending':
      return sql<boolean>`${live} AND l.running`;
    case 'error':
      return sql<boolean>`${live} AND l.failed`;
    default: {
      const unknown: never = status;
      throw new Error(`unknown listing status filter ${unknown as string}`);
    }
  }
}

/** A page of the account's listings (ag-grid Infinite Row Model). */
export async function listingPage(
  db: Kysely<Database>,
  tenantId: string,
  query: ListingListQuery,
): Promise<{ rows: ListingListRow[]; lastRow: number }> {
  const filter = query.filterModel;
  const where = [
    statusWhere(query.status),
    filter.product_name && textWhere(sql<string>`l.product_name`, filter.product_name),
    filter.parent_sku && textWhere(sql<string>`l.parent_sku`, filter.parent_sku),
    filter.brand && textWhere(sql<string>`l.brand`, filter.brand),
    filter.updated_at && dateWhere(sql<Date>`l.updated_at`, filter.updated_at),
    query.search && searchWhere([sql`l.product_name`, sql`l.parent_sku`, sql`l.brand`], query.search),
  ].filter((part) => !!part) as RawBuilder<boolean>[];
  const order = sortTerms(query.sortModel, SORTS);
  const { limit, offset } = pageWindow(query);
  const base = (trx: Kysely<Database>) =>
    trx.selectFrom('listings as l').where('l.tenant_id', '=', tenantId).where(allOf(where));
  const { rows, count, names } = await withTenant(db, tenantId, async (trx) => {
    const rows = await base(trx)
      .selectAll('l')
      .orderBy(sql.join([...order, sql`l.updated_at DESC`, sql`l.id DESC`]))
      .limit(limit)
      .offset(offset)
      .execute();
    const count = (await base(trx).select(sql<number>`count(*)::int`.as('count')).executeTakeFirstOrThrow())
      .count;
    const storeIds = [
      ...new Set(rows.flatMap((row) => Object.keys((row.state as unknown as OpenListing).stores))),
    ];
    const names =
      storeIds.length === 0
        ? []
        : await trx
            .selectFrom('stores')
            .select(['id', 'name'])
            .where('tenant_id', '=', tenantId)
            .where(sql<boolean>`id::text = ANY(${storeIds}::text[])`)
            .execute();
    return { rows, count, names };
  });
  const nameOf = new Map(names.map((store) => [store.id, store.name]));
  return {
    rows: rows.map((row) => {
      const state = row.state as unknown as OpenListing;
      return {
        id: row.id,
        product_name: row.product_name,
        brand: row.brand,
        parent_sku: row.parent_sku,
        image: row.image,
        platform: row.platform,
        store_count: row.store_ids.length,
        sku_count: row.sku_count,
        total_stock: row.total_stock,
        min_price: Number(row.min_price).toFixed(2),
        max_price: Number(row.max_price).toFixed(2),
        status: row.status,
        revision: row.revision,
        skus: state.content.skus.map((sku) => ({
          seller_sku: sku.sellerSku,
          variant: variantInfoOf(state.content.tiers, sku.tierIndex)
            .map((info) => info.value)
            .join(' / '),
          price: sku.price,
          stock: sku.stock,
        })),
        listed: row.listed,
        running: row.running,
        failed: row.failed,
        stores: Object.entries(state.stores).map(([storeId, store]) => ({
          store_id: storeId,
          store_name: nameOf.get(storeId) ?? null,
          item_id: store.itemId,
          listed: store.listed,
          running: store.running?.action ?? null,
          step: store.step,
          error: store.error,
        })),
        created_at: row.created_at.toISOString(),
        updated_at: row.updated_at.toISOString(),
      };
    }),
    lastRow: count,
  };
}

/**
 * The SKU existence check (§5, §7): which of `skus` a store already sells (channel_skus; the store named, else any),
 * which another listing's variants use, and whether the request names one twice. Compared without case.
 */
export async function existingSkus(
  db: Kysely<Database>,
  tenantId: string,
  input: { skus: string[]; listingId?: string | undefined; storeId?: string | undefined },
): Promise<ExistSkuAnswer> {
  const wanted = input.skus.map((sku) => sku.trim()).filter(Boolean);
  const lowered = wanted.map((sku) => sku.toLowerCase());
  const haveDuplicate = new Set(lowered).size !== lowered.length;
  const { inStore, inVariant } = await withTenant(db, tenantId, async (trx) => {
    const inStore = await sql<{ sku: string }>`
      SELECT DISTINCT lower(seller_sku) AS sku FROM channel_skus
       WHERE tenant_id = ${tenantId} AND lower(seller_sku) = ANY(${lowered}::text[])
         AND (${input.storeId ?? null}::text IS NULL OR store_id = ${input.storeId ?? null}::text)
         AND (listing_id IS NULL OR listing_id IS DISTINCT FROM ${input.listingId ?? null}::text)`.execute(
      trx,
    );
    const inVariant = await sql<{ sku: string }>`
      SELECT DISTINCT lower(sku->>'sellerSku') AS sku
        FROM listings l, jsonb_array_elements(l.state->'content'->'skus') sku
       WHERE l.tenant_id = ${tenantId} AND l.status <> 'deleted'
         AND l.id IS DISTINCT FROM ${input.listingId ?? null}::text
         AND lower(sku->>'sellerSku') = ANY(${lowered}::text[])`.execute(trx);
    return {
      inStore: new Set(inStore.rows.map((r) => r.sku)),
      inVariant: new Set(inVariant.rows.map((r) => r.sku)),
    };
  });
  const named = (found: Set<string>) => [...new Set(wanted.filter((sku) => found.has(sku.toLowerCase())))];
  return {
    exist_in_store: named(inStore),
    exist_in_variant: named(inVariant),
    have_duplicate: haveDuplicate,
  };
}

/** The account's stores a listing may go to. */
export function listingStores(db: Kysely<Database>, tenantId: string) {
  return withTenant(db, tenantId, (trx) =>
    trx
      .selectFrom('stores')
      .select(['id', 'name', 'platform', 'status'])
      .where('tenant_id', '=', tenantId)
      .where('status', '<>', 'disconnected')
      .orderBy('name')
      .execute(),
  );
}

/** Master codes matching `search` for a SKU row, each with whether it is already listed (§5: confirm to add). */
export async function masterCodeOptions(db: Kysely<Database>, tenantId: string, search: string) {
  const pattern = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return withTenant(db, tenantId, async (trx) => {
    const rows = await sql<{
      id: string;
      code: string;
      name: string;
      type: 'standard' | 'combo';
      listed: boolean;
    }>`
      SELECT m.id::text, m.code, m.name, m.type,
             (EXISTS (SELECT 1 FROM channel_skus c WHERE c.tenant_id = m.tenant_id AND c.master_code_id = m.id)
              OR EXISTS (SELECT 1 FROM listings l, jsonb_array_elements(l.state->'content'->'skus') sku
                          WHERE l.tenant_id = m.tenant_id AND l.status <> 'deleted'
                            AND sku->'masterCode'->>'id' = m.id::text)) AS listed
        FROM master_codes m
       WHERE m.tenant_id = ${tenantId} AND m.status = 'active'
         AND (m.code ILIKE ${pattern} OR m.name ILIKE ${pattern})
       ORDER BY m.code LIMIT 20`.execute(trx);
    return rows.rows;
  });
}
