import { autoBatchFingerprint, dayIn, scheduleTimes, windowValid } from '@domain/batches/auto-batch';
import {
  type BatchCommand,
  type BatchEvent,
  type BatchState,
  batchDecider,
  batchLabel,
  planBatches,
} from '@domain/batches/batch';
import { buildPickList, locationKey, type PickOrder } from '@domain/batches/pick-list';
import { specFor } from '@tests/support/decider';
import { describe, expect, it } from 'vitest';

const batch = specFor<BatchCommand, BatchEvent, BatchState>(batchDecider);

const settings = {
  batchId: 'b1',
  number: 7,
  label: 'B0007',
  name: 'Morning',
  prefix: 'B',
  digits: 4,
  batchType: 'normal' as const,
  pickerId: null,
  date: '2026-11-22',
  maxOrders: 3,
  split: 'none' as const,
  group: null,
  source: 'manual' as const,
  configId: null,
};
const normal = (orderId: string) => ({ orderId, preOrder: false });
const preOrder = (orderId: string) => ({ orderId, preOrder: true });
const created: BatchEvent = { type: 'BatchCreated', data: { ...settings, orderIds: ['o1', 'o2'] } };

describe('batch numbering', () => {
  it('writes the prefix and the number padded with leading zeros, never cut', () => {
    expect(batchLabel('B', 1, 4)).toBe('B0001');
    expect(batchLabel('B', 42, 4)).toBe('B0042');
    expect(batchLabel('PK-', 7, 6)).toBe('PK-000007');
    expect(batchLabel('B', 12345, 4)).toBe('B12345');
    expect(batchLabel('', 3, 1)).toBe('3');
  });
});

describe('batch', () => {
  it('is made of its orders, with its number, type, picker, date and most orders', () => {
    batch([])
      .when({ type: 'CreateBatch', ...settings, orders: [normal('o1'), normal('o2')] })
      .then([created]);
  });

  it('refuses no orders, more than its most, an order twice', () => {
    batch([])
      .when({ type: 'CreateBatch', ...settings, orders: [] })
      .thenThrows('ORDERS_REQUIRED');
    batch([])
      .when({ type: 'CreateBatch', ...settings, orders: ['a', 'b', 'c', 'd'].map(normal) })
      .thenThrows('TOO_MANY_ORDERS', { max: 3 });
    batch([])
      .when({ type: 'CreateBatch', ...settings, orders: [normal('a'), normal('a')] })
      .thenThrows('ORDER_ALREADY_IN_BATCH');
  });

  it('takes pre-orders only when it is a pre-order batch, and no pre-order when it is normal', () => {
    batch([])
      .when({
        type: 'CreateBatch',
        ...settings,
        batchType: 'pre-order',
        orders: [preOrder('p1'), normal('o1')],
      })
      .thenThrows('ORDER_TYPE_MISMATCH', { orderId: 'o1', type: 'pre-order' });
    batch([])
      .when({ type: 'CreateBatch', ...settings, orders: [normal('o1'), preOrder('p1')] })
      .thenThrows('ORDER_TYPE_MISMATCH', { orderId: 'p1', type: 'normal' });
    batch([])
      .when({ type: 'CreateBatch', ...settings, batchType: 'pre-order', orders: [preOrder('p1')] })
      .then([{ type: 'BatchCreated', data: { ...settings, batchType: 'pre-order', orderIds: ['p1'] } }]);
  });

  it('takes more orders up to its most, of its type; an order it holds already is no change', () => {
    batch([created])
      .when({ type: 'AddOrders', orders: [normal('o3')] })
      .then([{ type: 'BatchOrdersAdded', data: { orderIds: ['o3'] } }]);
    batch([created])
      .when({ type: 'AddOrders', orders: [normal('o2')] })
      .then([]);
    batch([created])
      .when({ type: 'AddOrders', orders: [normal('o3'), normal('o4')] })
      .thenThrows('TOO_MANY_ORDERS', { max: 3 });
    batch([created])
      .when({ type: 'AddOrders', orders: [preOrder('p1')] })
      .thenThrows('ORDER_TYPE_MISMATCH');
  });

  it('gives orders back, changes picker, closes once; a closed batch takes no change', () => {
    batch([created])
      .when({ type: 'RemoveOrders', orderIds: ['o1'] })
      .then([{ type: 'BatchOrdersRemoved', data: { orderIds: ['o1'] } }]);
    batch([created])
      .when({ type: 'RemoveOrders', orderIds: ['o9'] })
      .thenThrows('ORDER_NOT_IN_BATCH', { orderId: 'o9' });
    batch([created])
      .when({ type: 'AssignPicker', pickerId: 'u1' })
      .then([{ type: 'BatchPickerAssigned', data: { pickerId: 'u1' } }]);
    const closed: BatchEvent = { type: 'BatchClosed', data: {} };
    batch([created]).when({ type: 'CloseBatch' }).then([closed]);
    batch([created, closed]).when({ type: 'CloseBatch' }).then([]);
    batch([created, closed])
      .when({ type: 'AddOrders', orders: [normal('o3')] })
      .thenThrows('BATCH_CLOSED');
    batch([created, closed])
      .when({ type: 'RemoveOrders', orderIds: ['o1'] })
      .thenThrows('BATCH_CLOSED');
    batch([]).when({ type: 'CloseBatch' }).thenThrows('BATCH_NOT_FOUND');
  });
});

