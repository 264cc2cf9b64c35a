import { z } from 'zod';
import { type ErrorTable, refuser } from '../shared/errors';
import { ScanCode } from './codes';

/**
 * Scan to verify (spec §4, §5, §8): a picker scans an order's tracking number, which opens a check of that order,
 * then each item they pack — by the master code's code, the seller SKU or the UPC — until every unit of every line is
 * scanned; the order is then scanned (the order's own ScanOrder, which moves its stock to "in process").
 *
 * The check is the order's lock: one stream per order (`scanCheck-<tenant>.<orderId>`), so a second picker opening
 * the same order decides on the first one's check and is refused ("Already scanned and checking in progress") while
 * it is open — until it has seen no scan for CHECK_IDLE_MINUTES, so a check someone walked away from does not lock
 * the order forever; a later picker then takes it over from the start. Each opening is a round; a reset ends the
 * round and clears its progress. Time arrives in the commands (`at`), never from a clock here.
 */

export const CHECK_IDLE_MINUTES = 10;
const CHECK_IDLE_MS = CHECK_IDLE_MINUTES * 60_000;

export const CODE_MAX = 200;

/** Codes compare without surrounding spaces and case: a scanner's "abc-1" is the SKU "ABC-1". */
export const normaliseCode = (code: string) => code.trim().toLowerCase();

const Id = z.string().min(1).max(100);
const Instant = z.iso.datetime({ offset: true });

export const CheckLine = z.strictObject({
  lineId: Id,
  /** What the screen shows for the item: the master code's code, else the seller SKU. */
  code: z.string().max(CODE_MAX),
  name: z.string().max(500),
  /** Every code that counts as this item, normalised (normaliseCode). */
  codes: z.array(z.string().max(CODE_MAX)).max(10),
  required: z.number().int().min(1).max(100_000),
});
export type CheckLine = z.infer<typeof CheckLine>;

// ---- events ----

export const ScanCheckOpened = z.strictObject({
  orderId: Id,
  round: z.number().int().min(1),
  pickerId: Id,
  trackingNumber: z.string().max(100),
  batchId: Id.nullable(),
  lines: z.array(CheckLine).min(1).max(500),
  openedAt: Instant,
  /** The picker whose idle check this one took over. */
  takenOverFrom: Id.nullable(),
});
export const ScanItemScanned = z.strictObject({
  lineId: Id,
  code: z.string().max(CODE_MAX),
  at: Instant,
  /** Units counted by this scan, when more than one (bulk scan control's quantity entry). */
  quantity: z.number().int().min(2).max(100_000).optional(),
});
export const ScanCheckCompleted = z.strictObject({ at: Instant });
export const ScanCheckReset = z.strictObject({
  at: Instant,
  /** The order's scan was undone with it (reset scan of a scanned order). */
  scanUndone: z.boolean(),
});

export const scanCheckEvents = {
  ScanCheckOpened,
  ScanItemScanned,
  ScanCheckCompleted,
  ScanCheckReset,
} as const;
export type ScanCheckEventType = keyof typeof scanCheckEvents;
export type ScanCheckEvent = {
  [Type in ScanCheckEventType]: { type: Type; data: z.infer<(typeof scanCheckEvents)[Type]> };
}[ScanCheckEventType];
export const SCAN_CHECK_EVENT_TYPES = Object.keys(scanCheckEvents) as ScanCheckEventType[];

// ---- state ----

export interface CheckProgressLine extends CheckLine {
  scanned: number;
}

export type ScanCheckState =
  | { status: 'none'; round: 0 }
  | {
      /** open: being checked; completed: every unit scanned; idle: reset, nobody holds it. */
      status: 'open' | 'completed' | 'idle';
      orderId: string;
      round: number;
      pickerId: string;
      trackingNumber: string;
      batchId: string | null;
      lines: CheckProgressLine[];
      openedAt: string;
      lastActivityAt: string;
      completedAt: string | null;
    };

export const initialCheck: ScanCheckState = { status: 'none', round: 0 };

