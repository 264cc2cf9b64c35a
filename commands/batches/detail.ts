import type { BatchAnswer, BatchDetail } from '@api/contracts/batches';
import { type BatchState, batchRefusal } from '@domain/batches/batch';
import { isUuid } from '@domain/platform/ids';
import type { Database } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import { SCANNED_STATUSES } from '@projections/batches';
import { batchOrders, userAnswer, userNames } from '@projections/batches.queries';
import type { Kysely } from 'kysely';
import { loadBatch } from './batch';

/**
 * A batch as its stream has it (never behind a change just made), its orders as the order board has them, and its
 * history: what every change of a batch answers with.
 */

export interface BatchReadDeps {
  db: Kysely<Database>;
  store: EventStore;
}

/** The batch, or undefined when the account has no such batch. */
export async function findBatchDetail(
  deps: BatchReadDeps,
  tenantId: string,
  batchId: string,
): Promise<BatchDetail | undefined> {
  const { state, timeline } = await loadBatch(deps.store, tenantId, batchId);
  if (state.status === 'none') return undefined;
  const orders = await batchOrders(deps.db, tenantId, state.orderIds);
  const names = await userNames(deps.db, tenantId, [
    state.pickerId,
    ...timeline.map((entry) => entry.userId),
  ]);
  const created = timeline[0];
  const closed = [...timeline].reverse().find((entry) => entry.type === 'BatchClosed');
  return {
    ...batchAnswerOfState(state, names, {
      createdBy: created?.userId ?? null,
      createdAt: created?.at ?? new Date(0).toISOString(),
      closedAt: closed?.at ?? null,
      scanned: orders.filter((order) => (SCANNED_STATUSES as readonly string[]).includes(order.status ?? ''))
        .length,
    }),
    orders,
    timeline: timeline.map((entry) => ({
      type: entry.type,
      at: entry.at,
      user: userAnswer(names, entry.userId),
      data: entry.data as Record<string, unknown>,
    })),
  };
}

/** A batch id as asked for (a path's): anything but a uuid is a batch nobody has. */
export function batchIdOf(id: string): string {
  if (!isUuid(id)) throw batchRefusal('BATCH_NOT_FOUND');
  return id.toLowerCase();
}

/** The batch; a batch the account does not have is refused as not found. */
export async function batchDetail(
  deps: BatchReadDeps,
  tenantId: string,
  batchId: string,
): Promise<BatchDetail> {
  const detail = await findBatchDetail(deps, tenantId, batchIdOf(batchId));
  if (!detail) throw batchRefusal('BATCH_NOT_FOUND');
  return detail;
}

function batchAnswerOfState(
  state: Exclude<BatchState, { status: 'none' }>,
  names: ReadonlyMap<string, string>,
  extra: { createdBy: string | null; createdAt: string; closedAt: string | null; scanned: number },
): BatchAnswer {
  return {
    id: state.batchId,
    number: state.number,
    label: state.label,
    name: state.name,
    type: state.batchType,
    status: state.status,
    picker: userAnswer(names, state.pickerId),
    date: state.date,
    max_orders: state.maxOrders,
    split: state.split,
    group: state.group,
    source: state.source,
    config_id: state.configId,
    total_orders: state.orderIds.length,
    scanned_orders: extra.scanned,
    created_by: userAnswer(names, extra.createdBy),
    created_at: extra.createdAt,
    closed_at: extra.closedAt,
  };
}
