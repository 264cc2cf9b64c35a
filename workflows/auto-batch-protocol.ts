/**
 * What the auto batch workflow (auto-batch.workflow.ts), its schedules and its triggers share: the workflow's name,
 * input and outcome, and the ids of its schedules and runs. No node imports: the workflow bundle takes it too.
 */

export const AUTO_BATCH_WORKFLOW = 'autoBatchWorkflow';

/**
 * Why the workflow runs: its schedule's time came (batch every waiting order), the waiting orders reached the
 * maximum (batch full batches only; the rest wait), or someone asked for a run now (as the schedule).
 */
export type AutoBatchTrigger = 'schedule' | 'count' | 'manual';

export interface AutoBatchWorkflowInput {
  tenantId: string;
  configId: string;
  trigger: AutoBatchTrigger;
}

export interface AutoBatchMade {
  batchId: string;
  label: string;
  orderIds: string[];
}

export interface AutoBatchOutcome {
  batches: AutoBatchMade[];
}

/** The schedule of one configuration; each run it starts gets this id with the time appended. */
export const autoBatchScheduleId = (tenantId: string, configId: string) =>
  `auto-batch-${tenantId}-${configId}`;

/**
 * The run that batches a configuration's orders when their count reaches the maximum: one id per configuration, so
 * triggers arriving while it runs join it instead of making a second batch of the same orders.
 */
export const autoBatchFullWorkflowId = (tenantId: string, configId: string) =>
  `auto-batch-full-${tenantId}-${configId}`;

/** A run asked for by hand. */
export const autoBatchManualWorkflowId = (tenantId: string, configId: string, key: string) =>
  `auto-batch-manual-${tenantId}-${configId}-${key}`;
