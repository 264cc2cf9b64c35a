import { randomUUID } from 'node:crypto';
import { seller } from '@api/auth/session';
import { idempotencyKeyField, idempotencyKeyOf as keyOfRequest } from '@api/documents';
import { ApiError, forbidden, invalid } from '@api/errors';
import type { PermissionKey } from '@domain/access/permissions';
import { ORDER_READER_KEYS } from '@domain/orders/board';
import { OrderCode } from '@domain/orders/codes';
import type { Database } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import type { MarketplaceShipping } from '@integrations/stores';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';

/**
 * What the order board routes share (api/orders/index.ts has the route list): result codes 570–599, who may read
 * and do what (spec §6 order keys), the idempotency key, and the domain's refusals as answers.
 */

export { OrderCode };

export const tags = ['orders'];

export interface OrderDeps {
  db: Kysely<Database>;
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

// ---- bodies ----

export const MAX_ORDERS = 500;
const ordersRequired = invalid(OrderCode.ordersRequired, 'orders.orders_required', { max: MAX_ORDERS });
const idInvalid = invalid(OrderCode.orderNotFound, 'orders.order_not_found');
export const OrderId = z.string({ error: idInvalid }).trim().min(1, idInvalid).max(100, idInvalid);
export const OrderIds = z
  .array(OrderId, { error: ordersRequired })
  .min(1, ordersRequired)
  .max(MAX_ORDERS, ordersRequired);

export const text = (max: number, field: string) =>
  z
    .string({ error: invalid(OrderCode.textInvalid, 'orders.text_invalid', { field }) })
    .trim()
    .max(max, invalid(OrderCode.textInvalid, 'orders.too_long', { field, max }));

const keyInvalid = invalid(OrderCode.keyInvalid, 'orders.idempotency_key_invalid', { max: 100 });
export const IdempotencyKey = idempotencyKeyField(keyInvalid);

export const IdParams = z.strictObject({ id: z.string().max(100) });

export function idempotencyKeyOf(request: FastifyRequest, bodyKey: string | undefined): string | undefined {
  return keyOfRequest(request, bodyKey, {
    invalid: () => new ApiError(400, OrderCode.keyInvalid, 'orders.idempotency_key_invalid', { max: 100 }),
    mismatch: () => new ApiError(400, OrderCode.keyInvalid, 'orders.idempotency_key_mismatch'),
  });
}

/** The command id of one order's part of a request: scoped by account, purpose and order; fresh without a key. */
export const commandIdOf = (tenantId: string, purpose: string, key: string | undefined, orderId: string) =>
  `${tenantId}:orders:${purpose}:${key ?? randomUUID()}:${orderId}`;
