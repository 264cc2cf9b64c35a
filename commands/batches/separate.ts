import type { BatchDetail, SeparateBody } from '@api/contracts/batches';
import { type BatchState, batchRefusal, batchStreamId, NAME_MAX } from '@domain/batches/batch';
import {
  groupForSeparation,
  planSeparation,
  type SeparableOrder,
  type SeparationBy,
  type SeparationGroup,
} from '@domain/batches/separation';
import type { EventStore } from '@infra/eventstore/port';
import { type Language, translate } from '@infra/i18n';
import { orderStores } from '@projections/orders.queries';
import type { Actor } from '../support/actor';
import { eventIdFor } from '../support/ids';
import { loadBatch } from './batch';
import { type BatchingDeps, createBatches, removeOrdersFromBatch } from './batching';
import { handOverClaims } from './claims';
import { batchDetail, batchIdOf } from './detail';
import { commandIdOf } from './manual';
import { BATCHABLE_STATUSES, liveLines, loadOrdersFacts, type OrderFacts } from './orders';

/**
 * Separates an open batch (domain/batches/separation.ts): the orders of every group but the one that stays are taken
 * out of it and batched anew, a batch per group, with the batch's settings and a name saying the group. Their claims
 * pass straight to the new batches, so nothing else can take them on the way. The request's idempotency key makes a
 * retry finish what the first try began: the orders it moved are read back from the batch's own history.
 */

const separableOf = (facts: OrderFacts): SeparableOrder => ({
  orderId: facts.orderId,
  storeId: facts.storeId,
  shippingProvider: facts.state.shippingProvider,
  paymentMethod: facts.paymentMethod,
  lineCount: liveLines(facts.state).length,
});

/** The orders the separation under `commandId` took out of the batch, if it already did. */
async function movedEarlier(
  store: EventStore,
  tenantId: string,
  batchId: string,
  commandId: string,
): Promise<string[] | null> {
  const first = eventIdFor(commandId, 0);
  for await (const recorded of store.readStream(batchStreamId(tenantId, batchId))) {
    if (recorded.id === first) return (recorded.data as { orderIds: string[] }).orderIds;
  }
  return null;
}

/** The orders a fresh separation moves, checked: by `orders`, each chosen one is in the batch and still movable. */
function plan(
  batch: Exclude<BatchState, { status: 'none' }>,
  facts: ReadonlyMap<string, OrderFacts>,
  body: SeparateBody,
): SeparationGroup[] {
  const movable = (id: string) => {
    const order = facts.get(id);
    return order !== undefined && BATCHABLE_STATUSES.includes(order.state.status);
  };
  if (body.by === 'orders') {
    const chosen = [...new Set(body.order_ids ?? [])];
    for (const orderId of chosen) {
      const order = facts.get(orderId)?.orderNumber ?? orderId;
      if (!batch.orderIds.includes(orderId)) throw batchRefusal('ORDER_NOT_IN_BATCH', { orderId, order });
      if (!movable(orderId)) {
        const status = facts.get(orderId)?.state.status ?? 'trash';
        throw batchRefusal('ORDER_NOT_BATCHABLE', { orderId, order, status });
      }
    }
    return planSeparation(
      chosen.map((id) => separableOf(facts.get(id)!)),
      'orders',
      batch.orderIds.length,
    );
  }
  const candidates = batch.orderIds.filter(movable).map((id) => separableOf(facts.get(id)!));
  return planSeparation(candidates, body.by, batch.orderIds.length);
}

/** What a group's batch is called: the batch's name and the group, in the seller's words. */
async function groupNamer(deps: BatchingDeps, tenantId: string, by: SeparationBy, language: Language) {
  const stores =
    by === 'store'
      ? new Map((await orderStores(deps.db, tenantId)).map((s) => [s.store_id, s.name ?? s.store_id]))
      : new Map<string, string>();
  return (key: string): string | null => {
    if (by === 'orders') return null;
    if (by === 'items') return translate(language, `batch.separation.group.${key}`);
    if (by === 'store') return stores.get(key) ?? key;
    return key || translate(language, `batch.separation.group.none_${by}`);
  };
}

/** Separates the batch; answers it as it is now, then each batch made from it. */
export async function separateBatch(
  deps: BatchingDeps,
  actor: Actor,
  input: { batchId: string; key?: string; body: SeparateBody; language: Language },
): Promise<BatchDetail[]> {
  const { tenantId } = actor;
  const batchId = batchIdOf(input.batchId);
  const { by } = input.body;
  const { state: batch } = await loadBatch(deps.store, tenantId, batchId);
  if (batch.status === 'none') throw batchRefusal('BATCH_NOT_FOUND');
  const commandId = commandIdOf(tenantId, `batch-separate:${batchId}`, input.key);
  const removal = `${commandId}:remove`;
  const groupCommandId = (group: SeparationGroup) => `${commandId}:group:${group.key}`;
  // createBatches makes the group's (only) batch under its first chunk's id.
  const groupBatchId = (group: SeparationGroup) => eventIdFor(`${groupCommandId(group)}:0`);

  const earlier = await movedEarlier(deps.store, tenantId, batchId, removal);
  let groups: SeparationGroup[];
  let facts: Map<string, OrderFacts>;
  if (earlier) {
    facts = await loadOrdersFacts(deps.store, tenantId, earlier);
    const moved = earlier.flatMap((id) => {
      const order = facts.get(id);
      return order ? [separableOf(order)] : [];
    });
    groups = groupForSeparation(moved, by);
  } else {
    if (batch.status === 'closed') throw batchRefusal('BATCH_CLOSED');
    facts = await loadOrdersFacts(deps.store, tenantId, [...batch.orderIds, ...(input.body.order_ids ?? [])]);
    groups = plan(batch, facts, input.body);
    for (const group of groups) {
      await handOverClaims(deps.db, tenantId, batchId, groupBatchId(group), group.orderIds);
    }
    const context = { tenantId, userId: actor.userId, at: new Date().toISOString() };
    await removeOrdersFromBatch(deps, context, {
      commandId: removal,
      batchId,
      orderIds: groups.flatMap((group) => group.orderIds),
    });
  }

  const nameOf = await groupNamer(deps, tenantId, by, input.language);
  const made: string[] = [];
  for (const group of groups) {
    const suffix = nameOf(group.key);
    const name = suffix
      ? `${batch.name.slice(0, Math.max(1, NAME_MAX - suffix.length - 3))} · ${suffix}`
      : batch.name;
    const [created] = await createBatches(
      deps,
      { tenantId, userId: actor.userId, at: new Date().toISOString() },
      {
        commandId: groupCommandId(group),
        orderIds: group.orderIds,
        settings: {
          name: name.slice(0, NAME_MAX),
          prefix: batch.prefix,
          digits: batch.digits,
          type: batch.batchType,
          pickerId: batch.pickerId,
          maxOrders: batch.maxOrders,
          // A batch of one carrier or one payment method says so as a split batch does.
          split: by === 'logistics' ? 'logistics' : by === 'payment' ? 'payment' : 'none',
          date: batch.date,
          source: 'manual',
          configId: null,
        },
      },
    );
    if (created && created.status !== 'none') made.push(created.batchId);
  }
  const answers = [await batchDetail(deps, tenantId, batchId)];
  for (const id of made) answers.push(await batchDetail(deps, tenantId, id));
  return answers;
}
