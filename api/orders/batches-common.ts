import { IDEMPOTENCY_KEY_MAX } from '@api/contracts/idempotency';
import { ApiError } from '@api/errors';
import { idempotencyKeyOf as keyOfRequest } from '@api/idempotency';
import type { WorkflowDeps } from '@api/workflows';
import type { AutoBatchCountTrigger } from '@commands/batches/auto-batch';
import { batchIdOf } from '@commands/batches/detail';
import type { PermissionKey } from '@domain/access/permissions';
import { BatchCode } from '@domain/batches/codes';
import type { Db } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import type { FastifyRequest } from 'fastify';

/** What the batch, auto batch and scan routes share (api/orders/batches.ts): access, idempotency keys, batch ids. */

export const batchTags = ['batches'];
export const scanTags = ['smart-scan'];

export interface BatchDeps {
  db: Db;
  store: EventStore;
  workflows: WorkflowDeps;
  /** The process's auto batch trigger, when it runs one; otherwise the routes make their own. */
  trigger?: AutoBatchCountTrigger;
}

/** Batches and auto batch settings (spec §6 "Orders: … batch"). */
export const BATCH_KEY: PermissionKey = 'orders-batch';
export const batchAccess = { permission: BATCH_KEY } as const;
/** Scanning orders to verify: whoever works the unscan orders, and pickers ("order by task for pickers"). */
export const SCAN_KEYS: readonly PermissionKey[] = ['orders-unscan', 'orders-order-by-task', 'orders-batch'];
/** Changing the bulk scan control: the batch managers, who set how their pickers scan. */
export const SCAN_SETTINGS_KEY: PermissionKey = 'orders-batch';

/** The `Idempotency-Key` header or the body's `idempotency_key` (both given, they must agree). */
export const idempotencyKeyOf = (request: FastifyRequest, bodyKey?: string) =>
  keyOfRequest(request, bodyKey, {
    invalid: () =>
      new ApiError(400, BatchCode.keyInvalid, 'batch.idempotency_key_invalid', { max: IDEMPOTENCY_KEY_MAX }),
    mismatch: () => new ApiError(400, BatchCode.keyInvalid, 'batch.idempotency_key_mismatch'),
  });

/** The batch of the path and the request's idempotency key, with its body: what a change of a batch takes. */
export function batchChangeOf<Body extends { idempotency_key?: string } | undefined>(
  request: FastifyRequest & { params: { id: string } },
  body: Body,
) {
  return {
    batchId: batchIdOf(request.params.id),
    key: idempotencyKeyOf(request, body?.idempotency_key),
    body,
  };
}

export { userAnswer, userNames } from '@projections/batches.queries';
