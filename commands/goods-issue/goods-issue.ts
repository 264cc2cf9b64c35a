import {
  type GoodsIssueCommand,
  type GoodsIssueState,
  goodsIssueDecider,
  goodsIssueStreamId,
} from '@domain/goods-issue/decider';
import type { GinEvent } from '@domain/goods-issue/events';
import type { EventStore } from '@infra/eventstore/port';
import {
  type DocumentContext,
  type DocumentResult,
  handleDocumentCommand,
  type LoadedDocument,
  loadDocument,
} from '../support/document';

/**
 * The goods issue note's command handler: the domain decider (domain/goods-issue/decider.ts) over its stream, with
 * the command id as the idempotency key. The API records creation and draft edits with it; the workflow records
 * every other step through its activities (workflows/activities/goods-issue.ts).
 */

export function handleGoodsIssueCommand(
  store: EventStore,
  tenantId: string,
  ginId: string,
  command: GoodsIssueCommand,
  context: Omit<DocumentContext, 'tenantId'>,
): Promise<DocumentResult<GinEvent, GoodsIssueState>> {
  return handleDocumentCommand(store, goodsIssueStreamId(tenantId, ginId), goodsIssueDecider, command, {
    tenantId,
    ...context,
  });
}

/** The note as its events leave it, with its stream revision; null when it does not exist. */
export async function loadGoodsIssue(
  store: EventStore,
  tenantId: string,
  ginId: string,
): Promise<LoadedDocument<GoodsIssueState> | null> {
  const loaded = await loadDocument(store, goodsIssueStreamId(tenantId, ginId), goodsIssueDecider);
  return loaded.timeline.length === 0 ? null : loaded;
}
