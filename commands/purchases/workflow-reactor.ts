import { FINAL_PURCHASE_STATUSES, PURCHASE_CATEGORY } from '@domain/purchases/purchase';
import { type EventStore, parseStreamId } from '@infra/eventstore/port';
import { defineReactor } from '@projections/runtime/reactor';
import type { WorkflowDeps } from '@workflows/updates';
import { loadPurchase } from './documents';
import { startPurchaseWorkflow } from './processes';

/**
 * Every purchase order runs its workflow (workflows/purchase.workflow.ts) from its creation — raised by hand or by an
 * upload. Starting is idempotent by the workflow's business-key id, so a replay, or an action that found the workflow
 * missing and started it first, starts nothing twice; an order closed meanwhile starts none. A goods receive note's
 * workflow is started by its order's.
 */
export function createPurchaseWorkflowReactor(deps: { store: EventStore; workflows: WorkflowDeps }) {
  return defineReactor({
    name: 'purchase-workflows',
    eventTypes: ['PurchaseCreated'],
    async react(event) {
      const stream = parseStreamId(event.stream);
      if (!stream || stream.category !== PURCHASE_CATEGORY) return;
      const { state, revision } = await loadPurchase(deps.store, stream.tenantId, stream.entityKey);
      if (state.status === 'none' || FINAL_PURCHASE_STATUSES.includes(state.status)) return;
      await startPurchaseWorkflow(deps.workflows, stream.tenantId, state, revision);
    },
  });
}
