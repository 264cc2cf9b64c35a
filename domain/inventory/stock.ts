import { z } from 'zod';
import { type ErrorTable, refuser } from '../shared/errors';
import { TEXT_LIMITS } from '../shared/limits';
import { StockCode } from './codes';

/**
 * The stock of one master code in one warehouse: one stream per pair, every movement an event. Each event carries
 * the signed change to the quantity on hand and every figure after it, so the movement ledger and the stock at any
 * past instant are read straight from the log, and the state of a stream is its last event.
 *
 * The figures (spec §3 "Stock figures"):
 * - on hand: what is on the shelves;
 * - reserved: held by accepted orders not yet being worked on; in process: held by orders being picked and packed;
 * - on hold, Smart POS on hold, supplier on hold: set aside by the seller, by parked POS sales, for a supplier;
 * - incoming: expected here, ordered from a supplier or in transit from another warehouse;
 * - available (online) = on hand − reserved − in process − the three holds: what the channels may sell.
 * Marketplaces may oversell (available below zero is recorded and flagged); a manual deduction may be refused from
 * going below zero by the tenant's setting, which arrives with the command.
 */

// ---- events ----

const Quantity = z.number().int().min(1).max(1_000_000_000);
const Text = z.string().max(TEXT_LIMITS.reason);

/** The document behind a movement: an adjustment, an order, a transfer, a purchase receipt… */
export const SourceDocument = z.strictObject({
  type: z.string().min(1).max(40),
  id: z.string().min(1).max(100),
});
export type SourceDocument = z.infer<typeof SourceDocument>;

export const HOLD_KINDS = ['online', 'pos', 'supplier'] as const;
export type HoldKind = (typeof HOLD_KINDS)[number];

const Figure = z.number().int();
const Movement = {
  masterCodeId: z.string().min(1).max(100),
  warehouseId: z.string().min(1).max(100),
  /** Signed change to the quantity on hand (0 for reservations, holds and expected stock). */
  change: z.number().int(),
  onHand: Figure,
  reserved: Figure,
  inProcess: Figure,
  onHold: Figure,
  posOnHold: Figure,
  supplierOnHold: Figure,
  incoming: Figure,
  reason: Text.optional(),
  source: SourceDocument.optional(),
};

export const StockReceived = z.strictObject({
  ...Movement,
  quantity: Quantity,
  /** How much of the incoming figure this receipt settled (a purchase or transfer that was expected). */
  settledIncoming: z.number().int().min(0).optional(),
  /**
   * What each unit cost, when the receipt brings its own cost rather than a purchase's (a new master code's opening
   * stock at the master code's cost): the average cost blends it in (projections/average-cost.ts).
   */
  unitCost: z
    .string()
    .regex(/^\d{1,14}\.\d{4}$/)
    .optional(),
});
export const StockAdjusted = z.strictObject({
  ...Movement,
  mode: z.enum(['add', 'deduct', 'set']),
  /** What the user entered: units to add or deduct, or the counted quantity for `set`. */
  quantity: z.number().int().min(0).max(1_000_000_000),
});
export const StockReserved = z.strictObject({ ...Movement, quantity: Quantity });
export const StockReleased = z.strictObject({ ...Movement, quantity: Quantity });
export const StockProcessingStarted = z.strictObject({ ...Movement, quantity: Quantity });
export const StockProcessingStopped = z.strictObject({ ...Movement, quantity: Quantity });
export const StockShipped = z.strictObject({
  ...Movement,
  quantity: Quantity,
  from: z.enum(['reserved', 'inProcess', 'free']),
});
export const StockReturned = z.strictObject({ ...Movement, quantity: Quantity });
export const StockTransferredOut = z.strictObject({
  ...Movement,
  quantity: Quantity,
  toWarehouseId: z.string().min(1).max(100),
});
export const StockTransferredIn = z.strictObject({
  ...Movement,
  quantity: Quantity,
  fromWarehouseId: z.string().min(1).max(100),
  settledIncoming: z.number().int().min(0).optional(),
});
export const StockWrittenOff = z.strictObject({ ...Movement, quantity: Quantity });
export const StockHeld = z.strictObject({ ...Movement, quantity: Quantity, hold: z.enum(HOLD_KINDS) });
export const StockHoldReleased = z.strictObject({
  ...Movement,
  quantity: Quantity,
  hold: z.enum(HOLD_KINDS),
});
export const StockIncomingExpected = z.strictObject({ ...Movement, quantity: Quantity });
export const StockIncomingCancelled = z.strictObject({ ...Movement, quantity: Quantity });

