import type { HealthDetailAnswer } from '@api/contracts/health';
import type { Database } from '@infra/db';
import { type EventStore, formatPosition } from '@infra/eventstore/port';
import type { ProjectionEngine } from '@projections/runtime/engine';
import type { Connection } from '@temporalio/client';
import { type Kysely, sql } from 'kysely';

/**
 * Every component Kedai depends on, how long it took to answer, and how far each projection is behind the log. A
 * component slower than the timeout counts as down, so a hung dependency cannot hang the health check.
 */

/** Answers when the Temporal frontend answers; throws otherwise. */
export interface TemporalProbe {
  address: string;
  check(): Promise<void>;
}

export interface HealthDeps {
  version: string;
  db: Kysely<Database>;
  store: Pick<EventStore, 'kind' | 'headPosition'>;
  engine: Pick<ProjectionEngine, 'status'>;
  temporal: TemporalProbe;
  /** A component slower than this counts as down. */
  timeoutMs?: number;
}

/** The probe `npm start` uses: the cheapest call the frontend serves, bounded by a deadline. */
export function temporalProbe(address: string, connection: Connection, timeoutMs = 2_000): TemporalProbe {
  return {
    address,
    async check() {
      await connection.withDeadline(Date.now() + timeoutMs, () =>
        connection.workflowService.getSystemInfo({}),
      );
    },
  };
}

type Components = HealthDetailAnswer['data']['components'];

export async function checkHealth(deps: HealthDeps): Promise<HealthDetailAnswer['data']> {
  const within = <T>(work: () => Promise<T>) => timed(work, deps.timeoutMs ?? 2_000);
  const [database, eventStore, temporal, projections] = await Promise.all([
    within(() => sql`SELECT 1`.execute(deps.db)),
    within(() => deps.store.headPosition()),
    within(() => deps.temporal.check()),
    within(() => deps.engine.status()),
  ]);
  const components: Components = {
    database: upOrDown(database, {}),
    eventStore: upOrDown(eventStore, { kind: deps.store.kind }),
    temporal: upOrDown(temporal, { address: deps.temporal.address }),
    projections: projections.ok
      ? projections.value.map((p) => ({
          name: p.name,
          status: p.status,
          position: p.position ? formatPosition(p.position) : null,
          eventsApplied: p.eventsApplied.toString(),
          lag: p.lag.toString(),
        }))
      : { status: 'down', error: projections.error },
  };
  const down = [database, eventStore, temporal, projections].some((c) => !c.ok);
  return { status: down ? 'degraded' : 'ok', version: deps.version, components };
}

type Outcome<T> = { ok: true; value: T; latencyMs: number } | { ok: false; error: string };

async function timed<T>(work: () => Promise<T>, timeoutMs: number): Promise<Outcome<T>> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    const value = await Promise.race([work(), timeout]);
    return { ok: true, value, latencyMs: Math.round((performance.now() - started) * 10) / 10 };
  } catch (error) {
    return { ok: false, error: messageOf(error) };
  } finally {
    clearTimeout(timer);
  }
}

function upOrDown<Extra extends object>(outcome: Outcome<unknown>, extra: Extra) {
  return outcome.ok
    ? { status: 'up' as const, latencyMs: outcome.latencyMs, ...extra }
    : { status: 'down' as const, error: outcome.error, ...extra };
}

function messageOf(error: unknown): string {
  // pg reports a refused connection to a name with several addresses as an AggregateError with no message.
  if (error instanceof AggregateError && !error.message) return messageOf(error.errors[0]);
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}
