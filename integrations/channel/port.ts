/**
 * # The channel port
 *
 * What every marketplace and web-store adapter does for Kedai (ARCHITECTURE.md "Channels and feeds"): items and
 * variants out and back, stock and price out, promotions out where the channel has them, orders in. Shopee is the
 * first adapter (`integrations/shopee/channel.ts`); Lazada, TikTok Shop, Shopify and WooCommerce follow behind the
 * same port. An adapter acts for one connected store with that store's tokens (it refreshes them itself); the
 * callers (listing publish, download, stock and price push, promotions, order import) know only this port.
 *
 * Money is a decimal string in the store's currency (`"12.90"`), like `Money` in the order schemas; quantities
 * are whole units. Ids are the channel's, as strings (Shopee's are numbers). A model id is absent for an item
 * without variants.
 *
 * Every failure is a `ChannelError`: its kind, the channel's own code and message, and whether the same call may
 * succeed later with nothing changed (then callers retry with backoff, honouring `retryAfterMs`).
 */

import type { MarketplaceOrder } from '@domain/orders/marketplace-order';

export type ChannelErrorKind =
  | 'signature'
  | 'authorization'
  | 'rate_limit'
  | 'server'
  | 'timeout'
  | 'network'
  | 'request'
  | 'protocol'
  | 'not_found'
  | 'unsupported';

export class ChannelError extends Error {
  override name = 'ChannelError';
  constructor(
    readonly kind: ChannelErrorKind,
    message: string,
    readonly options: {
      /** The channel's own error code (Shopee's `error`, e.g. `error_busy`). */
      channelCode?: string;
      retryable: boolean;
      retryAfterMs?: number;
      /** The seller must authorise the store again. */
      reauthorize?: boolean;
      cause?: unknown;
    },
  ) {
    super(message, options.cause !== undefined ? { cause: options.cause } : undefined);
  }
  get retryable(): boolean {
    return this.options.retryable;
  }
}

/** One tier of variations ("Colour": Red, Blue). Shopee allows two tiers and 50 combinations. */
export interface ChannelTier {
  name: string;
  options: string[];
}

/** An item's variant (Shopee's model): which option of each tier it is, its own SKU, price and stock. */
export interface ChannelModel {
  /** Absent on a draft not yet created on the channel. */
  modelId?: string;
  /** Indexes into the item's tiers, one per tier ([] for an item without tiers). */
  tierIndex: number[];
  sellerSku: string;
  price: string;
  stock: number;
}

export type ChannelItemStatus = 'normal' | 'unlisted' | 'banned' | 'deleted' | 'reviewing';

/** An item as the channel holds it (what download reads back). */
export interface ChannelItem {
  itemId: string;
  name: string;
  /** The item's own seller SKU (Shopee's item_sku); the models carry theirs. */
  sellerSku: string;
  status: ChannelItemStatus;
  categoryId: string;
  description: string;
  brand?: string;
  /** Image URLs as the channel serves them. */
  images: string[];
  weightKg?: number;
  dimensionsCm?: { length: number; width: number; height: number };
  /** Price and stock of an item without variants; for one with variants, the models'. */
  price: string;
  stock: number;
  tiers: ChannelTier[];
  models: ChannelModel[];
  /** Unix seconds, the channel's update time. */
  updatedAt: number;
}

/** A category of the store's channel; only a leaf takes items. */
export interface ChannelCategory {
  categoryId: string;
  /** null: a first-level category. */
  parentId: string | null;
  name: string;
  leaf: boolean;
}

/**
 * How a category attribute's value is given: one of its values (`select`), one of them or one's own (`combo`),
 * one's own only (`text`), or several (`multi_select`, `multi_combo`).
 */
export type ChannelAttributeInput = 'select' | 'combo' | 'text' | 'multi_select' | 'multi_combo';

