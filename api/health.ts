import { HealthAnswer, HealthDetailAnswer } from '@api/contracts/health';
import { router } from '@api/route';
import { checkHealth, type HealthDeps } from '@projections/platform/health';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/**
 * GET /api/health: always HTTP 200 with `status` ok or degraded, public so monitors call it without signing in, and
 * telling nothing else (no version, addresses or counts an outsider could use). GET /api/health/detail: which
 * component is down, latencies and each projection's lag (event counts of every tenant), for the provider's admins.
 */

export { HealthAnswer, HealthDetailAnswer } from '@api/contracts/health';
export { type HealthDeps, type TemporalProbe, temporalProbe } from '@projections/platform/health';

export const healthRoutes: FastifyPluginAsyncZod<HealthDeps> = async (app, deps) => {
  const route = router(app, { tags: ['platform'] });
  route.get(
    '/api/health',
    { summary: 'Up or down, for monitors', access: 'public', raw: { 200: HealthAnswer } },
    async () => {
      const { status } = await checkHealth(deps);
      return { code: 0 as const, msg: 'ok' as const, data: { status } };
    },
  );
  route.get(
    '/api/health/detail',
    {
      summary: 'Health of every component and projection',
      access: 'admin',
      raw: { 200: HealthDetailAnswer },
    },
    async () => ({ code: 0 as const, msg: 'ok' as const, data: await checkHealth(deps) }),
  );
};
