import { PLATFORMS, StoredPlatform, splitName, withNameParts } from '@domain/orders/marketplace-order';
import {
  decide,
  evolve,
  type ImportOrderData,
  initialState,
  MOVES,
  type MoveAction,
  type OrderCommand,
  type OrderEvent,
  type OrderLine,
  type OrderState,
  type OrderStatus,
  orderFlags,
  placed,
  replacementPart,
  splitPart,
} from '@domain/orders/order';
import { specFor } from '@tests/support/decider';
import { describe, expect, it } from 'vitest';
import { address, batik, importData } from './order-fixtures';

const order = specFor<OrderCommand, OrderEvent, OrderState>({ initial: initialState, evolve, decide });

const gift: OrderLine = {
  lineId: 'l2',
  sku: 'SP-2',
  sellerSku: 'GIFT-SET',
  name: 'Gift set',
  quantity: 1,
  unitPrice: '99.00',
  masterCodeId: 'mc-gift',
  combo: true,
};
const mystery: OrderLine = {
  lineId: 'l3',
  sku: 'SP-3',
  sellerSku: 'UNKNOWN',
  name: 'Songket scarf',
  quantity: 3,
  unitPrice: '25.00',
  masterCodeId: null,
  combo: false,
};

const data = (changes: Partial<ImportOrderData> = {}): ImportOrderData =>
  importData({ totalAmount: '218.80', lines: [batik, gift], ...changes });

const stockOf = (...lines: OrderLine[]) =>
  lines.map((line) => ({
    lineId: line.lineId,
    masterCodeId: line.masterCodeId!,
    combo: line.combo,
    quantity: line.quantity,
  }));

const imported = (changes: Partial<ImportOrderData> = {}, status: OrderStatus = 'unpaid'): OrderEvent => ({
  type: 'OrderImported',
  data: { ...data(changes), status },
});
const accepted = (...lines: OrderLine[]): OrderEvent => ({
  type: 'OrderAccepted',
  data: {
    stock: { warehouseId: 'wh', from: 'none', lines: stockOf(...(lines.length ? lines : [batik, gift])) },
  },
});
const arranged: OrderEvent = {
  type: 'OrderShipmentArranged',
  data: { trackingNumber: 'MY123', shippingProvider: 'J&T', rearranged: false },
};
const scanned: OrderEvent = {
  type: 'OrderScanned',
  data: { stock: { warehouseId: 'wh', from: 'reserved', lines: stockOf(batik, gift) } },
};
const processed: OrderEvent = {
  type: 'OrderMoved',
  data: { from: 'scanned', to: 'processed', action: 'mark_processed', stock: null },
};
const shipped: OrderEvent = {
  type: 'OrderShipped',
  data: {
    byMarketplace: false,
    stock: { warehouseId: 'wh', from: 'inProcess', lines: stockOf(batik, gift) },
  },
};

const newOrder = [imported(), accepted()];
const unscanOrder = [...newOrder, arranged];
const scannedOrder = [...unscanOrder, scanned];
const processedOrder = [...scannedOrder, processed];
const shippedOrder = [...processedOrder, shipped];
/** The order the events make (every fold here starts with its import). */
const fold = (events: OrderEvent[]) => placed(events.reduce(evolve, initialState))!;

describe('order: import', () => {
  it('a paid order is imported and accepted, its mapped lines reserved', () => {
    order([]).when({ type: 'ImportOrder', order: data() }).then([imported(), accepted()]);
  });

  it('cash on delivery is accepted unpaid; an unpaid order waits without stock', () => {
    order([])
      .when({ type: 'ImportOrder', order: data({ paidAt: null, cod: true }) })
      .then([imported({ paidAt: null, cod: true }), accepted()]);
    order([])
      .when({ type: 'ImportOrder', order: data({ paidAt: null, marketplaceStatus: 'unpaid' }) })
      .then([imported({ paidAt: null, marketplaceStatus: 'unpaid' })]);
  });

  it('an unmapped line is not reserved and marks "item not found"', () => {
    order([])
      .when({ type: 'ImportOrder', order: data({ lines: [batik, mystery] }) })
      .then([imported({ lines: [batik, mystery] }), accepted(batik)]);
    expect(orderFlags(fold([imported({ lines: [batik, mystery] }), accepted(batik)]))).toEqual({
      itemNotFound: true,
      outOfStock: false,
      preOrder: false,
    });
  });

  it('an order first seen cancelled, shipped or completed moves no stock', () => {
    order([])
      .when({ type: 'ImportOrder', order: data({ marketplaceStatus: 'cancelled' }) })
      .then([imported({ marketplaceStatus: 'cancelled' }, 'cancelled')]);
    order([])
      .when({ type: 'ImportOrder', order: data({ marketplaceStatus: 'shipped' }) })
      .then([imported({ marketplaceStatus: 'shipped' }, 'shipped')]);
    order([])
      .when({ type: 'ImportOrder', order: data({ marketplaceStatus: 'completed' }) })
      .then([imported({ marketplaceStatus: 'completed' }, 'delivered')]);
  });

  it('refuses importing the same order twice', () => {
    order(newOrder).when({ type: 'ImportOrder', order: data() }).thenThrows('ORDER_EXISTS');
  });

  it('refuses every command on an order that does not exist', () => {
    order([]).when({ type: 'ScanOrder' }).thenThrows('ORDER_NOT_FOUND');
    order([]).when({ type: 'CancelOrder', byMarketplace: false }).thenThrows('ORDER_NOT_FOUND');
  });

  it('a pre-order carries its flag', () => {
    expect(orderFlags(fold([imported({ preOrder: true })])).preOrder).toBe(true);
  });
});

