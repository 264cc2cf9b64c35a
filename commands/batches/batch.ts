import {
  type BatchCommand,
  type BatchEvent,
  type BatchState,
  batchDecider,
  batchStreamId,
} from '@domain/batches/batch';
import { DomainError, refusalOf } from '@domain/shared/errors';
import type { EventStore } from '@infra/eventstore/port';
import {
  type DocumentContext,
  type DocumentResult,
  documentTimeline,
  handleDocumentCommand,
  type TimelineEntry,
} from '../support/document';
import { loadOrderFacts } from './orders';

/**
 * Runs a command on a batch (domain/batches/batch.ts): load, decide, append; the command id is the idempotency key.
 * A refusal about one order names it by its number, as the seller knows it.
 */
export async function handleBatchCommand(
  store: EventStore,
  batchId: string,
  command: BatchCommand,
  context: DocumentContext,
): Promise<DocumentResult<BatchEvent, BatchState>> {
  try {
    return await handleDocumentCommand(
      store,
      batchStreamId(context.tenantId, batchId),
      batchDecider,
      command,
      context,
    );
  } catch (error) {
    throw await namingTheOrder(store, context.tenantId, error);
  }
}

async function namingTheOrder(store: EventStore, tenantId: string, error: unknown): Promise<unknown> {
  const refused = refusalOf(error);
  const orderId = refused?.params.orderId;
  if (!refused || typeof orderId !== 'string' || refused.params.order !== undefined) return error;
  const facts = await loadOrderFacts(store, tenantId, orderId);
  return new DomainError(
    refused.code,
    { ...refused.params, order: facts?.orderNumber ?? '' },
    refused.refusal,
  );
}

/** The batch as its events leave it, and its history, oldest first. */
export async function loadBatch(
  store: EventStore,
  tenantId: string,
  batchId: string,
): Promise<{ state: BatchState; timeline: TimelineEntry[] }> {
  const timeline = await documentTimeline(store, batchStreamId(tenantId, batchId));
  const state = timeline.reduce<BatchState>(
    (current, entry) => batchDecider.evolve(current, { type: entry.type, data: entry.data } as BatchEvent),
    batchDecider.initial,
  );
  return { state, timeline };
}
