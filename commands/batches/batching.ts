import {
  type BatchErrorCode,
  type BatchSource,
  type BatchSplit,
  type BatchState,
  type BatchType,
  batchLabel,
  batchRefusal,
  planBatches,
} from '@domain/batches/batch';
import { refusalOf } from '@domain/shared/errors';
import { inTurns } from '@infra/concurrency';
import type { Database } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import type { Kysely } from 'kysely';
import { handleOrderCommand } from '../orders/order';
import { eventIdFor } from '../support/ids';
import { handleBatchCommand, loadBatch } from './batch';
import { claimOrders, confirmClaims, nextBatchNumber, releaseClaims } from './claims';
import { BATCHABLE_STATUSES, loadOrdersFacts, type OrderFacts } from './orders';

/**
 * Making batches and changing what they hold. Each step is idempotent by its command id, so a retried request or
 * activity makes the same batches once: a batch's id derives from the command id of its making, its orders are
 * claimed for it (claims.ts) before it is recorded, and each order is told its batch with the order's own command
 * (AssignBatch) under a command id derived from the batch's.
 */

export interface BatchingDeps {
  store: EventStore;
  db: Kysely<Database>;
}

export interface BatchSettings {
  /** Null: the batch is named by its number. */
  name: string | null;
  prefix: string;
  digits: number;
  type: BatchType;
  pickerId: string | null;
  maxOrders: number;
  split: BatchSplit;
  /** The day the batch is for, `yyyy-mm-dd`. */
  date: string;
  source: BatchSource;
  configId: string | null;
}

export interface BatchingContext {
  tenantId: string;
  userId?: string;
  /** When the change happens (ISO instant): every event of it carries this time. */
  at: string;
}

type Problem = { code: BatchErrorCode; params: Record<string, string | number> };

const refuse = (problem: Problem) => batchRefusal(problem.code, problem.params);

/** Why an order cannot join a batch of `type` (null: it can). Orders already in one of `own` are fine (a retry). */
export function batchingProblem(
  orderId: string,
  facts: OrderFacts | undefined,
  type: BatchType,
  own: ReadonlySet<string>,
): Problem | null {
  if (!facts) return { code: 'ORDER_NOT_FOUND', params: { orderId } };
  const order = facts.orderNumber;
  if (facts.state.batchId !== null) {
    return own.has(facts.state.batchId)
      ? null
      : { code: 'ORDER_ALREADY_IN_BATCH', params: { orderId, order } };
  }
  if (!BATCHABLE_STATUSES.includes(facts.state.status)) {
    return { code: 'ORDER_NOT_BATCHABLE', params: { orderId, order, status: facts.state.status } };
  }
  if (facts.preOrder !== (type === 'pre-order')) {
    return { code: 'ORDER_TYPE_MISMATCH', params: { orderId, order, type } };
  }
  return null;
}

const waitingSince = (facts: OrderFacts) => facts.state.paidAt ?? facts.orderedAt;

/** Oldest first (paid, else ordered), then by number: the order batches are filled in. */
export const byWaitingTime = (a: OrderFacts, b: OrderFacts) =>
  waitingSince(a).localeCompare(waitingSince(b)) || a.orderNumber.localeCompare(b.orderNumber);

/**
 * Records one batch of orders already claimed for it, and tells each order its batch. An order that can no longer
 * take a batch (cancelled meanwhile) is taken out again. Returns the batch as recorded (the first time, on a retry).
 */
async function recordBatch(
  deps: BatchingDeps,
  context: BatchingContext,
  batchCommandId: string,
  settings: BatchSettings,
  group: string | null,
  orders: readonly OrderFacts[],
): Promise<BatchState> {
  const batchId = eventIdFor(batchCommandId);
  const documentContext = {
    tenantId: context.tenantId,
    userId: context.userId,
    occurredAt: context.at,
  };
  let { state } = await loadBatch(deps.store, context.tenantId, batchId);
  if (state.status === 'none') {
    const number = await nextBatchNumber(deps.db, context.tenantId);
    const label = batchLabel(settings.prefix, number, settings.digits);
    const created = await handleBatchCommand(
      deps.store,
      batchId,
      {
        type: 'CreateBatch',
        batchId,
        number,
        label,
        name: settings.name?.trim() || label,
        prefix: settings.prefix,
        digits: settings.digits,
        batchType: settings.type,
        pickerId: settings.pickerId,
        date: settings.date,
        maxOrders: settings.maxOrders,
        split: settings.split,
        group,
        source: settings.source,
        configId: settings.configId,
        orders: orders.map((order) => ({ orderId: order.orderId, preOrder: order.preOrder })),
      },
      { ...documentContext, commandId: batchCommandId },
    );
    state = created.state;
  }
  if (state.status === 'none') return state;
  await confirmClaims(deps.db, context.tenantId, batchId, state.orderIds);
  const dropped = await assignOrders(deps, context, batchId, batchCommandId, state.orderIds);
  if (dropped.length > 0) {
    const removed = await handleBatchCommand(
      deps.store,
      batchId,
      { type: 'RemoveOrders', orderIds: dropped },
      { ...documentContext, commandId: `${batchCommandId}:drop` },
    );
    await releaseClaims(deps.db, context.tenantId, batchId, dropped);
    state = removed.state;
  }
  return state;
}

