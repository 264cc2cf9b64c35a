import { randomUUID } from 'node:crypto';
import { type SellerSession, seller } from '@api/auth/session';
import { IDEMPOTENCY_KEY_MAX } from '@api/contracts/purchases';
import { ApiError } from '@api/errors';
import { idempotencyKeyOf } from '@api/idempotency';
import type { WorkflowDeps } from '@api/workflows';
import type { PurchasingDeps } from '@commands/purchases/actions';
import type { Viewer } from '@commands/purchases/details';
import { wholeStore } from '@commands/support/document';
import { eventIdFor } from '@commands/support/ids';
import { PurchaseCode } from '@domain/purchases/codes';
import type { Db } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import type { FastifyRequest } from 'fastify';

/** What the purchasing routes share (api/purchases/index.ts lists them): who acts, and the idempotency key. */

export interface PurchaseDeps {
  db: Db;
  /** The app's event store (AppDeps types only what /api/health reads). */
  store: Pick<EventStore, 'kind'>;
  workflows: WorkflowDeps;
}

export const tags = ['purchases'];
export const viewing = { permission: 'purchases-index' } as const;
export const managing = { permission: 'purchases-manage' } as const;

/** The deps as the purchasing commands take them. */
export const commandDeps = ({ db, store, workflows }: PurchaseDeps): PurchasingDeps => ({
  db,
  store: wholeStore(store, 'purchase'),
  workflows,
});

/** Who acts or reads: without purchases-manage, a detail offers no action. */
export const viewerOf = (request: FastifyRequest): Viewer => {
  const session: SellerSession = seller(request);
  return {
    tenantId: session.tenantId,
    userId: session.userId,
    owner: session.kind === 'owner',
    manages: session.permissions.has('purchases-manage'),
  };
};

/**
 * The id of a document a request creates: derived from the `Idempotency-Key` header (or the body's
 * `idempotency_key`) and the tenant, so a retried request names the same document and creates nothing twice; a fresh
 * id without a key.
 */
export function documentIdOf(request: FastifyRequest, kind: string, bodyKey: string | undefined): string {
  const key = idempotencyKeyOf(request, bodyKey, {
    invalid: () =>
      new ApiError(400, PurchaseCode.keyInvalid, 'purchases.idempotency_key_invalid', {
        max: IDEMPOTENCY_KEY_MAX,
      }),
  });
  return key === undefined ? randomUUID() : eventIdFor(`${kind}:${seller(request).tenantId}:${key}`);
}
