import { randomUUID } from 'node:crypto';
import type { SellerSession } from '@api/auth/session';
import {
  IDEMPOTENCY_KEY_MAX,
  idempotencyKeyField,
  idempotencyKeyOf,
  masterCodeOfTenant,
  placeOfTenant,
  wholeStore,
} from '@api/documents';
import { ApiError, invalid } from '@api/errors';
import { receiveInitialStock } from '@commands/inventory/initial-stock';
import { moveStock } from '@commands/inventory/move-stock';
import type { StockCommandResult } from '@commands/inventory/stock';
import { StockCode } from '@domain/inventory/codes';
import {
  available,
  figuresOf,
  HOLD_KINDS,
  STOCK_EVENT_TYPES,
  type StockCommand,
  type StockEvent,
} from '@domain/inventory/stock';
import type { Database } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import type { StockTarget } from '@projections/inventory/reference';
import type { FastifyRequest } from 'fastify';
import { type Kysely, sql, type Transaction } from 'kysely';
import { z } from 'zod';
import { type InitialStock, lockTenant, logActivity, QUANTITY_MAX, violation } from './common';

/**
 * What the stock routes share (api/inventory/stock.ts has the route list): result codes, the lookups every stock
 * route starts with (the master code and the warehouse must be the tenant's: another tenant's is simply missing), the
 * tenant's stock settings, the idempotency key, running a stock command with its refusals mapped to answers, and
 * the answer shape of one movement.
 */

export interface StockDeps {
  db: Kysely<Database>;
  /** The app's event store; the stock routes need it whole (AppDeps types only what /api/health reads). */
  store: Pick<EventStore, 'kind'>;
}

/** The store as a command handler needs it. */
export const commandStore = (store: Pick<EventStore, 'kind'>) => wholeStore(store, 'stock');

export const tags = ['inventory-stock'];

// ---- field schemas ----

export const STOCK_TEXT_MAX = 500;

export const quantityInvalid = invalid(StockCode.quantityInvalid, 'stock.quantity_invalid', {
  max: QUANTITY_MAX,
});
export const setQuantityInvalid = invalid(StockCode.quantityInvalid, 'stock.set_quantity_invalid', {
  max: QUANTITY_MAX,
});

/** A whole number of pieces, 1 to QUANTITY_MAX; `set` takes 0 too (checked by the body's refinement). */
export const Quantity = z
  .number({ error: quantityInvalid })
  .int(quantityInvalid)
  .min(0, quantityInvalid)
  .max(QUANTITY_MAX, quantityInvalid);

export const StockText = z
  .string({ error: invalid(400, 'stock.text_invalid') })
  .trim()
  .max(STOCK_TEXT_MAX, invalid(400, 'stock.too_long', { max: STOCK_TEXT_MAX }));

/** An id in a body or query; one that is not a uuid is looked up all the same and found missing (404). */
export const RefId = z
  .string({ error: invalid(400, 'stock.id_invalid') })
  .trim()
  .min(1, invalid(400, 'stock.id_invalid'))
  .max(64, invalid(400, 'stock.id_invalid'));

export const IdempotencyKey = idempotencyKeyField(
  invalid(StockCode.keyInvalid, 'stock.idempotency_key_invalid', { max: IDEMPOTENCY_KEY_MAX }),
);

/** An instant in a query: ISO 8601 with a time zone (`2026-01-31T12:00:00Z`), or a bare date (UTC midnight). */
export const Instant = z
  .string({ error: invalid(StockCode.timeInvalid, 'stock.time_invalid') })
  .max(40, invalid(StockCode.timeInvalid, 'stock.time_invalid'))
  .regex(
    /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2}))?$/,
    invalid(StockCode.timeInvalid, 'stock.time_invalid'),
  )
  .transform((text, ctx) => {
    const date = new Date(text.length === 10 ? `${text}T00:00:00Z` : text.replace(' ', 'T'));
    if (Number.isNaN(date.getTime())) {
      ctx.addIssue({ code: 'custom', message: invalid(StockCode.timeInvalid, 'stock.time_invalid') });
      return z.NEVER;
    }
    return date;
  });

// ---- idempotency ----

/**
 * The command id of a request: the `Idempotency-Key` header or the body's `idempotency_key` (both given, they must
 * agree), scoped by tenant so two accounts never share one; without a key, a fresh id (the request is not retried
 * safely). The key becomes the event id (commands/support/ids.ts), so a retry moves stock once.
 */