export const stockEvents = {
  StockReceived,
  StockAdjusted,
  StockReserved,
  StockReleased,
  StockProcessingStarted,
  StockProcessingStopped,
  StockShipped,
  StockReturned,
  StockTransferredOut,
  StockTransferredIn,
  StockWrittenOff,
  StockHeld,
  StockHoldReleased,
  StockIncomingExpected,
  StockIncomingCancelled,
} as const;

export type StockEventType = keyof typeof stockEvents;
export type StockEvent = {
  [Type in StockEventType]: { type: Type; data: z.infer<(typeof stockEvents)[Type]> };
}[StockEventType];
export const STOCK_EVENT_TYPES = Object.keys(stockEvents) as StockEventType[];

// ---- state ----

export interface StockState {
  onHand: number;
  reserved: number;
  inProcess: number;
  onHold: number;
  posOnHold: number;
  supplierOnHold: number;
  incoming: number;
}

export const STOCK_FIGURES = [
  'onHand',
  'reserved',
  'inProcess',
  'onHold',
  'posOnHold',
  'supplierOnHold',
  'incoming',
] as const satisfies readonly (keyof StockState)[];

export const initialState: StockState = {
  onHand: 0,
  reserved: 0,
  inProcess: 0,
  onHold: 0,
  posOnHold: 0,
  supplierOnHold: 0,
  incoming: 0,
};

/** What the channels may sell: on hand less everything orders and holds keep. */
export const available = (state: StockState) =>
  state.onHand - state.reserved - state.inProcess - state.onHold - state.posOnHold - state.supplierOnHold;

/** The figures an event (or a ledger row) states. */
export function figuresOf(data: StockState): StockState {
  return {
    onHand: data.onHand,
    reserved: data.reserved,
    inProcess: data.inProcess,
    onHold: data.onHold,
    posOnHold: data.posOnHold,
    supplierOnHold: data.supplierOnHold,
    incoming: data.incoming,
  };
}

/** Every event states the figures after it, so evolving is taking them. */
export function evolve(_state: StockState, event: StockEvent): StockState {
  return figuresOf(event.data);
}

const HOLD_FIGURE: Record<HoldKind, 'onHold' | 'posOnHold' | 'supplierOnHold'> = {
  online: 'onHold',
  pos: 'posOnHold',
  supplier: 'supplierOnHold',
};

// ---- commands ----

interface Target {
  masterCodeId: string;
  warehouseId: string;
  reason?: string;
  source?: SourceDocument;
}

export type StockCommand =
  | ({
      type: 'ReceiveStock';
      quantity: number;
      /** The receipt was expected (a purchase order): it settles the incoming figure, as far as it goes. */
      settlesIncoming?: boolean;
      /** Four-place cost of each unit, for a receipt that carries its own (StockReceived.unitCost). */
      unitCost?: string;
    } & Target)
  | ({
      type: 'AdjustStock';
      mode: 'add' | 'deduct' | 'set';
      quantity: number;
      /** The tenant's setting: a manual deduction may not take on-hand stock below zero. */
      refuseNegative: boolean;
    } & Target)
  | ({ type: 'ReserveStock'; quantity: number } & Target)
  | ({ type: 'ReleaseStock'; quantity: number } & Target)
  | ({ type: 'StartProcessing'; quantity: number } & Target)
  | ({ type: 'StopProcessing'; quantity: number } & Target)
  | ({ type: 'ShipStock'; quantity: number; from: 'reserved' | 'inProcess' | 'free' } & Target)
  | ({ type: 'ReturnStock'; quantity: number } & Target)
  | ({ type: 'TransferStockOut'; quantity: number; toWarehouseId: string } & Target)
  | ({
      type: 'TransferStockIn';
      quantity: number;
      fromWarehouseId: string;
      /** The transfer was announced to this warehouse as incoming: receiving it settles that. */
      settlesIncoming?: boolean;
    } & Target)
  | ({ type: 'WriteOffStock'; quantity: number; refuseNegative: boolean } & Target)
  | ({ type: 'HoldStock'; quantity: number; hold: HoldKind } & Target)
  | ({ type: 'ReleaseHold'; quantity: number; hold: HoldKind } & Target)
  | ({ type: 'ExpectStock'; quantity: number } & Target)
  | ({ type: 'CancelExpectedStock'; quantity: number } & Target);

// ---- decide ----

