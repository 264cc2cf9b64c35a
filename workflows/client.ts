import type { Client, WorkflowHandleWithFirstExecutionRunId } from '@temporalio/client';
import type { rebuildProjectionWorkflow } from './rebuild-projection.workflow';

export const projectionRebuildWorkflowId = (name: string) => `projection-rebuild-${name}`;

/**
 * Starts the rebuild of a projection, or returns the one already running: the workflow id is the projection's name,
 * so asking twice (two operators, a retried request) makes one rebuild.
 */
export async function startProjectionRebuild(
  client: Client,
  taskQueue: string,
  name: string,
  opts: { batchSize?: number; heartbeatTimeoutMs?: number } = {},
): Promise<WorkflowHandleWithFirstExecutionRunId<typeof rebuildProjectionWorkflow>> {
  // By name, so this module (loaded by the API) does not load workflow code.
  return client.workflow.start<typeof rebuildProjectionWorkflow>('rebuildProjectionWorkflow', {
    taskQueue,
    workflowId: projectionRebuildWorkflowId(name),
    args: [{ name, batchSize: opts.batchSize, heartbeatTimeoutMs: opts.heartbeatTimeoutMs }],
    workflowIdConflictPolicy: 'USE_EXISTING',
  });
}