export function commandIdOf(request: FastifyRequest, tenantId: string, bodyKey: string | undefined): string {
  const key = idempotencyKeyOf(request, bodyKey, {
    invalid: () =>
      new ApiError(400, StockCode.keyInvalid, 'stock.idempotency_key_invalid', { max: IDEMPOTENCY_KEY_MAX }),
    mismatch: () => new ApiError(400, StockCode.keyInvalid, 'stock.idempotency_key_mismatch'),
  });
  return key === undefined ? `${tenantId}:${randomUUID()}` : `${tenantId}:${key}`;
}

// ---- the answer of one movement ----

/** What a movement's `mode` holds: an adjustment's mode, a hold's kind, or where a shipment was taken from. */
export const MOVEMENT_MODES = [
  'add',
  'deduct',
  'set',
  ...HOLD_KINDS,
  'reserved',
  'inProcess',
  'free',
] as const;
export type MovementMode = (typeof MOVEMENT_MODES)[number];

/** The mode of a stock event, as the movement report shows it (projections/stock.ts stores the same). */
export function modeOf(event: StockEvent): MovementMode | null {
  switch (event.type) {
    case 'StockAdjusted':
      return event.data.mode;
    case 'StockHeld':
    case 'StockHoldReleased':
      return event.data.hold;
    case 'StockShipped':
      return event.data.from;
    default:
      return null;
  }
}

/** Every stock figure after a movement (spec §3 "Stock figures"), as the API names them. */
export const FigureFields = {
  on_hand: z.number().int(),
  reserved: z.number().int(),
  /** Held by orders being picked and packed. */
  in_process: z.number().int(),
  /** Set aside by the seller. */
  on_hold: z.number().int(),
  /** Held by parked Smart POS sales. */
  pos_on_hold: z.number().int(),
  /** Set aside for a supplier. */
  supplier_on_hold: z.number().int(),
  /** Expected from a supplier or in transit; not part of on hand. */
  incoming: z.number().int(),
  /** Available online: on hand − reserved − in process − the three holds. */
  available: z.number().int(),
};
export interface FigureAnswer {
  on_hand: number;
  reserved: number;
  in_process: number;
  on_hold: number;
  pos_on_hold: number;
  supplier_on_hold: number;
  incoming: number;
  available: number;
}

/** The figures of the projection's or the domain's camel-case shape, as the API names them. */
export function figureAnswer(figures: {
  onHand: number;
  reserved: number;
  inProcess: number;
  onHold: number;
  posOnHold: number;
  supplierOnHold: number;
  incoming: number;
}): FigureAnswer {
  return {
    on_hand: figures.onHand,
    reserved: figures.reserved,
    in_process: figures.inProcess,
    on_hold: figures.onHold,
    pos_on_hold: figures.posOnHold,
    supplier_on_hold: figures.supplierOnHold,
    incoming: figures.incoming,
    available: available(figures),
  };
}

export const StockMovementAnswer = z.object({
  master_code: z.object({ id: z.string(), code: z.string(), name: z.string() }),
  warehouse: z.object({ id: z.string(), code: z.string(), name: z.string() }),
  /** The event type: StockReceived, StockAdjusted, … */
  action: z.enum(STOCK_EVENT_TYPES),
  /** add, deduct or set for an adjustment; online, pos or supplier for a hold; reserved, inProcess or free for a
   * shipment; null otherwise. */
  mode: z.enum(MOVEMENT_MODES).nullable(),
  /** What was entered: units received, added or deducted, or the counted quantity for `set`. */
  quantity: z.number().int(),
  previous_stock: z.number().int(),
  /** Signed change to on hand. */
  change: z.number().int(),
  ...FigureFields,
  reason: z.string().nullable(),
  /** The movement's place in its stock's stream, from 0. */
  revision: z.number().int(),
});
export type StockMovementAnswer = z.infer<typeof StockMovementAnswer>;

export function movementAnswer(target: StockTarget, result: StockCommandResult): StockMovementAnswer {
  const { event } = result;
  const data = event.data;
  return {
    master_code: { id: target.masterCode.id, code: target.masterCode.code, name: target.masterCode.name },
    warehouse: { id: target.warehouse.id, code: target.warehouse.code, name: target.warehouse.name },
    action: event.type,
    mode: modeOf(event),
    quantity: data.quantity,
    previous_stock: data.onHand - data.change,
    change: data.change,
    ...figureAnswer(figuresOf(data)),
    reason: data.reason ?? null,
    revision: Number(result.revision),
  };
}

/** Receives a new master code's initial quantity (commands/inventory/initial-stock.ts), for the master code routes. */
export const initialStockReceiver =
  (db: Kysely<Database>, store: Pick<EventStore, 'kind'>): InitialStock =>
  (session, masterCodeId, quantity) =>
    receiveInitialStock({ db, store: commandStore(store) }, session, { masterCodeId, quantity });
