import { randomUUID } from 'node:crypto';
import { ApiError } from '@api/errors';
import { IDEMPOTENCY_KEY_MAX, idempotencyKeyOf } from '@api/idempotency';
import { wholeStore } from '@commands/support/document';
import { StockCode } from '@domain/inventory/codes';
import type { Db } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import type { FastifyRequest } from 'fastify';

/** What the stock routes share (api/inventory/stock.ts has the route list). */

export interface StockDeps {
  db: Db;
  /** The app's event store; the stock routes need it whole (AppDeps types only what /api/health reads). */
  store: Pick<EventStore, 'kind'>;
}

export const commandStore = (store: Pick<EventStore, 'kind'>) => wholeStore(store, 'stock');

export const tags = ['inventory-stock'];

/**
 * The command id of a request, scoped by tenant so two accounts never share one; without a key, a fresh id (the
 * request is not retried safely). The key becomes the event id (commands/support/ids.ts), so a retry moves stock once.
 */
export function commandIdOf(request: FastifyRequest, tenantId: string, bodyKey: string | undefined): string {
  const key = idempotencyKeyOf(request, bodyKey, {
    invalid: () =>
      new ApiError(400, StockCode.keyInvalid, 'stock.idempotency_key_invalid', { max: IDEMPOTENCY_KEY_MAX }),
    mismatch: () => new ApiError(400, StockCode.keyInvalid, 'stock.idempotency_key_mismatch'),
  });
  return key === undefined ? `${tenantId}:${randomUUID()}` : `${tenantId}:${key}`;
}

export { initialStockReceiver } from '@commands/inventory/initial-stock';
