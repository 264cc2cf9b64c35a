import { ActivityFailure, ApplicationFailure } from '@temporalio/workflow';

/**
 * What a workflow caught from an activity, as the run's error: the activity's own failure (its type is the error's
 * kind, e.g. a channel's `rate_limit`) and message; anything else is `internal`.
 */
export function failureOf(error: unknown): { kind: string; message: string } {
  const cause = error instanceof ActivityFailure ? error.cause : error;
  if (cause instanceof ApplicationFailure) return { kind: cause.type ?? 'internal', message: cause.message };
  return { kind: 'internal', message: error instanceof Error ? error.message : String(error) };
}
