import { proxyActivities } from '@temporalio/workflow';
import type { createProjectionActivities, RebuildProjectionResult } from './activities/projections';

type ProjectionActivities = ReturnType<typeof createProjectionActivities>;

export interface RebuildProjectionWorkflowInput {
  name: string;
  batchSize?: number;
  /**
   * How long the activity may go without a heartbeat before Temporal gives it to another worker. Short, so a rebuild
   * whose worker died resumes soon; a batch must finish well within it.
   */
  heartbeatTimeoutMs?: number;
}

/** Rebuilds one projection; survives a killed worker because the activity resumes from its checkpoint. */
export async function rebuildProjectionWorkflow(
  input: RebuildProjectionWorkflowInput,
): Promise<RebuildProjectionResult> {
  const { rebuildProjection } = proxyActivities<ProjectionActivities>({
    heartbeatTimeout: input.heartbeatTimeoutMs ?? 10_000,
    // A rebuild of a large log takes long; liveness is the heartbeat's job, not this one's.
    startToCloseTimeout: '24 hours',
    retry: {
      initialInterval: '1 second',
      backoffCoefficient: 2,
      maximumInterval: '10 seconds',
    },
  });
  return rebuildProjection({ name: input.name, batchSize: input.batchSize });
}
