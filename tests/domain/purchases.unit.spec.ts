import { moveQuantity, NO_COST, receiveAtCost } from '@domain/purchases/average-cost';
import {
  type GoodsReceiptCommand,
  type GoodsReceiptEvent,
  type GoodsReceiptState,
  goodsReceiptDecider,
  goodsReceiptEvents,
} from '@domain/purchases/goods-receipt';
import { divideRounded, fromUnits, shownAmount, toUnits } from '@domain/purchases/money';
import {
  netUnitCost,
  type PurchaseCommand,
  type PurchaseEvent,
  type PurchaseState,
  purchaseDecider,
  purchaseEvents,
} from '@domain/purchases/purchase';
import { specFor } from '@tests/support/decider';
import { describe, expect, it } from 'vitest';

const given = specFor<PurchaseCommand, PurchaseEvent, PurchaseState>(purchaseDecider);
const givenNote = specFor<GoodsReceiptCommand, GoodsReceiptEvent, GoodsReceiptState>(goodsReceiptDecider);

const creator = 'user-creator';
const other = 'user-other';
const lines = [
  { masterCodeId: 'mc-a', quantity: 10, unitCost: '5.0000' },
  { masterCodeId: 'mc-b', quantity: 4, unitCost: '12.5000' },
];
const created: PurchaseEvent = {
  type: 'PurchaseCreated',
  data: {
    purchaseId: 'po-1',
    poNumber: 'PO-000001',
    reference: 'REF',
    date: '2026-03-01',
    supplierId: 'sup-1',
    warehouseId: 'wh-1',
    lines,
    discount: '10.0000',
    estimatedArrival: '2026-03-10',
    note: '',
    createdBy: creator,
  },
};
const ordered: PurchaseEvent = { type: 'PurchaseOrdered', data: { by: creator } };
const opened = (
  id: string,
  receipt: { masterCodeId: string; received: number; damaged?: number; returned?: number }[],
): PurchaseEvent => ({
  type: 'PurchaseReceiptOpened',
  data: {
    goodsReceiptId: id,
    grnNumber: `GRN-${id}`,
    lines: receipt.map((line) => ({ damaged: 0, returned: 0, ...line })),
  },
});
const receivedEvent = (
  id: string,
  receipt: { masterCodeId: string; received: number; unitCost: string }[],
): PurchaseEvent => ({
  type: 'PurchaseGoodsReceived',
  data: {
    goodsReceiptId: id,
    warehouseId: 'wh-1',
    lines: receipt.map((line) => ({ damaged: 0, returned: 0, ...line })),
  },
});