describe('order: marketplace sync', () => {
  const sync = (changes: Partial<Extract<OrderCommand, { type: 'SyncOrder' }>> = {}): OrderCommand => ({
    type: 'SyncOrder',
    marketplaceStatus: 'ready_to_ship',
    marketplaceUpdatedAt: '2026-01-02T00:00:00.000Z',
    paidAt: '2026-01-01T08:05:00.000Z',
    ...changes,
  });

  it('records nothing when nothing changed', () => {
    order(newOrder).when(sync()).then([]);
  });

  it('paid later: the order is accepted and reserved', () => {
    const unpaid = [imported({ paidAt: null, marketplaceStatus: 'unpaid' })];
    order(unpaid)
      .when(sync({ paidAt: '2026-01-02T00:00:00.000Z' }))
      .then([
        {
          type: 'OrderSynced',
          data: {
            marketplaceStatus: 'ready_to_ship',
            marketplaceUpdatedAt: '2026-01-02T00:00:00.000Z',
            paidAt: '2026-01-02T00:00:00.000Z',
          },
        },
        accepted(),
      ]);
  });

  it('cancelled by the marketplace: held stock is released', () => {
    order(scannedOrder)
      .when(sync({ marketplaceStatus: 'cancelled' }))
      .then([
        {
          type: 'OrderSynced',
          data: { marketplaceStatus: 'cancelled', marketplaceUpdatedAt: '2026-01-02T00:00:00.000Z' },
        },
        {
          type: 'OrderCancelled',
          data: {
            byMarketplace: true,
            stock: { warehouseId: 'wh', from: 'inProcess', lines: stockOf(batik, gift) },
          },
        },
      ]);
  });

  it('shipped and completed by the marketplace: shipped from what is held, then delivered', () => {
    order(unscanOrder)
      .when(sync({ marketplaceStatus: 'completed', trackingNumber: 'MY123' }))
      .then([
        {
          type: 'OrderSynced',
          data: {
            marketplaceStatus: 'completed',
            marketplaceUpdatedAt: '2026-01-02T00:00:00.000Z',
            trackingNumber: 'MY123',
          },
        },
        {
          type: 'OrderShipped',
          data: {
            byMarketplace: true,
            stock: { warehouseId: 'wh', from: 'reserved', lines: stockOf(batik, gift) },
          },
        },
        {
          type: 'OrderMoved',
          data: { from: 'shipped', to: 'delivered', action: 'set_delivered', stock: null },
        },
      ]);
  });
});