export function evolveCheck(state: ScanCheckState, event: ScanCheckEvent): ScanCheckState {
  switch (event.type) {
    case 'ScanCheckOpened': {
      const d = event.data;
      return {
        status: 'open',
        orderId: d.orderId,
        round: d.round,
        pickerId: d.pickerId,
        trackingNumber: d.trackingNumber,
        batchId: d.batchId,
        lines: d.lines.map((line) => ({ ...line, scanned: 0 })),
        openedAt: d.openedAt,
        lastActivityAt: d.openedAt,
        completedAt: null,
      };
    }
    case 'ScanItemScanned':
      if (state.status === 'none') return state;
      return {
        ...state,
        lastActivityAt: event.data.at,
        lines: state.lines.map((line) =>
          line.lineId === event.data.lineId
            ? { ...line, scanned: line.scanned + (event.data.quantity ?? 1) }
            : line,
        ),
      };
    case 'ScanCheckCompleted':
      if (state.status === 'none') return state;
      return { ...state, status: 'completed', completedAt: event.data.at, lastActivityAt: event.data.at };
    case 'ScanCheckReset':
      if (state.status === 'none') return state;
      return {
        ...state,
        status: 'idle',
        lastActivityAt: event.data.at,
        completedAt: null,
        lines: state.lines.map((line) => ({ ...line, scanned: 0 })),
      };
    default: {
      const unknown: never = event;
      throw new Error(`unknown scan check event ${(unknown as { type: string }).type}`);
    }
  }
}

/** Units scanned and required over all lines. */
export function checkTotals(lines: readonly { scanned: number; required: number }[]) {
  let scanned = 0;
  let required = 0;
  for (const line of lines) {
    scanned += line.scanned;
    required += line.required;
  }
  return { scanned, required };
}

/** An open check nobody has scanned into for CHECK_IDLE_MINUTES: another picker may take it over. */
export const isIdle = (state: { lastActivityAt: string }, at: string) =>
  Date.parse(at) - Date.parse(state.lastActivityAt) >= CHECK_IDLE_MS;

// ---- commands ----

/** Where the order is, as the check needs to know it. */
export type OrderReadiness =
  /** Waiting to be scanned. */
  | 'unscan'
  /** Scanned (or further on: processed, shipped…). */
  | 'scanned'
  /** Not to be scanned now (new without a shipment, cancelled, trash…): the order's status says which. */
  | 'not_ready';

export type ScanCheckCommand =
  | {
      type: 'OpenCheck';
      orderId: string;
      pickerId: string;
      trackingNumber: string;
      batchId: string | null;
      lines: CheckLine[];
      at: string;
      order: OrderReadiness;
      orderStatus: string;
      /** The last round's scan of the order has since been undone on the order (reset or undo scan). */
      scanUndone: boolean;
    }
  | {
      type: 'ScanItem';
      pickerId: string;
      code: string;
      at: string;
      /** Units this scan counts (1 unless the account allows quantity entry). */
      quantity?: number;
    }
  | { type: 'ResetCheck'; at: string; scanUndone: boolean };

export const SCAN_CHECK_ERRORS = [
  'ITEM_CODE_REQUIRED',
  'ITEM_CODE_INVALID',
  /** "Already scanned and checking in progress": another picker's check is open. */
  'CHECK_IN_PROGRESS',
  /** "Already scanned and checking in progress": the order is scanned already. */
  'ALREADY_SCANNED',
  'ORDER_NOT_READY',
  'NOTHING_TO_SCAN',
  'CHECK_NOT_OPEN',
  /** No order of the account has the tracking number scanned (commands/scan/check.ts). */
  'ORDER_NOT_FOUND',
  /** The tracking number's order is not in the batch being scanned (commands/scan/check.ts). */
  'NOT_IN_BATCH',
  /** The package has no smart scan module (spec §6 package flags). */
  'SMART_SCAN_OFF',
  /** Another picker's check, or undoing a scan, without "scan delete" (commands/scan/verify.ts). */
  'NOT_ALLOWED',
] as const;
export type ScanCheckErrorCode = (typeof SCAN_CHECK_ERRORS)[number];

