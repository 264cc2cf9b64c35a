import type { ProjectionEngine } from '@projections/runtime/engine';
import { createProjectionActivities } from './projections';

/** Every activity a Kedai worker serves, bound to the process's dependencies. */
export function createActivities(deps: { engine: ProjectionEngine }) {
  return {
    ...createProjectionActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