describe('splitting a selection', () => {
  const orders = [
    { orderId: 'a', shippingProvider: 'J&T', paymentMethod: 'COD' },
    { orderId: 'b', shippingProvider: 'Ninja Van', paymentMethod: 'Online' },
    { orderId: 'c', shippingProvider: 'J&T', paymentMethod: 'Online' },
    { orderId: 'd', shippingProvider: 'J&T', paymentMethod: 'COD' },
    { orderId: 'e', shippingProvider: null, paymentMethod: 'COD' },
  ];
  const ids = (plan: { group: string | null; orders: { orderId: string }[] }[]) =>
    plan.map((chunk) => [chunk.group, chunk.orders.map((order) => order.orderId)]);

  it('makes one batch per shipping provider, cut at the most orders', () => {
    expect(ids(planBatches(orders, { split: 'logistics', maxOrders: 2 }))).toEqual([
      ['', ['e']],
      ['J&T', ['a', 'c']],
      ['J&T', ['d']],
      ['Ninja Van', ['b']],
    ]);
  });

  it('makes one batch per payment method', () => {
    expect(ids(planBatches(orders, { split: 'payment', maxOrders: 10 }))).toEqual([
      ['COD', ['a', 'd', 'e']],
      ['Online', ['b', 'c']],
    ]);
  });

  it('without a split cuts the selection in order; full batches only when asked', () => {
    expect(ids(planBatches(orders, { split: 'none', maxOrders: 2 }))).toEqual([
      [null, ['a', 'b']],
      [null, ['c', 'd']],
      [null, ['e']],
    ]);
    expect(ids(planBatches(orders, { split: 'none', maxOrders: 2, fullOnly: true }))).toEqual([
      [null, ['a', 'b']],
      [null, ['c', 'd']],
    ]);
    expect(ids(planBatches(orders, { split: 'logistics', maxOrders: 3, fullOnly: true }))).toEqual([
      ['J&T', ['a', 'c', 'd']],
    ]);
  });
});

describe('auto batch configuration', () => {
  const config = {
    intervalHours: 2 as const,
    startTime: '09:00',
    endTime: '18:00',
    maxOrders: 50,
    split: 'logistics' as const,
    type: 'normal' as const,
    condition: { storeIds: ['s2', 's1'], platforms: ['shopee'] },
  };

  it('runs from the start every 1 or 2 hours up to the end', () => {
    expect(scheduleTimes(config)).toEqual([9, 11, 13, 15, 17].map((hour) => ({ hour, minute: 0 })));
    expect(scheduleTimes({ intervalHours: 1, startTime: '09:30', endTime: '12:30' })).toEqual([
      { hour: 9, minute: 30 },
      { hour: 10, minute: 30 },
      { hour: 11, minute: 30 },
      { hour: 12, minute: 30 },
    ]);
    expect(windowValid('09:00', '18:00')).toBe(true);
    expect(windowValid('18:00', '09:00')).toBe(false);
    expect(windowValid('09:00', '09:00')).toBe(false);
    expect(windowValid('9:00', '18:00')).toBe(false);
  });

  it('is the same configuration whatever its name, whether it is active, and the order of its stores', () => {
    const same = autoBatchFingerprint({
      ...config,
      condition: { storeIds: ['s1', 'S2'], platforms: ['shopee'] },
    });
    expect(autoBatchFingerprint(config)).toBe(same);
    expect(autoBatchFingerprint({ ...config, maxOrders: 51 })).not.toBe(same);
    expect(autoBatchFingerprint({ ...config, split: 'payment' })).not.toBe(same);
    expect(autoBatchFingerprint({ ...config, intervalHours: 1 })).not.toBe(same);
    expect(autoBatchFingerprint({ ...config, condition: { storeIds: [], platforms: [] } })).not.toBe(same);
  });

  it("dates a batch by the account's day", () => {
    const lateUtc = new Date('2026-11-22T17:30:00Z');
    expect(dayIn('Asia/Kuala_Lumpur', lateUtc)).toBe('2026-11-23');
    expect(dayIn('Asia/Bangkok', lateUtc)).toBe('2026-11-23');
    expect(dayIn('UTC', lateUtc)).toBe('2026-11-22');
  });
});

