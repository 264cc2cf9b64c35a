import { ChannelLinkCode, DOWNLOAD_STATUSES, DOWNLOAD_STORES_MAX } from '@domain/channels/links';
import { z } from 'zod';
import { gridQuery, setFilter, TextFilter } from './grid';
import { rule } from './rules';

/**
 * Products → download status (spec §2 "download status view", §3 "Download status"): each store's download of its
 * marketplace items, the channel SKUs it brought in with their link to a master code, and linking by hand.
 */

export const CHANNEL_ITEM_STATUSES = ['normal', 'unlisted', 'banned', 'deleted', 'reviewing'] as const;

export const DownloadStatusView = z.object({
  store: z.object({ id: z.string(), name: z.string(), platform: z.string(), status: z.string() }),
  /** new: never downloaded. */
  status: z.enum(DOWNLOAD_STATUSES),
  items: z.number().int(),
  skus: z.number().int(),
  linked: z.number().int(),
  unlinked: z.number().int(),
  last_error: z.string().nullable(),
  requested_at: z.string().nullable(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
});
export type DownloadStatusView = z.infer<typeof DownloadStatusView>;

const stores = rule(ChannelLinkCode.storesInvalid, 'channel_sku.stores_invalid', {
  max: DOWNLOAD_STORES_MAX,
});

export const StartDownloadBody = z.strictObject({
  store_ids: z
    .array(z.string({ error: stores }).max(64, stores), { error: stores })
    .min(1, stores)
    .max(DOWNLOAD_STORES_MAX, stores)
    .refine((ids) => new Set(ids).size === ids.length, stores),
});
export type StartDownloadBody = z.infer<typeof StartDownloadBody>;

/** How a channel SKU is linked: by the seller's mapping of the store's SKU, by a matching seller SKU or code. */
export const LINK_SOURCES = ['mapping', 'sku'] as const;

export const ChannelSkuView = z.object({
  store: z.object({ id: z.string(), name: z.string() }),
  item_id: z.string(),
  /** '' for an item without variants. */
  model_id: z.string(),
  item_name: z.string(),
  model_name: z.string(),
  seller_sku: z.string(),
  price: z.string(),
  channel_stock: z.number().int(),
  status: z.string(),
  master_code: z.object({ id: z.string(), code: z.string(), name: z.string() }).nullable(),
  linked_by: z.enum(LINK_SOURCES).nullable(),
  updated_at: z.string(),
});
export type ChannelSkuView = z.infer<typeof ChannelSkuView>;

export const CHANNEL_SKU_SORT_COLUMNS = [
  'store',
  'item_name',
  'model_name',
  'seller_sku',
  'price',
  'channel_stock',
  'status',
  'master_code',
  'updated_at',
] as const;
export type ChannelSkuSortColumn = (typeof CHANNEL_SKU_SORT_COLUMNS)[number];

export const ChannelSkuGridQuery = gridQuery(CHANNEL_SKU_SORT_COLUMNS, {
  store: TextFilter,
  item_name: TextFilter,
  model_name: TextFilter,
  seller_sku: TextFilter,
  master_code: TextFilter,
  status: setFilter(CHANNEL_ITEM_STATUSES),
  linked: setFilter(['linked', 'unlinked']),
});
export type ChannelSkuGridQuery = z.infer<typeof ChannelSkuGridQuery>;

const link = rule(ChannelLinkCode.linkInvalid, 'channel_sku.link_invalid');
const id = z.string({ error: link }).trim().min(1, link).max(64, link);

/** One channel SKU: the store's item and model ('' for an item without variants). */
export const ChannelSkuKey = z.strictObject({
  store_id: id,
  item_id: id,
  model_id: z.string({ error: link }).max(64, link).default(''),
});
export type ChannelSkuKey = z.infer<typeof ChannelSkuKey>;

export const LinkChannelSkuBody = ChannelSkuKey.extend({ master_code_id: id });
export type LinkChannelSkuBody = z.infer<typeof LinkChannelSkuBody>;

/** A link's answer: the channel SKU, and how many waiting orders of its SKU the link mapped. */
export const LinkAnswer = z.object({ sku: ChannelSkuView, orders_mapped: z.number().int() });
export type LinkAnswer = z.infer<typeof LinkAnswer>;
