import { fromCents, toCents } from '../returns/return';
import {
  type ErrorTable,
  type FieldRefusal,
  type RefusalParams,
  refusedTogether,
  refuser,
} from '../shared/errors';
import { TEXT_LIMITS } from '../shared/limits';
import { PromotionCode } from './codes';
import type { PromotionEvent } from './events';

/**
 * A promotion of one store (spec §2 "discount promotion, gift-with-purchase promotions", §3 Promo and
 * Gift-with-purchase promotion, §5 Promotions rules): a discount (a promo price per channel SKU) or a gift with
 * purchase, for an order period. One stream per promotion, `promotion-<tenant>.<id>`. Kedai records it, then a
 * workflow (workflows/promotion-push.workflow.ts) creates it on the channel and records the channel's answer; a
 * seller may stop it early, which the workflow ends on the channel too.
 *
 * Its state over time is not recorded but read off the clock (`promotionStatus`): upcoming (the gift screen says
 * "starting soon") before its start, ongoing until its end, ended after; stopped once stopped by hand.
 * Pure: the clock arrives in the commands (`now`, `at`); the events are described by their schemas in ./events.ts.
 */

export const PROMOTION_CATEGORY = 'promotion';
export const promotionStreamId = (tenantId: string, promotionId: string) =>
  `${PROMOTION_CATEGORY}-${tenantId}.${promotionId}`;

export const PROMOTION_KINDS = ['discount', 'gift'] as const;
export type PromotionKind = (typeof PROMOTION_KINDS)[number];

export const PROMOTION_STATUSES = ['upcoming', 'ongoing', 'ended', 'stopped'] as const;
export type PromotionStatus = (typeof PROMOTION_STATUSES)[number];

/** Where the promotion stands on its channel. */
export const CHANNEL_STATES = ['pending', 'pushed', 'failed', 'not_on_channel'] as const;
export type ChannelState = (typeof CHANNEL_STATES)[number];

/** §5 "end at least 1 hour after start" (and §9). */
export const MIN_PROMOTION_MS = 60 * 60 * 1000;
/** The range a sale price and a discount must fall in (§5: "values not shown"): Shopee's discount limits. */
export const DISCOUNT_MIN_PERCENT = 1;
export const DISCOUNT_MAX_PERCENT = 99;
export const PURCHASE_LIMIT_MAX = 1000;
export const GIFT_ORDER_LIMIT_MAX = 100_000;
export const GIFTS_PER_ORDER_MAX = 100;
export const PROMOTION_MAX_ITEMS = 500;
export const PROMOTION_NAME_MAX = TEXT_LIMITS.name;

/** A channel SKU of the store (table channel_skus): the channel's item and model ('' without variants). */
export interface ChannelSkuRef {
  itemId: string;
  modelId: string;
}
export const skuKey = (sku: ChannelSkuRef) => `${sku.itemId}:${sku.modelId}`;

/** One SKU of a discount: its price before (the channel's) and during the promotion. */
export interface DiscountItem extends ChannelSkuRef {
  sellerSku: string;
  originalPrice: string;
  promoPrice: string;
  /** Whole percent off, as the seller reads it (derived from the prices). */
  discountPercent: number;
  /** Units one buyer may buy at the promo price; 0: no limit. */
  purchaseLimit: number;
  /** Units sold at the promo price; null: no promo stock of its own (all available stock). */
  promoStock: number | null;
}

/** §3 Gift-with-purchase "spending type": what counts towards the minimum spend. */
export const SPENDING_TYPES = [
  'without_total',
  'exclude_total',
  'with_seller_voucher',
  'with_platform_voucher',
  'include_shipping',
] as const;
export type SpendingType = (typeof SPENDING_TYPES)[number];

/** §3 Gift-with-purchase "type": a gift for buying the selected SKUs, or for an order reaching a spend. */
export const GIFT_TYPES = ['buy_sku', 'order_spend'] as const;
export type GiftType = (typeof GIFT_TYPES)[number];

