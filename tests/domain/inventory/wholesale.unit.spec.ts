import { WholesaleTiersBody } from '@api/contracts/inventory-wholesale';
import { ruleOf } from '@api/contracts/rules';
import { tierProblems, WHOLESALE_LIMITS, wholesalePrice } from '@domain/inventory/wholesale';
import { describe, expect, it } from 'vitest';

const tiers = (...quantities: unknown[]) => quantities.map((min_quantity) => ({ min_quantity }));

describe('wholesale tiers', () => {
  it('accepts ascending whole quantities from 1 on', () => {
    expect([...tierProblems(tiers(1, 10, 50, WHOLESALE_LIMITS.quantityMax))]).toEqual([]);
    expect([...tierProblems([])]).toEqual([]);
  });

  it('names every bad quantity at once, each by its index', () => {
    expect(
      Object.fromEntries(tierProblems(tiers(10, 0, 10, 5, 2.5, 20, WHOLESALE_LIMITS.quantityMax + 1))),
    ).toEqual({
      1: 'quantity_invalid',
      2: 'quantity_repeated',
      3: 'quantity_not_ascending',
      4: 'quantity_invalid',
      6: 'quantity_invalid',
    });
  });

  it('leaves what is not a number to the shape check', () => {
    expect([...tierProblems(tiers('10', null, undefined))]).toEqual([]);
  });
});

describe('wholesalePrice', () => {
  const ladder = [
    { min_quantity: 50, unit_price: '8.50' },
    { min_quantity: 10, unit_price: '9.00' },
    { min_quantity: 100, unit_price: '8.00' },
  ];

  it('is the price of the highest tier the quantity reaches, whatever the order of the tiers', () => {
    expect(wholesalePrice(ladder, 10)).toBe('9.00');
    expect(wholesalePrice(ladder, 49)).toBe('9.00');
    expect(wholesalePrice(ladder, 50)).toBe('8.50');
    expect(wholesalePrice(ladder, 1000)).toBe('8.00');
  });

  it('is null below the first tier and without tiers: the ordinary unit price applies', () => {
    expect(wholesalePrice(ladder, 9)).toBeNull();
    expect(wholesalePrice([], 500)).toBeNull();
  });
});

describe('the tiers body', () => {
  const issues = (body: unknown) =>
    (WholesaleTiersBody.safeParse(body).error?.issues ?? []).map((issue) => [
      issue.path.join('/'),
      // The rule's key (a rule named with parameters carries them in its message).
      ruleOf(issue.message)?.key ?? issue.message,
    ]);

  it('answers every bad tier at once: order, repeats and prices together', () => {
    expect(
      issues({
        tiers: [
          { min_quantity: 10, unit_price: '9.00' },
          { min_quantity: 10, unit_price: '0' },
          { min_quantity: 5, unit_price: 'abc' },
          { min_quantity: 'ten', unit_price: '7.00' },
        ],
      }),
    ).toEqual(
      expect.arrayContaining([
        ['tiers/1/unit_price', 'inventory.wholesale.price_invalid'],
        ['tiers/2/unit_price', 'inventory.wholesale.price_invalid'],
        ['tiers/3/min_quantity', 'inventory.wholesale.quantity_invalid'],
        ['tiers/1/min_quantity', 'inventory.wholesale.quantity_repeated'],
        ['tiers/2/min_quantity', 'inventory.wholesale.quantity_not_ascending'],
      ]),
    );
  });

  it('takes prices as numbers or text and answers them as text with 2 decimals', () => {
    expect(
      WholesaleTiersBody.parse({
        tiers: [
          { min_quantity: 10, unit_price: 9 },
          { min_quantity: 20, unit_price: '8.5' },
        ],
      }),
    ).toEqual({
      tiers: [
        { min_quantity: 10, unit_price: '9.00' },
        { min_quantity: 20, unit_price: '8.50' },
      ],
    });
  });

  it('caps the number of tiers', () => {
    const many = Array.from({ length: WHOLESALE_LIMITS.tiers + 1 }, (_, index) => ({
      min_quantity: index + 1,
      unit_price: '1.00',
    }));
    expect(issues({ tiers: many })).toContainEqual(['tiers', 'inventory.wholesale.too_many_tiers']);
  });
});
