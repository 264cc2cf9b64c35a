import {
  type AutoBatchPlan,
  planAutoBatch,
  recordAutoBatchRun,
  triggerFullAutoBatches,
} from '@commands/batches/auto-batch';
import { type BatchSettings, createPlannedBatch } from '@commands/batches/batching';
import { Context } from '@temporalio/activity';
import type { AutoBatchMade, AutoBatchWorkflowInput } from '../auto-batch-protocol';
import type { ActivityDeps } from './index';

/**
 * The auto batch workflow's activities: plan a run (the waiting orders and the batches they make), make one planned
 * batch (idempotent by the command id the workflow gives it), and note the run on the configuration. And the count
 * trigger, for workflows that bring orders in (the order import) to call after each page: it starts a configuration's
 * "full" run when its waiting orders reach the maximum.
 */

export interface CreateAutoBatchInput {
  tenantId: string;
  batchCommandId: string;
  orderIds: string[];
  group: string | null;
  settings: BatchSettings;
  at: string;
}

export function createBatchActivities(deps: Pick<ActivityDeps, 'db' | 'store'>) {
  return {
    async planAutoBatch(input: AutoBatchWorkflowInput): Promise<AutoBatchPlan | null> {
      return planAutoBatch(deps.db, input, new Date());
    },

    async createAutoBatch(input: CreateAutoBatchInput): Promise<AutoBatchMade | null> {
      const batch = await createPlannedBatch(
        deps,
        { tenantId: input.tenantId, at: input.at },
        {
          batchCommandId: input.batchCommandId,
          orderIds: input.orderIds,
          group: input.group,
          settings: input.settings,
        },
      );
      if (!batch || batch.status === 'none') return null;
      return { batchId: batch.batchId, label: batch.label, orderIds: batch.orderIds };
    },

    async finishAutoBatchRun(input: { tenantId: string; configId: string; batches: number }): Promise<void> {
      await recordAutoBatchRun(deps.db, input.tenantId, input.configId, input.batches);
    },

    /** The count trigger (commands/batches/auto-batch.ts): the configurations whose full run it started. */
    async triggerAutoBatches(input: { tenantId: string }): Promise<string[]> {
      const context = Context.current();
      return triggerFullAutoBatches(
        deps.db,
        { client: context.client, taskQueue: context.info.taskQueue },
        input.tenantId,
      );
    },
  };
}