export const STOCK_ERRORS = [
  'QUANTITY_NOT_POSITIVE',
  'QUANTITY_NEGATIVE',
  'NEGATIVE_STOCK',
  'RELEASE_MORE_THAN_RESERVED',
  'RELEASE_MORE_THAN_HELD',
  'STOP_MORE_THAN_IN_PROCESS',
  'CANCEL_MORE_THAN_INCOMING',
  'SAME_WAREHOUSE',
] as const;
export type StockErrorCode = (typeof STOCK_ERRORS)[number];

const MAX = 1_000_000_000;

/** How each refusal answers (the catalogue's codes: ./codes.ts). */
export const stockErrors = {
  QUANTITY_NOT_POSITIVE: { status: 400, code: StockCode.quantityInvalid, key: 'stock.quantity_invalid' },
  QUANTITY_NEGATIVE: { status: 400, code: StockCode.quantityInvalid, key: 'stock.set_quantity_invalid' },
  NEGATIVE_STOCK: { status: 409, code: StockCode.negativeStock, key: 'stock.negative_stock' },
  RELEASE_MORE_THAN_RESERVED: {
    status: 409,
    code: StockCode.refused,
    key: 'stock.release_more_than_reserved',
  },
  RELEASE_MORE_THAN_HELD: { status: 409, code: StockCode.refused, key: 'stock.release_more_than_held' },
  STOP_MORE_THAN_IN_PROCESS: { status: 409, code: StockCode.refused, key: 'stock.stop_more_than_in_process' },
  CANCEL_MORE_THAN_INCOMING: { status: 409, code: StockCode.refused, key: 'stock.cancel_more_than_incoming' },
  SAME_WAREHOUSE: { status: 400, code: StockCode.refused, key: 'stock.same_warehouse' },
} as const satisfies ErrorTable<StockErrorCode>;

export const refuseStock = refuser(stockErrors);
const refuse = refuseStock;

function positive(quantity: number): void {
  if (!Number.isInteger(quantity) || quantity < 1 || quantity > MAX) {
    throw refuse('QUANTITY_NOT_POSITIVE', { max: MAX });
  }
}

/** The events a stock command records (always one), or the reason it is refused. */
export function decide(command: StockCommand, state: StockState): StockEvent[] {
  return [decideOne(command, state)];
}

