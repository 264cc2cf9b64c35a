import {
  type CheckLine,
  type ScanCheckCommand,
  type ScanCheckEvent,
  type ScanCheckState,
  scanCheckDecider,
} from '@domain/scan/check';
import { specFor } from '@tests/support/decider';
import { describe, it } from 'vitest';

const check = specFor<ScanCheckCommand, ScanCheckEvent, ScanCheckState>(scanCheckDecider);

const T0 = '2026-11-22T09:00:00.000Z';
const at = (minutes: number) => new Date(Date.parse(T0) + minutes * 60_000).toISOString();

const lines: CheckLine[] = [
  {
    lineId: 'l1',
    code: 'BATIK',
    name: 'Batik sarong',
    codes: ['batik', 'btk-red', '9556789012345'],
    required: 2,
  },
  { lineId: 'l2', code: 'KOPI', name: 'Kopi 250g', codes: ['kopi'], required: 1 },
];

const open = (pickerId: string, minutes = 0, extra: Partial<ScanCheckCommand> = {}): ScanCheckCommand =>
  ({
    type: 'OpenCheck',
    orderId: 'o1',
    pickerId,
    trackingNumber: 'MY123',
    batchId: null,
    lines,
    at: at(minutes),
    order: 'unscan',
    orderStatus: 'unscan',
    scanUndone: false,
    ...extra,
  }) as ScanCheckCommand;

const opened = (
  pickerId: string,
  round = 1,
  minutes = 0,
  takenOverFrom: string | null = null,
): ScanCheckEvent => ({
  type: 'ScanCheckOpened',
  data: {
    orderId: 'o1',
    round,
    pickerId,
    trackingNumber: 'MY123',
    batchId: null,
    lines,
    openedAt: at(minutes),
    takenOverFrom,
  },
});
const scanned = (lineId: string, code: string, minutes: number): ScanCheckEvent => ({
  type: 'ScanItemScanned',
  data: { lineId, code, at: at(minutes) },
});
const item = (pickerId: string, code: string, minutes: number): ScanCheckCommand => ({
  type: 'ScanItem',
  pickerId,
  code,
  at: at(minutes),
});

describe('scan check', () => {
  it('opens for the first picker; the same picker scanning the tracking number again keeps their check', () => {
    check([])
      .when(open('siti'))
      .then([opened('siti')]);
    check([opened('siti')])
      .when(open('siti', 3))
      .then([]);
  });

  it('refuses a second picker while the check is open ("Already scanned and checking in progress")', () => {
    check([opened('siti')])
      .when(open('ahmad', 1))
      .thenThrows('CHECK_IN_PROGRESS');
    check([opened('siti'), scanned('l1', 'BATIK', 8)])
      .when(open('ahmad', 17))
      .thenThrows('CHECK_IN_PROGRESS');
  });

  it('lets another picker take over a check nobody scanned into for 10 minutes, from the start', () => {
    check([opened('siti'), scanned('l1', 'BATIK', 2)])
      .when(open('ahmad', 12))
      .then([opened('ahmad', 2, 12, 'siti')]);
  });

  it('refuses an order already scanned, and one that is not to be scanned now', () => {
    check([])
      .when(open('siti', 0, { order: 'scanned', orderStatus: 'scanned' }))
      .thenThrows('ALREADY_SCANNED');
    check([])
      .when(open('siti', 0, { order: 'not_ready', orderStatus: 'new' }))
      .thenThrows('ORDER_NOT_READY', {
        status: 'new',
      });
    check([])
      .when(open('siti', 0, { lines: [] }))
      .thenThrows('NOTHING_TO_SCAN');
  });

  it('counts items by master code, seller SKU or UPC, whatever the case; completes on the last unit', () => {
    check([opened('siti')])
      .when(item('siti', ' btk-RED ', 1))
      .then([scanned('l1', 'btk-RED', 1)]);
    check([opened('siti'), scanned('l1', 'BATIK', 1), scanned('l1', '9556789012345', 2)])
      .when(item('siti', 'KOPI', 3))
      .then([scanned('l2', 'KOPI', 3), { type: 'ScanCheckCompleted', data: { at: at(3) } }]);
  });

  it('refuses an empty code ("Item Code is required"), a code not on the order or past its quantity', () => {
    check([opened('siti')])
      .when(item('siti', '   ', 1))
      .thenThrows('ITEM_CODE_REQUIRED');
    check([opened('siti')])
      .when(item('siti', 'SONGKET', 1))
      .thenThrows('ITEM_CODE_INVALID', {
        item_code: 'SONGKET',
      });
    check([opened('siti'), scanned('l2', 'KOPI', 1)])
      .when(item('siti', 'kopi', 2))
      .thenThrows('ITEM_CODE_INVALID', { item_code: 'kopi' });
  });

  it('counts a quantity scanned at once (bulk scan control), never beyond what the line still needs', () => {
    const scannedTwo: ScanCheckEvent = {
      type: 'ScanItemScanned',
      data: { lineId: 'l1', code: 'BATIK', at: at(1), quantity: 2 },
    };
    check([opened('siti')])
      .when({ ...item('siti', 'BATIK', 1), quantity: 2 } as ScanCheckCommand)
      .then([scannedTwo]);
    check([opened('siti'), scanned('l1', 'BATIK', 1)])
      .when({ ...item('siti', 'BATIK', 2), quantity: 2 } as ScanCheckCommand)
      .thenThrows('ITEM_CODE_INVALID', { item_code: 'BATIK' });
    check([opened('siti'), scannedTwo])
      .when(item('siti', 'KOPI', 2))
      .then([scanned('l2', 'KOPI', 2), { type: 'ScanCheckCompleted', data: { at: at(2) } }]);
  });

  it("refuses scans into another picker's check, without one, and after it completed", () => {
    check([opened('siti')])
      .when(item('ahmad', 'KOPI', 1))
      .thenThrows('CHECK_IN_PROGRESS');
    check([])
      .when(item('siti', 'KOPI', 1))
      .thenThrows('CHECK_NOT_OPEN');
    const done = [
      opened('siti'),
      scanned('l1', 'BATIK', 1),
      scanned('l1', 'BATIK', 1),
      scanned('l2', 'KOPI', 1),
      { type: 'ScanCheckCompleted', data: { at: at(1) } } as ScanCheckEvent,
    ];
    check(done)
      .when(item('siti', 'KOPI', 2))
      .thenThrows('ALREADY_SCANNED');
    check(done).when(open('ahmad', 30)).thenThrows('ALREADY_SCANNED');
    check(done)
      .when(open('ahmad', 30, { scanUndone: true }))
      .then([opened('ahmad', 2, 30)]);
  });

  it('resets: progress cleared, nobody holds it, the next opening is a new round', () => {
    const reset: ScanCheckEvent = { type: 'ScanCheckReset', data: { at: at(4), scanUndone: false } };
    check([opened('siti'), scanned('l1', 'BATIK', 1)])
      .when({ type: 'ResetCheck', at: at(4), scanUndone: false })
      .then([reset]);
    check([opened('siti'), scanned('l1', 'BATIK', 1), reset])
      .when(open('ahmad', 5))
      .then([opened('ahmad', 2, 5)]);
    check([opened('siti'), reset])
      .when({ type: 'ResetCheck', at: at(6), scanUndone: false })
      .then([]);
    check([opened('siti'), reset])
      .when(item('siti', 'KOPI', 6))
      .thenThrows('CHECK_NOT_OPEN');
  });
});
