import { ok } from '@api/answers';
import { seller } from '@api/auth/session';
import { AppEventTypes, AppWithKey, FeedApp, NewApp } from '@api/contracts/feed';
import { IdParams } from '@api/contracts/ids';
import { found } from '@api/errors';
import { conflict, router } from '@api/route';
import { createApp, revokeApp, rotateAppKey } from '@commands/apps/apps';
import { APP_KEY, readableTypes } from '@domain/feed/apps';
import type { Db } from '@infra/db';
import { findApp, listApps } from '@projections/feed-apps.queries';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

/** Settings → apps: the integrator feed's apps and their API keys (commands/apps), for holders of the apps key. */
export const appRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const route = router(app, { tags: ['apps'], access: { permission: APP_KEY } });
  const one = { params: IdParams } as const;

  route.get(
    '/api/setting/apps',
    { summary: "The account's apps, newest first", answer: z.array(FeedApp) },
    async (request) => ok(request, await listApps(db, seller(request).tenantId)),
  );

  route.get(
    '/api/setting/apps/event-types',
    {
      summary: 'The event types the caller may give an app (those the caller may read)',
      answer: AppEventTypes,
    },
    async (request) => ok(request, readableTypes(seller(request).permissions)),
  );

  route.get('/api/setting/apps/:id', { ...one, summary: 'One app', answer: FeedApp }, async (request) =>
    ok(request, found(await findApp(db, seller(request).tenantId, request.params.id))),
  );

  route.post(
    '/api/setting/apps',
    {
      summary: 'Create an app; its API key is in this answer only',
      description: 'The app reads with the permission keys of the user who makes it, checked on every call.',
      body: NewApp,
      answer: AppWithKey,
    },
    async (request) => {
      const { tenantId, userId, permissions } = seller(request);
      return ok(
        request,
        await createApp({ db }, { tenantId, userId, permissions }, request.body),
        'feed.app_created',
      );
    },
  );

  route.post(
    '/api/setting/apps/:id/rotate',
    {
      ...one,
      summary: 'Give the app a new API key (in this answer only); the old one stops at once',
      answer: AppWithKey,
      errors: conflict,
    },
    async (request) =>
      ok(request, await rotateAppKey({ db }, seller(request), request.params), 'feed.key_rotated'),
  );

  route.post(
    '/api/setting/apps/:id/revoke',
    { ...one, summary: "Revoke the app's API key for good", answer: FeedApp, errors: conflict },
    async (request) =>
      ok(request, await revokeApp({ db }, seller(request), request.params), 'feed.app_revoked_done'),
  );
};
