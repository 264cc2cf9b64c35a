import {
  type BatchCommand,
  type BatchEvent,
  type BatchState,
  batchDecider,
  batchStreamId,
} from '@domain/batches/batch';
import type { EventStore } from '@infra/eventstore/port';
import {
  type DocumentContext,
  type DocumentResult,
  documentTimeline,
  handleDocumentCommand,
  type TimelineEntry,
} from '../support/document';

/** Runs a command on a batch (domain/batches/batch.ts): load, decide, append; the command id is the idempotency key. */
export function handleBatchCommand(
  store: EventStore,
  batchId: string,
  command: BatchCommand,
  context: DocumentContext,
): Promise<DocumentResult<BatchEvent, BatchState>> {
  return handleDocumentCommand(
    store,
    batchStreamId(context.tenantId, batchId),
    batchDecider,
    command,
    context,
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
