import { HealthAnswer } from '@api/contracts/health';
import { router } from '@api/route';
import { checkHealth, type HealthDeps } from '@projections/platform/health';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/**
 * GET /api/health: always HTTP 200; a monitor reads `status`, an operator reads which component is down. Public:
 * monitors call it without signing in, and it names components and lag, nothing of any tenant.
 */

export { HealthAnswer } from '@api/contracts/health';
export { type HealthDeps, type TemporalProbe, temporalProbe } from '@projections/platform/health';

export const healthRoutes: FastifyPluginAsyncZod<HealthDeps> = async (app, deps) => {
  router(app, { tags: ['platform'], access: 'public' }).get(
    '/api/health',
    { summary: 'Health of every component', raw: { 200: HealthAnswer } },
    async () => ({ code: 0 as const, msg: 'ok' as const, data: await checkHealth(deps) }),
  );
};
