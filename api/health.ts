import type { Database } from '@infra/db';
import { type EventStore, formatPosition } from '@infra/eventstore/port';
import type { ProjectionEngine } from '@projections/runtime/engine';
import type { Connection } from '@temporalio/client';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type Kysely, sql } from 'kysely';
import { z } from 'zod';

/**
 * GET /api/health: every component Kedai depends on, how long it took to answer, and how far each projection is
 * behind the log. Always HTTP 200: a monitor reads `status`, and an operator reads which component is down.
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
  /** A component slower than this counts as down, so a hung dependency cannot hang the health check. */
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

// ---- schema ----

const Down = z.object({ status: z.literal('down'), error: z.string() });
const Up = z.object({ status: z.literal('up'), latencyMs: z.number() });

const component = <Shape extends z.ZodRawShape>(shape: Shape) =>
  z.discriminatedUnion('status', [Up.extend(shape), Down.extend(shape)]);

const ProjectionHealth = z.object({
  name: z.string(),
  status: z.enum(['live', 'rebuilding']),
  /** `commit/prepare`, or null before the first event. */
  position: z.string().nullable(),
  eventsApplied: z.string().describe('a count, as a string: it may exceed 2^53'),
  lag: z.string().describe('events (Postgres) or log bytes (EventStoreDB) behind the head of the log'),
});

export const HealthAnswer = z.object({
  code: z.literal(0),
  msg: z.literal('ok'),
  data: z.object({
    status: z.enum(['ok', 'degraded']),
    version: z.string(),
    components: z.object({
      database: component({}),
      eventStore: component({ kind: z.enum(['postgres', 'eventstoredb']) }),
      temporal: component({ address: z.string() }),
      projections: z.array(ProjectionHealth).or(Down),
    }),
  }),
});
export type HealthAnswer = z.infer<typeof HealthAnswer>;
type Components = HealthAnswer['data']['components'];

// ---- route ----

export const healthRoutes: FastifyPluginAsyncZod<HealthDeps> = async (app, deps) => {
  app.get(
    '/api/health',
    {
      // Monitors call it without signing in; it names components and lag, nothing of any tenant.
      config: { access: 'public' },
      schema: { tags: ['platform'], summary: 'Health of every component', response: { 200: HealthAnswer } },
    },
    async () => ({ code: 0 as const, msg: 'ok' as const, data: await checkHealth(deps) }),
  );
};

export async function checkHealth(deps: HealthDeps): Promise<HealthAnswer['data']> {
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
