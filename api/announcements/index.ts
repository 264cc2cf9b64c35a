import type { Db } from '@infra/db';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adminAnnouncementRoutes } from './admin';
import { sellerAnnouncementRoutes } from './seller';

/** Announcements: the admins' routes that write them and the sellers' routes that show and answer them. */
export const announcementRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, deps) => {
  await app.register(adminAnnouncementRoutes, deps);
  await app.register(sellerAnnouncementRoutes, deps);
};