/** Tells each order its batch; answers the orders that refused (no longer new or unscan). */
async function assignOrders(
  deps: BatchingDeps,
  context: BatchingContext,
  batchId: string | null,
  commandPrefix: string,
  orderIds: readonly string[],
): Promise<string[]> {
  const refused: string[] = [];
  await inTurns(orderIds, async (orderId) => {
    try {
      await handleOrderCommand(
        deps.store,
        orderId,
        { type: 'AssignBatch', batchId },
        {
          tenantId: context.tenantId,
          userId: context.userId,
          commandId: `${commandPrefix}:assign:${orderId}`,
          occurredAt: context.at,
        },
      );
    } catch (error) {
      if (refusalOf(error)) refused.push(orderId);
      else throw error;
    }
  });
  return refused;
}

/**
 * Batches a selection of orders (by hand): every order must be the account's, new or unscan, in no batch, and of the
 * batch's type — or nothing is made. Split by logistics or payment method, then cut at the most orders per batch:
 * one batch or several. The command id is the idempotency key of the whole selection.
 */
export async function createBatches(
  deps: BatchingDeps,
  context: BatchingContext,
  input: { commandId: string; orderIds: readonly string[]; settings: BatchSettings },
): Promise<BatchState[]> {
  const { settings } = input;
  const orderIds = [...new Set(input.orderIds)];
  if (orderIds.length === 0) throw batchRefusal('ORDERS_REQUIRED');
  const chunkCommandId = (index: number) => `${input.commandId}:${index}`;
  const own = new Set(orderIds.map((_, index) => eventIdFor(chunkCommandId(index))));
  const facts = await loadOrdersFacts(deps.store, context.tenantId, orderIds);
  for (const orderId of orderIds) {
    const problem = batchingProblem(orderId, facts.get(orderId), settings.type, own);
    if (problem) throw refuse(problem);
  }
  const orders = orderIds.map((id) => facts.get(id)!).sort(byWaitingTime);
  const plan = planBatches(
    orders.map((order) => ({
      ...order,
      shippingProvider: order.state.shippingProvider,
      paymentMethod: order.paymentMethod,
    })),
    { split: settings.split, maxOrders: settings.maxOrders },
  );

  // Every order claimed first: a selection another batch took part of meanwhile makes nothing.
  const claimedFor: { batchId: string; orderIds: string[] }[] = [];
  for (const [index, chunk] of plan.entries()) {
    const batchId = eventIdFor(chunkCommandId(index));
    const ids = chunk.orders.map((order) => order.orderId);
    const { claimed, taken } = await claimOrders(deps.db, context.tenantId, batchId, ids);
    claimedFor.push({ batchId, orderIds: claimed });
    if (taken.length > 0) {
      for (const entry of claimedFor) {
        const { state } = await loadBatch(deps.store, context.tenantId, entry.batchId);
        if (state.status === 'none')
          await releaseClaims(deps.db, context.tenantId, entry.batchId, entry.orderIds);
      }
      const order = facts.get(taken[0]!)?.orderNumber ?? taken[0]!;
      throw batchRefusal('ORDER_ALREADY_IN_BATCH', { orderId: taken[0]!, order });
    }
  }

  const batches: BatchState[] = [];
  for (const [index, chunk] of plan.entries()) {
    batches.push(
      await recordBatch(deps, context, chunkCommandId(index), settings, chunk.group, chunk.orders),
    );
  }
  return batches;
}

/**
 * Batches orders an auto batch planned (workflows/auto-batch.workflow.ts), leaving out those that can no longer be
 * batched or another batch took meanwhile; nothing is made when none is left. Null: no batch.
 */
