import { z } from 'zod';
import { DomainError } from '../shared/errors';

/**
 * The stock of one master code in one warehouse: one stream per pair, every movement an event. Each event carries
 * the signed change to the quantity on hand and the figures after it, so the movement ledger and the stock at any
 * past instant are read straight from the log. Reserved stock is what accepted orders hold; available = on hand −
 * reserved. Marketplaces may oversell (available below zero is recorded and flagged); a manual deduction may be
 * refused from going below zero by the tenant's setting, which arrives with the command.
 */

// ---- events ----

const Quantity = z.number().int().min(1).max(1_000_000_000);
const Text = z.string().max(500);

/** The document behind a movement: an adjustment, an order, a transfer, a purchase receipt… */
export const SourceDocument = z.strictObject({
  type: z.string().min(1).max(40),
  id: z.string().min(1).max(100),
});
export type SourceDocument = z.infer<typeof SourceDocument>;

const Movement = {
  masterCodeId: z.string().min(1).max(100),
  warehouseId: z.string().min(1).max(100),
  /** Signed change to the quantity on hand (0 for reservations and releases). */
  change: z.number().int(),
  onHand: z.number().int(),
  reserved: z.number().int(),
  reason: Text.optional(),
  source: SourceDocument.optional(),
};

export const StockReceived = z.strictObject({ ...Movement, quantity: Quantity });
export const StockAdjusted = z.strictObject({
  ...Movement,
  mode: z.enum(['add', 'deduct', 'set']),
  /** What the user entered: units to add or deduct, or the counted quantity for `set`. */
  quantity: z.number().int().min(0).max(1_000_000_000),
});
export const StockReserved = z.strictObject({ ...Movement, quantity: Quantity });
export const StockReleased = z.strictObject({ ...Movement, quantity: Quantity });
export const StockShipped = z.strictObject({ ...Movement, quantity: Quantity });
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
});
export const StockWrittenOff = z.strictObject({ ...Movement, quantity: Quantity });

export const stockEvents = {
  StockReceived,
  StockAdjusted,
  StockReserved,
  StockReleased,
  StockShipped,
  StockReturned,
  StockTransferredOut,
  StockTransferredIn,
  StockWrittenOff,
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
}

export const emptyStock: StockState = { onHand: 0, reserved: 0 };

export const available = (state: StockState) => state.onHand - state.reserved;

/** Every event states the figures after it, so evolving is taking them. */
export function evolve(_state: StockState, event: StockEvent): StockState {
  return { onHand: event.data.onHand, reserved: event.data.reserved };
}

// ---- commands ----

interface Target {
  masterCodeId: string;
  warehouseId: string;
  reason?: string;
  source?: SourceDocument;
}

export type StockCommand =
  | ({ type: 'ReceiveStock'; quantity: number } & Target)
  | ({
      type: 'AdjustStock';
      mode: 'add' | 'deduct' | 'set';
      quantity: number;
      /** The tenant's setting: a manual deduction may not take on-hand stock below zero. */
      refuseNegative: boolean;
    } & Target)
  | ({ type: 'ReserveStock'; quantity: number } & Target)
  | ({ type: 'ReleaseStock'; quantity: number } & Target)
  | ({ type: 'ShipStock'; quantity: number; fromReserved: boolean } & Target)
  | ({ type: 'ReturnStock'; quantity: number } & Target)
  | ({ type: 'TransferStockOut'; quantity: number; toWarehouseId: string } & Target)
  | ({ type: 'TransferStockIn'; quantity: number; fromWarehouseId: string } & Target)
  | ({ type: 'WriteOffStock'; quantity: number; refuseNegative: boolean } & Target);

// ---- decide ----

export const STOCK_ERRORS = [
  'QUANTITY_NOT_POSITIVE',
  'QUANTITY_NEGATIVE',
  'NEGATIVE_STOCK',
  'RELEASE_MORE_THAN_RESERVED',
  'SAME_WAREHOUSE',
] as const;
export type StockErrorCode = (typeof STOCK_ERRORS)[number];

const refuse = (code: StockErrorCode, params: Record<string, string | number> = {}) =>
  new DomainError<StockErrorCode>(code, params);

const MAX = 1_000_000_000;

function positive(quantity: number): void {
  if (!Number.isInteger(quantity) || quantity < 1 || quantity > MAX) throw refuse('QUANTITY_NOT_POSITIVE');
}

/** The one event a stock command records, or the reason it is refused. */
export function decide(command: StockCommand, state: StockState): StockEvent {
  const base = {
    masterCodeId: command.masterCodeId,
    warehouseId: command.warehouseId,
    ...(command.reason === undefined ? {} : { reason: command.reason }),
    ...(command.source === undefined ? {} : { source: command.source }),
  };
  const moved = (change: number, reservedChange = 0) => ({
    ...base,
    change,
    onHand: state.onHand + change,
    reserved: state.reserved + reservedChange,
  });
  const notBelowZero = (change: number, refuseNegative: boolean) => {
    if (refuseNegative && state.onHand + change < 0) {
      throw refuse('NEGATIVE_STOCK', { onHand: state.onHand, change });
    }
  };

  switch (command.type) {
    case 'ReceiveStock':
      positive(command.quantity);
      return { type: 'StockReceived', data: { ...moved(command.quantity), quantity: command.quantity } };
    case 'AdjustStock': {
      if (command.mode === 'set') {
        if (!Number.isInteger(command.quantity) || command.quantity < 0 || command.quantity > MAX) {
          throw refuse('QUANTITY_NEGATIVE');
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
      return { type: 'StockReserved', data: { ...moved(0, command.quantity), quantity: command.quantity } };
    case 'ReleaseStock':
      positive(command.quantity);
      if (command.quantity > state.reserved) {
        throw refuse('RELEASE_MORE_THAN_RESERVED', { reserved: state.reserved, quantity: command.quantity });
      }
      return { type: 'StockReleased', data: { ...moved(0, -command.quantity), quantity: command.quantity } };
    case 'ShipStock': {
      positive(command.quantity);
      const fromReserved = command.fromReserved ? Math.min(command.quantity, state.reserved) : 0;
      return {
        type: 'StockShipped',
        data: { ...moved(-command.quantity, -fromReserved), quantity: command.quantity },
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
    case 'TransferStockIn':
      positive(command.quantity);
      if (command.fromWarehouseId === command.warehouseId) throw refuse('SAME_WAREHOUSE');
      return {
        type: 'StockTransferredIn',
        data: {
          ...moved(command.quantity),
          quantity: command.quantity,
          fromWarehouseId: command.fromWarehouseId,
        },
      };
    case 'WriteOffStock':
      positive(command.quantity);
      notBelowZero(-command.quantity, command.refuseNegative);
      return { type: 'StockWrittenOff', data: { ...moved(-command.quantity), quantity: command.quantity } };
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