describe('order: lines', () => {
  const withMystery = [imported({ lines: [batik, mystery] }), accepted(batik)];

  it('mapping an unmapped line of an accepted order reserves it now', () => {
    order(withMystery)
      .when({ type: 'MapLine', lineId: 'l3', masterCodeId: 'mc-songket', combo: false })
      .then([
        {
          type: 'OrderLineMapped',
          data: {
            lineId: 'l3',
            masterCodeId: 'mc-songket',
            combo: false,
            stock: {
              warehouseId: 'wh',
              from: 'none',
              lines: [{ lineId: 'l3', masterCodeId: 'mc-songket', combo: false, quantity: 3 }],
            },
          },
        },
      ]);
    const after = fold([
      ...withMystery,
      {
        type: 'OrderLineMapped',
        data: { lineId: 'l3', masterCodeId: 'mc-songket', combo: false, stock: null },
      },
    ]);
    expect(orderFlags(after).itemNotFound).toBe(false);
  });

  it('mapping a line of an unpaid order reserves nothing yet; the acceptance will', () => {
    order([imported({ paidAt: null, marketplaceStatus: 'unpaid', lines: [batik, mystery] })])
      .when({ type: 'MapLine', lineId: 'l3', masterCodeId: 'mc-songket', combo: false })
      .then([
        {
          type: 'OrderLineMapped',
          data: { lineId: 'l3', masterCodeId: 'mc-songket', combo: false, stock: null },
        },
      ]);
  });

  it("changes a mapping: the former master code's reservation is released, the new one reserved", () => {
    order(withMystery)
      .when({ type: 'MapLine', lineId: 'l1', masterCodeId: 'mc-songket', combo: false })
      .then([
        {
          type: 'OrderLineMapped',
          data: {
            lineId: 'l1',
            masterCodeId: 'mc-songket',
            combo: false,
            stock: {
              warehouseId: 'wh',
              from: 'none',
              lines: [{ lineId: 'l1', masterCodeId: 'mc-songket', combo: false, quantity: batik.quantity }],
            },
            released: {
              warehouseId: 'wh',
              from: 'reserved',
              lines: [{ lineId: 'l1', masterCodeId: 'mc-batik', combo: false, quantity: batik.quantity }],
            },
          },
        },
      ]);
    order(withMystery)
      .when({ type: 'MapLine', lineId: 'l1', masterCodeId: 'mc-batik', combo: false })
      .then([]);
  });

  it('refuses mapping a missing line, and any line while in process', () => {
    order(withMystery)
      .when({ type: 'MapLine', lineId: 'nope', masterCodeId: 'x', combo: false })
      .thenThrows('LINE_NOT_FOUND', { lineId: 'nope' });
    order([...withMystery, arranged, scanned])
      .when({ type: 'MapLine', lineId: 'l3', masterCodeId: 'x', combo: false })
      .thenThrows('WRONG_STATUS');
    order(shippedOrder)
      .when({ type: 'MapLine', lineId: 'l1', masterCodeId: 'x', combo: false })
      .thenThrows('WRONG_STATUS');
  });

  it('removing an out-of-stock line releases what it held, by either of the two choices', () => {
    for (const mark of ['out_of_stock', 'stockable'] as const) {
      order(newOrder)
        .when({ type: 'RemoveLine', lineId: 'l2', mark })
        .then([
          {
            type: 'OrderLineRemoved',
            data: {
              lineId: 'l2',
              mark,
              stock: { warehouseId: 'wh', from: 'reserved', lines: stockOf(gift) },
            },
          },
        ]);
    }
    order(scannedOrder)
      .when({ type: 'RemoveLine', lineId: 'l1', mark: 'out_of_stock' })
      .then([
        {
          type: 'OrderLineRemoved',
          data: {
            lineId: 'l1',
            mark: 'out_of_stock',
            stock: { warehouseId: 'wh', from: 'inProcess', lines: stockOf(batik) },
          },
        },
      ]);
  });

  it('refuses removing the last line, a removed line, and lines of a shipped order', () => {
    order([imported({ lines: [batik] }), accepted(batik)])
      .when({ type: 'RemoveLine', lineId: 'l1', mark: 'stockable' })
      .thenThrows('LAST_LINE');
    const removed: OrderEvent = {
      type: 'OrderLineRemoved',
      data: { lineId: 'l2', mark: 'stockable', stock: null },
    };
    order([...newOrder, removed])
      .when({ type: 'RemoveLine', lineId: 'l2', mark: 'stockable' })
      .thenThrows('LINE_NOT_FOUND');
    order(shippedOrder)
      .when({ type: 'RemoveLine', lineId: 'l1', mark: 'stockable' })
      .thenThrows('WRONG_STATUS');
  });

  it('the reactor marks short lines out of stock; a removal clears it; late news is dropped', () => {
    order(newOrder)
      .when({ type: 'MarkOutOfStock', lineIds: ['l1', 'gone'] })
      .then([{ type: 'OrderStockShort', data: { lines: ['l1'] } }]);
    const short: OrderEvent = { type: 'OrderStockShort', data: { lines: ['l1'] } };
    order([...newOrder, short])
      .when({ type: 'MarkOutOfStock', lineIds: ['l1'] })
      .then([]);
    order(shippedOrder)
      .when({ type: 'MarkOutOfStock', lineIds: ['l1'] })
      .then([]);
    expect(orderFlags(fold([...newOrder, short])).outOfStock).toBe(true);
    const removed: OrderEvent = {
      type: 'OrderLineRemoved',
      data: { lineId: 'l1', mark: 'out_of_stock', stock: null },
    };
    expect(orderFlags(fold([...newOrder, short, removed])).outOfStock).toBe(false);
    // Out of the warehouse's hands, the order is no longer on the out-of-stock list.
    const cancelled: OrderEvent = { type: 'OrderCancelled', data: { byMarketplace: false, stock: null } };
    expect(orderFlags(fold([...newOrder, short, cancelled])).outOfStock).toBe(false);
  });
});

