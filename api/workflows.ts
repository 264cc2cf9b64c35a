import { type Client, WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure, type UpdateDefinition } from '@temporalio/common';
import { ApiError } from './errors';

/**
 * How routes reach the workflows (workflows/): start them, and run their updates — the request-response calls a
 * person's action becomes (approve, ship, receive…). An update's validator refuses an action the document's state
 * does not allow (a second click, the wrong state, the wrong user) before anything is recorded; its handler runs
 * the activities and answers once they are done.
 */
export interface WorkflowDeps {
  client: Client;
  /** The task queue the workers of this deployment poll. */
  taskQueue: string;
}

/** How long a route waits for a workflow to answer before saying the processes are unavailable (503). */
export const UPDATE_DEADLINE_MS = 30_000;

/** A refusal from a workflow: its domain code and parameters (workflows/support/refusal.ts). */
export interface WorkflowRefusal {
  code: string;
  params: Record<string, string | number>;
}

/** The workflow's refusal inside an error from the client, if that is what it is. */
export function refusalIn(error: unknown): WorkflowRefusal | null {
  let cause: unknown = error;
  for (let depth = 0; depth < 5 && cause; depth++) {
    if (cause instanceof ApplicationFailure && cause.type) {
      const details = cause.details?.[0];
      const params =
        details && typeof details === 'object' ? (details as Record<string, string | number>) : {};
      return { code: cause.type, params };
    }
    cause = (cause as { cause?: unknown }).cause;
  }
  return null;
}

/**
 * Runs an update of the workflow `workflowId` and answers its result. A refusal becomes the ApiError `refuse`
 * makes of it (it must know every code the workflow uses: an unknown one is a bug, thrown as is); a workflow that
 * does not exist (or has ended) is `missing()`; no answer within the deadline is 503.
 */
export async function runUpdate<Ret, Args extends unknown[]>(
  deps: WorkflowDeps,
  workflowId: string,
  update: UpdateDefinition<Ret, Args> | string,
  args: Args,
  handlers: {
    refuse(refusal: WorkflowRefusal): ApiError | undefined;
    missing(): ApiError;
    updateId?: string;
  },
): Promise<Ret> {
  const handle = deps.client.workflow.getHandle(workflowId);
  try {
    const execute = handle.executeUpdate as (
      def: UpdateDefinition<Ret, Args> | string,
      options: { args: Args; updateId?: string },
    ) => Promise<Ret>;
    return await deps.client.connection.withDeadline(Date.now() + UPDATE_DEADLINE_MS, () =>
      execute.call(handle, update, { args, ...(handlers.updateId ? { updateId: handlers.updateId } : {}) }),
    );
  } catch (error) {
    throw workflowError(error, handlers);
  }
}

/** A client error as the answer it means. */
export function workflowError(
  error: unknown,
  handlers: { refuse(refusal: WorkflowRefusal): ApiError | undefined; missing(): ApiError },
): unknown {
  if (error instanceof WorkflowNotFoundError) return handlers.missing();
  if (error instanceof WorkflowUpdateFailedError || error instanceof ApplicationFailure) {
    const found = refusalIn(error);
    const answer = found ? handlers.refuse(found) : undefined;
    if (answer) return answer;
    return error;
  }
  const grpc = error as { code?: number; details?: string };
  // 4 DEADLINE_EXCEEDED: nobody ran the update in time (no worker); 14 UNAVAILABLE: the server is gone.
  if (grpc.code === 4 || grpc.code === 14) return new ApiError(503, 503, 'common.workflows_unavailable');
  // 5 NOT_FOUND: the workflow has completed (an update cannot reach it) or never existed.
  if (grpc.code === 5) return handlers.missing();
  return error;
}

/**
 * Starts a workflow, or finds the one running: its id is the business key, so starting twice makes one. A server
 * that cannot be reached is 503; a workflow id that may not be used again is `missing()`.
 */
export async function startOrFindWorkflow(
  deps: WorkflowDeps,
  name: string,
  workflowId: string,
  input: unknown,
  missing: () => ApiError,
): Promise<void> {
  try {
    await deps.client.workflow.start(name, {
      taskQueue: deps.taskQueue,
      workflowId,
      args: [input],
      workflowIdConflictPolicy: 'USE_EXISTING',
    });
  } catch (error) {
    throw workflowError(error, { refuse: () => undefined, missing });
  }
}

/**
 * Runs an action on a document's workflow. A workflow that is gone (`gone(error)`) while its document is still open
 * — its start failed after the document was recorded, say — is started again by `restart` (null: the document is
 * closed, the error stands), and the action tried once more.
 */
export async function withWorkflow<T>(
  run: () => Promise<T>,
  restart: (() => Promise<void>) | null,
  gone: (error: unknown) => boolean,
): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!restart || !gone(error)) throw error;
    await restart();
    return run();
  }
}
