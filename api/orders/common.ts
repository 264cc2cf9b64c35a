import { randomUUID } from 'node:crypto';
import { seller } from '@api/auth/session';
import { idempotencyKeyField, idempotencyKeyOf as keyOfRequest } from '@api/documents';
import { ApiError, forbidden, invalid } from '@api/errors';
import { translate } from '@api/i18n';
import type { PermissionKey } from '@domain/access/permissions';
import { ORDER_READER_KEYS } from '@domain/orders/board';
import type { OrderErrorCode } from '@domain/orders/order';
import { DomainError } from '@domain/shared/errors';
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

export const OrderCode = {
  /** The order is not the account's, or does not exist (404). */
  orderNotFound: 570,
  /** The order's list does not allow the action (409). */
  wrongStatus: 571,
  /** A shipped (delivered, returned, refunded) order cannot be cancelled; shipped already (409). */
  alreadyShipped: 572,
  lineNotFound: 573,
  /** A mapped line whose stock is held cannot be mapped again (409). */
  lineAlreadyMapped: 574,
  /** The last line cannot be removed: cancel the order instead (409). */
  lastLine: 575,
  /** Split into zero: nothing chosen to split off. */
  splitNothing: 576,
  /** Split everything: the order would be left empty. */
  splitEverything: 577,
  quantityInvalid: 578,
  /** "Tracking Number is required" (spec §8). */
  trackingRequired: 579,
  /** Spec §5: a logistics provider and a pickup address must be chosen before requesting pickup. */
  pickupDetailsRequired: 580,
  /** "Pickup request failed" (spec §8): the order cannot have a pickup now (409). */
  pickupFailed: 581,
  masterCodeNotFound: 582,
  /** Spec §5: at least one record must be selected. */
  ordersRequired: 583,
  keyInvalid: 584,
  textInvalid: 585,
  /** Orders of several stores at once need the multi-store arrange key (403). */
  multiStore: 586,
  addressInvalid: 587,
  /** The marketplace did not arrange the shipment (its words in the message) (409). */
  arrangeFailed: 588,
  /** The marketplace did not cancel the order (its words in the message) (409). */
  cancelFailed: 589,
} as const;

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

// ---- the domain's refusals as answers ----

export interface Refusal {
  status: number;
  code: number;
  key: string;
  params: Record<string, string | number>;
}

const REFUSALS: Record<OrderErrorCode, Omit<Refusal, 'params'>> = {
  ORDER_NOT_FOUND: { status: 404, code: OrderCode.orderNotFound, key: 'orders.order_not_found' },
  ORDER_EXISTS: { status: 409, code: OrderCode.wrongStatus, key: 'orders.order_exists' },
  WRONG_STATUS: { status: 409, code: OrderCode.wrongStatus, key: 'orders.wrong_status' },
  ALREADY_SHIPPED: { status: 409, code: OrderCode.alreadyShipped, key: 'orders.already_shipped' },
  LINE_NOT_FOUND: { status: 404, code: OrderCode.lineNotFound, key: 'orders.line_not_found' },
  LINE_ALREADY_MAPPED: { status: 409, code: OrderCode.lineAlreadyMapped, key: 'orders.line_already_mapped' },
  LAST_LINE: { status: 409, code: OrderCode.lastLine, key: 'orders.last_line' },
  SPLIT_NOTHING: { status: 400, code: OrderCode.splitNothing, key: 'orders.split_nothing' },
  SPLIT_EVERYTHING: { status: 400, code: OrderCode.splitEverything, key: 'orders.split_everything' },
  QUANTITY_INVALID: { status: 400, code: OrderCode.quantityInvalid, key: 'orders.quantity_invalid' },
  TRACKING_REQUIRED: { status: 400, code: OrderCode.trackingRequired, key: 'orders.tracking_required' },
  PICKUP_DETAILS_REQUIRED: {
    status: 400,
    code: OrderCode.pickupDetailsRequired,
    key: 'orders.pickup_details_required',
  },
  NOT_SHIPPED: { status: 409, code: OrderCode.wrongStatus, key: 'orders.not_shipped' },
};

/**
 * The answer to a refusal of the order domain, in the caller's language (an order's status is named in it too);
 * `action` is what was refused.
 */
export function refusalOf(request: FastifyRequest, error: DomainError, action: string): Refusal {
  const refusal = REFUSALS[error.code as OrderErrorCode];
  if (!refusal) throw error;
  const params: Record<string, string | number> = { ...error.params };
  if (typeof params.status === 'string')
    params.status = translate(request.language, `orders.statuses.${params.status}`);
  if (error.code === 'WRONG_STATUS' && action === 'request_pickup') {
    return { status: 409, code: OrderCode.pickupFailed, key: 'orders.pickup_failed', params };
  }
  return { ...refusal, params };
}

/** Runs a command of one order; a domain refusal becomes its answer (an ApiError). */
export async function answering<T>(
  request: FastifyRequest,
  action: string,
  run: () => Promise<T>,
): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    const refusal = refusalOf(request, error, action);
    throw new ApiError(refusal.status, refusal.code, refusal.key, refusal.params);
  }
}