describe('order: shipment and pickup', () => {
  it('arranging a new order moves it to unscan; arranging again re-arranges', () => {
    order(newOrder)
      .when({ type: 'ArrangeShipment', trackingNumber: ' MY123 ', shippingProvider: 'J&T' })
      .then([arranged]);
    order(unscanOrder)
      .when({ type: 'ArrangeShipment', trackingNumber: 'MY999', shippingProvider: 'Ninja Van' })
      .then([
        {
          type: 'OrderShipmentArranged',
          data: { trackingNumber: 'MY999', shippingProvider: 'Ninja Van', rearranged: true },
        },
      ]);
    order(unscanOrder)
      .when({ type: 'ArrangeShipment', trackingNumber: 'MY123', shippingProvider: 'J&T' })
      .then([]);
    expect(fold(unscanOrder).status).toBe('unscan');
  });

  it('refuses arranging without a tracking number, or an order not in the warehouse', () => {
    order(newOrder)
      .when({ type: 'ArrangeShipment', trackingNumber: '  ', shippingProvider: 'J&T' })
      .thenThrows('TRACKING_REQUIRED');
    order([imported({ paidAt: null, marketplaceStatus: 'unpaid' })])
      .when({ type: 'ArrangeShipment', trackingNumber: 'MY1', shippingProvider: 'J&T' })
      .thenThrows('WRONG_STATUS');
    order(shippedOrder)
      .when({ type: 'ArrangeShipment', trackingNumber: 'MY1', shippingProvider: 'J&T' })
      .thenThrows('WRONG_STATUS');
  });

  it('requests a pickup with provider, address, day and time; refuses without provider or address', () => {
    order(unscanOrder)
      .when({
        type: 'RequestPickup',
        provider: 'J&T',
        pickupAddress: 'Lot 5, Shah Alam',
        pickupDay: 'after_1_day',
        pickupTime: 'earliest',
      })
      .then([
        {
          type: 'OrderPickupRequested',
          data: {
            provider: 'J&T',
            pickupAddress: 'Lot 5, Shah Alam',
            pickupDay: 'after_1_day',
            pickupTime: 'earliest',
          },
        },
      ]);
    const pickup = (provider: string, pickupAddress: string): OrderCommand => ({
      type: 'RequestPickup',
      provider,
      pickupAddress,
      pickupDay: 'today',
      pickupTime: 'none',
    });
    order(unscanOrder).when(pickup('', 'Lot 5')).thenThrows('PICKUP_DETAILS_REQUIRED');
    order(unscanOrder).when(pickup('J&T', ' ')).thenThrows('PICKUP_DETAILS_REQUIRED');
    order(shippedOrder).when(pickup('J&T', 'Lot 5')).thenThrows('WRONG_STATUS');
  });
});

describe('order: scan, moves, ship', () => {
  it('scanning an unscan order moves its reservation into process', () => {
    order(unscanOrder)
      .when({ type: 'ScanOrder', batchId: 'b1' })
      .then([
        {
          type: 'OrderScanned',
          data: { batchId: 'b1', stock: scanned.type === 'OrderScanned' ? scanned.data.stock : null },
        },
      ]);
  });

  it('refuses scanning twice, or an order not yet arranged', () => {
    order(scannedOrder)
      .when({ type: 'ScanOrder' })
      .thenThrows('WRONG_STATUS', { status: 'scanned', action: 'ScanOrder' });
    order(newOrder).when({ type: 'ScanOrder' }).thenThrows('WRONG_STATUS');
  });

  const moved = (
    from: OrderStatus,
    to: OrderStatus,
    action: MoveAction,
    stock: 'reserved' | 'inProcess' | null,
  ): OrderEvent => ({
    type: 'OrderMoved',
    data: {
      from,
      to,
      action,
      stock: stock ? { warehouseId: 'wh', from: stock, lines: stockOf(batik, gift) } : null,
    },
  });

  it('each move of spec §4 goes where it says, taking stock out of process when it goes back', () => {
    order(scannedOrder)
      .when({ type: 'MoveOrder', action: 'put_back_to_new' })
      .then([moved('scanned', 'new', 'put_back_to_new', 'inProcess')]);
    order(unscanOrder)
      .when({ type: 'MoveOrder', action: 'put_back_to_new' })
      .then([moved('unscan', 'new', 'put_back_to_new', null)]);
    order(newOrder)
      .when({ type: 'MoveOrder', action: 'move_to_unscan' })
      .then([moved('new', 'unscan', 'move_to_unscan', null)]);
    order(newOrder)
      .when({ type: 'MoveOrder', action: 'move_to_trash' })
      .then([moved('new', 'trash', 'move_to_trash', 'reserved')]);
    order(scannedOrder)
      .when({ type: 'MoveOrder', action: 'undo_scan' })
      .then([moved('scanned', 'unscan', 'undo_scan', 'inProcess')]);
    order(scannedOrder)
      .when({ type: 'MoveOrder', action: 'reset_scan' })
      .then([moved('scanned', 'unscan', 'reset_scan', 'inProcess')]);
    order(processedOrder)
      .when({ type: 'MoveOrder', action: 'reset' })
      .then([moved('processed', 'new', 'reset', 'inProcess')]);
    order(scannedOrder).when({ type: 'MoveOrder', action: 'mark_processed' }).then([processed]);
    order(shippedOrder)
      .when({ type: 'MoveOrder', action: 'set_delivered' })
      .then([moved('shipped', 'delivered', 'set_delivered', null)]);
    order(shippedOrder)
      .when({ type: 'MoveOrder', action: 'set_refunded' })
      .then([moved('shipped', 'refunded', 'set_refunded', null)]);
  });

  it('the stock stage follows the moves; a reset clears the shipment', () => {
    expect(fold([...scannedOrder, moved('scanned', 'unscan', 'undo_scan', 'inProcess')]).stock).toBe(
      'reserved',
    );
    expect(fold([...newOrder, moved('new', 'trash', 'move_to_trash', 'reserved')]).stock).toBe('released');
    const reset = fold([...processedOrder, moved('processed', 'new', 'reset', 'inProcess')]);
    expect([reset.status, reset.stock, reset.trackingNumber]).toEqual(['new', 'reserved', null]);
  });

  it('refuses every move from a list it does not start from', () => {
    const at: Record<string, OrderEvent[]> = {
      unpaid: [imported({ paidAt: null, marketplaceStatus: 'unpaid' })],
      new: newOrder,
      unscan: unscanOrder,
      scanned: scannedOrder,
      processed: processedOrder,
      shipped: shippedOrder,
    };
    for (const [action, move] of Object.entries(MOVES) as [MoveAction, (typeof MOVES)[MoveAction]][]) {
      for (const [status, history] of Object.entries(at)) {
        if (move.from.includes(status as OrderStatus)) continue;
        order(history)
          .when({ type: 'MoveOrder', action })
          .thenThrows('WRONG_STATUS', { status, action: 'MoveOrder' });
      }
    }
  });

  it('ships from the stage the stock is in; refuses shipping twice', () => {
    order(processedOrder).when({ type: 'ShipOrder', byMarketplace: false }).then([shipped]);
    order(unscanOrder)
      .when({ type: 'ShipOrder', byMarketplace: false })
      .then([
        {
          type: 'OrderShipped',
          data: {
            byMarketplace: false,
            stock: { warehouseId: 'wh', from: 'reserved', lines: stockOf(batik, gift) },
          },
        },
      ]);
    order(shippedOrder).when({ type: 'ShipOrder', byMarketplace: false }).thenThrows('ALREADY_SHIPPED');
    order([imported({ paidAt: null, marketplaceStatus: 'unpaid' })])
      .when({ type: 'ShipOrder', byMarketplace: false })
      .thenThrows('WRONG_STATUS');
  });
});

