import { PromotionCode as C } from '@domain/promotions/codes';
import {
  GIFT_ORDER_LIMIT_MAX,
  GIFT_TYPES,
  GIFTS_PER_ORDER_MAX,
  PROMOTION_KINDS,
  PROMOTION_MAX_ITEMS,
  PROMOTION_STATUSES,
  PURCHASE_LIMIT_MAX,
  SPENDING_TYPES,
} from '@domain/promotions/promotion';
import { z } from 'zod';
import { gridQuery, setFilter, TextFilter } from './grid';
import { rule } from './rules';

/**
 * The requests and answers of promotions and price control (api/promotions/): discount and gift-with-purchase
 * promotions of a store, each store's price rule with its preview, the price push and its log.
 */

// ---- pieces ----

const id = (message: string) => z.string({ error: message }).min(1, message).max(64, message);
const storeId = id(rule(C.storeNotFound, 'promotions.store_required'));
const itemId = id(rule(C.skuNotFound, 'promotions.sku_required'));
const modelId = z.string().max(64).default('');
const money = (message: string) => z.string({ error: message }).regex(/^\d{1,10}(\.\d{1,2})?$/, message);
const signedMoney = (message: string) =>
  z.string({ error: message }).regex(/^-?\d{1,10}(\.\d{1,2})?$/, message);
const whole = (min: number, max: number, message: string) =>
  z.number({ error: message }).int(message).min(min, message).max(max, message);
const instant = (message: string) => z.iso.datetime({ offset: true, error: message });
const skuList = <T extends z.ZodType>(item: T, message: string) =>
  z.array(item, { error: message }).max(PROMOTION_MAX_ITEMS, message);

/** What every promotion's body has (§5: name, start and end required). */
const Period = {
  store_id: storeId,
  name: z.string({ error: rule(C.nameRequired, 'promotions.name_required') }),
  start_at: instant(rule(C.startRequired, 'promotions.start_required')),
  end_at: instant(rule(C.endRequired, 'promotions.end_required')),
};

// ---- bodies ----

const priceMessage = rule(C.priceOutOfRange, 'promotions.price_invalid');

export const DiscountItemBody = z.strictObject({
  item_id: itemId,
  model_id: modelId,
  /** The sale price; or `discount`, the whole percent off, from which the price is worked out. */
  promo_price: money(priceMessage).optional(),
  discount: whole(0, 100, rule(C.discountOutOfRange, 'promotions.discount_invalid')).optional(),
  /** Units one buyer may buy at the promo price; 0: no limit. */
  purchase_limit: whole(
    0,
    PURCHASE_LIMIT_MAX,
    rule(C.purchaseLimitInvalid, 'promotions.purchase_limit_plain', { max: PURCHASE_LIMIT_MAX }),
  ).default(0),
  /** Units for sale at the promo price; absent or null: all the available stock. */
  promo_stock: whole(0, 1_000_000_000, rule(C.stockAboveAvailable, 'promotions.promo_stock_invalid'))
    .nullable()
    .default(null),
});
export type DiscountItemBody = z.infer<typeof DiscountItemBody>;

const itemsRequired = rule(C.itemsInvalid, 'promotions.items_required');

export const DiscountBody = z.strictObject({
  ...Period,
  items: skuList(DiscountItemBody, itemsRequired),
});
export type DiscountBody = z.infer<typeof DiscountBody>;

const SkuRef = z.strictObject({ item_id: itemId, model_id: modelId });
const giftMessage = rule(C.giftInvalid, 'promotions.gift_invalid');
const GiftItemBody = SkuRef.extend({ quantity: whole(1, 1000, giftMessage).default(1) });

export const GiftBody = z.strictObject({
  ...Period,
  gift_type: z.enum(GIFT_TYPES, { error: giftMessage }),
  spending_type: z.enum(SPENDING_TYPES, { error: giftMessage }),
  min_spend: money(rule(C.giftInvalid, 'promotions.min_spend_invalid')).default('0'),
  stackable: z.boolean({ error: giftMessage }).default(false),
  order_limit: whole(
    1,
    GIFT_ORDER_LIMIT_MAX,
    rule(C.giftInvalid, 'promotions.order_limit_invalid', { max: GIFT_ORDER_LIMIT_MAX }),
  ),
  gifts_per_order: whole(
    1,
    GIFTS_PER_ORDER_MAX,
    rule(C.giftInvalid, 'promotions.gifts_per_order_invalid', { max: GIFTS_PER_ORDER_MAX }),
  ).default(1),
  sku_selection: z.enum(['all', 'selected'], { error: giftMessage }),
  main_skus: skuList(SkuRef, itemsRequired).default([]),
  gifts: skuList(GiftItemBody, rule(C.giftInvalid, 'promotions.gifts_required')),
  replacements: skuList(GiftItemBody, giftMessage).default([]),
});
export type GiftBody = z.infer<typeof GiftBody>;

// ---- answers ----

const Store = z.object({ id: z.string(), name: z.string(), platform: z.string() });