export interface GiftItem extends ChannelSkuRef {
  sellerSku: string;
  quantity: number;
}

export interface GiftTerms {
  giftType: GiftType;
  spendingType: SpendingType;
  /** The spend that earns the gift ("0.00" when the spending type counts no total). */
  minSpend: string;
  /** Stackable: one gift per multiple of the spend (or of the SKUs bought) rather than one per order. */
  stackable: boolean;
  /** At most this many orders get the gift. */
  orderLimit: number;
  giftsPerOrder: number;
  /** §3 "SKU selection": every SKU of the store, or the chosen ones. */
  skuSelection: 'all' | 'selected';
  mainSkus: (ChannelSkuRef & { sellerSku: string })[];
  gifts: GiftItem[];
  /** Given instead when a gift runs out. */
  replacements: GiftItem[];
}

export interface PromotionFields {
  kind: PromotionKind;
  storeId: string;
  name: string;
  startAt: string;
  endAt: string;
  discount: { items: DiscountItem[] } | null;
  gift: GiftTerms | null;
}

// ---- state ----

export interface PromotionState extends PromotionFields {
  exists: boolean;
  promotionId: string;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
  channel: { state: ChannelState; id: string | null; attempts: number; error: string | null };
  stopped: { by: string; at: string } | null;
  /** Ending a stopped promotion on its channel: null while there is nothing to end. */
  channelEnd: { state: 'pending' | 'done' | 'failed'; error: string | null } | null;
}

export const initialState: PromotionState = {
  exists: false,
  promotionId: '',
  kind: 'discount',
  storeId: '',
  name: '',
  startAt: '',
  endAt: '',
  discount: null,
  gift: null,
  createdBy: '',
  createdAt: '',
  updatedAt: '',
  channel: { state: 'pending', id: null, attempts: 0, error: null },
  stopped: null,
  channelEnd: null,
};

/** Where the promotion stands at `now` (§4 Gift promotion: starting soon, ongoing, ended, stopped (manually)). */
export function promotionStatus(state: Pick<PromotionState, 'startAt' | 'endAt' | 'stopped'>, now: Date) {
  if (state.stopped) return 'stopped' satisfies PromotionStatus;
  const at = now.getTime();
  if (at < Date.parse(state.startAt)) return 'upcoming' satisfies PromotionStatus;
  if (at < Date.parse(state.endAt)) return 'ongoing' satisfies PromotionStatus;
  return 'ended' satisfies PromotionStatus;
}

/** A promotion may be stopped while it has not ended and was not stopped already. */
export const canStop = (state: PromotionState, now: Date) =>
  state.exists && ['upcoming', 'ongoing'].includes(promotionStatus(state, now));

// ---- refusals ----

export const PROMOTION_ERRORS = [
  'PROMOTION_NOT_FOUND',
  'PROMOTION_NAME_REQUIRED',
  'PROMOTION_NAME_TOO_LONG',
  'PROMOTION_START_REQUIRED',
  'PROMOTION_END_REQUIRED',
  'PROMOTION_START_NOT_LATER',
  'PROMOTION_END_BEFORE_START',
  'PROMOTION_END_EQUALS_START',
  'PROMOTION_END_WITHIN_HOUR',
  'PROMOTION_STOCK_ABOVE_AVAILABLE',
  'PROMOTION_PRICE_OUT_OF_RANGE',
  'PROMOTION_DISCOUNT_OUT_OF_RANGE',
  'PROMOTION_PURCHASE_LIMIT_INVALID',
  'PROMOTION_ITEMS_REQUIRED',
  'PROMOTION_TOO_MANY_ITEMS',
  'PROMOTION_ITEM_REPEATED',
  'PROMOTION_STORE_NOT_FOUND',
  'PROMOTION_SKU_NOT_FOUND',
  'PROMOTION_GIFTS_REQUIRED',
  'PROMOTION_MIN_SPEND_REQUIRED',
  'PROMOTION_ORDER_LIMIT_INVALID',
  'PROMOTION_GIFTS_PER_ORDER_INVALID',
  'PROMOTION_EXISTS',
  'PROMOTION_CANNOT_STOP',
] as const;
export type PromotionErrorCode = (typeof PROMOTION_ERRORS)[number];

