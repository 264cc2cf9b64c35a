import {
  actionProblem,
  compensationOf,
  type LineProgress,
  receiveMovements,
  returnMovements,
  shipMovements,
} from '@domain/transfers/rules';
import {
  type TransferCommand,
  type TransferEvent,
  type TransferState,
  transferDecider,
} from '@domain/transfers/transfer';
import {
  type TransferRequestCommand,
  type TransferRequestEvent,
  type TransferRequestState,
  transferRequestDecider,
} from '@domain/transfers/transfer-request';
import { specFor } from '@tests/support/decider';
import { describe, expect, it } from 'vitest';

const request = specFor<TransferRequestCommand, TransferRequestEvent, TransferRequestState>(
  transferRequestDecider,
);
const transfer = specFor<TransferCommand, TransferEvent, TransferState>(transferDecider);

const places = { fromWarehouseId: 'main', toWarehouseId: 'kl1' };
const lines = [
  { masterCodeId: 'batik', quantity: 5 },
  { masterCodeId: 'songket', quantity: 3 },
];
const created: TransferRequestEvent = {
  type: 'TransferRequestCreated',
  data: { requestId: 'r1', ...places, reference: 'REQ-1', remark: '', lines },
};

describe('transfer request', () => {
  it('is created pending with its places and lines', () => {
    request([])
      .when({
        type: 'CreateTransferRequest',
        requestId: 'r1',
        ...places,
        reference: 'REQ-1',
        remark: '',
        lines,
      })
      .then([created]);
  });

  it('refuses the same place at both ends, no lines, a quantity below 1 and a master code twice', () => {
    const make = (changes: Partial<Extract<TransferRequestCommand, { type: 'CreateTransferRequest' }>>) =>
      request([]).when({
        type: 'CreateTransferRequest',
        requestId: 'r1',
        ...places,
        reference: '',
        remark: '',
        lines,
        ...changes,
      });
    make({ toWarehouseId: 'main' }).thenThrows('SAME_BRANCH');
    make({ lines: [] }).thenThrows('LINES_REQUIRED');
    make({ lines: [{ masterCodeId: 'batik', quantity: 0 }] }).thenThrows('QUANTITY_NOT_POSITIVE');
    make({ lines: [{ masterCodeId: 'batik', quantity: -2 }] }).thenThrows('QUANTITY_NOT_POSITIVE');
    make({ lines: [{ masterCodeId: 'batik', quantity: 1.5 }] }).thenThrows('QUANTITY_NOT_POSITIVE');
    make({
      lines: [
        { masterCodeId: 'batik', quantity: 1 },
        { masterCodeId: 'batik', quantity: 2 },
      ],
    }).thenThrows('MASTER_CODE_REPEATED', { masterCodeId: 'batik' });
    make({ reference: 'x'.repeat(101) }).thenThrows('TEXT_TOO_LONG', { field: 'reference', max: 100 });
    request([created])
      .when({ type: 'CreateTransferRequest', requestId: 'r1', ...places, reference: '', remark: '', lines })
      .thenThrows('DOCUMENT_EXISTS');
  });

  it('is approved naming its transfer, rejected with a reason, or cancelled — once', () => {
    request([created])
      .when({ type: 'ApproveTransferRequest', transferId: 't1' })
      .then([{ type: 'TransferRequestApproved', data: { transferId: 't1' } }]);
    request([created])
      .when({ type: 'RejectTransferRequest', reason: ' out of stock ' })
      .then([{ type: 'TransferRequestRejected', data: { reason: 'out of stock' } }]);
    request([created])
      .when({ type: 'RejectTransferRequest', reason: '  ' })
      .thenThrows('REJECT_REASON_REQUIRED');
    request([created])
      .when({ type: 'CancelTransferRequest' })
      .then([{ type: 'TransferRequestCancelled', data: {} }]);
    const approved: TransferRequestEvent = { type: 'TransferRequestApproved', data: { transferId: 't1' } };
    request([created, approved])
      .when({ type: 'ApproveTransferRequest', transferId: 't1' })
      .thenThrows('REQUEST_NOT_PENDING', { status: 'approved' });
    request([created, { type: 'TransferRequestCancelled', data: {} }])
      .when({ type: 'RejectTransferRequest', reason: 'late' })
      .thenThrows('REQUEST_NOT_PENDING', { status: 'cancelled' });
    request([]).when({ type: 'CancelTransferRequest' }).thenThrows('DOCUMENT_NOT_FOUND');
  });
});

