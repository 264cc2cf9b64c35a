import type { Db } from '@infra/db';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { groupRoutes } from './groups';
import { userRoutes } from './users';

/** Settings → user groups and users: the owner's management of who may do what in the seller account. */
export const teamRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, deps) => {
  await app.register(groupRoutes, deps);
  await app.register(userRoutes, deps);
};