const C = PromotionCode;
const bad = (code: number, key: string) => ({ status: 400, code, key: `promotions.${key}` });

export const promotionErrors = {
  PROMOTION_NOT_FOUND: { status: 404, code: 404, key: 'common.no_record_found' },
  PROMOTION_NAME_REQUIRED: bad(C.nameRequired, 'name_required'),
  PROMOTION_NAME_TOO_LONG: bad(C.textInvalid, 'name_too_long'),
  PROMOTION_START_REQUIRED: bad(C.startRequired, 'start_required'),
  PROMOTION_END_REQUIRED: bad(C.endRequired, 'end_required'),
  PROMOTION_START_NOT_LATER: bad(C.startNotLater, 'start_not_later'),
  PROMOTION_END_BEFORE_START: bad(C.endBeforeStart, 'end_before_start'),
  PROMOTION_END_EQUALS_START: bad(C.endEqualsStart, 'end_equals_start'),
  PROMOTION_END_WITHIN_HOUR: bad(C.endWithinHour, 'end_within_hour'),
  PROMOTION_STOCK_ABOVE_AVAILABLE: bad(C.stockAboveAvailable, 'stock_above_available'),
  PROMOTION_PRICE_OUT_OF_RANGE: bad(C.priceOutOfRange, 'price_out_of_range'),
  PROMOTION_DISCOUNT_OUT_OF_RANGE: bad(C.discountOutOfRange, 'discount_out_of_range'),
  PROMOTION_PURCHASE_LIMIT_INVALID: bad(C.purchaseLimitInvalid, 'purchase_limit_invalid'),
  PROMOTION_ITEMS_REQUIRED: bad(C.itemsInvalid, 'items_required'),
  PROMOTION_TOO_MANY_ITEMS: bad(C.itemsInvalid, 'too_many_items'),
  PROMOTION_ITEM_REPEATED: bad(C.itemsInvalid, 'item_repeated'),
  PROMOTION_STORE_NOT_FOUND: bad(C.storeNotFound, 'store_not_found'),
  PROMOTION_SKU_NOT_FOUND: bad(C.skuNotFound, 'sku_not_found'),
  PROMOTION_GIFTS_REQUIRED: bad(C.giftInvalid, 'gifts_required'),
  PROMOTION_MIN_SPEND_REQUIRED: bad(C.giftInvalid, 'min_spend_required'),
  PROMOTION_ORDER_LIMIT_INVALID: bad(C.giftInvalid, 'order_limit_invalid'),
  PROMOTION_GIFTS_PER_ORDER_INVALID: bad(C.giftInvalid, 'gifts_per_order_invalid'),
  PROMOTION_EXISTS: { status: 409, code: C.wrongState, key: 'promotions.exists' },
  PROMOTION_CANNOT_STOP: { status: 409, code: C.wrongState, key: 'promotions.cannot_stop' },
} satisfies ErrorTable<PromotionErrorCode>;

export const refusePromotion = refuser(promotionErrors);
export const isPromotionError = (code: string): code is PromotionErrorCode => code in promotionErrors;

const problem = (field: string, code: PromotionErrorCode, params: RefusalParams = {}): FieldRefusal => ({
  field,
  error: refusePromotion(code, params),
});

// ---- §5 Promotions rules ----

/**
 * §5: name, start and end given; the start later than now; the end neither earlier than the start nor equal to it,
 * and at least an hour after it. Each broken rule named by its field (the body's names).
 */
