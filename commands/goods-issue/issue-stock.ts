import { GIN_STATUS, type GinStockLine, refuseGoodsIssue } from '@domain/goods-issue/decider';
import type { GinEvent } from '@domain/goods-issue/events';
import { movementReason } from '@domain/inventory/movement-reasons';
import { evolve as evolveStock, initialState, type StockEvent, stockStreamId } from '@domain/inventory/stock';
import { refusalOf } from '@domain/shared/errors';
import type { Database } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import type { Kysely } from 'kysely';
import { handleStockCommand } from '../inventory/stock';
import { eventIdFor } from '../support/ids';
import { handleGoodsIssueCommand, loadGoodsIssue } from './goods-issue';

/**
 * Issues the stock of an approved goods issue note: each line is written off the note's warehouse
 * (WriteOffStock, source {type:'gin', id}, the note's reason), then the note records Complete. All lines or none:
 *
 * - While the account refuses negative manual stock (inventory setting refuse_negative_manual, default on), the
 *   lines are checked against the stock first; a line short of stock fails the whole issue before anything moves,
 *   and the note records GinIssueFailed with each short line (quantity asked, on hand). The note stays Approved,
 *   showing the failure, until stock arrives and someone retries (or its creator cancels it).
 * - Should the stock fall between the check and a write-off (a sale at the same instant), the lines already
 *   written off are put back (AdjustStock add, the same source) and the failure is recorded the same way.
 *
 * Every movement's command id is `<workflowId>:issue-<attempt>:<out|back>:<masterCodeId>@<warehouseId>`, so an
 * activity retried after a crash moves each line once; a later attempt (after a failure) has ids of its own.
 */

export interface IssueStockInput {
  tenantId: string;
  ginId: string;
  workflowId: string;
  attempt: number;
  /** When the issue happens (the workflow's clock). */
  at: string;
  /** Who gave the last approval: the movements are recorded under their name. */
  userId?: string;
}

/** Whether the account refuses manual deductions below zero (api/inventory/stock-common.ts, default true). */
export async function refusesNegativeStock(db: Kysely<Database>, tenantId: string): Promise<boolean> {
  const row = await db
    .selectFrom('inventory_settings')
    .select('refuse_negative_manual')
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
  return row?.refuse_negative_manual ?? true;
}

export const GIN_SOURCE_TYPE = 'gin';

export async function issueGoodsIssueStock(
  db: Kysely<Database>,
  store: EventStore,
  input: IssueStockInput,
): Promise<GinEvent[]> {
  const loaded = await loadGoodsIssue(store, input.tenantId, input.ginId);
  if (!loaded) throw refuseGoodsIssue('GIN_NOT_FOUND');
  const note = loaded.state;
  // Already decided by this attempt (a retried activity): answer what was recorded.
  if (note.issue.failure?.attempt === input.attempt) {
    return [{ type: 'GinIssueFailed', data: note.issue.failure }];
  }
  if (note.status === GIN_STATUS.complete && note.issue.issued) {
    return [{ type: 'GinCompleted', data: { attempt: input.attempt, ...note.issue.issued } }];
  }

  const refuseNegative = await refusesNegativeStock(db, input.tenantId);
  const warehouseId = note.warehouseId;
  const commandId = (step: 'out' | 'back', masterCodeId: string) =>
    `${input.workflowId}:issue-${input.attempt}:${step}:${masterCodeId}@${warehouseId}`;
  const context = (step: 'out' | 'back', masterCodeId: string) => ({
    tenantId: input.tenantId,
    ...(input.userId ? { userId: input.userId } : {}),
    commandId: commandId(step, masterCodeId),
    correlationId: input.workflowId,
    occurredAt: input.at,
  });
  const source = { type: GIN_SOURCE_TYPE, id: input.ginId };

  // What this attempt already wrote off (a crash in the middle of it), with the stock after each.
  const written = new Map<string, number>();
  let putBackAlready = false;
  for (const line of note.lines) {
    const stream = stockStreamId(input.tenantId, line.masterCodeId, warehouseId);
    const found = await store.findEvent(stream, eventIdFor(commandId('out', line.masterCodeId)));
    if (found) written.set(line.masterCodeId, (found.data as { onHand: number }).onHand);
    if (await store.findEvent(stream, eventIdFor(commandId('back', line.masterCodeId))))
      putBackAlready = true;
  }
  const onHandNow = async (masterCodeId: string) => {
    const last = await store.readLastEvent(stockStreamId(input.tenantId, masterCodeId, warehouseId));
    return last ? evolveStock(initialState, { type: last.type, data: last.data } as StockEvent).onHand : 0;
  };

  const putBack = async () => {
    for (const line of note.lines) {
      if (!written.has(line.masterCodeId)) continue;
      await handleStockCommand(
        store,
        {
          type: 'AdjustStock',
          mode: 'add',
          quantity: line.quantity,
          refuseNegative: false,
          masterCodeId: line.masterCodeId,
          warehouseId,
          reason: movementReason('gin_put_back', { gin: note.reference }),
          source,
        },
        context('back', line.masterCodeId),
      );
    }
  };
  const fail = async (lines: GinStockLine[]) => {
    await putBack();
    const result = await handleGoodsIssueCommand(
      store,
      input.tenantId,
      input.ginId,
      { type: 'FailGoodsIssue', attempt: input.attempt, lines, at: input.at },
      {
        ...(input.userId ? { userId: input.userId } : {}),
        commandId: `${input.workflowId}:issue-${input.attempt}:failed`,
        correlationId: input.workflowId,
        occurredAt: input.at,
      },
    );
    return result.events;
  };

  // This attempt failed and put its stock back, but stopped before recording it (a crash): record it now.
  if (putBackAlready) {
    const lines: GinStockLine[] = [];
    for (const line of note.lines) lines.push({ ...line, onHand: await onHandNow(line.masterCodeId) });
    return fail(lines);
  }

  if (refuseNegative) {
    const short: GinStockLine[] = [];
    for (const line of note.lines) {
      if (written.has(line.masterCodeId)) continue;
      const onHand = await onHandNow(line.masterCodeId);
      if (onHand - line.quantity < 0) short.push({ ...line, onHand });
    }
    if (short.length > 0) return fail(short);
  }

  for (const line of note.lines) {
    if (written.has(line.masterCodeId)) continue;
    try {
      const result = await handleStockCommand(
        store,
        {
          type: 'WriteOffStock',
          quantity: line.quantity,
          refuseNegative,
          masterCodeId: line.masterCodeId,
          warehouseId,
          reason: note.reason,
          source,
        },
        context('out', line.masterCodeId),
      );
      written.set(line.masterCodeId, result.event.data.onHand);
    } catch (error) {
      const negative = refusalOf(error, 'NEGATIVE_STOCK');
      if (negative) return fail([{ ...line, onHand: Number(negative.params.onHand ?? 0) }]);
      throw error;
    }
  }

  const result = await handleGoodsIssueCommand(
    store,
    input.tenantId,
    input.ginId,
    {
      type: 'CompleteGoodsIssue',
      attempt: input.attempt,
      lines: note.lines.map((line) => ({ ...line, onHand: written.get(line.masterCodeId) ?? 0 })),
      at: input.at,
    },
    {
      ...(input.userId ? { userId: input.userId } : {}),
      commandId: `${input.workflowId}:issue-${input.attempt}:complete`,
      correlationId: input.workflowId,
      occurredAt: input.at,
    },
  );
  return result.events;
}
