import { ApiError } from '@api/errors';
import { idempotencyKeyOf as keyOfRequest } from '@api/idempotency';
import { OrderCode } from '@domain/orders/codes';
import type { Db } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import type { MarketplaceShipping } from '@integrations/stores';
import type { FastifyRequest } from 'fastify';

/** What the order board routes share (api/orders/index.ts): their deps, tags and the idempotency key. */

export const tags = ['orders'];

export interface OrderDeps {
  db: Db;
  store: Pick<EventStore, 'kind'>;
  /** Arranging shipments with the marketplaces; absent: the connected stores (integrations/stores). */
  shipping?: MarketplaceShipping;
}

export function idempotencyKeyOf(request: FastifyRequest, bodyKey: string | undefined): string | undefined {
  return keyOfRequest(request, bodyKey, {
    invalid: () => new ApiError(400, OrderCode.keyInvalid, 'orders.idempotency_key_invalid', { max: 100 }),
    mismatch: () => new ApiError(400, OrderCode.keyInvalid, 'orders.idempotency_key_mismatch'),
  });
}
