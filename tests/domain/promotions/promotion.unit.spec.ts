import { channelPrice, checkPriceRule, DEFAULT_PRICE_RULE } from '@domain/promotions/pricing';
import {
  type DiscountItemInput,
  type PromotionCommand,
  promotionDecider,
  promotionStatus,
} from '@domain/promotions/promotion';
import { DomainError } from '@domain/shared/errors';
import { specFor } from '@tests/support/decider';
import { describe, expect, it } from 'vitest';

/**
 * Issue 15 item 6: the §5 Promotions rules as the promotion's decider applies them (each with its code 760–779 and
 * nothing recorded on a refusal), the status read off the clock, the channel's answers recorded once, and the price
 * rule's arithmetic.
 */

const spec = specFor(promotionDecider);
const now = '2026-12-01T10:00:00.000Z';
const hour = 60 * 60 * 1000;
const at = (offsetMs: number) => new Date(Date.parse(now) + offsetMs).toISOString();

const item = (over: Partial<DiscountItemInput> = {}): DiscountItemInput => ({
  itemId: '1001',
  modelId: '1',
  sellerSku: 'BATIK-RED',
  originalPrice: '100.00',
  promoPrice: '79.90',
  purchaseLimit: 2,
  promoStock: 5,
  available: 10,
  ...over,
});

const create = (
  over: { name?: string; startAt?: string; endAt?: string; items?: DiscountItemInput[] } = {},
) =>
  ({
    type: 'CreatePromotion',
    promotionId: 'p1',
    userId: 'u1',
    now,
    fields: {
      kind: 'discount',
      storeId: 's1',
      name: over.name ?? 'Year-end sale',
      startAt: over.startAt ?? at(hour),
      endAt: over.endAt ?? at(3 * hour),
      discount: { items: over.items ?? [item()] },
      gift: null,
    },
  }) satisfies PromotionCommand;

/** The refusal's field codes, in order: every broken rule is named at once. */
function refusalsOf(command: PromotionCommand) {
  try {
    promotionDecider.decide(command, promotionDecider.initial);
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    const refusal = error as DomainError;
    return refusal.fields.map((field) => [field.field, field.error.refusal.code]);
  }
  throw new Error('not refused');
}

describe('§5 Promotions rules', () => {
  it('records a promotion that keeps every rule, with the discount worked out', () => {
    const [created] = promotionDecider.decide(create(), promotionDecider.initial);
    expect(created?.type).toBe('PromotionCreated');
    expect(created?.type === 'PromotionCreated' && created.data.discount?.items[0]?.discountPercent).toBe(20);
  });

  it('needs the name, the start and the end', () => {
    expect(refusalsOf(create({ name: '  ', startAt: '', endAt: '' }))).toEqual([
      ['name', 760],
      ['start_at', 761],
      ['end_at', 762],
    ]);
  });

  it('needs the start later than now', () => {
    expect(refusalsOf(create({ startAt: now, endAt: at(2 * hour) }))).toEqual([['start_at', 763]]);
    expect(refusalsOf(create({ startAt: at(-hour), endAt: at(2 * hour) }))).toEqual([['start_at', 763]]);
  });

  it('refuses an end before the start, equal to it, or within an hour of it', () => {
    expect(refusalsOf(create({ startAt: at(2 * hour), endAt: at(hour) }))).toEqual([['end_at', 764]]);
    expect(refusalsOf(create({ startAt: at(hour), endAt: at(hour) }))).toEqual([['end_at', 765]]);
    expect(refusalsOf(create({ startAt: at(hour), endAt: at(2 * hour - 1000) }))).toEqual([['end_at', 766]]);
    expect(
      promotionDecider.decide(create({ startAt: at(hour), endAt: at(2 * hour) }), promotionDecider.initial),
    ).toHaveLength(1);
  });

  it('refuses sale stock above the available stock', () => {
    expect(refusalsOf(create({ items: [item({ promoStock: 11, available: 10 })] }))).toEqual([
      ['items/0/promo_stock', 767],
    ]);
    expect(
      promotionDecider.decide(create({ items: [item({ promoStock: 10 })] }), promotionDecider.initial),
    ).toHaveLength(1);
  });

  it('keeps the sale price and the discount within range', () => {
    expect(refusalsOf(create({ items: [item({ promoPrice: '100.00' })] }))).toEqual([
      ['items/0/promo_price', 768],
    ]);
    expect(refusalsOf(create({ items: [item({ promoPrice: '0' })] }))).toEqual([
      ['items/0/promo_price', 768],
    ]);
    // 99.80 off 100.00 is 0.2 %: not a discount a channel takes.
    expect(refusalsOf(create({ items: [item({ promoPrice: '99.80' })] }))).toEqual([
      ['items/0/discount', 769],
    ]);
    expect(refusalsOf(create({ items: [item({ promoPrice: '0.40' })] }))).toEqual([
      ['items/0/discount', 769],
    ]);
  });

  it('names each SKU once and bounds the purchase limit', () => {
    expect(refusalsOf(create({ items: [item(), item()] }))).toEqual([['items/1/item_id', 772]]);
    expect(refusalsOf(create({ items: [item({ purchaseLimit: 1001 })] }))).toEqual([
      ['items/0/purchase_limit', 773],
    ]);
    expect(refusalsOf(create({ items: [] }))).toEqual([['items', 772]]);
  });
});

