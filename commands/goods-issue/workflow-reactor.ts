import { GOODS_ISSUE_CATEGORY } from '@domain/goods-issue/decider';
import { type EventStore, parseStreamId } from '@infra/eventstore/port';
import { defineReactor } from '@projections/runtime/reactor';
import type { WorkflowDeps } from '@workflows/updates';
import { loadGoodsIssue } from './goods-issue';
import { startGoodsIssueWorkflow } from './support';

/**
 * Every goods issue note runs its workflow (workflows/goods-issue.workflow.ts) from its creation: starting is
 * idempotent by the workflow's business-key id, so a replay, or an action that found the workflow missing and
 * started it first, starts nothing twice; a note finished meanwhile starts none.
 */
export function createGoodsIssueWorkflowReactor(deps: { store: EventStore; workflows: WorkflowDeps }) {
  return defineReactor({
    name: 'goods-issue-workflows',
    eventTypes: ['GinCreated'],
    async react(event) {
      const stream = parseStreamId(event.stream);
      if (!stream || stream.category !== GOODS_ISSUE_CATEGORY) return;
      const loaded = await loadGoodsIssue(deps.store, stream.tenantId, stream.entityKey);
      if (!loaded) return;
      await startGoodsIssueWorkflow(deps.workflows, stream.tenantId, stream.entityKey, loaded.state);
    },
  });
}