function decideOne(command: StockCommand, state: StockState): StockEvent {
  const base = {
    masterCodeId: command.masterCodeId,
    warehouseId: command.warehouseId,
    ...(command.reason === undefined ? {} : { reason: command.reason }),
    ...(command.source === undefined ? {} : { source: command.source }),
  };
  /** The event's common part: the on-hand change and every figure after it. */
  const moved = (change: number, figures: Partial<StockState> = {}) => ({
    ...base,
    change,
    ...state,
    onHand: state.onHand + change,
    ...figures,
  });
  const notBelowZero = (change: number, refuseNegative: boolean) => {
    if (refuseNegative && state.onHand + change < 0) {
      throw refuse('NEGATIVE_STOCK', { onHand: state.onHand, change });
    }
  };

  switch (command.type) {
    case 'ReceiveStock': {
      positive(command.quantity);
      const settled = command.settlesIncoming ? Math.min(command.quantity, state.incoming) : 0;
      return {
        type: 'StockReceived',
        data: {
          ...moved(command.quantity, { incoming: state.incoming - settled }),
          quantity: command.quantity,
          ...(command.settlesIncoming ? { settledIncoming: settled } : {}),
          ...(command.unitCost === undefined ? {} : { unitCost: command.unitCost }),
        },
      };
    }
    case 'AdjustStock': {
      if (command.mode === 'set') {
        if (!Number.isInteger(command.quantity) || command.quantity < 0 || command.quantity > MAX) {
          throw refuse('QUANTITY_NEGATIVE', { max: MAX });
        }
      } else positive(command.quantity);
      const change =
        command.mode === 'add'
          ? command.quantity
          : command.mode === 'deduct'
            ? -command.quantity
            : command.quantity - state.onHand;
      notBelowZero(change, command.refuseNegative);
      return {
        type: 'StockAdjusted',
        data: { ...moved(change), mode: command.mode, quantity: command.quantity },
      };
    }
    case 'ReserveStock':
      positive(command.quantity);
      // Marketplaces oversell: a reservation beyond what is available is recorded, and shows as negative available.
      return {
        type: 'StockReserved',
        data: { ...moved(0, { reserved: state.reserved + command.quantity }), quantity: command.quantity },
      };
    case 'ReleaseStock':
      positive(command.quantity);
      if (command.quantity > state.reserved) {
        throw refuse('RELEASE_MORE_THAN_RESERVED', { reserved: state.reserved, quantity: command.quantity });
      }
      return {
        type: 'StockReleased',
        data: { ...moved(0, { reserved: state.reserved - command.quantity }), quantity: command.quantity },
      };
    case 'StartProcessing': {
      positive(command.quantity);
      // The order's reservation moves to in process; an order that was never reserved is taken as it stands.
      const fromReserved = Math.min(command.quantity, state.reserved);
      return {
        type: 'StockProcessingStarted',
        data: {
          ...moved(0, {
            reserved: state.reserved - fromReserved,
            inProcess: state.inProcess + command.quantity,
          }),
          quantity: command.quantity,
        },
      };
    }
    case 'StopProcessing':
      positive(command.quantity);
      if (command.quantity > state.inProcess) {
        throw refuse('STOP_MORE_THAN_IN_PROCESS', { inProcess: state.inProcess, quantity: command.quantity });
      }
      return {
        type: 'StockProcessingStopped',
        data: {
          ...moved(0, {
            reserved: state.reserved + command.quantity,
            inProcess: state.inProcess - command.quantity,
          }),
          quantity: command.quantity,
        },
      };
    case 'ShipStock': {
      positive(command.quantity);
      const figures: Partial<StockState> =
        command.from === 'reserved'
          ? { reserved: state.reserved - Math.min(command.quantity, state.reserved) }
          : command.from === 'inProcess'
            ? { inProcess: state.inProcess - Math.min(command.quantity, state.inProcess) }
            : {};
      return {
        type: 'StockShipped',
        data: { ...moved(-command.quantity, figures), quantity: command.quantity, from: command.from },
      };
    }
    case 'ReturnStock':
      positive(command.quantity);
      return { type: 'StockReturned', data: { ...moved(command.quantity), quantity: command.quantity } };
    case 'TransferStockOut':
      positive(command.quantity);
      if (command.toWarehouseId === command.warehouseId) throw refuse('SAME_WAREHOUSE');
      return {
        type: 'StockTransferredOut',
        data: {
          ...moved(-command.quantity),
          quantity: command.quantity,
          toWarehouseId: command.toWarehouseId,
        },
      };
    case 'TransferStockIn': {
      positive(command.quantity);
      if (command.fromWarehouseId === command.warehouseId) throw refuse('SAME_WAREHOUSE');
      const settled = command.settlesIncoming ? Math.min(command.quantity, state.incoming) : 0;
      return {
        type: 'StockTransferredIn',
        data: {
          ...moved(command.quantity, { incoming: state.incoming - settled }),
          quantity: command.quantity,
          fromWarehouseId: command.fromWarehouseId,
          ...(command.settlesIncoming ? { settledIncoming: settled } : {}),
        },
      };
    }
    case 'WriteOffStock':
      positive(command.quantity);
      notBelowZero(-command.quantity, command.refuseNegative);
      return { type: 'StockWrittenOff', data: { ...moved(-command.quantity), quantity: command.quantity } };
    case 'HoldStock': {
      positive(command.quantity);
      const figure = HOLD_FIGURE[command.hold];
      return {
        type: 'StockHeld',
        data: {
          ...moved(0, { [figure]: state[figure] + command.quantity }),
          quantity: command.quantity,
          hold: command.hold,
        },
      };
    }
    case 'ReleaseHold': {
      positive(command.quantity);
      const figure = HOLD_FIGURE[command.hold];
      if (command.quantity > state[figure]) {
        throw refuse('RELEASE_MORE_THAN_HELD', { held: state[figure], quantity: command.quantity });
      }
      return {
        type: 'StockHoldReleased',
        data: {
          ...moved(0, { [figure]: state[figure] - command.quantity }),
          quantity: command.quantity,
          hold: command.hold,
        },
      };
    }
    case 'ExpectStock':
      positive(command.quantity);
      return {
        type: 'StockIncomingExpected',
        data: { ...moved(0, { incoming: state.incoming + command.quantity }), quantity: command.quantity },
      };
    case 'CancelExpectedStock':
      positive(command.quantity);
      if (command.quantity > state.incoming) {
        throw refuse('CANCEL_MORE_THAN_INCOMING', { incoming: state.incoming, quantity: command.quantity });
      }
      return {
        type: 'StockIncomingCancelled',
        data: { ...moved(0, { incoming: state.incoming - command.quantity }), quantity: command.quantity },
      };
    default: {
      const unknown: never = command;
      throw new Error(`unknown stock command ${(unknown as { type: string }).type}`);
    }
  }
}