describe('order: cancel, return, refund', () => {
  it('cancelling releases what the order holds, from where it is', () => {
    order(newOrder)
      .when({ type: 'CancelOrder', reason: 'Buyer asked', byMarketplace: false })
      .then([
        {
          type: 'OrderCancelled',
          data: {
            reason: 'Buyer asked',
            byMarketplace: false,
            stock: { warehouseId: 'wh', from: 'reserved', lines: stockOf(batik, gift) },
          },
        },
      ]);
    order([imported({ paidAt: null, marketplaceStatus: 'unpaid' })])
      .when({ type: 'CancelOrder', byMarketplace: false })
      .then([{ type: 'OrderCancelled', data: { byMarketplace: false, stock: null } }]);
  });

  it('refuses cancelling a shipped, delivered or already cancelled order', () => {
    order(shippedOrder).when({ type: 'CancelOrder', byMarketplace: false }).thenThrows('ALREADY_SHIPPED');
    order([
      ...shippedOrder,
      {
        type: 'OrderMoved',
        data: { from: 'shipped', to: 'delivered', action: 'set_delivered', stock: null },
      },
    ])
      .when({ type: 'CancelOrder', byMarketplace: false })
      .thenThrows('ALREADY_SHIPPED');
    order([...newOrder, { type: 'OrderCancelled', data: { byMarketplace: false, stock: null } }])
      .when({ type: 'CancelOrder', byMarketplace: false })
      .thenThrows('WRONG_STATUS');
  });

  it('returns lines of a shipped order within their quantities', () => {
    order(shippedOrder)
      .when({ type: 'ReturnOrder', returnId: 'r1', lines: [{ lineId: 'l1', quantity: 2 }] })
      .then([{ type: 'OrderReturned', data: { returnId: 'r1', lines: [{ lineId: 'l1', quantity: 2 }] } }]);
    order(shippedOrder)
      .when({ type: 'ReturnOrder', returnId: 'r1', lines: [{ lineId: 'l1', quantity: 3 }] })
      .thenThrows('QUANTITY_INVALID', { lineId: 'l1', max: 2 });
    order(shippedOrder)
      .when({ type: 'ReturnOrder', returnId: 'r1', lines: [{ lineId: 'x', quantity: 1 }] })
      .thenThrows('LINE_NOT_FOUND');
    order(newOrder)
      .when({ type: 'ReturnOrder', returnId: 'r1', lines: [{ lineId: 'l1', quantity: 1 }] })
      .thenThrows('NOT_SHIPPED');
  });
});

describe('order: printing, preview, address, batch', () => {
  it('marks documents printed, once each in the state', () => {
    order(unscanOrder)
      .when({ type: 'MarkPrinted', document: 'AWB', origin: 'unscan' })
      .then([{ type: 'OrderPrinted', data: { document: 'AWB', origin: 'unscan' } }]);
    const printed: OrderEvent = { type: 'OrderPrinted', data: { document: 'AWB', origin: 'unscan' } };
    expect(fold([...unscanOrder, printed, printed]).printed).toEqual(['AWB']);
  });

  it('sets preview only when it changes', () => {
    order(newOrder)
      .when({ type: 'SetPreview', preview: true })
      .then([{ type: 'OrderPreviewSet', data: { preview: true } }]);
    order(newOrder).when({ type: 'SetPreview', preview: false }).then([]);
  });

  it('changes the shipping address of an open order only', () => {
    const other = { ...address, city: 'Penang' };
    order(newOrder)
      .when({ type: 'ChangeAddress', address: other })
      .then([{ type: 'OrderAddressChanged', data: { address: other } }]);
    expect(
      fold([...newOrder, { type: 'OrderAddressChanged', data: { address: other } }]).details?.address.city,
    ).toBe('Penang');
    order(shippedOrder).when({ type: 'ChangeAddress', address: other }).thenThrows('WRONG_STATUS');
  });

  it('assigns new and unscan orders to a batch, and takes any order out of one', () => {
    order(newOrder)
      .when({ type: 'AssignBatch', batchId: 'b1' })
      .then([{ type: 'OrderBatched', data: { batchId: 'b1' } }]);
    order([...newOrder, { type: 'OrderBatched', data: { batchId: 'b1' } }])
      .when({ type: 'AssignBatch', batchId: 'b1' })
      .then([]);
    order(scannedOrder).when({ type: 'AssignBatch', batchId: 'b1' }).thenThrows('WRONG_STATUS');
  });
});

