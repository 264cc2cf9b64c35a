import { ErrorAnswer } from '@api/answers';
import { FeedEventsQuery, FeedPage } from '@api/contracts/feed';
import { router } from '@api/route';
import { recordAppUse } from '@commands/apps/apps';
import { typesToRead } from '@domain/feed/apps';
import { cloudEventJson, formatFeedPosition, parseFeedPosition } from '@domain/feed/cloud-events';
import { refuseFeed } from '@domain/feed/errors';
import type { Db } from '@infra/db';
import { translate } from '@infra/i18n';
import { readTenantFeed } from '@projections/feed.queries';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { appKeyCheck } from './app-key';
import { defaultFeedRateLimit, type RateLimit } from './rate-limit';

/**
 * The integrator feed, pulled: an app reads its account's events of its types, in log order, as CloudEvents 1.0
 * JSON in the house answer (`{ code: 0, msg, data: { events, next } }`), from the start of the log or after any
 * position it was given. The README's "Integrator's guide" is the reader's side of this.
 */

export interface FeedDeps {
  db: Db;
  /** Requests per app (tests and the bench set their own). */
  rateLimit?: RateLimit;
}

export const feedRoutes: FastifyPluginAsyncZod<FeedDeps> = async (app, { db, rateLimit }) => {
  app.decorateRequest('feedApp', null);
  app.addHook('onRequest', appKeyCheck(db, rateLimit ?? defaultFeedRateLimit));
  const route = router(app, { tags: ['feed'], access: 'app' });

  route.get(
    '/api/feed/events',
    {
      summary: "Read the account's events (CloudEvents 1.0), with an app's API key",
      description:
        "Authorization: Bearer <the app key>. Events of the app's types in log order; `next` is the `after` of the next read. " +
        'Each event type is a component `my.kedai.<EventType>` of this document. 401 (820) for a missing, unknown or revoked key, ' +
        '403 (821) for a type outside the app, 400 (822, 823, 824) for a malformed position, one past the log, an unknown type; 429 (825) past the rate.',
      query: FeedEventsQuery,
      answer: FeedPage,
      errors: { 429: ErrorAnswer },
    },
    async (request, reply) => {
      const caller = request.feedApp!;
      const { query } = request;
      const after = query.after === undefined ? undefined : parseFeedPosition(query.after);
      if (after === null) throw refuseFeed('FEED_POSITION_INVALID');
      const page = await readTenantFeed(db, {
        tenantId: caller.tenantId,
        after,
        types: typesToRead(caller, query.types),
        limit: query.limit,
      });
      await recordAppUse({ db }, caller);
      // The events are JSON text already (cloudEventJson): the answer is written around them, not serialised.
      const events = page.events.map(cloudEventJson).join(',');
      const msg = JSON.stringify(translate(request.language, 'common.ok'));
      const next = JSON.stringify(formatFeedPosition(page.next));
      return reply
        .type('application/json; charset=utf-8')
        .send(`{"code":0,"msg":${msg},"data":{"events":[${events}],"next":${next}}}`);
    },
  );
};
