import type { BatchDetail } from '@api/contracts/batches';
import { dayIn, timezoneOfCountry } from '@domain/batches/auto-batch';
import {
  type BatchSplit,
  type BatchType,
  batchingErrors,
  DEFAULT_DIGITS,
  DEFAULT_MAX_ORDERS,
  DEFAULT_PREFIX,
} from '@domain/batches/batch';
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

export interface ManualBatchInput {
  commandId: string;
  orderIds: readonly string[];
  name?: string;
  prefix?: string;
  digits?: number;
  type?: BatchType;
  pickerId?: string | null;
  maxOrders?: number;
  split?: BatchSplit;
  /** The day the batch is for; today in the account's time zone when not given. */
  date?: string;
}

/** Batches a selection by hand: one batch or several (split, then cut at the most orders per batch). */
export async function createBatchesByHand(
  deps: BatchingDeps,
  actor: Actor,
  input: ManualBatchInput,
): Promise<BatchDetail[]> {
  const now = new Date();
  const made = await createBatches(
    deps,
    { tenantId: actor.tenantId, userId: actor.userId, at: now.toISOString() },
    {
      commandId: input.commandId,
      orderIds: input.orderIds,
      settings: {
        name: input.name || null,
        prefix: input.prefix ?? DEFAULT_PREFIX,
        digits: input.digits ?? DEFAULT_DIGITS,
        type: input.type ?? 'normal',
        pickerId: await pickerOf(deps.db, actor.tenantId, input.pickerId ?? null),
        maxOrders: input.maxOrders ?? DEFAULT_MAX_ORDERS,
        split: input.split ?? 'none',
        date: input.date ?? dayIn(await tenantTimezone(deps.db, actor.tenantId), now),
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

export interface BatchOrdersInput {
  commandId: string;
  batchId: string;
  orderIds: readonly string[];
}

/** Adds orders to an open batch (the rules of making one hold, and its most orders). */
export async function addOrdersByHand(deps: BatchingDeps, actor: Actor, input: BatchOrdersInput) {
  await addOrdersToBatch(
    deps,
    { tenantId: actor.tenantId, userId: actor.userId, at: new Date().toISOString() },
    input,
  );
  return batchDetail(deps, actor.tenantId, input.batchId);
}

/** Takes orders out of an open batch: they may be batched again. */
export async function removeOrdersByHand(deps: BatchingDeps, actor: Actor, input: BatchOrdersInput) {
  await removeOrdersFromBatch(
    deps,
    { tenantId: actor.tenantId, userId: actor.userId, at: new Date().toISOString() },
    input,
  );
  return batchDetail(deps, actor.tenantId, input.batchId);
}

/** Gives the batch to a picker (an active user of the account), or to nobody. */
export async function assignBatchPicker(
  deps: BatchingDeps,
  actor: Actor,
  input: { commandId: string; batchId: string; pickerId: string | null },
): Promise<BatchDetail> {
  await batchDetail(deps, actor.tenantId, input.batchId);
  const pickerId = await pickerOf(deps.db, actor.tenantId, input.pickerId);
  await handleBatchCommand(
    deps.store,
    input.batchId,
    { type: 'AssignPicker', pickerId },
    {
      tenantId: actor.tenantId,
      userId: actor.userId,
      commandId: input.commandId,
      occurredAt: new Date().toISOString(),
    },
  );
  return batchDetail(deps, actor.tenantId, input.batchId);
}

/** Closes the batch: the round is done (its orders keep their batch). */
export async function closeBatch(
  deps: BatchingDeps,
  actor: Actor,
  input: { commandId: string; batchId: string },
): Promise<BatchDetail> {
  await batchDetail(deps, actor.tenantId, input.batchId);
  await handleBatchCommand(
    deps.store,
    input.batchId,
    { type: 'CloseBatch' },
    {
      tenantId: actor.tenantId,
      userId: actor.userId,
      commandId: input.commandId,
      occurredAt: new Date().toISOString(),
    },
  );
  return batchDetail(deps, actor.tenantId, input.batchId);
}
