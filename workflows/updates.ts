import { DomainError, type ErrorTable } from '@domain/shared/errors';
import {
  type Client,
  WorkflowExecutionAlreadyStartedError,
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
} from '@temporalio/client';
import { ApplicationFailure, type UpdateDefinition } from '@temporalio/common';

/**
 * How commands reach the workflows from outside Temporal: start them (idempotent by their business-key id), and
 * run their updates — the request-response calls a person's action becomes (approve, ship, receive…). An update's
 * validator refuses an action the document's state does not allow (a second click, the wrong state, the wrong user)
 * before anything is recorded; its handler runs the activities and answers once they are done. A refusal comes back
 * as the DomainError the caller's error table makes of it, so the API answers it like any other.
 */
export interface WorkflowDeps {
  client: Client;
  /** The task queue the workers of this deployment poll. */
  taskQueue: string;
}

/** How long a caller waits for a workflow to answer before saying the processes are unavailable (503). */
export const UPDATE_DEADLINE_MS = 30_000;

/** A refusal from a workflow: its domain code and parameters (workflows/support/refusal.ts). */
export interface WorkflowRefusal {
  code: string;
  params: Record<string, string | number>;
}

export const workflowErrors = {
  WORKFLOWS_UNAVAILABLE: { status: 503, code: 503, key: 'common.workflows_unavailable' },
} satisfies ErrorTable<'WORKFLOWS_UNAVAILABLE'>;

/** The workflows did not answer in time, or cannot be reached. */
export const workflowsUnavailable = () =>
  new DomainError('WORKFLOWS_UNAVAILABLE', {}, workflowErrors.WORKFLOWS_UNAVAILABLE);

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

export interface UpdateHandlers {
  /** The refusal as the caller's DomainError (undefined for a code it does not know: a bug, thrown as is). */
  refuse(refusal: WorkflowRefusal): DomainError | undefined;
  /** The error of a workflow that does not exist (or has ended). */
  missing(): DomainError;
  updateId?: string;
}

/**
 * Runs an update of the workflow `workflowId` and answers its result. A refusal becomes what `refuse` makes of it;
 * a workflow that does not exist (or has ended) is `missing()`; no answer within the deadline is 503.
 */
export async function runUpdate<Ret, Args extends unknown[]>(
  deps: WorkflowDeps,
  workflowId: string,
  update: UpdateDefinition<Ret, Args> | string,
  args: Args,
  handlers: UpdateHandlers,
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

/** A client error as the refusal it means. */
export function workflowError(error: unknown, handlers: Omit<UpdateHandlers, 'updateId'>): unknown {
  if (error instanceof WorkflowNotFoundError) return handlers.missing();
  if (error instanceof WorkflowUpdateFailedError || error instanceof ApplicationFailure) {
    const found = refusalIn(error);
    const answer = found ? handlers.refuse(found) : undefined;
    if (answer) return answer;
    return error;
  }
  const grpc = error as { code?: number; details?: string };
  // 4 DEADLINE_EXCEEDED: nobody ran the update in time (no worker); 14 UNAVAILABLE: the server is gone.
  if (grpc.code === 4 || grpc.code === 14) return workflowsUnavailable();
  // 5 NOT_FOUND: the workflow has completed (an update cannot reach it) or never existed.
  if (grpc.code === 5) return handlers.missing();
  return error;
}

/** Starts the workflow `workflowId`, or finds the one running (USE_EXISTING): starting twice makes one. */
const start = (
  deps: WorkflowDeps,
  name: string,
  workflowId: string,
  input: unknown,
  reuse?: 'REJECT_DUPLICATE',
) =>
  deps.client.workflow.start(name, {
    taskQueue: deps.taskQueue,
    workflowId,
    args: [input],
    workflowIdConflictPolicy: 'USE_EXISTING',
    ...(reuse ? { workflowIdReusePolicy: reuse } : {}),
  });

/**
 * Starts a workflow, or finds the one running: its id is the business key, so starting twice makes one. A server
 * that cannot be reached is 503; a workflow id that may not be used again is `missing()`.
 */
export async function startOrFindWorkflow(
  deps: WorkflowDeps,
  name: string,
  workflowId: string,
  input: unknown,
  missing: () => DomainError,
): Promise<void> {
  try {
    await start(deps, name, workflowId, input);
  } catch (error) {
    throw workflowError(error, { refuse: () => undefined, missing });
  }
}

/**
 * Starts a workflow once for good: the one running is found, and one that has ended is never started again (its
 * document is closed).
 */
export async function startOnce(deps: WorkflowDeps, name: string, workflowId: string, input: unknown) {
  try {
    await start(deps, name, workflowId, input, 'REJECT_DUPLICATE');
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) return;
    throw error;
  }
}

/**
 * Runs an action on a document's workflow. A workflow that is gone (`gone(error)`) while its document is still open
 * — its start has not happened yet, say — is started by `start` (null: the document is closed, the error stands),
 * and the action tried once more.
 */
export async function withWorkflow<T>(
  run: () => Promise<T>,
  start: (() => Promise<void>) | null,
  gone: (error: unknown) => boolean,
): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!start || !gone(error)) throw error;
    await start();
    return run();
  }
}