export function periodProblems(fields: { name: string; startAt: string; endAt: string }, now: Date) {
  const problems: FieldRefusal[] = [];
  if (!fields.name.trim()) problems.push(problem('name', 'PROMOTION_NAME_REQUIRED'));
  else if (fields.name.length > PROMOTION_NAME_MAX)
    problems.push(problem('name', 'PROMOTION_NAME_TOO_LONG', { max: PROMOTION_NAME_MAX }));
  const start = fields.startAt ? Date.parse(fields.startAt) : Number.NaN;
  const end = fields.endAt ? Date.parse(fields.endAt) : Number.NaN;
  if (Number.isNaN(start)) problems.push(problem('start_at', 'PROMOTION_START_REQUIRED'));
  else if (start <= now.getTime()) problems.push(problem('start_at', 'PROMOTION_START_NOT_LATER'));
  if (Number.isNaN(end)) problems.push(problem('end_at', 'PROMOTION_END_REQUIRED'));
  else if (!Number.isNaN(start)) {
    if (end < start) problems.push(problem('end_at', 'PROMOTION_END_BEFORE_START'));
    else if (end === start) problems.push(problem('end_at', 'PROMOTION_END_EQUALS_START'));
    else if (end - start < MIN_PROMOTION_MS) problems.push(problem('end_at', 'PROMOTION_END_WITHIN_HOUR'));
  }
  return problems;
}

/** The whole percent a promo price takes off the original, rounded half up ("100.00" → "79.90": 20). */
export function discountPercentOf(originalPrice: string, promoPrice: string): number {
  const original = toCents(originalPrice);
  if (original <= 0n) return 0;
  const off = (original - toCents(promoPrice)) * 100n;
  return Number((off * 2n + original) / (original * 2n));
}

/** The promo price a whole percent off gives, to the cent, rounded half up. */
export function promoPriceOf(originalPrice: string, percent: number): string {
  const original = toCents(originalPrice);
  const kept = original * BigInt(100 - percent);
  return fromCents((kept * 2n + 100n) / 200n);
}

/** A discount item as the seller entered it, with the stock the store may sell of its SKU. */
export interface DiscountItemInput extends Omit<DiscountItem, 'discountPercent'> {
  available: number;
}

/**
 * §5: every SKU once; the sale price above zero and below the original, the discount within 1–99 %; the promo
 * stock not above the available stock; a purchase limit within 0 (none) – 1,000.
 */
export function discountProblems(items: DiscountItemInput[]) {
  const problems: FieldRefusal[] = [];
  if (items.length === 0) problems.push(problem('items', 'PROMOTION_ITEMS_REQUIRED'));
  if (items.length > PROMOTION_MAX_ITEMS)
    problems.push(problem('items', 'PROMOTION_TOO_MANY_ITEMS', { max: PROMOTION_MAX_ITEMS }));
  const seen = new Set<string>();
  items.forEach((item, index) => {
    const at = (field: string) => `items/${index}/${field}`;
    const line = { line: index + 1, sku: item.sellerSku };
    if (seen.has(skuKey(item))) problems.push(problem(at('item_id'), 'PROMOTION_ITEM_REPEATED', line));
    seen.add(skuKey(item));
    const price = toCents(item.promoPrice);
    if (price <= 0n || price >= toCents(item.originalPrice))
      problems.push(
        problem(at('promo_price'), 'PROMOTION_PRICE_OUT_OF_RANGE', { ...line, max: item.originalPrice }),
      );
    else {
      const percent = discountPercentOf(item.originalPrice, item.promoPrice);
      if (percent < DISCOUNT_MIN_PERCENT || percent > DISCOUNT_MAX_PERCENT)
        problems.push(
          problem(at('discount'), 'PROMOTION_DISCOUNT_OUT_OF_RANGE', {
            ...line,
            min: DISCOUNT_MIN_PERCENT,
            max: DISCOUNT_MAX_PERCENT,
          }),
        );
    }
    if (item.promoStock !== null && item.promoStock > item.available)
      problems.push(
        problem(at('promo_stock'), 'PROMOTION_STOCK_ABOVE_AVAILABLE', { ...line, available: item.available }),
      );
    if (item.purchaseLimit < 0 || item.purchaseLimit > PURCHASE_LIMIT_MAX)
      problems.push(
        problem(at('purchase_limit'), 'PROMOTION_PURCHASE_LIMIT_INVALID', {
          ...line,
          max: PURCHASE_LIMIT_MAX,
        }),
      );
  });
  return problems;
}

