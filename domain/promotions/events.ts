import { z } from 'zod';
import {
  DISCOUNT_MAX_PERCENT,
  GIFT_TYPES,
  PROMOTION_KINDS,
  PROMOTION_MAX_ITEMS,
  PROMOTION_NAME_MAX,
  SPENDING_TYPES,
} from './promotion';

/**
 * The promotions' events, described once: their schemas (what the event store accepts) and, inferred from them,
 * the types the decider (promotion.ts) records and folds.
 */

const Id = z.string().min(1).max(100);
const At = z.iso.datetime({ offset: true });
const Money = z.string().regex(/^\d{1,12}(\.\d{1,2})?$/);
const Reason = z.string().max(1000);
const Sku = { itemId: Id, modelId: z.string().max(100), sellerSku: z.string().max(200) };
const GiftItem = z.strictObject({ ...Sku, quantity: z.number().int().min(1).max(1000) });
const Skus = <T extends z.ZodType>(item: T) => z.array(item).max(PROMOTION_MAX_ITEMS);

const DiscountItem = z.strictObject({
  ...Sku,
  originalPrice: Money,
  promoPrice: Money,
  discountPercent: z.number().int().min(0).max(DISCOUNT_MAX_PERCENT),
  purchaseLimit: z.number().int().min(0),
  promoStock: z.number().int().min(0).nullable(),
});
const GiftTerms = z.strictObject({
  giftType: z.enum(GIFT_TYPES),
  spendingType: z.enum(SPENDING_TYPES),
  minSpend: Money,
  stackable: z.boolean(),
  orderLimit: z.number().int().min(1),
  giftsPerOrder: z.number().int().min(1),
  skuSelection: z.enum(['all', 'selected']),
  mainSkus: Skus(z.strictObject(Sku)),
  gifts: Skus(GiftItem),
  replacements: Skus(GiftItem),
});

export const PromotionCreated = z.strictObject({
  promotionId: Id,
  kind: z.enum(PROMOTION_KINDS),
  storeId: Id,
  name: z.string().min(1).max(PROMOTION_NAME_MAX),
  startAt: At,
  endAt: At,
  discount: z.strictObject({ items: Skus(DiscountItem) }).nullable(),
  gift: GiftTerms.nullable(),
  createdBy: Id,
  at: At,
});
export const PromotionPushed = z.strictObject({ channelId: Id, at: At });
export const PromotionPushFailed = z.strictObject({
  attempt: z.number().int().min(1),
  error: Reason,
  final: z.boolean(),
  at: At,
});
export const PromotionNotOnChannel = z.strictObject({ error: Reason, at: At });
export const PromotionStopped = z.strictObject({ userId: Id, at: At });
export const PromotionEndedOnChannel = z.strictObject({ at: At });
export const PromotionEndFailed = z.strictObject({ error: Reason, at: At });

export const promotionEvents = {
  PromotionCreated,
  PromotionPushed,
  PromotionPushFailed,
  PromotionNotOnChannel,
  PromotionStopped,
  PromotionEndedOnChannel,
  PromotionEndFailed,
} as const;

export type PromotionEventType = keyof typeof promotionEvents;
export type PromotionEventData = { [Type in PromotionEventType]: z.infer<(typeof promotionEvents)[Type]> };
export type PromotionEvent = {
  [Type in PromotionEventType]: { type: Type; data: PromotionEventData[Type] };
}[PromotionEventType];
export const PROMOTION_EVENT_TYPES = Object.keys(promotionEvents) as PromotionEventType[];
