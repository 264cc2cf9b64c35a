import { ScheduleAlreadyRunning, ScheduleOverlapPolicy } from '@temporalio/client';
import type { WorkflowDeps } from '@workflows/updates';

/**
 * An installation-wide schedule that starts `workflowType` every `everyMs`, made (or brought in line) when the worker
 * starts. A round never starts while another runs; after an outage, one catch-up round.
 */
export async function ensureIntervalSchedule(
  workflows: WorkflowDeps,
  schedule: { id: string; workflowType: string; everyMs: number },
): Promise<void> {
  const parts = {
    spec: { intervals: [{ every: schedule.everyMs }] },
    action: {
      type: 'startWorkflow' as const,
      workflowType: schedule.workflowType,
      taskQueue: workflows.taskQueue,
      workflowId: schedule.id,
      args: [],
    },
    policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: schedule.everyMs },
  };
  try {
    await workflows.client.schedule.create({ scheduleId: schedule.id, ...parts });
  } catch (error) {
    if (!(error instanceof ScheduleAlreadyRunning)) throw error;
    await workflows.client.schedule.getHandle(schedule.id).update((previous) => ({
      ...previous,
      spec: parts.spec,
      action: parts.action,
      policies: { ...previous.policies, ...parts.policies },
    }));
  }
}