/** How each refusal answers (`status` names the order's status; `item_code`, `tracking` what was scanned). */
export const scanCheckErrors = {
  ITEM_CODE_REQUIRED: { status: 400, code: ScanCode.itemCodeRequired, key: 'batch.scan.item_code_required' },
  ITEM_CODE_INVALID: { status: 400, code: ScanCode.itemCodeInvalid, key: 'batch.scan.item_code_invalid' },
  CHECK_IN_PROGRESS: { status: 409, code: ScanCode.checking, key: 'batch.scan.checking' },
  ALREADY_SCANNED: { status: 409, code: ScanCode.checking, key: 'batch.scan.checking' },
  ORDER_NOT_READY: { status: 409, code: ScanCode.orderNotReady, key: 'batch.scan.order_not_ready' },
  NOTHING_TO_SCAN: { status: 409, code: ScanCode.nothingToScan, key: 'batch.scan.nothing_to_scan' },
  CHECK_NOT_OPEN: { status: 409, code: ScanCode.checkNotOpen, key: 'batch.scan.check_not_open' },
  ORDER_NOT_FOUND: { status: 404, code: 404, key: 'common.no_record_found' },
  NOT_IN_BATCH: { status: 400, code: ScanCode.notInBatch, key: 'batch.scan.not_in_batch' },
  SMART_SCAN_OFF: { status: 403, code: ScanCode.smartScanOff, key: 'batch.scan.smart_scan_off' },
  NOT_ALLOWED: { status: 403, code: 403, key: 'auth.forbidden' },
} satisfies ErrorTable<ScanCheckErrorCode>;

export const refuse = refuser(scanCheckErrors);

export function decideCheck(command: ScanCheckCommand, state: ScanCheckState): ScanCheckEvent[] {
  switch (command.type) {
    case 'OpenCheck': {
      if (state.status === 'open') {
        if (state.pickerId === command.pickerId) return [];
        if (!isIdle(state, command.at)) throw refuse('CHECK_IN_PROGRESS');
      }
      if (state.status === 'completed' && !command.scanUndone) throw refuse('ALREADY_SCANNED');
      if (command.order === 'scanned') throw refuse('ALREADY_SCANNED');
      if (command.order === 'not_ready') throw refuse('ORDER_NOT_READY', { status: command.orderStatus });
      if (command.lines.length === 0) throw refuse('NOTHING_TO_SCAN');
      return [
        {
          type: 'ScanCheckOpened',
          data: {
            orderId: command.orderId,
            round: state.round + 1,
            pickerId: command.pickerId,
            trackingNumber: command.trackingNumber,
            batchId: command.batchId,
            lines: command.lines,
            openedAt: command.at,
            takenOverFrom: state.status === 'open' ? state.pickerId : null,
          },
        },
      ];
    }
    case 'ScanItem': {
      const code = normaliseCode(command.code);
      if (!code) throw refuse('ITEM_CODE_REQUIRED');
      if (state.status === 'none' || state.status === 'idle') throw refuse('CHECK_NOT_OPEN');
      if (state.status === 'completed') throw refuse('ALREADY_SCANNED');
      if (state.pickerId !== command.pickerId) throw refuse('CHECK_IN_PROGRESS');
      const quantity = command.quantity ?? 1;
      // Never more than the order still needs of the item: an over-scan is a wrong item or a miscount.
      const line = state.lines.find((l) => l.codes.includes(code) && l.scanned + quantity <= l.required);
      if (!line) throw refuse('ITEM_CODE_INVALID', { item_code: command.code.trim() });
      const scanned: ScanCheckEvent = {
        type: 'ScanItemScanned',
        data: {
          lineId: line.lineId,
          code: command.code.trim(),
          at: command.at,
          ...(quantity > 1 ? { quantity } : {}),
        },
      };
      const after = evolveCheck(state, scanned);
      if (after.status === 'none') return [scanned];
      const totals = checkTotals(after.lines);
      if (totals.scanned < totals.required) return [scanned];
      return [scanned, { type: 'ScanCheckCompleted', data: { at: command.at } }];
    }
    case 'ResetCheck':
      if (state.status === 'none' || state.status === 'idle') return [];
      return [{ type: 'ScanCheckReset', data: { at: command.at, scanUndone: command.scanUndone } }];
    default: {
      const unknown: never = command;
      throw new Error(`unknown scan check command ${(unknown as { type: string }).type}`);
    }
  }
}

export const scanCheckDecider = { initial: initialCheck, evolve: evolveCheck, decide: decideCheck };

// ---- stream ----

export const SCAN_CHECK_CATEGORY = 'scanCheck';

/** `scanCheck-<tenant>.<orderId>`: the check's id is the order's, which is what makes it the order's lock. */
export const scanCheckStreamId = (tenantId: string, orderId: string) =>
  `${SCAN_CHECK_CATEGORY}-${tenantId}.${orderId}`;