/** An attribute a leaf category asks of its items. */
export interface ChannelAttribute {
  attributeId: string;
  name: string;
  mandatory: boolean;
  input: ChannelAttributeInput;
  values: { valueId: string; name: string }[];
  /** Units a value of one's own is given in ("g", "kg"); empty: no unit. */
  units: string[];
  /** For the multiple inputs: how many values at most. */
  maxValues?: number;
}

/** The brands a leaf category offers ("No Brand" among them on Shopee), and whether an item must name one. */
export interface ChannelBrands {
  mandatory: boolean;
  brands: { brandId: string; name: string }[];
}

/** An attribute's value for an item: one of the attribute's values by id, or a value of one's own (no id). */
export interface ChannelAttributeValue {
  attributeId: string;
  values: { valueId?: string; name: string; unit?: string }[];
}

/** What Kedai sends to create an item (publish) or to change one (sync): the editor's listing for one store. */
export interface ChannelItemDraft {
  name: string;
  description: string;
  categoryId: string;
  brand?: string;
  /** The channel's id of the brand; absent: the brand by name only ("No Brand" when no name either). */
  brandId?: string;
  /** The category's attributes (every mandatory one). */
  attributes?: ChannelAttributeValue[];
  /** Public https URLs of the images (the channel downloads them; Shopee's flow uploads them first). */
  images: string[];
  weightKg: number;
  dimensionsCm?: { length: number; width: number; height: number };
  /** Channel logistics channel ids to enable (at least one). */
  logistics: string[];
  sellerSku: string;
  /** For an item without variants. */
  price: string;
  stock: number;
  condition?: 'new' | 'used';
  /** GTIN, '00' when the item has none. */
  gtin?: string;
  tiers: ChannelTier[];
  models: ChannelModel[];
}

/** What creating an item gave back: its id and each model's id by seller SKU. */
export interface CreatedItem {
  itemId: string;
  models: { sellerSku: string; modelId?: string }[];
  /** The store already had the item (by seller SKU) and it was changed, not created: no undo deletes it. */
  adopted?: boolean;
}

/** One stock figure to set: the channel's item and model, and the quantity the channel should show. */
export interface StockUpdate {
  itemId: string;
  modelId?: string;
  quantity: number;
}

/** One price to set. */
export interface PriceUpdate {
  itemId: string;
  modelId?: string;
  price: string;
}

/**
 * The channel's answer for one update of a batch: applied, or refused with the channel's reason (a batch call
 * may succeed for some models and fail for others). A failure of the whole call is a thrown ChannelError.
 */
export type UpdateOutcome =
  | { itemId: string; modelId?: string; ok: true }
  | { itemId: string; modelId?: string; ok: false; reason: string; retryable: boolean };

/** A stock figure read back from the channel (reconciliation). */
export interface ChannelStock {
  itemId: string;
  modelId?: string;
  sellerSku: string;
  quantity: number;
}

/** A discount promotion on the channel (Shopee's discount): a period and a promo price per model. */
export interface DiscountDraft {
  name: string;
  /** Unix seconds. */
  startTime: number;
  endTime: number;
  items: {
    itemId: string;
    modelId?: string;
    promoPrice: string;
    purchaseLimit?: number;
    promoStock?: number;
  }[];
}

/** A gift-with-purchase promotion (Shopee's add-on deal with gifts). */
export interface GiftPromotionDraft {
  name: string;
  startTime: number;
  endTime: number;
  /** Minimum spend to get the gift, in the store's currency. */
  purchaseMinSpend: string;
  giftsPerOrder: number;
  mainItems: { itemId: string }[];
  giftItems: { itemId: string; modelId?: string }[];
}

/** One page of a paged read; `next` absent: the last page. */
export interface ChannelPage<T> {
  items: T[];
  next?: string;
}

/** An order the channel sent that cannot be one of Kedai's (no items, a field out of bounds), and why. */
export interface SkippedOrder {
  orderNumber: string;
  reason: string;
}