describe('pick list', () => {
  const line = (lineId: string, masterCodeId: string | null, sellerSku: string, quantity: number) => ({
    lineId,
    masterCodeId,
    sku: `shopee-${sellerSku}`,
    sellerSku,
    name: `Item ${sellerSku}`,
    quantity,
  });
  const orders: PickOrder[] = [
    {
      orderId: 'o1',
      orderNumber: 'N1',
      trackingNumber: 'T1',
      warehouseId: 'w',
      lines: [line('1', 'm-batik', 'BTK-RED', 2)],
    },
    {
      orderId: 'o2',
      orderNumber: 'N2',
      trackingNumber: 'T2',
      warehouseId: 'w',
      lines: [line('1', 'm-batik', 'BTK-RED-2', 1), line('2', 'm-kopi', 'KOPI', 3)],
    },
    {
      orderId: 'o3',
      orderNumber: 'N3',
      trackingNumber: 'T3',
      warehouseId: 'w',
      lines: [line('1', 'm-kopi', 'KOPI', 1)],
    },
  ];
  const masters = new Map([
    ['m-batik', { code: 'BATIK', name: 'Batik sarong' }],
    ['m-kopi', { code: 'KOPI', name: 'Kopi 250g' }],
  ]);
  const locations = new Map([
    [locationKey('m-batik', 'w'), ['R-02']],
    [locationKey('m-kopi', 'w'), ['R-01', 'R-09']],
  ]);
  const rows = (filter: Parameters<typeof buildPickList>[1]) =>
    buildPickList(orders, filter, masters, locations).rows.map((row) => [
      row.code ?? row.sellerSku,
      row.quantity,
      row.orderCount,
      row.locations.join(' '),
      ...(row.orderNumber ? [row.orderNumber] : []),
    ]);

  it('adds up each master code over every order, in rack order', () => {
    expect(rows('item')).toEqual([
      ['KOPI', 4, 2, 'R-01 R-09'],
      ['BATIK', 3, 2, 'R-02'],
    ]);
    const list = buildPickList(orders, 'item', masters, locations);
    expect(list.totalQuantity).toBe(7);
    expect(list.orderCount).toBe(3);
  });

  it('adds up per seller SKU', () => {
    expect(rows('sku')).toEqual([
      ['KOPI', 4, 2, 'R-01 R-09'],
      ['BATIK', 2, 1, 'R-02'],
      ['BATIK', 1, 1, 'R-02'],
    ]);
    expect(buildPickList(orders, 'sku', masters, locations).rows.map((row) => row.sellerSku)).toEqual([
      'KOPI',
      'BTK-RED',
      'BTK-RED-2',
    ]);
  });

  it('keeps the orders of one item (single) or of several (multiple)', () => {
    expect(rows('single')).toEqual([
      ['KOPI', 1, 1, 'R-01 R-09'],
      ['BATIK', 2, 1, 'R-02'],
    ]);
    expect(rows('multiple')).toEqual([
      ['KOPI', 3, 1, 'R-01 R-09'],
      ['BATIK', 1, 1, 'R-02'],
    ]);
  });

  it('lists every order line, order by order (all)', () => {
    expect(rows('all')).toEqual([
      ['BATIK', 2, 1, 'R-02', 'N1'],
      ['KOPI', 3, 1, 'R-01 R-09', 'N2'],
      ['BATIK', 1, 1, 'R-02', 'N2'],
      ['KOPI', 1, 1, 'R-01 R-09', 'N3'],
    ]);
  });

  it('names an unmapped line by its seller SKU, with no rack', () => {
    const list = buildPickList(
      [
        {
          orderId: 'x',
          orderNumber: 'X',
          trackingNumber: null,
          warehouseId: 'w',
          lines: [line('1', null, 'GHOST', 1)],
        },
      ],
      'item',
      masters,
      locations,
    );
    expect(list.rows).toEqual([
      expect.objectContaining({
        code: null,
        sellerSku: 'GHOST',
        name: 'Item GHOST',
        quantity: 1,
        locations: [],
      }),
    ]);
  });
});