describe('purchase order', () => {
  it('is created as a draft (pending) with its lines', () => {
    const {
      purchaseId,
      poNumber,
      reference,
      date,
      supplierId,
      warehouseId,
      discount,
      estimatedArrival,
      note,
    } = (created as Extract<PurchaseEvent, { type: 'PurchaseCreated' }>).data;
    given([])
      .when({
        type: 'CreatePurchase',
        purchaseId,
        poNumber,
        reference,
        date,
        supplierId,
        warehouseId,
        lines,
        discount,
        estimatedArrival,
        note,
        by: creator,
      })
      .then([created]);
    expect(purchaseDecider.evolve(purchaseDecider.initial, created).status).toBe('pending');
  });

  it('refuses a line with no quantity, a repeated item, a discount over the subtotal and an arrival before the date', () => {
    const base = {
      type: 'CreatePurchase' as const,
      purchaseId: 'po-2',
      poNumber: 'PO-000002',
      reference: '',
      date: '2026-03-01',
      supplierId: 'sup-1',
      warehouseId: 'wh-1',
      discount: '0.0000',
      estimatedArrival: null,
      note: '',
      by: creator,
    };
    given([])
      .when({ ...base, lines: [] })
      .thenThrows('ITEMS_REQUIRED');
    given([])
      .when({ ...base, lines: [{ masterCodeId: 'mc-a', quantity: 0, unitCost: '1.0000' }] })
      .thenThrows('QUANTITY_NOT_POSITIVE');
    given([])
      .when({ ...base, lines: [lines[0]!, lines[0]!] })
      .thenThrows('ITEM_REPEATED');
    given([])
      .when({ ...base, lines, discount: '100.0001' })
      .thenThrows('DISCOUNT_TOO_LARGE');
    given([])
      .when({ ...base, lines, estimatedArrival: '2026-02-28' })
      .thenThrows('ARRIVAL_BEFORE_DATE');
    given([created])
      .when({ ...base, lines })
      .thenThrows('PURCHASE_EXISTS');
  });

  it('is placed as ordered, or as pending approval when the tenant requires it', () => {
    given([created]).when({ type: 'PlacePurchase', by: creator, approvalRequired: false }).then([ordered]);
    given([created])
      .when({ type: 'PlacePurchase', by: creator, approvalRequired: true })
      .then([{ type: 'PurchaseApprovalRequested', data: { by: creator } }]);
    given([created, ordered])
      .when({ type: 'PlacePurchase', by: creator, approvalRequired: false })
      .thenThrows('WRONG_STATE', { status: 'ordered', action: 'place' });
  });

  it('is approved by another user or the owner, never by its creator alone; rejecting sends it back to pending', () => {
    const waiting: PurchaseEvent = { type: 'PurchaseApprovalRequested', data: { by: creator } };
    given([created, waiting])
      .when({ type: 'ApprovePurchase', by: creator, byOwner: false })
      .thenThrows('APPROVER_IS_CREATOR');
    given([created, waiting])
      .when({ type: 'ApprovePurchase', by: creator, byOwner: true })
      .then([{ type: 'PurchaseApproved', data: { by: creator } }]);
    given([created, waiting])
      .when({ type: 'ApprovePurchase', by: other, byOwner: false })
      .then([{ type: 'PurchaseApproved', data: { by: other } }]);
    const rejected: PurchaseEvent = { type: 'PurchaseRejected', data: { by: other, reason: 'too dear' } };
    given([created, waiting])
      .when({ type: 'RejectPurchase', by: other, byOwner: false, reason: 'too dear' })
      .then([rejected]);
    const state = [created, waiting, rejected].reduce(purchaseDecider.evolve, purchaseDecider.initial);
    expect(state.status === 'pending' && state.rejectReason).toBe('too dear');
  });

  it('reserves a note within what is outstanding, counting other open notes', () => {
    given([created, ordered])
      .when({
        type: 'OpenReceipt',
        goodsReceiptId: 'g1',
        grnNumber: 'GRN-g1',
        lines: [{ masterCodeId: 'mc-a', received: 6, damaged: 1, returned: 1 }],
      })
      .then([opened('g1', [{ masterCodeId: 'mc-a', received: 6, damaged: 1, returned: 1 }])]);
    given([created, ordered, opened('g1', [{ masterCodeId: 'mc-a', received: 7 }])])
      .when({
        type: 'OpenReceipt',
        goodsReceiptId: 'g2',
        grnNumber: 'GRN-g2',
        lines: [{ masterCodeId: 'mc-a', received: 4, damaged: 0, returned: 0 }],
      })
      .thenThrows('RECEIVE_MORE_THAN_OUTSTANDING', { masterCodeId: 'mc-a', outstanding: 3, quantity: 4 });
    given([created, ordered])
      .when({
        type: 'OpenReceipt',
        goodsReceiptId: 'g1',
        grnNumber: 'GRN-g1',
        lines: [{ masterCodeId: 'mc-zzz', received: 1, damaged: 0, returned: 0 }],
      })
      .thenThrows('NOT_ON_PURCHASE');
    given([created, ordered])
      .when({
        type: 'OpenReceipt',
        goodsReceiptId: 'g1',
        grnNumber: 'GRN-g1',
        lines: [{ masterCodeId: 'mc-a', received: 2, damaged: 3, returned: 0 }],
      })
      .thenThrows('DAMAGED_MORE_THAN_RECEIVED');
    given([created, ordered])
      .when({
        type: 'OpenReceipt',
        goodsReceiptId: 'g1',
        grnNumber: 'GRN-g1',
        lines: [{ masterCodeId: 'mc-a', received: 0, damaged: 0, returned: 0 }],
      })
      .thenThrows('RECEIPT_LINE_EMPTY');
    given([created])
      .when({
        type: 'OpenReceipt',
        goodsReceiptId: 'g1',
        grnNumber: 'GRN-g1',
        lines: [{ masterCodeId: 'mc-a', received: 1, damaged: 0, returned: 0 }],
      })
      .thenThrows('WRONG_STATE', { status: 'pending', action: 'receive' });
  });

  it('records a receipt at costs net of the discount share, and becomes partial, then received', () => {
    // Subtotal 50 + 50 = 100; a discount of 10 takes 5 off each line: mc-a 45/10 = 4.5, mc-b 45/4 = 11.25.
    expect(netUnitCost(lines, '10.0000', 'mc-a')).toBe('4.5000');
    expect(netUnitCost(lines, '10.0000', 'mc-b')).toBe('11.2500');
    const open = opened('g1', [{ masterCodeId: 'mc-a', received: 10 }]);
    given([created, ordered, open])
      .when({ type: 'SettleReceipt', goodsReceiptId: 'g1' })
      .then([receivedEvent('g1', [{ masterCodeId: 'mc-a', received: 10, unitCost: '4.5000' }])]);
    const partial = [
      created,
      ordered,
      open,
      receivedEvent('g1', [{ masterCodeId: 'mc-a', received: 10, unitCost: '4.5000' }]),
    ];
    expect(partial.reduce(purchaseDecider.evolve, purchaseDecider.initial).status).toBe('partial');
    const rest = [
      opened('g2', [{ masterCodeId: 'mc-b', received: 4 }]),
      receivedEvent('g2', [{ masterCodeId: 'mc-b', received: 4, unitCost: '11.2500' }]),
    ];
    expect([...partial, ...rest].reduce(purchaseDecider.evolve, purchaseDecider.initial).status).toBe(
      'received',
    );
    given(partial).when({ type: 'SettleReceipt', goodsReceiptId: 'g1' }).thenThrows('RECEIPT_NOT_OPEN');
  });

  it('cancels only before anything is received and no note is open; the expected rest is named', () => {
    given([created, ordered])
      .when({ type: 'CancelPurchase', by: creator, reason: '' })
      .then([
        {
          type: 'PurchaseCancelled',
          data: {
            by: creator,
            reason: '',
            outstanding: [
              { masterCodeId: 'mc-a', quantity: 10 },
              { masterCodeId: 'mc-b', quantity: 4 },
            ],
          },
        },
      ]);
    // A draft never expected anything.
    given([created])
      .when({ type: 'CancelPurchase', by: creator, reason: '' })
      .then([{ type: 'PurchaseCancelled', data: { by: creator, reason: '', outstanding: [] } }]);
    given([created, ordered, opened('g1', [{ masterCodeId: 'mc-a', received: 1 }])])
      .when({ type: 'CancelPurchase', by: creator, reason: '' })
      .thenThrows('RECEIPT_OPEN', { grnNumber: 'GRN-g1' });
    const partial = [
      created,
      ordered,
      opened('g1', [{ masterCodeId: 'mc-a', received: 3 }]),
      receivedEvent('g1', [{ masterCodeId: 'mc-a', received: 3, unitCost: '4.5000' }]),
    ];
    given(partial).when({ type: 'CancelPurchase', by: creator, reason: '' }).thenThrows('WRONG_STATE');
    // Void annuls a partial order: the rest stops being expected.
    given(partial)
      .when({ type: 'VoidPurchase', by: creator, reason: 'late' })
      .then([
        {
          type: 'PurchaseVoided',
          data: {
            by: creator,
            reason: 'late',
            outstanding: [
              { masterCodeId: 'mc-a', quantity: 7 },
              { masterCodeId: 'mc-b', quantity: 4 },
            ],
          },
        },
      ]);
  });

  it('returns at most what was received and not damaged or returned yet', () => {
    const partial = [
      created,
      ordered,
      opened('g1', [{ masterCodeId: 'mc-a', received: 3, damaged: 1 }]),
      {
        type: 'PurchaseGoodsReceived',
        data: {
          goodsReceiptId: 'g1',
          warehouseId: 'wh-1',
          lines: [{ masterCodeId: 'mc-a', received: 3, damaged: 1, returned: 0, unitCost: '4.5000' }],
        },
      } satisfies PurchaseEvent,
    ];
    given(partial)
      .when({
        type: 'ReturnPurchase',
        by: creator,
        reason: '',
        lines: [{ masterCodeId: 'mc-a', quantity: 3 }],
      })
      .thenThrows('RETURN_MORE_THAN_RECEIVED', { masterCodeId: 'mc-a', returnable: 2, quantity: 3 });
    given(partial)
      .when({
        type: 'ReturnPurchase',
        by: creator,
        reason: 'wrong colour',
        lines: [{ masterCodeId: 'mc-a', quantity: 2 }],
      })
      .then([
        {
          type: 'PurchaseReturned',
          data: {
            by: creator,
            reason: 'wrong colour',
            lines: [{ masterCodeId: 'mc-a', quantity: 2 }],
            outstanding: [
              { masterCodeId: 'mc-a', quantity: 7 },
              { masterCodeId: 'mc-b', quantity: 4 },
            ],
          },
        },
      ]);
  });

  it('states every event it records with a schema', () => {
    expect(purchaseEvents.PurchaseCreated.safeParse(created.data).success).toBe(true);
    expect(purchaseEvents.PurchaseCreated.safeParse({ ...created.data, extra: 1 }).success).toBe(false);
  });
});

