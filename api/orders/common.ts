import { seller } from '@api/auth/session';
import { ApiError, forbidden } from '@api/errors';
import { idempotencyKeyOf as keyOfRequest } from '@api/idempotency';
import type { PermissionKey } from '@domain/access/permissions';
import { ORDER_READER_KEYS } from '@domain/orders/board';
import { OrderCode } from '@domain/orders/codes';
import type { Db } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import type { MarketplaceShipping } from '@integrations/stores';
import type { FastifyRequest } from 'fastify';

/**
 * What the order board routes share (api/orders/index.ts has the route list): result codes 570–599, who may read
 * and do what (spec §6 order keys), the idempotency key, and the domain's refusals as answers.
 */

export const tags = ['orders'];

export interface OrderDeps {
  db: Db;
  store: Pick<EventStore, 'kind'>;
  /** Arranging shipments with the marketplaces; absent: the connected stores (integrations/stores). */
  shipping?: MarketplaceShipping;
}

// ---- access (spec §6 order keys) ----

/** Reading the board: any of the order keys. */
export const ORDER_READERS = ORDER_READER_KEYS;

export function requireAny(keys: readonly PermissionKey[]) {
  return async (request: FastifyRequest) => {
    const session = seller(request);
    if (!keys.some((key) => session.permissions.has(key))) throw forbidden();
  };
}

export function requireKey(request: FastifyRequest, key: PermissionKey): void {
  if (!seller(request).permissions.has(key)) throw forbidden();
}

export function idempotencyKeyOf(request: FastifyRequest, bodyKey: string | undefined): string | undefined {
  return keyOfRequest(request, bodyKey, {
    invalid: () => new ApiError(400, OrderCode.keyInvalid, 'orders.idempotency_key_invalid', { max: 100 }),
    mismatch: () => new ApiError(400, OrderCode.keyInvalid, 'orders.idempotency_key_mismatch'),
  });
}

export { commandIdOf } from '@commands/orders/board-actions';