describe('order: split', () => {
  it('moves part of the quantities to a new order that keeps the state and the held stock', () => {
    order(newOrder)
      .when({ type: 'SplitOrder', childOrderId: 'o2', lines: [{ lineId: 'l1', quantity: 1 }] })
      .then([{ type: 'OrderSplit', data: { childOrderId: 'o2', lines: [{ lineId: 'l1', quantity: 1 }] } }]);
    const parent = fold(newOrder);
    const part = splitPart(parent, 'o2', [{ lineId: 'l1', quantity: 1 }]);
    expect(part.split).toEqual({ from: 'o1', status: 'new', stock: 'reserved' });
    expect(part.order.orderNumber).toBe('240101ABC-1');
    expect(part.order.totalAmount).toBe('59.90');
    expect(part.order.lines).toEqual([{ ...batik, quantity: 1 }]);
    order([])
      .when(part)
      .then([
        { type: 'OrderImported', data: { ...part.order, status: 'new', splitFrom: 'o1', stock: 'reserved' } },
      ]);
    const after = fold([
      ...newOrder,
      { type: 'OrderSplit', data: { childOrderId: 'o2', lines: [{ lineId: 'l1', quantity: 1 }] } },
    ]);
    expect(after.lines.map((line) => [line.lineId, line.quantity])).toEqual([
      ['l1', 1],
      ['l2', 1],
    ]);
    expect(after.splits).toBe(1);
  });

  it('refuses splitting into nothing, everything, more than a line holds, or a missing line', () => {
    const split = (lines: { lineId: string; quantity: number }[]): OrderCommand => ({
      type: 'SplitOrder',
      childOrderId: 'o2',
      lines,
    });
    order(newOrder).when(split([])).thenThrows('SPLIT_NOTHING');
    order(newOrder)
      .when(split([{ lineId: 'l1', quantity: 0 }]))
      .thenThrows('QUANTITY_INVALID', { lineId: 'l1', max: 2 });
    order(newOrder)
      .when(
        split([
          { lineId: 'l1', quantity: 2 },
          { lineId: 'l2', quantity: 1 },
        ]),
      )
      .thenThrows('SPLIT_EVERYTHING');
    order(newOrder)
      .when(
        split([
          { lineId: 'l1', quantity: 1 },
          { lineId: 'l1', quantity: 2 },
        ]),
      )
      .thenThrows('QUANTITY_INVALID', { lineId: 'l1', max: 2 });
    order(newOrder)
      .when(split([{ lineId: 'x', quantity: 1 }]))
      .thenThrows('LINE_NOT_FOUND');
    order(scannedOrder)
      .when(split([{ lineId: 'l1', quantity: 1 }]))
      .thenThrows('WRONG_STATUS');
  });
});

describe('the platform an order came from', () => {
  it("reads events stored with the old spelling 'tiktok' as the spec's 'tiktokshop'", () => {
    expect(StoredPlatform.parse('tiktok')).toBe('tiktokshop');
    expect(StoredPlatform.parse('tiktokshop')).toBe('tiktokshop');
    expect(StoredPlatform.safeParse('myspace').success).toBe(false);
    expect(PLATFORMS).toContain('tiktokshop');
    expect(PLATFORMS).not.toContain('tiktok');
  });
});

