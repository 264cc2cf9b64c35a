import type {
  ChannelSkuGridQuery,
  ChannelSkuSortColumn,
  ChannelSkuView,
  DownloadStatusView,
} from '@api/contracts/channel-skus';
import type { Database } from '@infra/db';
import { allOf, pageWindow, searchWhere, setWhere, sortTerms, textWhere } from '@projections/runtime/grid';
import { type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';

/**
 * Reading the channel SKUs (`channel_skus`, written by commands/channels/) and each store's download status
 * (`channel_downloads`): the download status view and its link grid.
 */

const iso = (value: Date | null) => (value ? value.toISOString() : null);

/** Every store of the account that is not disconnected, with its download (new: never downloaded). */
export async function downloadStatuses(
  db: Kysely<Database>,
  tenantId: string,
): Promise<DownloadStatusView[]> {
  const rows = await db
    .selectFrom('stores as s')
    // store_id is text where the stores' id is a uuid.
    .leftJoin('channel_downloads as d', (join) =>
      join.on(sql<SqlBool>`d.store_id = s.id::text`).onRef('d.tenant_id', '=', 's.tenant_id'),
    )
    .select([
      's.id',
      's.name',
      's.platform',
      's.status as store_status',
      'd.status',
      'd.items',
      'd.skus',
      'd.linked',
      'd.unlinked',
      'd.last_error',
      'd.requested_at',
      'd.started_at',
      'd.finished_at',
    ])
    .where('s.tenant_id', '=', tenantId)
    .where('s.status', '!=', 'disconnected')
    .orderBy((eb) => eb.fn('lower', ['s.name']))
    .orderBy('s.id')
    .execute();
  return rows.map((row) => ({
    store: { id: row.id, name: row.name, platform: row.platform, status: row.store_status },
    status: row.status ?? 'new',
    items: row.items ?? 0,
    skus: row.skus ?? 0,
    linked: row.linked ?? 0,
    unlinked: row.unlinked ?? 0,
    last_error: row.last_error,
    requested_at: iso(row.requested_at),
    started_at: iso(row.started_at),
    finished_at: iso(row.finished_at),
  }));
}

const selectChannelSkus = (db: Kysely<Database>, tenantId: string) =>
  db
    .selectFrom('channel_skus as k')
    .innerJoin('stores as s', (join) =>
      join.on(sql<SqlBool>`k.store_id = s.id::text`).onRef('s.tenant_id', '=', 'k.tenant_id'),
    )
    .leftJoin('master_codes as m', (join) =>
      join.onRef('m.id', '=', 'k.master_code_id').onRef('m.tenant_id', '=', 'k.tenant_id'),
    )
    .leftJoin('order_sku_mappings as o', (join) =>
      join
        .onRef('o.tenant_id', '=', 'k.tenant_id')
        .onRef('o.store_id', '=', 'k.store_id')
        .onRef('o.sku', '=', 'k.seller_sku')
        .onRef('o.master_code_id', '=', 'k.master_code_id'),
    )
    .select([
      'k.store_id',
      's.name as store_name',
      'k.item_id',
      'k.model_id',
      'k.item_name',
      'k.model_name',
      'k.seller_sku',
      'k.price',
      'k.channel_stock',
      'k.status',
      'm.id as master_code_id',
      'm.code as master_code',
      'm.name as master_code_name',
      'o.sku as mapped_sku',
      'k.updated_at',
    ])
    .where('k.tenant_id', '=', tenantId);

type ChannelSkuRow = Awaited<ReturnType<ReturnType<typeof selectChannelSkus>['executeTakeFirstOrThrow']>>;

function channelSkuView(row: ChannelSkuRow): ChannelSkuView {
  const linked = row.master_code_id !== null && row.master_code !== null && row.master_code_name !== null;
  return {
    store: { id: row.store_id, name: row.store_name },
    item_id: row.item_id,
    model_id: row.model_id,
    item_name: row.item_name,
    model_name: row.model_name,
    seller_sku: row.seller_sku,
    price: String(row.price),
    channel_stock: row.channel_stock,
    status: row.status,
    master_code: linked
      ? { id: row.master_code_id!, code: row.master_code!, name: row.master_code_name! }
      : null,
    linked_by: linked ? (row.mapped_sku !== null ? 'mapping' : 'sku') : null,
    updated_at: row.updated_at.toISOString(),
  };
}

/** One channel SKU as the grid shows it, or undefined. */
export async function channelSkuOf(
  db: Kysely<Database>,
  tenantId: string,
  key: { store_id: string; item_id: string; model_id: string },
): Promise<ChannelSkuView | undefined> {
  const row = await selectChannelSkus(db, tenantId)
    .where('k.store_id', '=', key.store_id)
    .where('k.item_id', '=', key.item_id)
    .where('k.model_id', '=', key.model_id)
    .executeTakeFirst();
  return row ? channelSkuView(row) : undefined;
}

const textColumns = {
  store: sql<string>`s.name`,
  item_name: sql<string>`k.item_name`,
  model_name: sql<string>`k.model_name`,
  seller_sku: sql<string>`k.seller_sku`,
  master_code: sql<string>`coalesce(m.code, '')`,
} as const;

const sortColumns: Record<ChannelSkuSortColumn, RawBuilder<unknown>> = {
  store: sql`lower(s.name)`,
  item_name: sql`lower(k.item_name)`,
  model_name: sql`lower(k.model_name)`,
  seller_sku: sql`lower(k.seller_sku)`,
  price: sql`k.price`,
  channel_stock: sql`k.channel_stock`,
  status: sql`k.status`,
  master_code: sql`lower(m.code)`,
  updated_at: sql`k.updated_at`,
};

function conditions(query: ChannelSkuGridQuery): RawBuilder<SqlBool> {
  const where = [];
  const { filterModel } = query;
  for (const column of Object.keys(textColumns) as (keyof typeof textColumns)[]) {
    const filter = filterModel[column];
    if (filter) where.push(textWhere(textColumns[column], filter));
  }
  if (filterModel.status) where.push(setWhere(sql`k.status`, filterModel.status.values));
  if (filterModel.linked) {
    const wanted = new Set(filterModel.linked.values);
    if (wanted.size === 0) where.push(sql<SqlBool>`false`);
    else if (wanted.size === 1)
      where.push(wanted.has('linked') ? sql<SqlBool>`m.id IS NOT NULL` : sql<SqlBool>`m.id IS NULL`);
  }
  const search = query.search?.trim();
  if (search) {
    where.push(searchWhere([textColumns.item_name, textColumns.seller_sku, textColumns.master_code], search));
  }
  return allOf(where);
}

/** A page of the account's channel SKUs (else by store, item and model) and how many match. */
export async function listChannelSkus(
  db: Kysely<Database>,
  tenantId: string,
  query: ChannelSkuGridQuery,
): Promise<{ rows: ChannelSkuView[]; lastRow: number }> {
  const filtered = selectChannelSkus(db, tenantId).where(conditions(query));
  let page = filtered;
  const order = sortTerms(query.sortModel, sortColumns);
  for (const term of order) page = page.orderBy(term);
  if (order.length === 0) page = page.orderBy(sql`lower(s.name)`).orderBy('k.item_name');
  const { limit, offset } = pageWindow(query);
  const [rows, total] = await Promise.all([
    page
      .orderBy('k.store_id')
      .orderBy('k.item_id')
      .orderBy('k.model_id')
      .limit(limit)
      .offset(offset)
      .execute(),
    filtered
      .clearSelect()
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map(channelSkuView), lastRow: Number(total.n) };
}