// ---- stream ----

export const STOCK_CATEGORY = 'stock';

/** `stock-<tenant>.<masterCodeId>@<warehouseId>`: one stream per master code per warehouse. */
export const stockStreamId = (tenantId: string, masterCodeId: string, warehouseId: string) =>
  `${STOCK_CATEGORY}-${tenantId}.${masterCodeId}@${warehouseId}`;

// ---- refusals of a stock request that are not the stock's own ----

export const STOCK_REQUEST_ERRORS = ['KEY_REUSED'] as const;
export const STOCK_REPORT_ERRORS = ['RANGE_INVALID', 'EXPORT_TOO_LARGE'] as const;
export type StockReportErrorCode = (typeof STOCK_REPORT_ERRORS)[number];

/** A report's period must not end before it starts; an export has a row cap (the message names it). */
export const stockReportErrors = {
  RANGE_INVALID: { status: 400, code: StockCode.timeInvalid, key: 'stock.range_invalid' },
  EXPORT_TOO_LARGE: { status: 400, code: StockCode.exportTooLarge, key: 'stock.export.too_many' },
} as const satisfies ErrorTable<StockReportErrorCode>;

export const STOCK_TARGET_ERRORS = [
  'MASTER_CODE_NOT_FOUND',
  'WAREHOUSE_NOT_FOUND',
  'COMBO_HAS_NO_STOCK',
] as const;
export type StockTargetErrorCode = (typeof STOCK_TARGET_ERRORS)[number];

/** The master code and the warehouse a request names must be the tenant's; a combo has no stock of its own. */
export const stockTargetErrors = {
  MASTER_CODE_NOT_FOUND: { status: 404, code: 404, key: 'stock.master_code_not_found' },
  WAREHOUSE_NOT_FOUND: { status: 404, code: 404, key: 'stock.warehouse_not_found' },
  COMBO_HAS_NO_STOCK: { status: 409, code: StockCode.comboHasNoStock, key: 'stock.combo_has_no_stock' },
} as const satisfies ErrorTable<StockTargetErrorCode>;

export type StockRequestErrorCode = (typeof STOCK_REQUEST_ERRORS)[number];

export const stockRequestErrors = {
  /** The same idempotency key was used for a different movement. */
  KEY_REUSED: { status: 409, code: StockCode.keyReused, key: 'stock.idempotency_key_reused' },
} as const satisfies ErrorTable<StockRequestErrorCode>;

/** The event each command records (a new command type must be named here). */
const eventTypeOf: Record<StockCommand['type'], StockEventType> = {
  ReceiveStock: 'StockReceived',
  AdjustStock: 'StockAdjusted',
  ReserveStock: 'StockReserved',
  ReleaseStock: 'StockReleased',
  StartProcessing: 'StockProcessingStarted',
  StopProcessing: 'StockProcessingStopped',
  ShipStock: 'StockShipped',
  ReturnStock: 'StockReturned',
  TransferStockOut: 'StockTransferredOut',
  TransferStockIn: 'StockTransferredIn',
  WriteOffStock: 'StockWrittenOff',
  HoldStock: 'StockHeld',
  ReleaseHold: 'StockHoldReleased',
  ExpectStock: 'StockIncomingExpected',
  CancelExpectedStock: 'StockIncomingCancelled',
};

/**
 * Whether a recorded event is the one `command` would have recorded: same kind and quantity, and the same
 * adjustment mode, hold kind, ship source or other warehouse. A replayed command id must find its own movement.
 */
export function sameMovement(command: StockCommand, event: StockEvent): boolean {
  if (eventTypeOf[command.type] !== event.type) return false;
  if (event.data.quantity !== command.quantity) return false;
  if (command.type === 'AdjustStock' && event.type === 'StockAdjusted')
    return event.data.mode === command.mode;
  if (command.type === 'HoldStock' && event.type === 'StockHeld') return event.data.hold === command.hold;
  if (command.type === 'ReleaseHold' && event.type === 'StockHoldReleased')
    return event.data.hold === command.hold;
  if (command.type === 'ShipStock' && event.type === 'StockShipped') return event.data.from === command.from;
  if (command.type === 'TransferStockOut' && event.type === 'StockTransferredOut')
    return event.data.toWarehouseId === command.toWarehouseId;
  if (command.type === 'TransferStockIn' && event.type === 'StockTransferredIn')
    return event.data.fromWarehouseId === command.fromWarehouseId;
  return true;
}