export async function createPlannedBatch(
  deps: BatchingDeps,
  context: BatchingContext,
  input: {
    batchCommandId: string;
    orderIds: readonly string[];
    group: string | null;
    settings: BatchSettings;
  },
): Promise<BatchState | null> {
  const batchId = eventIdFor(input.batchCommandId);
  const { state: existing } = await loadBatch(deps.store, context.tenantId, batchId);
  if (existing.status !== 'none') {
    return recordBatch(deps, context, input.batchCommandId, input.settings, input.group, []);
  }
  const facts = await loadOrdersFacts(deps.store, context.tenantId, input.orderIds);
  const own = new Set([batchId]);
  const fit = input.orderIds.filter(
    (orderId) => batchingProblem(orderId, facts.get(orderId), input.settings.type, own) === null,
  );
  const { claimed } = await claimOrders(deps.db, context.tenantId, batchId, fit);
  if (claimed.length === 0) return null;
  const orders = claimed.map((id) => facts.get(id)!).sort(byWaitingTime);
  return recordBatch(deps, context, input.batchCommandId, input.settings, input.group, orders);
}

/** Adds orders to an open batch (by hand): the same rules as making one; the batch's most orders hold. */
export async function addOrdersToBatch(
  deps: BatchingDeps,
  context: BatchingContext,
  input: { commandId: string; batchId: string; orderIds: readonly string[] },
): Promise<BatchState> {
  const orderIds = [...new Set(input.orderIds)];
  if (orderIds.length === 0) throw batchRefusal('ORDERS_REQUIRED');
  const { state: batch } = await loadBatch(deps.store, context.tenantId, input.batchId);
  if (batch.status === 'none') throw batchRefusal('BATCH_NOT_FOUND');
  if (batch.status === 'closed') throw batchRefusal('BATCH_CLOSED');
  const facts = await loadOrdersFacts(deps.store, context.tenantId, orderIds);
  const own = new Set([input.batchId]);
  for (const orderId of orderIds) {
    const problem = batchingProblem(orderId, facts.get(orderId), batch.batchType, own);
    if (problem) throw refuse(problem);
  }
  const { claimed, taken } = await claimOrders(deps.db, context.tenantId, input.batchId, orderIds);
  const release = () =>
    releaseClaims(
      deps.db,
      context.tenantId,
      input.batchId,
      claimed.filter((id) => !batch.orderIds.includes(id)),
    );
  if (taken.length > 0) {
    await release();
    throw batchRefusal('ORDER_ALREADY_IN_BATCH', {
      orderId: taken[0]!,
      order: facts.get(taken[0]!)?.orderNumber ?? taken[0]!,
    });
  }
  let result: Awaited<ReturnType<typeof handleBatchCommand>>;
  try {
    result = await handleBatchCommand(
      deps.store,
      input.batchId,
      {
        type: 'AddOrders',
        orders: orderIds.map((id) => ({ orderId: id, preOrder: facts.get(id)!.preOrder })),
      },
      {
        tenantId: context.tenantId,
        userId: context.userId,
        commandId: input.commandId,
        occurredAt: context.at,
      },
    );
  } catch (error) {
    await release();
    throw error;
  }
  await confirmClaims(deps.db, context.tenantId, input.batchId, orderIds);
  const dropped = await assignOrders(deps, context, input.batchId, input.commandId, orderIds);
  if (dropped.length === 0) return result.state;
  return removeOrdersFromBatch(deps, context, {
    commandId: `${input.commandId}:drop`,
    batchId: input.batchId,
    orderIds: dropped,
  });
}

/** Takes orders out of an open batch: they may be batched again. */
export async function removeOrdersFromBatch(
  deps: BatchingDeps,
  context: BatchingContext,
  input: { commandId: string; batchId: string; orderIds: readonly string[] },
): Promise<BatchState> {
  const orderIds = [...new Set(input.orderIds)];
  const result = await handleBatchCommand(
    deps.store,
    input.batchId,
    { type: 'RemoveOrders', orderIds },
    {
      tenantId: context.tenantId,
      userId: context.userId,
      commandId: input.commandId,
      occurredAt: context.at,
    },
  );
  const removed = result.events.flatMap((event) =>
    event.type === 'BatchOrdersRemoved' ? event.data.orderIds : [],
  );
  // The order forgets its batch only if it is still this one's.
  const facts = await loadOrdersFacts(deps.store, context.tenantId, removed);
  const stillOurs = removed.filter((id) => facts.get(id)?.state.batchId === input.batchId);
  await assignOrders(deps, context, null, input.commandId, stillOurs);
  await releaseClaims(deps.db, context.tenantId, input.batchId, removed);
  return result.state;
}
