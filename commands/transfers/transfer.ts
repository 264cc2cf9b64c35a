import {
  type TransferCommand,
  type TransferEvent,
  type TransferState,
  transferDecider,
  transferStreamId,
} from '@domain/transfers/transfer';
import type { EventStore } from '@infra/eventstore/port';
import {
  type DocumentContext,
  type DocumentResult,
  documentTimeline,
  handleDocumentCommand,
  type TimelineEntry,
} from '../support/document';

/**
 * Runs a command on a transfer document (commands/support/document.ts): the API records its creation, the transfer
 * workflow's activities everything after. The context's command id is the idempotency key.
 */
export function handleTransferCommand(
  store: EventStore,
  transferId: string,
  command: TransferCommand,
  context: DocumentContext,
): Promise<DocumentResult<TransferEvent, TransferState>> {
  return handleDocumentCommand(
    store,
    transferStreamId(context.tenantId, transferId),
    transferDecider,
    command,
    context,
  );
}

/** The transfer as its events leave it, and its history, oldest first. */
export async function loadTransfer(
  store: EventStore,
  tenantId: string,
  transferId: string,
): Promise<{ state: TransferState; timeline: TimelineEntry[] }> {
  const timeline = await documentTimeline(store, transferStreamId(tenantId, transferId));
  const state = timeline.reduce<TransferState>(
    (current, entry) =>
      transferDecider.evolve(current, { type: entry.type, data: entry.data } as TransferEvent),
    transferDecider.initial,
  );
  return { state, timeline };
}
