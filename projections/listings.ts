import {
  LISTING_CATEGORY,
  LISTING_EVENT_TYPES,
  type ListingEvent,
  type ListingState,
  listingDecider,
  type OpenListing,
} from '@domain/listings/listing';
import { LISTINGS_VIEW } from '@domain/shared/live-views';
import type { Database, ListingsTable } from '@infra/db';
import { parseStreamId, type RecordedEvent } from '@infra/eventstore/port';
import { type Insertable, sql, type Transaction } from 'kysely';
import { defineProjection, type LiveChange } from './runtime/projection';

export { LISTINGS_VIEW };

/**
 * The listing list (spec §2, §4 status filter): one row per listing, with the listing as its events leave it
 * (`state`: content and each store's publication, folded by the domain's own `evolve`) and the columns the list
 * filters, sorts and pages on, derived from it. A batch loads the rows it touches, folds its events in memory and
 * writes each row once. Live view `listings`, naming the listings by id: the console's publish progress follows it.
 */

export const LISTINGS_PROJECTION = 'listings';

type Values = Insertable<ListingsTable>;

const priceRange = (listing: OpenListing) => {
  const prices = listing.content.skus.map((sku) => Number(sku.price)).filter(Number.isFinite);
  return prices.length === 0 ? ['0', '0'] : [String(Math.min(...prices)), String(Math.max(...prices))];
};

function imageOf(listing: OpenListing): string | null {
  const first = listing.content.images[0];
  if (!first) return null;
  return 'id' in first ? `/api/listing/images/${first.id}` : first.url;
}

/** The row of a listing in `state`, keeping when it was made and by whom. */
export function listingRow(
  state: OpenListing,
  tenantId: string,
  created: { by: string | null; at: Date },
  updatedAt: Date,
  revision: number,
): Values {
  const { content } = state;
  const stores = Object.values(state.stores);
  const [min, max] = priceRange(state);
  return {
    tenant_id: tenantId,
    id: state.listingId,
    platform: content.platform,
    product_name: content.productName,
    brand: content.brand,
    category_id: content.categoryId,
    condition: content.condition,
    parent_sku: content.skus[0]?.sellerSku ?? '',
    image: imageOf(state),
    store_ids: content.storeIds,
    sku_count: content.skus.length,
    total_stock: content.skus.reduce((total, sku) => total + sku.stock, 0),
    min_price: min!,
    max_price: max!,
    status: state.status,
    listed: stores.some((store) => store.listed),
    running: stores.some((store) => store.running !== null),
    failed: stores.some((store) => store.error !== null),
    state: JSON.stringify(state),
    revision,
    created_by: created.by,
    created_at: created.at,
    updated_at: updatedAt,
  };
}

interface Touched {
  tenantId: string;
  id: string;
  state: ListingState;
  created: { by: string | null; at: Date } | null;
  updatedAt: Date | null;
  revision: number;
}

const keyOf = (tenantId: string, id: string) => `${tenantId}\u0000${id}`;

const COLUMNS = [
  'platform',
  'product_name',
  'brand',
  'category_id',
  'condition',
  'parent_sku',
  'image',
  'store_ids',
  'sku_count',
  'total_stock',
  'min_price',
  'max_price',
  'status',
  'listed',
  'running',
  'failed',
  'state',
  'revision',
  'updated_at',
] as const satisfies readonly (keyof ListingsTable)[];

export const listingsProjection = defineProjection({
  name: LISTINGS_PROJECTION,
  eventTypes: LISTING_EVENT_TYPES,
  tables: ['listings'],
  async apply(trx: Transaction<Database>, events: readonly RecordedEvent[]) {
    const touched = new Map<string, Touched>();
    const ordered: { key: string; event: RecordedEvent }[] = [];
    for (const event of events) {
      const stream = parseStreamId(event.stream);
      if (!stream || stream.category !== LISTING_CATEGORY) continue;
      const key = keyOf(stream.tenantId, stream.entityKey);
      if (!touched.has(key))
        touched.set(key, {
          tenantId: stream.tenantId,
          id: stream.entityKey,
          state: listingDecider.initial,
          created: null,
          updatedAt: null,
          revision: -1,
        });
      ordered.push({ key, event });
    }
    if (touched.size === 0) return [];
    const byTenant = new Map<string, string[]>();
    for (const { tenantId, id } of touched.values())
      byTenant.set(tenantId, [...(byTenant.get(tenantId) ?? []), id]);
    for (const [tenantId, ids] of byTenant) {
      const rows = await trx
        .selectFrom('listings')
        .select(['id', 'state', 'created_by', 'created_at'])
        .where('tenant_id', '=', tenantId)
        .where('id', 'in', ids)
        .execute();
      for (const row of rows) {
        const entry = touched.get(keyOf(tenantId, row.id))!;
        entry.state = row.state as unknown as ListingState;
        entry.created = { by: row.created_by, at: row.created_at };
      }
    }
    for (const { key, event } of ordered) {
      const entry = touched.get(key)!;
      const at = new Date(event.metadata.occurredAt);
      entry.state = listingDecider.evolve(entry.state, {
        type: event.type,
        data: event.data,
      } as ListingEvent);
      entry.created ??= { by: event.metadata.userId ?? null, at };
      entry.updatedAt = at;
      entry.revision = Number(event.revision);
    }
    const rows: Values[] = [];
    const live: LiveChange[] = [];
    for (const entry of touched.values()) {
      if (entry.state.status === 'none' || !entry.created || !entry.updatedAt) continue;
      rows.push(listingRow(entry.state, entry.tenantId, entry.created, entry.updatedAt, entry.revision));
      const change = live.find((c) => c.tenantId === entry.tenantId);
      if (change) change.ids.push(entry.id);
      else live.push({ tenantId: entry.tenantId, view: LISTINGS_VIEW, ids: [entry.id] });
    }
    if (rows.length > 0) {
      await trx
        .insertInto('listings')
        .values(rows)
        .onConflict((oc) =>
          oc
            .columns(['tenant_id', 'id'])
            .doUpdateSet(
              Object.fromEntries(COLUMNS.map((column) => [column, sql`excluded.${sql.ref(column)}`])),
            ),
        )
        .execute();
    }
    return live;
  },
});
