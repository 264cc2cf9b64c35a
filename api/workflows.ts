/**
 * The routes' way to the workflows: the client helpers of workflows/updates.ts, under the names routes have
 * always used.
 */
export {
  refusalIn,
  runUpdate,
  startOrFindWorkflow,
  UPDATE_DEADLINE_MS,
  type WorkflowDeps,
  type WorkflowRefusal,
  withWorkflow,
  workflowError,
} from '@workflows/updates';
