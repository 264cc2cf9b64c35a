import { randomUUID } from 'node:crypto';
import type { MovementMode, StockMovementAnswer } from '@api/contracts/inventory-stock';
import { ApiError } from '@api/errors';
import { IDEMPOTENCY_KEY_MAX, idempotencyKeyOf } from '@api/idempotency';
import { receiveInitialStock } from '@commands/inventory/initial-stock';
import type { StockCommandResult } from '@commands/inventory/stock';
import { wholeStore } from '@commands/support/document';
import { StockCode } from '@domain/inventory/codes';
import { figuresOf, type StockEvent } from '@domain/inventory/stock';
import type { Db } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import type { StockTarget } from '@projections/inventory/reference';
import { figureAnswer } from '@projections/stock.queries';
import type { FastifyRequest } from 'fastify';
import type { InitialStock } from './common';

/**
 * What the stock routes share (api/inventory/stock.ts has the route list): the idempotency key of a request and the
 * answer of one movement. Shapes: api/contracts/inventory-stock.ts; use cases: commands/inventory/.
 */

export interface StockDeps {
  db: Db;
  /** The app's event store; the stock routes need it whole (AppDeps types only what /api/health reads). */
  store: Pick<EventStore, 'kind'>;
}

/** The store as a command handler needs it. */
export const commandStore = (store: Pick<EventStore, 'kind'>) => wholeStore(store, 'stock');

export const tags = ['inventory-stock'];

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
  (db: Db, store: Pick<EventStore, 'kind'>): InitialStock =>
  (session, masterCodeId, quantity) =>
    receiveInitialStock({ db, store: commandStore(store) }, session, { masterCodeId, quantity });
