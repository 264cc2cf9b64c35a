import {
  decide,
  emptyStock,
  evolve,
  type StockCommand,
  type StockEvent,
  StockReceived,
  stockEvents,
} from '@domain/inventory/stock';
import { specFor } from '@tests/support/decider';
import { describe, expect, it } from 'vitest';

const given = specFor<StockCommand, StockEvent, typeof emptyStock>({ initial: emptyStock, evolve, decide });

const at = { masterCodeId: 'mc-1', warehouseId: 'wh-1' };
const received = (quantity: number, onHand = quantity): StockEvent => ({
  type: 'StockReceived',
  data: { ...at, change: quantity, onHand, reserved: 0, quantity },
});
const reserved = (quantity: number, onHand: number, total = quantity): StockEvent => ({
  type: 'StockReserved',
  data: { ...at, change: 0, onHand, reserved: total, quantity },
});

describe('stock of a master code in a warehouse', () => {
  it('receives stock into on hand', () => {
    given([])
      .when({ type: 'ReceiveStock', ...at, quantity: 5, reason: 'opening' })
      .then([
        {
          type: 'StockReceived',
          data: { ...at, change: 5, onHand: 5, reserved: 0, quantity: 5, reason: 'opening' },
        },
      ]);
  });

  it('adjusts by adding, deducting, or setting a counted quantity', () => {
    given([received(10)])
      .when({ type: 'AdjustStock', ...at, mode: 'add', quantity: 3, refuseNegative: true })
      .then([
        {
          type: 'StockAdjusted',
          data: { ...at, change: 3, onHand: 13, reserved: 0, mode: 'add', quantity: 3 },
        },
      ]);
    given([received(10)])
      .when({ type: 'AdjustStock', ...at, mode: 'deduct', quantity: 4, refuseNegative: true })
      .then([
        {
          type: 'StockAdjusted',
          data: { ...at, change: -4, onHand: 6, reserved: 0, mode: 'deduct', quantity: 4 },
        },
      ]);
    given([received(10)])
      .when({ type: 'AdjustStock', ...at, mode: 'set', quantity: 7, refuseNegative: true })
      .then([
        {
          type: 'StockAdjusted',
          data: { ...at, change: -3, onHand: 7, reserved: 0, mode: 'set', quantity: 7 },
        },
      ]);
  });

  it('refuses a manual deduction below zero when the setting says so, and records it when not', () => {
    given([received(2)])
      .when({ type: 'AdjustStock', ...at, mode: 'deduct', quantity: 3, refuseNegative: true })
      .thenThrows('NEGATIVE_STOCK', { onHand: 2, change: -3 });
    given([received(2)])
      .when({ type: 'AdjustStock', ...at, mode: 'deduct', quantity: 3, refuseNegative: false })
      .then([
        {
          type: 'StockAdjusted',
          data: { ...at, change: -3, onHand: -1, reserved: 0, mode: 'deduct', quantity: 3 },
        },
      ]);
    given([received(2)])
      .when({ type: 'WriteOffStock', ...at, quantity: 3, refuseNegative: true })
      .thenThrows('NEGATIVE_STOCK');
  });

  it('lets marketplaces oversell: a reservation beyond what is available is recorded', () => {
    given([received(1)])
      .when({ type: 'ReserveStock', ...at, quantity: 3 })
      .then([reserved(3, 1)]);
  });

  it('releases at most what is reserved', () => {
    given([received(5), reserved(2, 5)])
      .when({ type: 'ReleaseStock', ...at, quantity: 3 })
      .thenThrows('RELEASE_MORE_THAN_RESERVED', { reserved: 2, quantity: 3 });
    given([received(5), reserved(2, 5)])
      .when({ type: 'ReleaseStock', ...at, quantity: 2 })
      .then([{ type: 'StockReleased', data: { ...at, change: 0, onHand: 5, reserved: 0, quantity: 2 } }]);
  });

  it('ships out of on hand and out of what the order reserved', () => {
    given([received(5), reserved(2, 5)])
      .when({ type: 'ShipStock', ...at, quantity: 2, fromReserved: true })
      .then([{ type: 'StockShipped', data: { ...at, change: -2, onHand: 3, reserved: 0, quantity: 2 } }]);
  });

  it('refuses zero, negative and fractional quantities, and a transfer to the same warehouse', () => {
    for (const quantity of [0, -1, 1.5, Number.NaN]) {
      given([])
        .when({ type: 'ReceiveStock', ...at, quantity })
        .thenThrows('QUANTITY_NOT_POSITIVE');
    }
    given([])
      .when({ type: 'AdjustStock', ...at, mode: 'set', quantity: -1, refuseNegative: false })
      .thenThrows('QUANTITY_NEGATIVE');
    given([received(3)])
      .when({ type: 'TransferStockOut', ...at, quantity: 1, toWarehouseId: at.warehouseId })
      .thenThrows('SAME_WAREHOUSE');
  });

  it('decides events that their own schemas accept', () => {
    const event = decide(
      { type: 'TransferStockIn', ...at, quantity: 2, fromWarehouseId: 'wh-2' },
      emptyStock,
    );
    expect(stockEvents[event.type].parse(event.data)).toEqual(event.data);
    expect(() => StockReceived.parse({ ...received(1).data, extra: true })).toThrow();
  });
});
