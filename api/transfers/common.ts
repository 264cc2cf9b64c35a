import { ApiError, notFound } from '@api/errors';
import { IDEMPOTENCY_KEY_MAX, idempotencyKeyOf as keyOf } from '@api/idempotency';
import { wholeStore } from '@commands/support/document';
import type { TransferDeps } from '@commands/transfers/support';
import type { PermissionKey } from '@domain/access/permissions';
import { isUuid } from '@domain/platform/ids';
import { TransferCode } from '@domain/transfers/rules';
import type { EventStore } from '@infra/eventstore/port';
import type { WorkflowDeps } from '@workflows/updates';
import type { FastifyRequest } from 'fastify';

/** What the transfer routes share (index.ts has the route list): their deps, who reads, ids and the idempotency key. */

export const tags = ['transfer-stock'];

export interface TransferRouteDeps {
  db: TransferDeps['db'];
  /** The app's event store (AppDeps types only what /api/health reads): the use cases need it whole. */
  store: Pick<EventStore, 'kind'>;
  workflows: WorkflowDeps;
}

/** The deps of the use cases (commands/transfers/). */
export const commandDeps = (deps: TransferRouteDeps): TransferDeps => ({
  db: deps.db,
  store: wholeStore(deps.store, 'transfer'),
  workflows: deps.workflows,
});

export const REQUEST_READERS: readonly PermissionKey[] = [
  'transfer-manage-request',
  'transfer-approve-request',
];
export const TRANSFER_READERS: readonly PermissionKey[] = [
  'transfer-manage-transfer',
  'transfer-manage-request',
  'transfer-approve-request',
];

export { IdParams } from '@api/contracts/ids';
/** Read routes several roles need: any of `keys` will do (the route declares 'seller'). */
export { requireAny } from '@api/inventory/common';

/** A document id from the path: anything but a uuid is an id nobody has. */
export function documentId(id: string): string {
  if (!isUuid(id)) throw notFound();
  return id.toLowerCase();
}

/**
 * The idempotency key of a request: the `Idempotency-Key` header or the body's `idempotency_key` (both given, they
 * must agree); undefined without one.
 */
export const idempotencyKeyOf = (request: FastifyRequest, bodyKey?: string) =>
  keyOf(request, bodyKey, {
    invalid: () =>
      new ApiError(400, TransferCode.keyInvalid, 'transfer.idempotency_key_invalid', {
        max: IDEMPOTENCY_KEY_MAX,
      }),
    mismatch: () => new ApiError(400, TransferCode.keyInvalid, 'transfer.idempotency_key_mismatch'),
  });

/** A new document's fields from its body. */
export const newDocumentOf = (
  request: FastifyRequest,
  body: {
    from_warehouse_id: string;
    to_warehouse_id: string;
    reference?: string | undefined;
    remark?: string | undefined;
    lines: { master_code_id: string; quantity: number }[];
    idempotency_key?: string | undefined;
  },
) => ({
  key: idempotencyKeyOf(request, body.idempotency_key),
  fromWarehouseId: body.from_warehouse_id,
  toWarehouseId: body.to_warehouse_id,
  reference: body.reference,
  remark: body.remark,
  lines: body.lines.map((line) => ({ masterCodeId: line.master_code_id, quantity: line.quantity })),
});
