import {
  groupForSeparation,
  planSeparation,
  type SeparableOrder,
  separationKey,
} from '@domain/batches/separation';
import { DomainError } from '@domain/shared/errors';
import { describe, expect, it } from 'vitest';

const order = (orderId: string, changes: Partial<SeparableOrder> = {}): SeparableOrder => ({
  orderId,
  storeId: 'store-a',
  shippingProvider: 'J&T Express',
  paymentMethod: 'Online banking',
  lineCount: 1,
  ...changes,
});

const codeOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error instanceof DomainError ? error.code : String(error);
  }
  return null;
};

describe('batch separation', () => {
  it('groups by store, carrier, payment method, or single and multiple items', () => {
    const multi = order('o2', { lineCount: 3, storeId: 'store-b', shippingProvider: ' Ninja Van ' });
    expect(separationKey(multi, 'store')).toBe('store-b');
    expect(separationKey(multi, 'logistics')).toBe('Ninja Van');
    expect(separationKey(order('o3', { shippingProvider: null }), 'logistics')).toBe('');
    expect(separationKey(multi, 'payment')).toBe('Online banking');
    expect(separationKey(multi, 'items')).toBe('multiple');
    expect(separationKey(order('o1'), 'items')).toBe('single');
    expect(groupForSeparation([order('o1'), multi, order('o3')], 'items')).toEqual([
      { key: 'multiple', orderIds: ['o2'] },
      { key: 'single', orderIds: ['o1', 'o3'] },
    ]);
  });

  it('keeps the largest group (the first by name among equals) and moves the others', () => {
    const orders = [
      order('o1'),
      order('o2', { shippingProvider: 'Ninja Van' }),
      order('o3'),
      order('o4', { shippingProvider: 'SPX Express' }),
    ];
    expect(planSeparation(orders, 'logistics', 4)).toEqual([
      { key: 'Ninja Van', orderIds: ['o2'] },
      { key: 'SPX Express', orderIds: ['o4'] },
    ]);
    expect(planSeparation(orders.slice(0, 2), 'logistics', 2)).toEqual([
      { key: 'Ninja Van', orderIds: ['o2'] },
    ]);
  });

  it('refuses when nothing would move, and moving every order of the batch', () => {
    expect(codeOf(() => planSeparation([order('o1'), order('o2')], 'logistics', 3))).toBe('ONE_GROUP');
    expect(codeOf(() => planSeparation([], 'store', 2))).toBe('ONE_GROUP');
    expect(codeOf(() => planSeparation([order('o1'), order('o2')], 'orders', 2))).toBe('KEEP_ONE');
    expect(planSeparation([order('o1')], 'orders', 2)).toEqual([{ key: '', orderIds: ['o1'] }]);
  });
});
