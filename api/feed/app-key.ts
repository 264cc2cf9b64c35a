import { bearerToken } from '@api/auth/session';
import { APP_KEY } from '@domain/feed/apps';
import { refuseFeed } from '@domain/feed/errors';
import type { Db } from '@infra/db';
import { type AppCaller, appOfKey } from '@projections/feed-apps.queries';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type RateLimit, rateLimiter } from './rate-limit';

declare module 'fastify' {
  interface FastifyRequest {
    /** The app an API key speaks for, on the routes declared `access: 'app'`. */
    feedApp: AppCaller | null;
  }
}

/**
 * The check of the routes an app calls with its API key (`Authorization: Bearer kedai_…`), made before the request
 * is validated so that a bad key is a 401 whatever else is wrong: an unknown, revoked or missing key is a 401 (a key
 * of another account is unknown to this one's rows only by its tenant, so it is the same 401); an app whose maker
 * lost the apps key or left is a 403; past the app's rate a 429 with Retry-After. From there on the request's queries
 * run as the app's tenant.
 */
export function appKeyCheck(db: Db, limit: RateLimit) {
  const limiter = rateLimiter(limit);
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const key = bearerToken(request);
    const scope = request.tenantScope!;
    scope.system = true;
    const caller = key ? await appOfKey(db, key) : null;
    scope.system = false;
    if (!caller) throw refuseFeed('FEED_KEY_INVALID');
    scope.tenantId = caller.tenantId;
    if (!caller.makerKeys.has(APP_KEY)) throw refuseFeed('APP_CREATOR_CANNOT_READ');
    const wait = limiter.take(caller.appId);
    if (wait > 0) {
      reply.header('retry-after', String(wait));
      throw refuseFeed('FEED_RATE_LIMITED');
    }
    request.feedApp = caller;
  };
}
