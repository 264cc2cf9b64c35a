import { formatPosition } from '@infra/eventstore/port';
import type { ProjectionEngine } from '@projections/runtime/engine';
import { Context } from '@temporalio/activity';

/** What the rebuild activity heartbeats: where it is, as strings because payloads are JSON (no bigint). */
export interface RebuildHeartbeat {
  position: { commit: string; prepare: string } | null;
  eventsApplied: string;
}

export interface RebuildProjectionInput {
  name: string;
  batchSize?: number;
}

export interface RebuildProjectionResult {
  name: string;
  eventsApplied: string;
  /** The checkpoint this attempt started from: null when it started the rebuild from the beginning. */
  resumedFrom: string | null;
  /** The activity attempt that finished the rebuild (1 unless a worker died or a batch failed). */
  attempt: number;
}

export function createProjectionActivities(deps: { engine: ProjectionEngine }) {
  return {
    async rebuildProjection(input: RebuildProjectionInput): Promise<RebuildProjectionResult> {
      const context = Context.current();
      const { info } = context;
      // The workflow id names the rebuild, so a retried attempt continues the rebuild the last one left behind.
      // Started on its own (no workflow), the activity id is the next most stable name.
      const rebuildId = info.workflowExecution?.workflowId ?? info.activityId;
      const previous = info.heartbeatDetails as RebuildHeartbeat | undefined;
      if (previous) {
        context.log.info('resuming projection rebuild', {
          projection: input.name,
          rebuildId,
          attempt: info.attempt,
          lastHeartbeat: previous,
        });
      }
      let resumedFrom: string | null | undefined;
      const result = await deps.engine.rebuild(input.name, {
        rebuildId,
        batchSize: input.batchSize,
        signal: context.cancellationSignal,
        onProgress: (progress) => {
          // The first report is the checkpoint the engine resumed at (null for a fresh start).
          if (resumedFrom === undefined) {
            resumedFrom = progress.position ? formatPosition(progress.position) : null;
          }
          const details: RebuildHeartbeat = {
            position: progress.position
              ? { commit: String(progress.position.commit), prepare: String(progress.position.prepare) }
              : null,
            eventsApplied: String(progress.eventsApplied),
          };
          context.heartbeat(details);
        },
      });
      return {
        name: input.name,
        eventsApplied: String(result.eventsApplied),
        resumedFrom: resumedFrom ?? null,
        attempt: info.attempt,
      };
    },
  };
}