describe('a promotion over time', () => {
  const created = promotionDecider.decide(create(), promotionDecider.initial);
  const state = created.reduce(promotionDecider.evolve, promotionDecider.initial);

  it('is upcoming, then ongoing, then ended; stopped once stopped', () => {
    expect(promotionStatus(state, new Date(now))).toBe('upcoming');
    expect(promotionStatus(state, new Date(at(2 * hour)))).toBe('ongoing');
    expect(promotionStatus(state, new Date(at(3 * hour)))).toBe('ended');
    const stopped = promotionDecider.evolve(state, {
      type: 'PromotionStopped',
      data: { userId: 'u1', at: at(2 * hour) },
    });
    expect(promotionStatus(stopped, new Date(at(2 * hour)))).toBe('stopped');
  });

  it('cannot be stopped once ended', () => {
    spec(created)
      .when({ type: 'StopPromotion', userId: 'u1', at: at(3 * hour) })
      .thenThrows('PROMOTION_CANNOT_STOP');
  });

  it("records the channel's id once, and ends on the channel only what the channel holds", () => {
    const pushed = { type: 'PromotionPushed' as const, data: { channelId: 'D1', at: now } };
    spec([...created, pushed])
      .when({ type: 'RecordPromotionPushed', channelId: 'D2', at: now })
      .then([]);
    const stop = { type: 'PromotionStopped' as const, data: { userId: 'u1', at: at(2 * hour) } };
    expect(
      [...created, pushed, stop].reduce(promotionDecider.evolve, promotionDecider.initial).channelEnd,
    ).toEqual({
      state: 'pending',
      error: null,
    });
    expect(
      [...created, stop].reduce(promotionDecider.evolve, promotionDecider.initial).channelEnd,
    ).toBeNull();
  });
});

describe('the price rule', () => {
  it('marks up, adds, and rounds up to the ending', () => {
    const rule = { ...DEFAULT_PRICE_RULE, markupPercent: 10, fixedAmount: '1.00' };
    expect(channelPrice('10.00', rule)).toBe('12.00');
    expect(channelPrice('10.00', { ...rule, rounding: 'ninety' })).toBe('12.90');
    expect(channelPrice('10.95', { ...rule, markupPercent: 0, fixedAmount: '0', rounding: 'ninety' })).toBe(
      '11.90',
    );
    expect(channelPrice('10.00', { ...rule, rounding: 'ninety_nine' })).toBe('12.99');
    expect(channelPrice('10.01', { ...DEFAULT_PRICE_RULE, rounding: 'whole' })).toBe('11.00');
    expect(channelPrice('10.00', { ...DEFAULT_PRICE_RULE, markupPercent: 12.5 })).toBe('11.25');
  });

  it("takes a SKU's own price over the rule, and gives none at or below zero", () => {
    const rule = { ...DEFAULT_PRICE_RULE, overrides: { '1001:1': '9.90' } };
    expect(channelPrice('50.00', rule, '1001:1')).toBe('9.90');
    expect(channelPrice('50.00', rule, '1001:2')).toBe('50.00');
    expect(channelPrice('1.00', { ...DEFAULT_PRICE_RULE, fixedAmount: '-1.00' })).toBeNull();
  });

  it('refuses a markup or fixed amount out of range', () => {
    expect(() => checkPriceRule({ ...DEFAULT_PRICE_RULE, markupPercent: 1001 })).toThrow(DomainError);
    expect(() => checkPriceRule({ ...DEFAULT_PRICE_RULE, fixedAmount: '-1000000.01' })).toThrow(DomainError);
    expect(() => checkPriceRule({ ...DEFAULT_PRICE_RULE, overrides: { x: '0' } })).toThrow(DomainError);
  });
});