const made: TransferEvent = {
  type: 'TransferCreated',
  data: { transferId: 't1', requestId: null, ...places, reference: 'TRF-1', remark: '', lines },
};
const shipped: TransferEvent = { type: 'TransferShipped', data: { lines } };
const receivedPart: TransferEvent = {
  type: 'TransferReceived',
  data: { lines: [{ masterCodeId: 'batik', quantity: 2 }] },
};

describe('transfer', () => {
  it('is confirmed once, only while pending', () => {
    transfer([made])
      .when({ type: 'ConfirmTransfer' })
      .then([{ type: 'TransferConfirmed', data: {} }]);
    transfer([made, { type: 'TransferConfirmed', data: {} }])
      .when({ type: 'ConfirmTransfer' })
      .thenThrows('ALREADY_CONFIRMED');
    transfer([made, shipped])
      .when({ type: 'ConfirmTransfer' })
      .thenThrows('WRONG_STATE', { status: 'in_transit', action: 'confirm' });
  });

  it('ships every line once, only while pending', () => {
    transfer([made]).when({ type: 'RecordShipment' }).then([shipped]);
    transfer([made, shipped])
      .when({ type: 'RecordShipment' })
      .thenThrows('WRONG_STATE', { status: 'in_transit', action: 'ship' });
  });

  it('receives in parts, at most what is in transit, and completes when nothing is left', () => {
    transfer([made])
      .when({ type: 'RecordReceipt', lines: [{ masterCodeId: 'batik', quantity: 1 }] })
      .thenThrows('WRONG_STATE', { status: 'pending', action: 'receive' });
    transfer([made, shipped])
      .when({
        type: 'RecordReceipt',
        lines: [
          { masterCodeId: 'batik', quantity: 2 },
          { masterCodeId: 'songket', quantity: 0 },
        ],
      })
      .then([receivedPart]);
    transfer([made, shipped, receivedPart])
      .when({ type: 'RecordReceipt', lines: [{ masterCodeId: 'batik', quantity: 4 }] })
      .thenThrows('RECEIVE_MORE_THAN_IN_TRANSIT', { masterCodeId: 'batik', quantity: 4, inTransit: 3 });
    transfer([made, shipped])
      .when({ type: 'RecordReceipt', lines: [{ masterCodeId: 'sarung', quantity: 1 }] })
      .thenThrows('RECEIVE_UNKNOWN_LINE', { masterCodeId: 'sarung' });
    transfer([made, shipped])
      .when({ type: 'RecordReceipt', lines: [{ masterCodeId: 'batik', quantity: 0 }] })
      .thenThrows('NOTHING_TO_RECEIVE');
    const rest = [
      { masterCodeId: 'batik', quantity: 3 },
      { masterCodeId: 'songket', quantity: 3 },
    ];
    transfer([made, shipped, receivedPart])
      .when({ type: 'RecordReceipt', lines: rest })
      .then([
        { type: 'TransferReceived', data: { lines: rest } },
        { type: 'TransferCompleted', data: {} },
      ]);
  });

  it('returns the rest after a partial receipt and completes; with nothing received it must be cancelled', () => {
    transfer([made, shipped, receivedPart])
      .when({ type: 'ReturnRest' })
      .then([
        {
          type: 'TransferRestReturned',
          data: {
            lines: [
              { masterCodeId: 'batik', quantity: 3 },
              { masterCodeId: 'songket', quantity: 3 },
            ],
          },
        },
        { type: 'TransferCompleted', data: {} },
      ]);
    transfer([made, shipped]).when({ type: 'ReturnRest' }).thenThrows('NOTHING_RECEIVED');
  });

  it('cancels: before shipping nothing returns, after shipping what is in transit does', () => {
    transfer([made])
      .when({ type: 'CancelTransfer', reason: 'ordered twice' })
      .then([{ type: 'TransferCancelled', data: { reason: 'ordered twice', returnedLines: [] } }]);
    transfer([made, shipped, receivedPart])
      .when({ type: 'CancelTransfer', reason: '' })
      .then([
        {
          type: 'TransferCancelled',
          data: {
            reason: '',
            returnedLines: [
              { masterCodeId: 'batik', quantity: 3 },
              { masterCodeId: 'songket', quantity: 3 },
            ],
          },
        },
      ]);
    transfer([made, { type: 'TransferCancelled', data: { reason: '', returnedLines: [] } }])
      .when({ type: 'CancelTransfer', reason: '' })
      .thenThrows('WRONG_STATE', { status: 'cancelled', action: 'cancel' });
  });

  it('is edited while pending: new lines, destination and remark, which are what ships; nothing changed, nothing recorded', () => {
    const edit = {
      toWarehouseId: 'pj2',
      remark: 'half now',
      lines: [
        { masterCodeId: 'batik', quantity: 2 },
        { masterCodeId: 'sarung', quantity: 1 },
      ],
    };
    const edited: TransferEvent = { type: 'TransferEdited', data: edit };
    transfer([made])
      .when({ type: 'EditTransfer', ...edit })
      .then([edited]);
    transfer([made, { type: 'TransferConfirmed', data: {} }])
      .when({ type: 'EditTransfer', ...edit })
      .then([edited]);
    transfer([made, edited])
      .when({ type: 'EditTransfer', ...edit })
      .then([]);
    transfer([made, edited])
      .when({ type: 'RecordShipment' })
      .then([{ type: 'TransferShipped', data: { lines: edit.lines } }]);
    expect([made, edited].reduce(transferDecider.evolve, transferDecider.initial)).toMatchObject({
      status: 'pending',
      fromWarehouseId: 'main',
      toWarehouseId: 'pj2',
      remark: 'half now',
      lines: [
        { masterCodeId: 'batik', quantity: 2, shipped: 0 },
        { masterCodeId: 'sarung', quantity: 1, shipped: 0 },
      ],
    });
  });

  it('refuses an edit once shipped or closed, and one the document rules refuse', () => {
    const edit = { toWarehouseId: 'kl1', remark: '', lines: [{ masterCodeId: 'batik', quantity: 1 }] };
    transfer([made, shipped])
      .when({ type: 'EditTransfer', ...edit })
      .thenThrows('WRONG_STATE', { status: 'in_transit', action: 'edit' });
    transfer([made, { type: 'TransferCancelled', data: { reason: '', returnedLines: [] } }])
      .when({ type: 'EditTransfer', ...edit })
      .thenThrows('WRONG_STATE', { status: 'cancelled', action: 'edit' });
    transfer([made])
      .when({ type: 'EditTransfer', ...edit, toWarehouseId: 'main' })
      .thenThrows('SAME_BRANCH');
    transfer([made])
      .when({ type: 'EditTransfer', ...edit, lines: [] })
      .thenThrows('LINES_REQUIRED');
    transfer([])
      .when({ type: 'EditTransfer', ...edit })
      .thenThrows('DOCUMENT_NOT_FOUND');
  });

  it('folds its lines: shipped, received, returned', () => {
    const state = [made, shipped, receivedPart].reduce(transferDecider.evolve, transferDecider.initial);
    expect(state).toMatchObject({
      status: 'in_transit',
      confirmed: true,
      lines: [
        { masterCodeId: 'batik', quantity: 5, shipped: 5, received: 2, returned: 0 },
        { masterCodeId: 'songket', quantity: 3, shipped: 3, received: 0, returned: 0 },
      ],
    });
  });
});

