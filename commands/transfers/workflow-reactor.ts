import { TRANSFER_CATEGORY } from '@domain/transfers/transfer';
import { type EventStore, parseStreamId } from '@infra/eventstore/port';
import { defineReactor } from '@projections/runtime/reactor';
import type { WorkflowDeps } from '@workflows/updates';
import { startTransferWorkflow } from './support';
import { loadTransfer } from './transfer';

/**
 * Every transfer runs its workflow (workflows/transfer.workflow.ts): made directly or by approving a request, its
 * creation starts it. Starting is idempotent by the workflow's business-key id, so a replay, or an action that found
 * the workflow missing and started it first, starts nothing twice; a transfer closed meanwhile starts none.
 */
export function createTransferWorkflowReactor(deps: { store: EventStore; workflows: WorkflowDeps }) {
  return defineReactor({
    name: 'transfer-workflows',
    eventTypes: ['TransferCreated'],
    async react(event) {
      const stream = parseStreamId(event.stream);
      if (!stream || stream.category !== TRANSFER_CATEGORY) return;
      const { state } = await loadTransfer(deps.store, stream.tenantId, stream.entityKey);
      if (state.status === 'none') return;
      await startTransferWorkflow(deps.workflows, stream.tenantId, state);
    },
  });
}
