import {
  type TransferRequestCommand,
  type TransferRequestEvent,
  type TransferRequestState,
  transferRequestDecider,
  transferRequestStreamId,
} from '@domain/transfers/transfer-request';
import type { EventStore } from '@infra/eventstore/port';
import {
  type DocumentContext,
  type DocumentResult,
  documentTimeline,
  handleDocumentCommand,
  type TimelineEntry,
} from '../support/document';

/**
 * Runs a command on a transfer request: load its stream, decide, append (commands/support/document.ts). The context's
 * command id is the idempotency key: the same key records once and answers what it recorded.
 */
export function handleTransferRequestCommand(
  store: EventStore,
  requestId: string,
  command: TransferRequestCommand,
  context: DocumentContext,
): Promise<DocumentResult<TransferRequestEvent, TransferRequestState>> {
  return handleDocumentCommand(
    store,
    transferRequestStreamId(context.tenantId, requestId),
    transferRequestDecider,
    command,
    context,
  );
}

/** The request as its events leave it, and its history, oldest first. */
export async function loadTransferRequest(
  store: EventStore,
  tenantId: string,
  requestId: string,
): Promise<{ state: TransferRequestState; timeline: TimelineEntry[] }> {
  const timeline = await documentTimeline(store, transferRequestStreamId(tenantId, requestId));
  const state = timeline.reduce<TransferRequestState>(
    (current, entry) =>
      transferRequestDecider.evolve(current, { type: entry.type, data: entry.data } as TransferRequestEvent),
    transferRequestDecider.initial,
  );
  return { state, timeline };
}
