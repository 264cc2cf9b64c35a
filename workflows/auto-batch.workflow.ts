import { proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { createBatchActivities } from './activities/batches';
import type { AutoBatchMade, AutoBatchOutcome, AutoBatchWorkflowInput } from './auto-batch-protocol';

type BatchActivities = ReturnType<typeof createBatchActivities>;

const { planAutoBatch, createAutoBatch, finishAutoBatchRun } = proxyActivities<BatchActivities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds' },
});

/**
 * One run of an auto batch configuration (spec §3 "Auto batch", §4 "Auto batch creates a new batch when the order
 * count reaches the maximum or the scheduled time is reached"): plan the batches of the orders waiting now, then make
 * them one by one. The plan is kept in the workflow's history, so a retried step makes exactly the batch it planned;
 * each batch's command id is this run's id and its place in the plan, so a retry makes it once.
 */
export async function autoBatchWorkflow(input: AutoBatchWorkflowInput): Promise<AutoBatchOutcome> {
  const plan = await planAutoBatch(input);
  if (!plan) return { batches: [] };
  const { workflowId, runId } = workflowInfo();
  const batches: AutoBatchMade[] = [];
  for (const [index, chunk] of plan.chunks.entries()) {
    const made = await createAutoBatch({
      tenantId: input.tenantId,
      batchCommandId: `${workflowId}:${runId}:${index}`,
      orderIds: chunk.orderIds,
      group: chunk.group,
      settings: plan.settings,
      at: plan.at,
    });
    if (made) batches.push(made);
  }
  await finishAutoBatchRun({ tenantId: input.tenantId, configId: input.configId, batches: batches.length });
  return { batches };
}
