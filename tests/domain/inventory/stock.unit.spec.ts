import {
  available,
  decide,
  evolve,
  initialState,
  type StockCommand,
  type StockEvent,
  StockReceived,
  type StockState,
  stockEvents,
} from '@domain/inventory/stock';
import { specFor } from '@tests/support/decider';
import { describe, expect, it } from 'vitest';

const given = specFor<StockCommand, StockEvent, typeof initialState>({
  initial: initialState,
  evolve,
  decide,
});

const at = { masterCodeId: 'mc-1', warehouseId: 'wh-1' };
/** The figures after an event: all 0 but those given. */
const figures = (given: Partial<StockState>): StockState => ({ ...initialState, ...given });
const received = (quantity: number, onHand = quantity): StockEvent => ({
  type: 'StockReceived',
  data: { ...at, change: quantity, ...figures({ onHand }), quantity },
});
const reserved = (quantity: number, onHand: number, total = quantity): StockEvent => ({
  type: 'StockReserved',
  data: { ...at, change: 0, ...figures({ onHand, reserved: total }), quantity },
});

describe('stock of a master code in a warehouse', () => {
  it('receives stock into on hand', () => {
    given([])
      .when({ type: 'ReceiveStock', ...at, quantity: 5, reason: 'opening' })
      .then([
        {
          type: 'StockReceived',
          data: { ...at, change: 5, ...figures({ onHand: 5, reserved: 0 }), quantity: 5, reason: 'opening' },
        },
      ]);
  });

  it('adjusts by adding, deducting, or setting a counted quantity', () => {
    given([received(10)])
      .when({ type: 'AdjustStock', ...at, mode: 'add', quantity: 3, refuseNegative: true })
      .then([
        {
          type: 'StockAdjusted',
          data: { ...at, change: 3, ...figures({ onHand: 13, reserved: 0 }), mode: 'add', quantity: 3 },
        },
      ]);
    given([received(10)])
      .when({ type: 'AdjustStock', ...at, mode: 'deduct', quantity: 4, refuseNegative: true })
      .then([
        {
          type: 'StockAdjusted',
          data: { ...at, change: -4, ...figures({ onHand: 6, reserved: 0 }), mode: 'deduct', quantity: 4 },
        },
      ]);
    given([received(10)])
      .when({ type: 'AdjustStock', ...at, mode: 'set', quantity: 7, refuseNegative: true })
      .then([
        {
          type: 'StockAdjusted',
          data: { ...at, change: -3, ...figures({ onHand: 7, reserved: 0 }), mode: 'set', quantity: 7 },
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
          data: { ...at, change: -3, ...figures({ onHand: -1, reserved: 0 }), mode: 'deduct', quantity: 3 },
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
      .then([
        {
          type: 'StockReleased',
          data: { ...at, change: 0, ...figures({ onHand: 5, reserved: 0 }), quantity: 2 },
        },
      ]);
  });

  it('ships out of on hand and out of what the order reserved', () => {
    given([received(5), reserved(2, 5)])
      .when({ type: 'ShipStock', ...at, quantity: 2, from: 'reserved' })
      .then([
        {
          type: 'StockShipped',
          data: { ...at, change: -2, ...figures({ onHand: 3, reserved: 0 }), quantity: 2, from: 'reserved' },
        },
      ]);
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
    const [event] = decide(
      { type: 'TransferStockIn', ...at, quantity: 2, fromWarehouseId: 'wh-2' },
      initialState,
    ) as [StockEvent];
    expect(stockEvents[event.type].parse(event.data)).toEqual(event.data);
    expect(() => StockReceived.parse({ ...received(1).data, extra: true })).toThrow();
  });

  it('moves an order from reserved to in process, back, and ships from in process', () => {
    const started: StockEvent = {
      type: 'StockProcessingStarted',
      data: { ...at, change: 0, ...figures({ onHand: 5, reserved: 1, inProcess: 2 }), quantity: 2 },
    };
    given([received(5), reserved(3, 5)])
      .when({ type: 'StartProcessing', ...at, quantity: 2 })
      .then([started]);
    given([received(5), reserved(3, 5), started])
      .when({ type: 'StopProcessing', ...at, quantity: 3 })
      .thenThrows('STOP_MORE_THAN_IN_PROCESS', { inProcess: 2, quantity: 3 });
    given([received(5), reserved(3, 5), started])
      .when({ type: 'StopProcessing', ...at, quantity: 2 })
      .then([
        {
          type: 'StockProcessingStopped',
          data: { ...at, change: 0, ...figures({ onHand: 5, reserved: 3 }), quantity: 2 },
        },
      ]);
    given([received(5), reserved(3, 5), started])
      .when({ type: 'ShipStock', ...at, quantity: 2, from: 'inProcess' })
      .then([
        {
          type: 'StockShipped',
          data: { ...at, change: -2, ...figures({ onHand: 3, reserved: 1 }), quantity: 2, from: 'inProcess' },
        },
      ]);
  });

  it('holds stock in three kinds apart from orders, and releases at most what each holds', () => {
    const heldForPos: StockEvent = {
      type: 'StockHeld',
      data: { ...at, change: 0, ...figures({ onHand: 10, posOnHold: 4 }), quantity: 4, hold: 'pos' },
    };
    given([received(10)])
      .when({ type: 'HoldStock', ...at, quantity: 4, hold: 'pos' })
      .then([heldForPos]);
    given([received(10), heldForPos])
      .when({ type: 'HoldStock', ...at, quantity: 1, hold: 'supplier' })
      .then([
        {
          type: 'StockHeld',
          data: {
            ...at,
            change: 0,
            ...figures({ onHand: 10, posOnHold: 4, supplierOnHold: 1 }),
            quantity: 1,
            hold: 'supplier',
          },
        },
      ]);
    // The online hold holds nothing yet: the POS hold is not released by it.
    given([received(10), heldForPos])
      .when({ type: 'ReleaseHold', ...at, quantity: 1, hold: 'online' })
      .thenThrows('RELEASE_MORE_THAN_HELD', { held: 0, quantity: 1 });
    given([received(10), heldForPos])
      .when({ type: 'ReleaseHold', ...at, quantity: 4, hold: 'pos' })
      .then([
        {
          type: 'StockHoldReleased',
          data: { ...at, change: 0, ...figures({ onHand: 10 }), quantity: 4, hold: 'pos' },
        },
      ]);
  });

  it('counts what is expected as incoming, settled by the receipt and never below zero', () => {
    const expected: StockEvent = {
      type: 'StockIncomingExpected',
      data: { ...at, change: 0, ...figures({ incoming: 6 }), quantity: 6 },
    };
    given([])
      .when({ type: 'ExpectStock', ...at, quantity: 6 })
      .then([expected]);
    given([expected])
      .when({ type: 'CancelExpectedStock', ...at, quantity: 7 })
      .thenThrows('CANCEL_MORE_THAN_INCOMING', { incoming: 6, quantity: 7 });
    // Eight arrive where six were expected: incoming settles to 0, on hand takes all eight.
    given([expected])
      .when({ type: 'ReceiveStock', ...at, quantity: 8, settlesIncoming: true })
      .then([
        {
          type: 'StockReceived',
          data: { ...at, change: 8, ...figures({ onHand: 8 }), quantity: 8, settledIncoming: 6 },
        },
      ]);
    // A receipt nobody expected leaves incoming alone.
    given([expected])
      .when({ type: 'ReceiveStock', ...at, quantity: 2 })
      .then([
        {
          type: 'StockReceived',
          data: { ...at, change: 2, ...figures({ onHand: 2, incoming: 6 }), quantity: 2 },
        },
      ]);
    given([expected])
      .when({ type: 'TransferStockIn', ...at, quantity: 4, fromWarehouseId: 'wh-2', settlesIncoming: true })
      .then([
        {
          type: 'StockTransferredIn',
          data: {
            ...at,
            change: 4,
            ...figures({ onHand: 4, incoming: 2 }),
            quantity: 4,
            fromWarehouseId: 'wh-2',
            settledIncoming: 4,
          },
        },
      ]);
  });

  it('makes available what is on hand less orders and holds; incoming is not available yet', () => {
    expect(
      available(
        figures({
          onHand: 20,
          reserved: 3,
          inProcess: 2,
          onHold: 1,
          posOnHold: 4,
          supplierOnHold: 5,
          incoming: 50,
        }),
      ),
    ).toBe(5);
  });
});