export const PromotionStoresAnswer = z.array(Store.extend({ status: z.string() }));
export type PromotionStoresAnswer = z.infer<typeof PromotionStoresAnswer>;

/** A channel SKU of the store as the pickers and the pricing grid show it. */
export const ChannelSkuRow = z.object({
  item_id: z.string(),
  model_id: z.string(),
  seller_sku: z.string(),
  item_name: z.string(),
  model_name: z.string(),
  /** The price the channel last showed. */
  price: z.string(),
  /** What the store may sell: the linked master code's available stock, else the channel's own figure. */
  available: z.number(),
  master_code: z.object({ id: z.string(), code: z.string(), unit_price: z.string() }).nullable(),
});
export type ChannelSkuRow = z.infer<typeof ChannelSkuRow>;

export const ChannelSkuQuery = z.strictObject({
  store_id: storeId,
  search: z.string().max(200).optional(),
});
export type ChannelSkuQuery = z.infer<typeof ChannelSkuQuery>;

export const PROMOTION_SORT_COLUMNS = ['name', 'start_at', 'end_at', 'created_at'] as const;

export const PromotionListQuery = gridQuery(PROMOTION_SORT_COLUMNS, {
  name: TextFilter,
  status: setFilter(PROMOTION_STATUSES),
}).extend({ kind: z.enum(PROMOTION_KINDS), store_id: z.string().max(64).optional() });
export type PromotionListQuery = z.infer<typeof PromotionListQuery>;

const ChannelStatus = z.object({
  state: z.enum(['pending', 'pushed', 'failed', 'not_on_channel']),
  id: z.string().nullable(),
  error: z.string().nullable(),
});

export const PromotionListRow = z.object({
  id: z.string(),
  kind: z.enum(PROMOTION_KINDS),
  name: z.string(),
  store: Store,
  start_at: z.string(),
  end_at: z.string(),
  status: z.enum(PROMOTION_STATUSES),
  channel: ChannelStatus,
  item_count: z.number(),
  created_at: z.string(),
});
export type PromotionListRow = z.infer<typeof PromotionListRow>;

const SkuAnswer = z.object({ item_id: z.string(), model_id: z.string(), seller_sku: z.string() });
const GiftItemAnswer = SkuAnswer.extend({ quantity: z.number() });

export const PromotionDetail = PromotionListRow.extend({
  discount: z
    .object({
      items: z.array(
        SkuAnswer.extend({
          original_price: z.string(),
          promo_price: z.string(),
          discount: z.number(),
          purchase_limit: z.number(),
          promo_stock: z.number().nullable(),
        }),
      ),
    })
    .nullable(),
  gift: z
    .object({
      gift_type: z.enum(GIFT_TYPES),
      spending_type: z.enum(SPENDING_TYPES),
      min_spend: z.string(),
      stackable: z.boolean(),
      order_limit: z.number(),
      gifts_per_order: z.number(),
      sku_selection: z.enum(['all', 'selected']),
      main_skus: z.array(SkuAnswer),
      gifts: z.array(GiftItemAnswer),
      replacements: z.array(GiftItemAnswer),
    })
    .nullable(),
  stopped_at: z.string().nullable(),
  channel_end: z.object({ state: z.string(), error: z.string().nullable() }).nullable(),
  actions: z.object({ stop: z.boolean() }),
});
export type PromotionDetail = z.infer<typeof PromotionDetail>;

// ---- price control ----

export const StoreParams = z.strictObject({ storeId: z.string().max(64) });
export type StoreParams = z.infer<typeof StoreParams>;

const ruleMessage = rule(C.priceRuleInvalid, 'promotions.price_rule_plain');

export const PriceRuleBody = z.strictObject({
  markup_percent: z.number({ error: ruleMessage }).min(-90, ruleMessage).max(1000, ruleMessage),
  fixed_amount: signedMoney(ruleMessage).default('0'),
  rounding: z.enum(['none', 'whole', 'ninety', 'ninety_nine'], { error: ruleMessage }),
  /** A price of its own per channel SKU, keyed `itemId:modelId`. */
  overrides: z.record(z.string().max(140), money(ruleMessage)).default({}),
});
export type PriceRuleBody = z.infer<typeof PriceRuleBody>;

export const PricePreviewRow = ChannelSkuRow.extend({
  /** What the rule gives; null when the SKU is not linked to a master code (nothing to price it from). */
  new_price: z.string().nullable(),
  overridden: z.boolean(),
});
export type PricePreviewRow = z.infer<typeof PricePreviewRow>;

export const PricingAnswer = z.object({
  store: Store,
  rule: PriceRuleBody.required(),
  updated_at: z.string().nullable(),
  rows: z.array(PricePreviewRow),
});
export type PricingAnswer = z.infer<typeof PricingAnswer>;

export const PricePushAnswer = z.object({ push_id: z.string(), skus: z.number() });
export type PricePushAnswer = z.infer<typeof PricePushAnswer>;
