import { ScheduleAlreadyRunning, ScheduleOverlapPolicy } from '@temporalio/client';
import {
  ORDER_HOLD_RELEASE_EVERY_MS,
  ORDER_HOLD_RELEASE_SCHEDULE,
  ORDER_HOLD_RELEASE_WORKFLOW,
} from '@workflows/order-hold-release-protocol';
import type { WorkflowDeps } from '@workflows/updates';

/**
 * The schedule that releases held orders (commands/orders/monthly-limit.ts) when a new month starts or a larger
 * package lets them in: one for the installation, made (or brought in line) when the worker starts. A round never
 * starts while another runs; after an outage, one catch-up round.
 */
export async function ensureHoldReleaseSchedule(workflows: WorkflowDeps): Promise<void> {
  const parts = {
    spec: { intervals: [{ every: ORDER_HOLD_RELEASE_EVERY_MS }] },
    action: {
      type: 'startWorkflow' as const,
      workflowType: ORDER_HOLD_RELEASE_WORKFLOW,
      taskQueue: workflows.taskQueue,
      workflowId: ORDER_HOLD_RELEASE_SCHEDULE,
      args: [],
    },
    policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: ORDER_HOLD_RELEASE_EVERY_MS },
  };
  try {
    await workflows.client.schedule.create({ scheduleId: ORDER_HOLD_RELEASE_SCHEDULE, ...parts });
  } catch (error) {
    if (!(error instanceof ScheduleAlreadyRunning)) throw error;
    await workflows.client.schedule.getHandle(ORDER_HOLD_RELEASE_SCHEDULE).update((previous) => ({
      ...previous,
      spec: parts.spec,
      action: parts.action,
      policies: { ...previous.policies, ...parts.policies },
    }));
  }
}