/** The gift terms: gifts chosen, the SKUs chosen when the selection is "selected", a spend when one counts. */
export function giftProblems(terms: GiftTerms) {
  const problems: FieldRefusal[] = [];
  if (terms.gifts.length === 0) problems.push(problem('gifts', 'PROMOTION_GIFTS_REQUIRED'));
  if (terms.skuSelection === 'selected' && terms.mainSkus.length === 0)
    problems.push(problem('main_skus', 'PROMOTION_ITEMS_REQUIRED'));
  const lists = [terms.mainSkus, terms.gifts, terms.replacements];
  if (lists.some((list) => list.length > PROMOTION_MAX_ITEMS))
    problems.push(problem('gifts', 'PROMOTION_TOO_MANY_ITEMS', { max: PROMOTION_MAX_ITEMS }));
  const needsSpend = terms.giftType === 'order_spend' && terms.spendingType !== 'without_total';
  if (needsSpend && toCents(terms.minSpend) <= 0n)
    problems.push(problem('min_spend', 'PROMOTION_MIN_SPEND_REQUIRED'));
  if (terms.orderLimit < 1 || terms.orderLimit > GIFT_ORDER_LIMIT_MAX)
    problems.push(problem('order_limit', 'PROMOTION_ORDER_LIMIT_INVALID', { max: GIFT_ORDER_LIMIT_MAX }));
  if (terms.giftsPerOrder < 1 || terms.giftsPerOrder > GIFTS_PER_ORDER_MAX)
    problems.push(
      problem('gifts_per_order', 'PROMOTION_GIFTS_PER_ORDER_INVALID', { max: GIFTS_PER_ORDER_MAX }),
    );
  return problems;
}

// ---- commands and decide ----

export type PromotionCommand =
  | {
      type: 'CreatePromotion';
      promotionId: string;
      userId: string;
      now: string;
      fields: Omit<PromotionFields, 'discount'> & { discount: { items: DiscountItemInput[] } | null };
    }
  | { type: 'RecordPromotionPushed'; channelId: string; at: string }
  | { type: 'RecordPromotionPushFailed'; error: string; final: boolean; at: string }
  | { type: 'RecordPromotionNotOnChannel'; error: string; at: string }
  | { type: 'StopPromotion'; userId: string; at: string }
  | { type: 'RecordPromotionEnded'; at: string }
  | { type: 'RecordPromotionEndFailed'; error: string; at: string };