describe('order: cancel third-party shipment, process failed, waiting assign, replacement', () => {
  const inProcess = { warehouseId: 'wh', from: 'inProcess' as const, lines: stockOf(batik, gift) };

  it('cancelling an arranged shipment takes the order back to pending process, without its tracking number', () => {
    order(unscanOrder)
      .when({ type: 'CancelShipment' })
      .then([
        {
          type: 'OrderShipmentCancelled',
          data: { trackingNumber: 'MY123', shippingProvider: 'J&T', from: 'unscan', stock: null },
        },
      ]);
    const after = fold([
      ...unscanOrder,
      {
        type: 'OrderShipmentCancelled',
        data: { trackingNumber: 'MY123', shippingProvider: 'J&T', from: 'unscan', stock: null },
      },
    ]);
    expect(after).toMatchObject({
      status: 'new',
      trackingNumber: null,
      shippingProvider: null,
      stock: 'reserved',
    });
  });

  it('a picked order gives its stock back to reserved; nothing arranged, or gone, is refused', () => {
    order(processedOrder)
      .when({ type: 'CancelShipment' })
      .then([
        {
          type: 'OrderShipmentCancelled',
          data: { trackingNumber: 'MY123', shippingProvider: 'J&T', from: 'processed', stock: inProcess },
        },
      ]);
    order(newOrder).when({ type: 'CancelShipment' }).thenThrows('NO_SHIPMENT');
    order(shippedOrder).when({ type: 'CancelShipment' }).thenThrows('WRONG_STATUS');
  });

  it('a refused step is the order’s "process failed" until a step succeeds', () => {
    const failure = {
      request: { step: 'arrange_shipment' as const, trackingNumber: '', shippingProvider: '' },
      code: 588,
      key: 'orders.arrange_failed',
      params: { detail: 'logistics.invalid_status' },
    };
    order(newOrder)
      .when({ type: 'RecordProcessFailure', failure })
      .then([{ type: 'OrderProcessFailed', data: failure }]);
    const failed = [...newOrder, { type: 'OrderProcessFailed' as const, data: failure }];
    expect(fold(failed).failure).toEqual(failure);
    expect(fold([...failed, arranged]).failure).toBeNull();
  });

  it('assigns a picker to an order not yet picked, and takes it back', () => {
    order(newOrder)
      .when({ type: 'AssignPicker', pickerId: 'u1' })
      .then([{ type: 'OrderPickerAssigned', data: { pickerId: 'u1' } }]);
    const assigned = [...newOrder, { type: 'OrderPickerAssigned' as const, data: { pickerId: 'u1' } }];
    expect(fold(assigned).pickerId).toBe('u1');
    order(assigned).when({ type: 'AssignPicker', pickerId: 'u1' }).then([]);
    order(scannedOrder).when({ type: 'AssignPicker', pickerId: 'u1' }).thenThrows('WRONG_STATUS');
    order(assigned)
      .when({ type: 'AssignPicker', pickerId: null })
      .then([{ type: 'OrderPickerAssigned', data: { pickerId: null } }]);
  });

  it('a replacement of a shipped order sends chosen items again at no charge, accepted with its stock reserved', () => {
    const lines = [{ lineId: 'l1', quantity: 1 }];
    order(shippedOrder)
      .when({ type: 'ReplaceOrder', replacementOrderId: 'r1', lines })
      .then([{ type: 'OrderReplaced', data: { replacementOrderId: 'r1', lines } }]);
    const original = fold([
      ...shippedOrder,
      { type: 'OrderReplaced', data: { replacementOrderId: 'r1', lines } },
    ]);
    expect(original.replacements).toEqual(['r1']);
    const part = replacementPart(original, 'r1', lines, '2026-02-01T00:00:00.000Z');
    expect(part.order).toMatchObject({
      orderId: 'r1',
      orderNumber: '240101ABC-R1',
      totalAmount: '0.00',
      replacementOf: 'o1',
      lines: [{ ...batik, quantity: 1, unitPrice: '0.00' }],
    });
    const [made, acceptance] = decide(part, initialState);
    expect(acceptance).toEqual({
      type: 'OrderAccepted',
      data: { stock: { warehouseId: 'wh', from: 'none', lines: [{ ...stockOf(batik)[0], quantity: 1 }] } },
    });
    expect(fold([made!, acceptance!])).toMatchObject({
      status: 'new',
      replacementOf: 'o1',
      trackingNumber: null,
    });
  });

  it('refuses a replacement of an order not yet shipped, of nothing, or of more than was ordered', () => {
    const replace = (lines: { lineId: string; quantity: number }[]): OrderCommand => ({
      type: 'ReplaceOrder',
      replacementOrderId: 'r1',
      lines,
    });
    order(newOrder)
      .when(replace([{ lineId: 'l1', quantity: 1 }]))
      .thenThrows('WRONG_STATUS');
    order(shippedOrder)
      .when(replace([{ lineId: 'l1', quantity: 0 }]))
      .thenThrows('REPLACEMENT_NOTHING');
    order(shippedOrder)
      .when(replace([{ lineId: 'l1', quantity: 3 }]))
      .thenThrows('REPLACEMENT_QUANTITY_INVALID', { lineId: 'l1', max: 2 });
    order(shippedOrder)
      .when(replace([{ lineId: 'x', quantity: 1 }]))
      .thenThrows('LINE_NOT_FOUND');
  });
});

