import { admits, freePlaces, monthIn } from '@domain/orders/monthly-limit';
import {
  decide,
  evolve,
  type ImportOrderData,
  initialState,
  type OrderCommand,
  type OrderEvent,
  type OrderState,
  placed,
  waitingOnHold,
} from '@domain/orders/order';
import { specFor } from '@tests/support/decider';
import { describe, expect, it } from 'vitest';
import { importData as data } from './order-fixtures';

/** An order held over the monthly order limit (issue 14): kept, out of the warehouse's work until released. */

const order = specFor<OrderCommand, OrderEvent, OrderState>({ initial: initialState, evolve, decide });

const reserve = {
  warehouseId: 'wh',
  from: 'none' as const,
  lines: [{ lineId: 'l1', masterCodeId: 'mc-batik', combo: false, quantity: 2 }],
};
const importedHeld = (changes: Partial<ImportOrderData> = {}): OrderEvent[] => [
  { type: 'OrderImported', data: { ...data(changes), status: 'unpaid' } },
  { type: 'OrderHeld', data: { reason: 'monthly_order_limit', month: '2026-01' } },
];

describe('an order held over the monthly order limit', () => {
  it('is imported held: no acceptance, no stock reserved', () => {
    order([]).when({ type: 'ImportOrder', order: data(), holdFor: '2026-01' }).then(importedHeld());
  });

  it('is not held when first seen finished: nothing to hold', () => {
    order([])
      .when({ type: 'ImportOrder', order: data({ marketplaceStatus: 'shipped' }), holdFor: '2026-01' })
      .then([
        { type: 'OrderImported', data: { ...data({ marketplaceStatus: 'shipped' }), status: 'shipped' } },
      ]);
  });

  it('stays held when the buyer pays', () => {
    order(importedHeld({ paidAt: null }))
      .when({
        type: 'SyncOrder',
        marketplaceStatus: 'ready_to_ship',
        marketplaceUpdatedAt: '2026-01-02T00:00:00.000Z',
        paidAt: '2026-01-02T00:00:00.000Z',
      })
      .then([
        {
          type: 'OrderSynced',
          data: {
            marketplaceStatus: 'ready_to_ship',
            marketplaceUpdatedAt: '2026-01-02T00:00:00.000Z',
            paidAt: '2026-01-02T00:00:00.000Z',
          },
        },
      ]);
  });

  it('is neither printed nor split until released', () => {
    order(importedHeld())
      .when({ type: 'MarkPrinted', document: 'AWB', origin: 'unscan' })
      .thenThrows('ORDER_ON_HOLD');
    order(importedHeld())
      .when({ type: 'SplitOrder', childOrderId: 'o2', lines: [{ lineId: 'l1', quantity: 1 }] })
      .thenThrows('ORDER_ON_HOLD');
    order(importedHeld()).when({ type: 'ScanOrder' }).thenThrows('WRONG_STATUS');
    order(importedHeld()).when({ type: 'AssignBatch', batchId: 'b1' }).thenThrows('WRONG_STATUS');
  });

  it('is released once: accepted then, as an import would have been', () => {
    order(importedHeld())
      .when({ type: 'ReleaseHold', month: '2026-02' })
      .then([
        { type: 'OrderReleased', data: { month: '2026-02' } },
        { type: 'OrderAccepted', data: { stock: reserve } },
      ]);
    order([...importedHeld(), { type: 'OrderReleased', data: { month: '2026-02' } }])
      .when({ type: 'ReleaseHold', month: '2026-02' })
      .then([]);
    // Still unpaid: released, and accepted when paid.
    order(importedHeld({ paidAt: null }))
      .when({ type: 'ReleaseHold', month: '2026-02' })
      .then([{ type: 'OrderReleased', data: { month: '2026-02' } }]);
  });

  it('shows as held while it waits, not once cancelled', () => {
    const held = placed(importedHeld().reduce(evolve, initialState))!;
    expect(waitingOnHold(held)).toBe(true);
    const cancelled = placed(
      [
        ...importedHeld(),
        { type: 'OrderCancelled', data: { byMarketplace: true, stock: null } } as OrderEvent,
      ].reduce(evolve, initialState),
    )!;
    expect(waitingOnHold(cancelled)).toBe(false);
  });
});

describe('the monthly order limit', () => {
  it('admits while the month has room and nobody waits', () => {
    expect(admits(2, 1, false)).toBe(true);
    expect(admits(2, 2, false)).toBe(false);
    // First come, first in: a new order waits behind held ones even with room.
    expect(admits(2, 1, true)).toBe(false);
    expect(admits(null, 10_000, true)).toBe(true);
    expect(freePlaces(5, 3)).toBe(2);
    expect(freePlaces(5, 7)).toBe(0);
    expect(freePlaces(null, 7)).toBe(Number.POSITIVE_INFINITY);
  });

  it('counts calendar months in the account’s time zone', () => {
    // 31 January 17:00 UTC is already 1 February in Kuala Lumpur (UTC+8).
    const at = new Date('2026-01-31T17:00:00.000Z');
    expect(monthIn('Asia/Kuala_Lumpur', at)).toBe('2026-02');
    expect(monthIn('Asia/Bangkok', at)).toBe('2026-02');
    expect(monthIn('UTC', at)).toBe('2026-01');
  });
});