const noteCreated = (approvalRequired: boolean): GoodsReceiptEvent => ({
  type: 'GoodsReceiptCreated',
  data: {
    goodsReceiptId: 'g1',
    grnNumber: 'GRN-000001',
    purchaseId: 'po-1',
    poNumber: 'PO-000001',
    supplierId: 'sup-1',
    warehouseId: 'wh-1',
    reference: '',
    note: '',
    lines: [{ masterCodeId: 'mc-a', received: 5, damaged: 1, returned: 1 }],
    approvalRequired,
    createdBy: creator,
  },
});

describe('goods receive note', () => {
  const completedLines = [{ masterCodeId: 'mc-a', received: 5, damaged: 1, returned: 1, unitCost: '4.5000' }];
  const completed = (): GoodsReceiptEvent => ({
    type: 'GoodsReceiptCompleted',
    data: { by: other, lines: completedLines },
  });
  const fold = (events: GoodsReceiptEvent[]) =>
    events.reduce(goodsReceiptDecider.evolve, goodsReceiptDecider.initial);

  it('starts as 1 Pending, or 4 Waiting Approve when approval is required', () => {
    expect(fold([noteCreated(false)]).status).toBe(1);
    expect(fold([noteCreated(true)]).status).toBe(4);
  });

  it('goes Waiting Approve → Waiting Receive → Complete; its creator cannot approve it unless the owner', () => {
    givenNote([noteCreated(true)])
      .when({ type: 'ApproveGoodsReceipt', by: creator, byOwner: false })
      .thenThrows('APPROVER_IS_CREATOR');
    givenNote([noteCreated(true)])
      .when({ type: 'CompleteGoodsReceipt', by: other, lines: [] })
      .thenThrows('APPROVAL_REQUIRED');
    const approved: GoodsReceiptEvent = { type: 'GoodsReceiptApproved', data: { by: other } };
    givenNote([noteCreated(true)])
      .when({ type: 'ApproveGoodsReceipt', by: other, byOwner: false })
      .then([approved]);
    expect(fold([noteCreated(true), approved]).status).toBe(5);
    givenNote([noteCreated(true), approved])
      .when({ type: 'ApproveGoodsReceipt', by: other, byOwner: false })
      .thenThrows('WRONG_STATE', { status: 'Waiting Receive', action: 'approve' });
    const done = completed();
    givenNote([noteCreated(true), approved])
      .when({ type: 'CompleteGoodsReceipt', by: other, lines: completedLines })
      .then([done]);
    expect(fold([noteCreated(true), approved, done]).status).toBe(2);
  });

  it('is rejected (6) or cancelled (3) before it completes, never after', () => {
    givenNote([noteCreated(true)])
      .when({ type: 'RejectGoodsReceipt', by: other, byOwner: false, reason: 'count again' })
      .then([{ type: 'GoodsReceiptRejected', data: { by: other, reason: 'count again' } }]);
    givenNote([noteCreated(false)])
      .when({ type: 'CancelGoodsReceipt', by: creator, reason: '' })
      .then([{ type: 'GoodsReceiptCancelled', data: { by: creator, reason: '' } }]);
    givenNote([noteCreated(false), completed()])
      .when({ type: 'CancelGoodsReceipt', by: creator, reason: '' })
      .thenThrows('WRONG_STATE', { status: 'Complete', action: 'cancel' });
    expect(goodsReceiptEvents.GoodsReceiptCreated.safeParse(noteCreated(false).data).success).toBe(true);
  });
});