describe('transfer steps and their compensations', () => {
  it('plans ship, receipt and return as movements at the right ends', () => {
    expect(shipMovements('main', 'kl1', [{ masterCodeId: 'batik', quantity: 5 }])).toEqual([
      {
        step: 'out',
        movement: {
          type: 'TransferStockOut',
          masterCodeId: 'batik',
          warehouseId: 'main',
          quantity: 5,
          toWarehouseId: 'kl1',
        },
      },
      {
        step: 'expect',
        movement: { type: 'ExpectStock', masterCodeId: 'batik', warehouseId: 'kl1', quantity: 5 },
      },
    ]);
    expect(receiveMovements('main', 'kl1', [{ masterCodeId: 'batik', quantity: 0 }])).toEqual([]);
    expect(
      returnMovements('main', 'kl1', [{ masterCodeId: 'batik', quantity: 2 }]).map((plan) => plan.movement),
    ).toEqual([
      {
        type: 'TransferStockIn',
        masterCodeId: 'batik',
        warehouseId: 'main',
        quantity: 2,
        fromWarehouseId: 'kl1',
        settlesIncoming: false,
      },
      { type: 'CancelExpectedStock', masterCodeId: 'batik', warehouseId: 'kl1', quantity: 2 },
    ]);
  });

  it('undoes each movement by its inverse, with what it actually did', () => {
    const at = { masterCodeId: 'batik', warehouseId: 'kl1' };
    expect(
      compensationOf(
        { type: 'TransferStockOut', ...at, quantity: 5, toWarehouseId: 'main' },
        { quantity: 5, settledIncoming: 0 },
      ),
    ).toEqual([
      { type: 'TransferStockIn', ...at, quantity: 5, fromWarehouseId: 'main', settlesIncoming: false },
    ]);
    // A receipt that settled 4 of the 5 expected: out again, and expected again as much as it settled.
    expect(
      compensationOf(
        { type: 'TransferStockIn', ...at, quantity: 5, fromWarehouseId: 'main', settlesIncoming: true },
        { quantity: 5, settledIncoming: 4 },
      ),
    ).toEqual([
      { type: 'TransferStockOut', ...at, quantity: 5, toWarehouseId: 'main' },
      { type: 'ExpectStock', ...at, quantity: 4 },
    ]);
    expect(
      compensationOf({ type: 'ExpectStock', ...at, quantity: 2 }, { quantity: 2, settledIncoming: 0 }),
    ).toEqual([{ type: 'CancelExpectedStock', ...at, quantity: 2 }]);
    // An expectation withdrawn only in part (the rest was settled elsewhere) is restored as far as it went.
    expect(
      compensationOf(
        { type: 'CancelExpectedStock', ...at, quantity: 3 },
        { quantity: 1, settledIncoming: 0 },
      ),
    ).toEqual([{ type: 'ExpectStock', ...at, quantity: 1 }]);
    expect(
      compensationOf(
        { type: 'CancelExpectedStock', ...at, quantity: 3 },
        { quantity: 0, settledIncoming: 0 },
      ),
    ).toEqual([]);
  });

  it('tells why an action cannot run now', () => {
    const line = (changes: Partial<LineProgress>): LineProgress => ({
      masterCodeId: 'batik',
      quantity: 5,
      shipped: 5,
      received: 0,
      returned: 0,
      ...changes,
    });
    const inTransit = { status: 'in_transit' as const, confirmed: true, lines: [line({})] };
    expect(actionProblem('ship', inTransit)).toEqual({
      code: 'WRONG_STATE',
      params: { status: 'in_transit', action: 'ship' },
    });
    expect(actionProblem('receive', inTransit, [{ masterCodeId: 'batik', quantity: 5 }])).toBeNull();
    expect(actionProblem('returnRest', { ...inTransit, lines: [line({ received: 5 })] })?.code).toBe(
      'NOTHING_IN_TRANSIT',
    );
    expect(actionProblem('cancel', { ...inTransit, status: 'completed' })?.code).toBe('WRONG_STATE');
  });
});
