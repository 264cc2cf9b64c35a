import { z } from 'zod';

/**
 * GET /api/health (public): only up or down, for monitors. GET /api/health/detail (the provider's admins): each
 * component up (with its latency) or down (with its error), and each projection's lag.
 */

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

const HealthStatus = z.enum(['ok', 'degraded']);

export const HealthAnswer = z.object({
  code: z.literal(0),
  msg: z.literal('ok'),
  data: z.object({ status: HealthStatus }),
});
export type HealthAnswer = z.infer<typeof HealthAnswer>;

export const HealthDetailAnswer = z.object({
  code: z.literal(0),
  msg: z.literal('ok'),
  data: z.object({
    status: HealthStatus,
    version: z.string(),
    components: z.object({
      database: component({}),
      eventStore: component({ kind: z.enum(['postgres', 'eventstoredb']) }),
      temporal: component({ address: z.string() }),
      projections: z.array(ProjectionHealth).or(Down),
    }),
  }),
});
export type HealthDetailAnswer = z.infer<typeof HealthDetailAnswer>;
