import {
  type PushTiming,
  STOCK_PUSH_WORKFLOW,
  type StockFigure,
  type StockPushInput,
  stockFiguresSignal,
  stockPushWorkflowId,
} from '@workflows/stock-push-protocol';
import type { WorkflowDeps } from '@workflows/updates';

/**
 * Hands figures to the store's stock push workflow, starting it when it is not running (signal-with-start by the
 * store's workflow id: one per store, however many reactors and people send).
 */
export async function sendStockFigures(
  workflows: WorkflowDeps & { pushTiming?: PushTiming },
  tenantId: string,
  storeId: string,
  figures: StockFigure[],
): Promise<void> {
  if (figures.length === 0) return;
  const input: StockPushInput = {
    tenantId,
    storeId,
    ...(workflows.pushTiming ? { timing: workflows.pushTiming } : {}),
  };
  // By name, so the API and the reactors load no workflow code.
  await workflows.client.workflow.signalWithStart(STOCK_PUSH_WORKFLOW, {
    workflowId: stockPushWorkflowId(tenantId, storeId),
    taskQueue: workflows.taskQueue,
    args: [input],
    signal: stockFiguresSignal,
    signalArgs: [figures],
  });
}
