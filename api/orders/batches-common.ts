import { randomUUID } from 'node:crypto';
import { seller } from '@api/auth/session';
import { IDEMPOTENCY_KEY_MAX, IdempotencyKey } from '@api/contracts/batches';
import { ApiError, forbidden, notFound } from '@api/errors';
import type { WorkflowDeps } from '@api/workflows';
import type { AutoBatchCountTrigger } from '@commands/batches/auto-batch';
import type { PermissionKey } from '@domain/access/permissions';
import { BatchCode } from '@domain/batches/codes';
import { isUuid } from '@domain/platform/ids';
import type { Db } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import type { FastifyRequest } from 'fastify';

/**
 * What the batch, auto batch and scan routes share (api/orders/batches.ts lists the routes): result codes 620–649,
 * access, idempotency keys, names for answers, and the domain's refusals as answers.
 */

export { BatchCode };

export const batchTags = ['batches'];
export const scanTags = ['smart-scan'];

export interface BatchDeps {
  db: Db;
  store: EventStore;
  workflows: WorkflowDeps;
  /** The process's auto batch trigger, when it runs one; otherwise the routes make their own. */
  trigger?: AutoBatchCountTrigger;
}

// ---- access ----

/** Batches and auto batch settings (spec §6 "Orders: … batch"). */
export const BATCH_KEY: PermissionKey = 'orders-batch';
/** Scanning orders to verify: whoever works the unscan orders, and pickers ("order by task for pickers"). */
export const SCAN_KEYS: readonly PermissionKey[] = ['orders-unscan', 'orders-order-by-task', 'orders-batch'];
/** Taking back a scan (reset scan of a scanned order; another picker's check): "scan delete". */
export const SCAN_DELETE_KEY: PermissionKey = 'orders-scan-delete';

export function requireAny(keys: readonly PermissionKey[]) {
  return async (request: FastifyRequest) => {
    const session = seller(request);
    if (!keys.some((key) => session.permissions.has(key))) throw forbidden();
  };
}

// ---- requests ----

/** The `Idempotency-Key` header or the body's `idempotency_key` (both given, they must agree). */
export function idempotencyKeyOf(request: FastifyRequest, bodyKey?: string): string | undefined {
  const header = request.headers['idempotency-key'];
  const headerKey = Array.isArray(header) ? header[0] : header;
  if (headerKey !== undefined && !IdempotencyKey.safeParse(headerKey).success) {
    throw new ApiError(400, BatchCode.keyInvalid, 'batch.idempotency_key_invalid', {
      max: IDEMPOTENCY_KEY_MAX,
    });
  }
  if (headerKey !== undefined && bodyKey !== undefined && headerKey !== bodyKey) {
    throw new ApiError(400, BatchCode.keyInvalid, 'batch.idempotency_key_mismatch');
  }
  return headerKey ?? bodyKey;
}

/** A request's command id, scoped by account; fresh without a key (such a request is not retried safely). */
export const commandIdOf = (tenantId: string, purpose: string, key: string | undefined) =>
  `${tenantId}:${purpose}:${key ?? randomUUID()}`;

/** A batch id from the path: anything but a uuid is an id nobody has. */
export function batchIdOf(id: string): string {
  if (!isUuid(id)) throw notFound();
  return id.toLowerCase();
}

// ---- names (the scan routes' answers) ----

export { UserAnswer } from '@api/contracts/batches';
export { userAnswer, userNames } from '@projections/batches.queries';