describe('moving average cost', () => {
  it('blends a receipt into what is held and keeps the average through other movements', () => {
    const first = receiveAtCost(NO_COST, 10, '4.5000');
    expect(first).toEqual({ onHand: 10, average: '4.5000' });
    const sold = moveQuantity(first, -4);
    expect(sold).toEqual({ onHand: 6, average: '4.5000' });
    // 6 × 4.5 + 3 × 6 = 45 over 9 units = 5.
    expect(receiveAtCost(sold, 3, '6.0000')).toEqual({ onHand: 9, average: '5.0000' });
    // Oversold stock counts as none held: the receipt sets the average.
    expect(receiveAtCost({ onHand: -2, average: '9.0000' }, 4, '3.0000')).toEqual({
      onHand: 2,
      average: '3.0000',
    });
  });

  it('rounds half up to four places', () => {
    // 1 × 1 + 2 × 2 = 5 over 3 = 1.66666… → 1.6667.
    expect(receiveAtCost(receiveAtCost(NO_COST, 1, '1'), 2, '2').average).toBe('1.6667');
    expect(fromUnits(divideRounded(toUnits('1'), 8n))).toBe('0.1250');
    expect(fromUnits(toUnits('12.5'))).toBe('12.5000');
  });

  it('shows an amount to people by one rule: half up to two places, thousands grouped', () => {
    // The purchase PDF rounded through floating point and the order documents cut the third decimal off.
    expect(shownAmount('1234.5650')).toBe('1,234.57');
    expect(shownAmount('0.0050')).toBe('0.01');
    expect(shownAmount('19.999')).toBe('20.00');
    expect(shownAmount('-3.125')).toBe('-3.13');
    expect(shownAmount('-0.001')).toBe('0.00');
    expect(shownAmount('1000000')).toBe('1,000,000.00');
    expect(shownAmount('7.5')).toBe('7.50');
  });
});
