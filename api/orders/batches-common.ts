import { randomUUID } from 'node:crypto';
import { seller } from '@api/auth/session';
import { IDEMPOTENCY_KEY_MAX, IdempotencyKey } from '@api/contracts/batches';
import { ApiError, forbidden, notFound } from '@api/errors';
import type { WorkflowDeps } from '@api/workflows';
import type { AutoBatchCountTrigger } from '@commands/batches/auto-batch';
import type { PermissionKey } from '@domain/access/permissions';
import { BatchCode } from '@domain/batches/codes';
import { isUuid } from '@domain/platform/ids';
import { type DomainError, refusalOf } from '@domain/shared/errors';
import type { Db } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import { translate } from '@infra/i18n';
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

import { orderNumbers } from '@projections/batches.queries';

// ---- the domain's refusals as answers ----

type Refusal = { status: number; code: number; key: string } | 'not-found';

// Scanning's refusals (domain/scan/check.ts, commands/scan/check.ts) until scanning has its own error table; the
// batch's refusals carry theirs (domain/batches/batch.ts) and go to the app's error handler as they are.
const refusalsByCode: Record<string, Refusal> = {
  ORDER_NOT_FOUND: 'not-found',
  // scanning (domain/scan/check.ts, commands/scan/check.ts)
  ITEM_CODE_REQUIRED: { status: 400, code: BatchCode.itemCodeRequired, key: 'batch.scan.item_code_required' },
  ITEM_CODE_INVALID: { status: 400, code: BatchCode.itemCodeInvalid, key: 'batch.scan.item_code_invalid' },
  CHECK_IN_PROGRESS: { status: 409, code: BatchCode.checking, key: 'batch.scan.checking' },
  ALREADY_SCANNED: { status: 409, code: BatchCode.checking, key: 'batch.scan.checking' },
  ORDER_NOT_READY: { status: 409, code: BatchCode.orderNotReady, key: 'batch.scan.order_not_ready' },
  NOTHING_TO_SCAN: { status: 409, code: BatchCode.nothingToScan, key: 'batch.scan.nothing_to_scan' },
  CHECK_NOT_OPEN: { status: 409, code: BatchCode.checkNotOpen, key: 'batch.scan.check_not_open' },
  NOT_IN_BATCH: { status: 400, code: BatchCode.notInBatch, key: 'batch.scan.not_in_batch' },
};

/**
 * A refusal of the domain as the answer it means, with its words in the caller's language: order statuses and
 * batch types translated, orders named by their number. Undefined for a code that is not ours (the caller rethrows).
 */
export async function refusalAnswer(
  request: FastifyRequest,
  db: Db,
  tenantId: string,
  error: DomainError,
): Promise<ApiError | undefined> {
  const refusal = refusalsByCode[error.code];
  if (!refusal) return undefined;
  if (refusal === 'not-found') return notFound();
  const words: Record<string, string | number> = { ...error.params };
  if (typeof error.params.orderId === 'string' && words.order === undefined) {
    words.order = (await orderNumbers(db, tenantId, [error.params.orderId])).get(error.params.orderId) ?? '';
  }
  if (typeof error.params.status === 'string') {
    words.status = translate(request.language, `batch.order_status.${error.params.status}`);
  }
  return new ApiError(refusal.status, refusal.code, refusal.key, words);
}

/** Runs `work`, answering a DomainError of scanning with its refusal. */
export async function answeringRefusals<T>(
  request: FastifyRequest,
  db: Db,
  tenantId: string,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const refused = refusalOf(error);
    if (refused && !refused.refusal) {
      const answer = await refusalAnswer(request, db, tenantId, refused);
      if (answer) throw answer;
    }
    throw error;
  }
}