/**
 * Orders read from the channel: those in Kedai's words, and beside them those that could not be translated — one
 * bad order does not fail the others (the import names it on the store and goes on).
 */
export interface ChannelOrders {
  items: MarketplaceOrder[];
  skipped: SkippedOrder[];
}

export interface ChannelPort {
  readonly platform: string;
  /** The most models one stock or price call takes (Shopee: 50); callers may pass more, the adapter splits. */
  readonly maxModelsPerCall: number;
  /** Shopee: at most 50 combinations of tier options. */
  readonly maxVariantCombinations: number;

  /** Makes sure the store's tokens are valid, refreshing them now if they expire soon. */
  refresh(): Promise<void>;

  /** The store's item ids, a page at a time (all statuses but deleted), with their update time. */
  listItems(page?: string): Promise<ChannelPage<{ itemId: string; updatedAt: number }>>;
  /** The items in full (base info + tiers + models), at most 50 ids per call; unknown ids are left out. */
  getItems(itemIds: string[]): Promise<ChannelItem[]>;

  /**
   * Creates the item with its tiers and models; what the channel gave back. Idempotent by the draft's seller SKU:
   * an item the store already sells under that SKU (one an earlier call created before its answer was lost) is
   * taken and changed to the draft rather than created a second time.
   */
  createItem(draft: ChannelItemDraft): Promise<CreatedItem>;
  /** The store's live item (not deleted) whose own seller SKU is exactly this one (case aside); undefined: none. */
  findItemBySellerSku(sellerSku: string): Promise<string | undefined>;
  /** Changes an existing item (base info, tiers and models, each model matched by seller SKU). */
  updateItem(itemId: string, draft: ChannelItemDraft): Promise<CreatedItem>;
  /** Lists or unlists the item. */
  setListed(itemId: string, listed: boolean): Promise<void>;
  /** Deletes an item (a publish's compensation for a half-created item). */
  deleteItem(itemId: string): Promise<void>;

  /** The store's category tree, flat. */
  getCategories(): Promise<ChannelCategory[]>;
  /** A leaf category's attributes; `not_found` for a category that is not a leaf of the store's tree. */
  getAttributes(categoryId: string): Promise<ChannelAttribute[]>;
  /** A leaf category's brands; `not_found` as getAttributes. */
  getBrands(categoryId: string): Promise<ChannelBrands>;

  /** Sets stock; one outcome per update, in order. */
  updateStock(updates: StockUpdate[]): Promise<UpdateOutcome[]>;
  /** Sets prices; one outcome per update, in order. */
  updatePrice(updates: PriceUpdate[]): Promise<UpdateOutcome[]>;
  /** The channel's current stock of the given items (for reconciliation). */
  getStock(itemIds: string[]): Promise<ChannelStock[]>;

  /** Creates a discount promotion; its channel id. Throws `unsupported` where the channel has none. */
  createDiscount(draft: DiscountDraft): Promise<{ discountId: string }>;
  /** Ends a discount promotion early. */
  endDiscount(discountId: string): Promise<void>;
  /** Creates a gift-with-purchase promotion; its channel id. Throws `unsupported` where the channel has none. */
  createGiftPromotion(draft: GiftPromotionDraft): Promise<{ promotionId: string }>;
  /** Stops a gift-with-purchase promotion. */
  endGiftPromotion(promotionId: string): Promise<void>;

  /**
   * Orders the channel updated from `from` to `until` (Unix seconds, both included), a page at a time, in Kedai's
   * words, those it cannot translate skipped beside them (the order import's poll).
   */
  listOrders(
    window: { from: number; until: number },
    page?: string,
  ): Promise<ChannelOrders & ChannelPage<MarketplaceOrder>>;
  /**
   * Orders by the channel's numbers, in Kedai's words, those it cannot translate skipped beside them (a push
   * message names one; the adapter splits a long list into the channel's batches).
   */
  getOrders(orderNumbers: string[]): Promise<ChannelOrders>;
}