describe('order: free gifts, bin and serial numbers', () => {
  const ribbon = {
    lineId: 'gift-1',
    sku: 'RIBBON',
    sellerSku: 'RIBBON',
    name: 'Ribbon',
    quantity: 2,
    masterCodeId: 'mc-ribbon',
    combo: false,
  };
  const giftLine: OrderLine = { ...ribbon, unitPrice: '0.00', gift: true };

  it('adds a gift at price 0, reserved at once when the order holds its stock', () => {
    order(newOrder)
      .when({ type: 'AddGift', line: ribbon })
      .then([
        {
          type: 'OrderGiftAdded',
          data: { line: giftLine, stock: { warehouseId: 'wh', from: 'none', lines: stockOf(giftLine) } },
        },
      ]);
    const after = fold([...newOrder, { type: 'OrderGiftAdded', data: { line: giftLine, stock: null } }]);
    expect(after.lines.at(-1)).toEqual(giftLine);
  });

  it('an unpaid order reserves its gift with the rest when accepted; a scanned one takes none', () => {
    const unpaid = [imported({ paidAt: null, marketplaceStatus: 'unpaid' })];
    order(unpaid)
      .when({ type: 'AddGift', line: ribbon })
      .then([{ type: 'OrderGiftAdded', data: { line: giftLine, stock: null } }]);
    order([...unpaid, { type: 'OrderGiftAdded', data: { line: giftLine, stock: null } }])
      .when({
        type: 'SyncOrder',
        marketplaceStatus: 'ready_to_ship',
        marketplaceUpdatedAt: '2026-01-01T09:00:00.000Z',
        paidAt: '2026-01-01T09:00:00.000Z',
      })
      .then([
        {
          type: 'OrderSynced',
          data: {
            marketplaceStatus: 'ready_to_ship',
            marketplaceUpdatedAt: '2026-01-01T09:00:00.000Z',
            paidAt: '2026-01-01T09:00:00.000Z',
          },
        },
        {
          type: 'OrderAccepted',
          data: { stock: { warehouseId: 'wh', from: 'none', lines: stockOf(batik, gift, giftLine) } },
        },
      ]);
    order(scannedOrder).when({ type: 'AddGift', line: ribbon }).thenThrows('WRONG_STATUS');
  });

  it("records a line's bin and serial numbers, trimmed, and replaces them when recorded again", () => {
    const recorded: OrderEvent = {
      type: 'OrderLineDetailsRecorded',
      data: { lineId: 'l1', binNumber: 'B-07', serialNumbers: ['SN-1', 'SN-2'] },
    };
    order(scannedOrder)
      .when({
        type: 'RecordLineDetails',
        lineId: 'l1',
        binNumber: ' B-07 ',
        serialNumbers: [' SN-1', 'SN-2', ''],
      })
      .then([recorded]);
    expect(fold([...scannedOrder, recorded]).lines[0]).toMatchObject({
      binNumber: 'B-07',
      serialNumbers: ['SN-1', 'SN-2'],
    });
    // The same again records nothing; cleared, the line carries none.
    order([...scannedOrder, recorded])
      .when({ type: 'RecordLineDetails', lineId: 'l1', binNumber: 'B-07', serialNumbers: ['SN-1', 'SN-2'] })
      .then([]);
    const cleared: OrderEvent = {
      type: 'OrderLineDetailsRecorded',
      data: { lineId: 'l1', binNumber: null, serialNumbers: [] },
    };
    const line = fold([...scannedOrder, recorded, cleared]).lines[0]!;
    expect(line.binNumber).toBeUndefined();
    expect(line.serialNumbers).toBeUndefined();
  });

  it('refuses more serial numbers than units, a serial number twice on the order, a shipped order', () => {
    order(scannedOrder)
      .when({ type: 'RecordLineDetails', lineId: 'l1', binNumber: null, serialNumbers: ['A', 'B', 'C'] })
      .thenThrows('SERIALS_TOO_MANY', { lineId: 'l1', max: 2 });
    order(scannedOrder)
      .when({ type: 'RecordLineDetails', lineId: 'l1', binNumber: null, serialNumbers: ['A', 'A'] })
      .thenThrows('SERIAL_DUPLICATE', { serial: 'A' });
    const onGift: OrderEvent = {
      type: 'OrderLineDetailsRecorded',
      data: { lineId: 'l2', binNumber: null, serialNumbers: ['SN-9'] },
    };
    order([...scannedOrder, onGift])
      .when({ type: 'RecordLineDetails', lineId: 'l1', binNumber: null, serialNumbers: ['SN-9'] })
      .thenThrows('SERIAL_DUPLICATE', { serial: 'SN-9' });
    order(shippedOrder)
      .when({ type: 'RecordLineDetails', lineId: 'l1', binNumber: 'B', serialNumbers: [] })
      .thenThrows('WRONG_STATUS');
  });

  it('a part split off is packed afresh: the bin and serial numbers stay with the parent', () => {
    const recorded: OrderEvent = {
      type: 'OrderLineDetailsRecorded',
      data: { lineId: 'l1', binNumber: 'B-07', serialNumbers: ['SN-1'] },
    };
    const part = splitPart(fold([...newOrder, recorded]), 'o1-1', [{ lineId: 'l1', quantity: 1 }]);
    expect(part.order.lines[0]).not.toHaveProperty('serialNumbers');
    expect(part.order.lines[0]).not.toHaveProperty('binNumber');
  });
});

describe("the buyer's first and last name", () => {
  it('splits a full name where the marketplace gives one, and keeps the full name', () => {
    expect(splitName('Nur Aisyah binti Ahmad')).toEqual({ firstName: 'Nur', lastName: 'Aisyah binti Ahmad' });
    expect(splitName('  陈美玲 ')).toEqual({ firstName: '陈美玲', lastName: '' });
    expect(withNameParts(address)).toEqual({ ...address, firstName: 'Nur', lastName: 'Aisyah' });
    const given = { ...address, firstName: 'Aisyah', lastName: 'Nur' };
    expect(withNameParts(given)).toBe(given);
  });
});
