import { refuseStore } from '@domain/platform/stores';
import { refusalOf } from '@domain/shared/errors';
import { type Store, storeSettings } from '@integrations/stores';
import type { ScheduleState } from '@projections/stores/store-views';
import {
  ScheduleAlreadyRunning,
  type ScheduleDescription,
  ScheduleNotFoundError,
  ScheduleOverlapPolicy,
} from '@temporalio/client';
import {
  ORDER_IMPORT_WORKFLOW,
  type OrderImportInput,
  orderImportKey,
} from '@workflows/order-import-protocol';
import type { WorkflowDeps } from '@workflows/updates';

/**
 * Each store's Temporal schedule `order-import-<tenant>-<storeId>`: every `import_interval_minutes` it starts the
 * order import workflow, never while one still runs (overlap SKIP: a late run is skipped, not queued). "Import now"
 * triggers the same schedule with the same policy, so a manual import and a scheduled one never run side by side.
 * A disconnected store's schedule is paused; reconnecting unpauses it; a new interval updates it.
 */

const MINUTE_MS = 60_000;
/** A list does not wait longer than this for Temporal: the schedules show as unknown instead. */
const LIST_DEADLINE_MS = 3_000;

function scheduleParts(workflows: WorkflowDeps, store: Store) {
  const key = orderImportKey(store.tenantId, store.id);
  const input: OrderImportInput = {
    tenantId: store.tenantId,
    storeId: store.id,
    retry: storeSettings().importRetry,
  };
  return {
    key,
    spec: { intervals: [{ every: store.importIntervalMinutes * MINUTE_MS }] },
    action: {
      type: 'startWorkflow' as const,
      workflowType: ORDER_IMPORT_WORKFLOW,
      taskQueue: workflows.taskQueue,
      workflowId: key,
      args: [input],
    },
    policies: {
      overlap: ScheduleOverlapPolicy.SKIP,
      // After the server was away, one catch-up run at most (SKIP makes it one), and none for older misses.
      catchupWindow: 60 * MINUTE_MS,
    },
    state: {
      paused: store.status === 'disconnected',
      note: store.status === 'disconnected' ? 'store disconnected' : 'store connected',
    },
  };
}

/** Creates the store's schedule, or brings the one there in line with the store (interval, paused, task queue). */
export async function ensureImportSchedule(workflows: WorkflowDeps, store: Store): Promise<void> {
  const parts = scheduleParts(workflows, store);
  try {
    await workflows.client.schedule.create({
      scheduleId: parts.key,
      spec: parts.spec,
      action: parts.action,
      policies: parts.policies,
      state: parts.state,
    });
  } catch (error) {
    if (!(error instanceof ScheduleAlreadyRunning)) throw error;
    await workflows.client.schedule.getHandle(parts.key).update((previous) => ({
      ...previous,
      spec: parts.spec,
      action: parts.action,
      policies: { ...previous.policies, ...parts.policies },
      state: { ...previous.state, paused: parts.state.paused, note: parts.state.note },
    }));
  }
}

/** Pauses a disconnected store's schedule (none there: nothing to pause). */
export async function pauseImportSchedule(workflows: WorkflowDeps, store: Store): Promise<void> {
  try {
    await workflows.client.schedule
      .getHandle(orderImportKey(store.tenantId, store.id))
      .pause('store disconnected');
  } catch (error) {
    if (!(error instanceof ScheduleNotFoundError)) throw error;
  }
}

const stateOf = (description: ScheduleDescription): ScheduleState => ({
  paused: description.state.paused,
  importing: description.info.runningActions.length > 0,
  nextImportAt: description.state.paused ? null : (description.info.nextActionTimes[0] ?? null),
});

/** The schedule as Temporal has it; null when there is none (yet). */
export async function importScheduleState(
  workflows: WorkflowDeps,
  store: Pick<Store, 'tenantId' | 'id'>,
): Promise<ScheduleState | null> {
  try {
    return stateOf(
      await workflows.client.schedule.getHandle(orderImportKey(store.tenantId, store.id)).describe(),
    );
  } catch (error) {
    if (error instanceof ScheduleNotFoundError) return null;
    throw error;
  }
}

/** The schedule for an answer: unknown (null) when Temporal does not say within a moment. */
export function scheduleStateSoon(
  workflows: WorkflowDeps,
  store: Pick<Store, 'tenantId' | 'id'>,
): Promise<ScheduleState | null> {
  return workflows.client.connection
    .withDeadline(Date.now() + LIST_DEADLINE_MS, () => importScheduleState(workflows, store))
    .catch(() => null);
}

/** The schedules of a few stores for a list; one Temporal cannot describe now is shown as unknown (null). */
export async function scheduleStates(
  workflows: WorkflowDeps,
  stores: readonly Store[],
): Promise<Map<string, ScheduleState | null>> {
  const states = await Promise.all(stores.map((store) => scheduleStateSoon(workflows, store)));
  return new Map(stores.map((store, index) => [store.id, states[index] ?? null]));
}

/**
 * Starts an import of the store now, through its schedule (made first if it is missing). Refused while an import
 * of the store runs (409 612).
 */
export async function importNow(workflows: WorkflowDeps, store: Store): Promise<void> {
  const handle = workflows.client.schedule.getHandle(orderImportKey(store.tenantId, store.id));
  let state = await importScheduleState(workflows, store);
  if (!state || state.paused) {
    await ensureImportSchedule(workflows, store);
    state = await importScheduleState(workflows, store);
  }
  if (state?.importing) throw refuseStore('IMPORT_RUNNING');
  await handle.trigger(ScheduleOverlapPolicy.SKIP);
}

/** A Temporal failure as the answer it means: away → 503; anything else is thrown as it is. */
export function temporalError(error: unknown): unknown {
  if (refusalOf(error)) return error;
  const grpc = error as { code?: number };
  if (grpc.code === 4 || grpc.code === 14) return refuseStore('WORKFLOWS_UNAVAILABLE');
  return error;
}
