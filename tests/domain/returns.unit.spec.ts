import type { OrderLine } from '@domain/orders/order';
import {
  decide,
  emptyReturn,
  evolve,
  mayReturn,
  type ReturnEvent,
  type ReturnedOrder,
  type ReturnRequest,
  restockLines,
} from '@domain/returns/return';
import { specFor } from '@tests/support/decider';
import { describe, expect, it } from 'vitest';

/** The return decider (domain/returns/return.ts): spec §5's checks, what goes back to stock, completion. */

const given = specFor({ initial: emptyReturn, evolve, decide });

const orderLine = (lineId: string, changes: Partial<OrderLine> = {}): OrderLine => ({
  lineId,
  sku: `SP-${lineId}`,
  sellerSku: lineId,
  name: `Item ${lineId}`,
  quantity: 2,
  unitPrice: '12.50',
  masterCodeId: `mc-${lineId}`,
  combo: false,
  ...changes,
});

const order: ReturnedOrder = {
  orderId: 'order-1',
  orderNumber: '2601000001ABC',
  trackingNumber: 'SPXMY1',
  storeId: 'store-a',
  platform: 'shopee',
  warehouseId: 'wh-1',
  currency: 'MYR',
  status: 'shipped',
  returnId: null,
  lines: [
    orderLine('A'),
    orderLine('B', { combo: true, quantity: 1, unitPrice: '30.00' }),
    orderLine('C', { masterCodeId: null }),
  ],
};

const request = (changes: Partial<ReturnRequest> = {}): ReturnRequest => ({
  action: 'return_to_stock',
  reason: 'Wrong size',
  refundToBuyer: '25',
  includeShipping: false,
  refundReason: 'Buyer returned the parcel',
  reversalItemPrice: null,
  images: [],
  lines: [
    { lineId: 'A', quantity: 2, condition: 'reusable' },
    { lineId: 'B', quantity: 1, condition: 'reusable' },
    { lineId: 'C', quantity: 1, condition: 'reusable' },
  ],
  ...changes,
});

const record = (returnId = 'r-1', req = request()) => {
  const [event] = decide({ type: 'RecordReturn', returnId, order, request: req }, emptyReturn);
  return event as Extract<ReturnEvent, { type: 'OrderReturnRecorded' }>;
};

describe('recording a return', () => {
  it('records the lines with the order’s details, the refund in cents, and the reversal defaulting to the lines’ price', () => {
    const event = record();
    expect(event.type).toBe('OrderReturnRecorded');
    expect(event.data).toMatchObject({
      returnId: 'r-1',
      orderId: 'order-1',
      orderNumber: '2601000001ABC',
      warehouseId: 'wh-1',
      refundToBuyer: '25.00',
      includeShipping: false,
      reversalItemPrice: '67.50',
      lines: [
        expect.objectContaining({ lineId: 'A', quantity: 2, condition: 'reusable', masterCodeId: 'mc-A' }),
        expect.objectContaining({ lineId: 'B', combo: true }),
        expect.objectContaining({ lineId: 'C', masterCodeId: null }),
      ],
    });
    expect(record('r-2', request({ reversalItemPrice: '10.5' })).data.reversalItemPrice).toBe('10.50');
  });

  it('refuses what spec §5 requires, in the order the form reads', () => {
    const when = (changes: Partial<ReturnRequest>) =>
      given([]).when({ type: 'RecordReturn', returnId: 'r-1', order, request: request(changes) });
    when({ lines: [] }).thenThrows('ITEMS_REQUIRED');
    when({ refundToBuyer: null }).thenThrows('REFUND_REQUIRED');
    when({ refundToBuyer: ' ' }).thenThrows('REFUND_REQUIRED');
    when({ includeShipping: null }).thenThrows('INCLUDE_SHIPPING_REQUIRED');
    when({ refundReason: null }).thenThrows('REFUND_REASON_REQUIRED');
    when({ refundReason: '   ' }).thenThrows('REFUND_REASON_REQUIRED');
    when({ lines: [], refundToBuyer: null }).thenThrows('ITEMS_REQUIRED');
    when({ action: null }).thenThrows('ACTION_REQUIRED');
    when({ refundToBuyer: '-1' }).thenThrows('AMOUNT_INVALID', { field: 'refund_to_buyer' });
    when({ reversalItemPrice: '1.234' }).thenThrows('AMOUNT_INVALID', { field: 'reversal_item_price' });
    when({ reason: 'x'.repeat(501) }).thenThrows('TEXT_TOO_LONG', { field: 'reason', max: 500 });
    when({ images: ['1', '2', '3', '4', '5', '6'] }).thenThrows('TOO_MANY_IMAGES');
    when({ lines: [{ lineId: 'Z', quantity: 1, condition: 'reusable' }] }).thenThrows('LINE_NOT_FOUND');
    when({
      lines: [
        { lineId: 'A', quantity: 1, condition: 'reusable' },
        { lineId: 'A', quantity: 1, condition: 'unusable' },
      ],
    }).thenThrows('LINE_REPEATED');
    when({ lines: [{ lineId: 'A', quantity: 3, condition: 'reusable' }] }).thenThrows('QUANTITY_INVALID', {
      lineId: 'A',
      name: 'Item A',
      max: 2,
    });
  });

  it('takes only a shipped or delivered order, and an order already returned only for its own return', () => {
    const attempt = (status: ReturnedOrder['status'], returnId: string | null = null) =>
      given([]).when({
        type: 'RecordReturn',
        returnId: 'r-1',
        order: { ...order, status, returnId },
        request: request(),
      });
    attempt('unscan').thenThrows('ORDER_NOT_SHIPPED');
    attempt('cancelled').thenThrows('ORDER_NOT_SHIPPED');
    attempt('returned', 'r-other').thenThrows('ORDER_ALREADY_RETURNED');
    expect(mayReturn({ status: 'delivered', returnId: null }, 'r-1')).toBe(true);
    expect(mayReturn({ status: 'returned', returnId: 'r-1' }, 'r-1')).toBe(true);
    given([record()])
      .when({
        type: 'RecordReturn',
        returnId: 'r-1',
        order: { ...order, status: 'returned', returnId: 'r-1' },
        request: request(),
      })
      .then([]);
  });
});

describe('what goes back to stock', () => {
  it('returns reusable, mapped items to stock; nothing for a write-off or unusable items', () => {
    const mixed = record(
      'r-1',
      request({
        lines: [
          { lineId: 'A', quantity: 2, condition: 'reusable' },
          { lineId: 'B', quantity: 1, condition: 'unusable' },
          { lineId: 'C', quantity: 1, condition: 'reusable' },
        ],
      }),
    );
    expect(restockLines(mixed.data)).toEqual([
      { lineId: 'A', masterCodeId: 'mc-A', combo: false, quantity: 2 },
    ]);
    expect(restockLines(record('r-2', request({ action: 'write_off' })).data)).toEqual([]);
  });

  it('completes once, with what went back', () => {
    const recorded = record();
    given([recorded])
      .when({ type: 'CompleteReturn' })
      .then([
        {
          type: 'OrderReturnCompleted',
          data: {
            restocked: [
              { lineId: 'A', masterCodeId: 'mc-A', combo: false, quantity: 2 },
              { lineId: 'B', masterCodeId: 'mc-B', combo: true, quantity: 1 },
            ],
          },
        },
      ]);
    given([recorded, { type: 'OrderReturnCompleted', data: { restocked: [] } }])
      .when({ type: 'CompleteReturn' })
      .then([]);
    given([]).when({ type: 'CompleteReturn' }).thenThrows('RETURN_NOT_FOUND');
  });
});
