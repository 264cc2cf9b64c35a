import { type ErrorTable, refuser } from '@domain/shared/errors';

/**
 * A connected store's channel SKUs (item × model) and their links to master codes, and the download that brings
 * them in (spec §3 "Download status"). Result codes 730–739 (issue 15's range for download and links).
 */

/** Spec §3/§4: a store never downloaded is `new`; a requested download `pending` until its workflow runs. */
export const DOWNLOAD_STATUSES = ['new', 'pending', 'downloading', 'completed', 'error'] as const;
export type DownloadStatus = (typeof DOWNLOAD_STATUSES)[number];

/** Stores one download request may name (the listing screens' limit of 20 stores). */
export const DOWNLOAD_STORES_MAX = 20;

export const ChannelLinkCode = {
  channelSkuNotFound: 730,
  storeNotFound: 731,
  /** The store is disconnected: connect it again to download its items (HTTP 409). */
  storeDisconnected: 732,
  /** No store, more than 20, or an id twice. */
  storesInvalid: 733,
  masterCodeNotFound: 734,
  /** Unlinking a SKU whose seller SKU matches a master code's: only changing that master code unlinks it. */
  linkedBySku: 735,
  /** A link body without a store, item or master code id. */
  linkInvalid: 736,
  /** A channel SKU without a seller SKU: orders could not follow its link. */
  sellerSkuMissing: 737,
} as const;

export type ChannelLinkErrorCode =
  | 'CHANNEL_SKU_NOT_FOUND'
  | 'STORE_NOT_FOUND'
  | 'STORE_DISCONNECTED'
  | 'MASTER_CODE_NOT_FOUND'
  | 'LINKED_BY_SKU'
  | 'SELLER_SKU_MISSING';

export const channelLinkErrors = {
  CHANNEL_SKU_NOT_FOUND: {
    status: 404,
    code: ChannelLinkCode.channelSkuNotFound,
    key: 'channel_sku.not_found',
  },
  STORE_NOT_FOUND: { status: 404, code: ChannelLinkCode.storeNotFound, key: 'channel_sku.store_not_found' },
  STORE_DISCONNECTED: {
    status: 409,
    code: ChannelLinkCode.storeDisconnected,
    key: 'channel_sku.store_disconnected',
  },
  MASTER_CODE_NOT_FOUND: {
    status: 404,
    code: ChannelLinkCode.masterCodeNotFound,
    key: 'channel_sku.master_code_not_found',
  },
  LINKED_BY_SKU: { status: 409, code: ChannelLinkCode.linkedBySku, key: 'channel_sku.linked_by_sku' },
  SELLER_SKU_MISSING: {
    status: 409,
    code: ChannelLinkCode.sellerSkuMissing,
    key: 'channel_sku.seller_sku_missing',
  },
} satisfies ErrorTable<ChannelLinkErrorCode>;

export const refuseChannelLink = refuser(channelLinkErrors);
