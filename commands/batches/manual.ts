import { randomUUID } from 'node:crypto';
import type {
  ActionBody,
  BatchDetail,
  BatchOrdersBody,
  CreateBatchesBody,
  PickerBody,
} from '@api/contracts/batches';
import { dayIn, timezoneOfCountry } from '@domain/batches/auto-batch';
import { batchingErrors, DEFAULT_DIGITS, DEFAULT_MAX_ORDERS, DEFAULT_PREFIX } from '@domain/batches/batch';
import { refuser } from '@domain/shared/errors';
import type { Database } from '@infra/db';
import { activeUserId, tenantCountry } from '@projections/batches.queries';
import type { Kysely } from 'kysely';
import type { Actor } from '../support/actor';
import { handleBatchCommand } from './batch';
import { addOrdersToBatch, type BatchingDeps, createBatches, removeOrdersFromBatch } from './batching';
import { batchDetail } from './detail';

/**
 * Batches made and changed by hand (the console's batch screens): each use case checks what the request names,
 * runs the batching or the batch's own command under the request's command id, and answers the batch(es) as they
 * are now. Auto batch makes its batches through the same batching (commands/batches/auto-batch.ts).
 */

const refuse = refuser(batchingErrors);

/** The picker of a batch: an active user of the account (another account's user is not one). */
async function pickerOf(
  db: Kysely<Database>,
  tenantId: string,
  pickerId: string | null,
): Promise<string | null> {
  if (pickerId === null) return null;
  const id = await activeUserId(db, tenantId, pickerId);
  if (!id) throw refuse('PICKER_INVALID');
  return id;
}

/** The account's time zone, from its country: what "today" means for a batch's date. */
export async function tenantTimezone(db: Kysely<Database>, tenantId: string): Promise<string> {
  return timezoneOfCountry(await tenantCountry(db, tenantId));
}

/** A request's command id, scoped by account; fresh without a key (such a request is not retried safely). */
export const commandIdOf = (tenantId: string, purpose: string, key: string | undefined) =>
  `${tenantId}:${purpose}:${key ?? randomUUID()}`;

/** A change of a batch by hand: the batch, the request's idempotency key and its body. */
export interface BatchChange<Body> {
  batchId: string;
  key?: string;
  body: Body;
}

const contextOf = (actor: Actor) => ({
  tenantId: actor.tenantId,
  userId: actor.userId,
  at: new Date().toISOString(),
});

/** Batches a selection by hand: one batch or several (split, then cut at the most orders per batch). */
export async function createBatchesByHand(
  deps: BatchingDeps,
  actor: Actor,
  { body, key }: { body: CreateBatchesBody; key?: string },
): Promise<BatchDetail[]> {
  const now = new Date();
  const made = await createBatches(
    deps,
    { tenantId: actor.tenantId, userId: actor.userId, at: now.toISOString() },
    {
      commandId: commandIdOf(actor.tenantId, 'batch-create', key),
      orderIds: body.order_ids,
      settings: {
        name: body.name || null,
        prefix: body.prefix ?? DEFAULT_PREFIX,
        digits: body.digits ?? DEFAULT_DIGITS,
        type: body.type ?? 'normal',
        pickerId: await pickerOf(deps.db, actor.tenantId, body.picker_id ?? null),
        maxOrders: body.max_orders ?? DEFAULT_MAX_ORDERS,
        split: body.split ?? 'none',
        // The day the batch is for; today in the account's time zone when not given.
        date: body.date ?? dayIn(await tenantTimezone(deps.db, actor.tenantId), now),
        source: 'manual',
        configId: null,
      },
    },
  );
  const batches: BatchDetail[] = [];
  for (const batch of made) {
    if (batch.status !== 'none') batches.push(await batchDetail(deps, actor.tenantId, batch.batchId));
  }
  return batches;
}

/** Adds orders to an open batch (the rules of making one hold, and its most orders). */
export async function addOrdersByHand(deps: BatchingDeps, actor: Actor, input: BatchChange<BatchOrdersBody>) {
  const { batchId, key, body } = input;
  const commandId = commandIdOf(actor.tenantId, `batch-add:${batchId}`, key);
  await addOrdersToBatch(deps, contextOf(actor), { commandId, batchId, orderIds: body.order_ids });
  return batchDetail(deps, actor.tenantId, batchId);
}

/** Takes orders out of an open batch: they may be batched again. */
export async function removeOrdersByHand(
  deps: BatchingDeps,
  actor: Actor,
  input: BatchChange<BatchOrdersBody>,
) {
  const { batchId, key, body } = input;
  const commandId = commandIdOf(actor.tenantId, `batch-remove:${batchId}`, key);
  await removeOrdersFromBatch(deps, contextOf(actor), { commandId, batchId, orderIds: body.order_ids });
  return batchDetail(deps, actor.tenantId, batchId);
}

/** Runs the batch's own command under the request's command id; answers the batch after it. */
async function changeBatch(
  deps: BatchingDeps,
  actor: Actor,
  batchId: string,
  commandId: string,
  command: Parameters<typeof handleBatchCommand>[2],
): Promise<BatchDetail> {
  await handleBatchCommand(deps.store, batchId, command, {
    tenantId: actor.tenantId,
    userId: actor.userId,
    commandId,
    occurredAt: new Date().toISOString(),
  });
  return batchDetail(deps, actor.tenantId, batchId);
}

/** Gives the batch to a picker (an active user of the account), or to nobody. */
export async function assignBatchPicker(
  deps: BatchingDeps,
  actor: Actor,
  { batchId, key, body }: BatchChange<PickerBody>,
): Promise<BatchDetail> {
  await batchDetail(deps, actor.tenantId, batchId);
  const pickerId = await pickerOf(deps.db, actor.tenantId, body.picker_id);
  const commandId = commandIdOf(actor.tenantId, `batch-picker:${batchId}`, key);
  return changeBatch(deps, actor, batchId, commandId, { type: 'AssignPicker', pickerId });
}

/** Closes the batch: the round is done (its orders keep their batch). */
export async function closeBatch(
  deps: BatchingDeps,
  actor: Actor,
  { batchId, key }: BatchChange<ActionBody>,
): Promise<BatchDetail> {
  await batchDetail(deps, actor.tenantId, batchId);
  return changeBatch(deps, actor, batchId, commandIdOf(actor.tenantId, `batch-close:${batchId}`, key), {
    type: 'CloseBatch',
  });
}
