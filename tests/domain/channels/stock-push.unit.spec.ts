import {
  checkPushRule,
  comboPool,
  DEFAULT_PUSH_RULE,
  type PushRule,
  poolOf,
  quantityToShow,
  ruleFor,
} from '@domain/channels/stock-push';
import { refusalOf } from '@domain/shared/errors';
import { describe, expect, it } from 'vitest';

const rule = (changes: Partial<PushRule>): PushRule => ({ ...DEFAULT_PUSH_RULE, ...changes });
const shopee = { storeId: 'shopee' };

describe('push rules: the quantity a store shows', () => {
  it('shows everything available without a rule', () => {
    expect(quantityToShow(37, DEFAULT_PUSH_RULE, shopee)).toBe(37);
  });

  it('takes the percentage rounded down, then adds the fixed amount', () => {
    expect(quantityToShow(10, rule({ percent: 55 }), shopee)).toBe(5);
    expect(quantityToShow(10, rule({ percent: 50, fixed: 2 }), shopee)).toBe(7);
    expect(quantityToShow(9, rule({ percent: 33.33 }), shopee)).toBe(2);
    // Floating point would make 57 % of 100 56.99… and round it down to 56.
    expect(quantityToShow(10, rule({ percent: 70 }), shopee)).toBe(7);
    expect(quantityToShow(100, rule({ percent: 57 }), shopee)).toBe(57);
  });

  it('keeps the buffer back before the percentage', () => {
    expect(quantityToShow(20, rule({ buffer: 5, percent: 50 }), shopee)).toBe(7);
    expect(quantityToShow(3, rule({ buffer: 5 }), shopee)).toBe(0);
  });

  it('never shows a negative quantity, nor more than is available after the buffer', () => {
    expect(quantityToShow(-4, DEFAULT_PUSH_RULE, shopee)).toBe(0);
    expect(quantityToShow(2, rule({ fixed: -5 }), shopee)).toBe(0);
    expect(quantityToShow(2, rule({ fixed: 10 }), shopee)).toBe(2);
    expect(quantityToShow(12, rule({ buffer: 2, fixed: 10 }), shopee)).toBe(10);
  });

  it('caps at the maximum and shows 0 below the minimum', () => {
    expect(quantityToShow(500, rule({ maximum: 100 }), shopee)).toBe(100);
    expect(quantityToShow(4, rule({ minimum: 5 }), shopee)).toBe(0);
    expect(quantityToShow(5, rule({ minimum: 5 }), shopee)).toBe(5);
  });

  it('locks every store but the main one below the threshold', () => {
    const lock = { mainStoreId: 'shopee', threshold: 10 };
    expect(quantityToShow(9, DEFAULT_PUSH_RULE, { storeId: 'lazada', lock })).toBe(0);
    expect(quantityToShow(9, DEFAULT_PUSH_RULE, { storeId: 'shopee', lock })).toBe(9);
    expect(quantityToShow(10, DEFAULT_PUSH_RULE, { storeId: 'lazada', lock })).toBe(10);
    expect(quantityToShow(9, rule({ percent: 50 }), { storeId: 'shopee', lock })).toBe(4);
  });

  it("takes the master code's own rule over the store's, and the store's over none", () => {
    const store = rule({ percent: 50 });
    const sku = rule({ fixed: -1 });
    expect(ruleFor(store, sku)).toBe(sku);
    expect(ruleFor(store, undefined)).toBe(store);
    expect(ruleFor(null, null)).toBe(DEFAULT_PUSH_RULE);
  });
});

describe('pools', () => {
  it('sums the available quantity of the feeding warehouses, never below 0', () => {
    expect(poolOf([5, 7])).toBe(12);
    expect(poolOf([5, -7])).toBe(0);
    expect(poolOf([])).toBe(0);
  });

  it('makes as many combos as the scarcest component allows, whole combos only', () => {
    expect(
      comboPool([
        { pool: 10, quantity: 2 },
        { pool: 7, quantity: 1 },
      ]),
    ).toBe(5);
    expect(
      comboPool([
        { pool: 7, quantity: 3 },
        { pool: 100, quantity: 1 },
      ]),
    ).toBe(2);
    expect(comboPool([{ pool: -3, quantity: 1 }])).toBe(0);
    expect(comboPool([])).toBe(0);
  });
});

describe('rule checks', () => {
  it('refuses a maximum below the minimum', () => {
    let thrown: unknown;
    try {
      checkPushRule(rule({ minimum: 5, maximum: 4 }));
    } catch (error) {
      thrown = error;
    }
    expect(refusalOf(thrown, 'RANGE_INVALID')?.refusal.code).toBe(742);
    expect(() => checkPushRule(rule({ minimum: 5, maximum: 5 }))).not.toThrow();
  });
});