export function decide(command: PromotionCommand, state: PromotionState): PromotionEvent[] {
  switch (command.type) {
    case 'CreatePromotion': {
      if (state.exists) throw refusePromotion('PROMOTION_EXISTS');
      const { fields } = command;
      const problems = periodProblems(fields, new Date(command.now));
      if (fields.discount) problems.push(...discountProblems(fields.discount.items));
      if (fields.gift) problems.push(...giftProblems(fields.gift));
      const refused = refusedTogether(problems);
      if (refused) throw refused;
      const discount = fields.discount && {
        items: fields.discount.items.map(({ available: _, ...item }) => ({
          ...item,
          discountPercent: discountPercentOf(item.originalPrice, item.promoPrice),
        })),
      };
      return [
        {
          type: 'PromotionCreated',
          data: {
            promotionId: command.promotionId,
            kind: fields.kind,
            storeId: fields.storeId,
            name: fields.name.trim(),
            startAt: fields.startAt,
            endAt: fields.endAt,
            discount,
            gift: fields.gift,
            createdBy: command.userId,
            at: command.now,
          },
        },
      ];
    }
    case 'RecordPromotionPushed':
      // A retried activity that finds the id already recorded records nothing.
      if (!state.exists || state.channel.state === 'pushed') return [];
      return [{ type: 'PromotionPushed', data: { channelId: command.channelId, at: command.at } }];
    case 'RecordPromotionPushFailed':
      if (!state.exists || state.channel.state === 'pushed') return [];
      return [
        {
          type: 'PromotionPushFailed',
          data: {
            attempt: state.channel.attempts + 1,
            error: command.error,
            final: command.final,
            at: command.at,
          },
        },
      ];
    case 'RecordPromotionNotOnChannel':
      if (!state.exists || state.channel.state !== 'pending') return [];
      return [{ type: 'PromotionNotOnChannel', data: { error: command.error, at: command.at } }];
    case 'StopPromotion':
      if (!state.exists) throw refusePromotion('PROMOTION_NOT_FOUND');
      if (!canStop(state, new Date(command.at)))
        throw refusePromotion('PROMOTION_CANNOT_STOP', {
          status: promotionStatus(state, new Date(command.at)),
        });
      return [{ type: 'PromotionStopped', data: { userId: command.userId, at: command.at } }];
    case 'RecordPromotionEnded':
      if (!state.stopped || state.channelEnd?.state === 'done') return [];
      return [{ type: 'PromotionEndedOnChannel', data: { at: command.at } }];
    case 'RecordPromotionEndFailed':
      if (!state.stopped || state.channelEnd?.state === 'done') return [];
      return [{ type: 'PromotionEndFailed', data: { error: command.error, at: command.at } }];
  }
}

export function evolve(state: PromotionState, event: PromotionEvent): PromotionState {
  switch (event.type) {
    case 'PromotionCreated': {
      const { data } = event;
      return {
        ...initialState,
        exists: true,
        promotionId: data.promotionId,
        kind: data.kind,
        storeId: data.storeId,
        name: data.name,
        startAt: data.startAt,
        endAt: data.endAt,
        discount: data.discount,
        gift: data.gift,
        createdBy: data.createdBy,
        createdAt: data.at,
        updatedAt: data.at,
      };
    }
    case 'PromotionPushed':
      return {
        ...state,
        updatedAt: event.data.at,
        channel: { ...state.channel, state: 'pushed', id: event.data.channelId, error: null },
        // Stopped while the channel was creating it: it must be ended there too.
        channelEnd: state.stopped ? { state: 'pending', error: null } : state.channelEnd,
      };
    case 'PromotionPushFailed':
      return {
        ...state,
        updatedAt: event.data.at,
        channel: {
          ...state.channel,
          state: event.data.final ? 'failed' : 'pending',
          attempts: event.data.attempt,
          error: event.data.error,
        },
      };
    case 'PromotionNotOnChannel':
      return {
        ...state,
        updatedAt: event.data.at,
        channel: { ...state.channel, state: 'not_on_channel', error: event.data.error },
      };
    case 'PromotionStopped':
      return {
        ...state,
        updatedAt: event.data.at,
        stopped: { by: event.data.userId, at: event.data.at },
        // Only a promotion the channel holds has anything to end there.
        channelEnd: state.channel.state === 'pushed' ? { state: 'pending', error: null } : null,
      };
    case 'PromotionEndedOnChannel':
      return { ...state, updatedAt: event.data.at, channelEnd: { state: 'done', error: null } };
    case 'PromotionEndFailed':
      return { ...state, updatedAt: event.data.at, channelEnd: { state: 'failed', error: event.data.error } };
  }
}

export const promotionDecider = { initial: initialState, evolve, decide };
