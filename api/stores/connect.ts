import { ErrorAnswer, Ok, ok, refusals } from '@api/answers';
import { seller } from '@api/auth/session';
import {
  AuthorizeAnswer,
  CallbackAnswer,
  CallbackQuery,
  CallbackRefusal,
  StorePlatformParams,
} from '@api/contracts/stores';
import { refusalAnswer } from '@api/errors';
import { connectStoreFromCallback } from '@commands/stores/connect-store';
import { refuseStore } from '@domain/platform/stores';
import { refusalOf } from '@domain/shared/errors';
import { translate } from '@infra/i18n';
import {
  type ConnectablePlatform,
  isConnectablePlatform,
  shopeeClient,
  signConnectState,
  storeSettings,
} from '@integrations/stores';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { STORE_PERMISSION, type StoreDeps, tags, viewsOf } from './common';

/**
 * Connecting a store (spec §2 "Redirect-only callback routes", §3 "Callback result", §7):
 *
 * 1. The console's "Connect Shopee store" asks `POST /api/setting/store/add/shopee/authorize` for the marketplace's
 *    authorisation link. Its redirect is `<public url>/settings/store/add/shopee/create?state=…`, the state signed
 *    and bound to the account (integrations/stores/connect-state.ts).
 * 2. The seller authorises the shop on Shopee (our sandbox's auth_partner page when Kedai runs against it), which
 *    sends the browser to that redirect with `code` and `shop_id` added. The server sends it on into the console's
 *    hash route `#/settings/store/add/shopee/create?state&code&shop_id` (a marketplace adds its query before the
 *    `#`, where a hash route would not see it).
 * 3. That route calls `GET /api/setting/store/add/shopee/create?state&code&shop_id`: the state is checked, the code
 *    exchanged for the shop's tokens, the shop's name read, the store created (or reconnected), its import
 *    schedule made and a first import started. The answer carries `error` (0 or 1), `code`, `msg` and `api_id`
 *    (the store), and the console shows the result page.
 */

function platformOf(platform: string): ConnectablePlatform {
  if (!isConnectablePlatform(platform)) throw refuseStore('PLATFORM_UNSUPPORTED', { platform });
  return platform;
}

export const storeConnectRoutes: FastifyPluginAsyncZod<StoreDeps> = async (app, deps) => {
  const { db, workflows } = deps;
  const publicUrl = deps.publicUrl.replace(/\/+$/, '');

  app.post(
    '/api/setting/store/add/:platform/authorize',
    {
      config: { access: { permission: STORE_PERMISSION } },
      schema: {
        tags,
        summary: "The marketplace's link to authorise a shop (connect a store)",
        params: StorePlatformParams,
        response: {
          200: Ok(AuthorizeAnswer),
          ...refusals,
        },
      },
    },
    async (request) => {
      const session = seller(request);
      const platform = platformOf(request.params.platform);
      const settings = storeSettings();
      const { state, expiresAt } = signConnectState(settings.stateSecret, {
        tenantId: session.tenantId,
        userId: session.userId,
        platform,
      });
      const redirect = `${publicUrl}/settings/store/add/${platform}/create?state=${encodeURIComponent(state)}`;
      const url = shopeeClient(settings.shopee).authorizationUrl(redirect);
      return ok(request, { url, expires_at: expiresAt.toISOString() }, 'store.authorize_ready');
    },
  );

  // Where the marketplace sends the browser back: on into the console's hash route, query and all.
  app.get(
    '/settings/store/add/:platform/create',
    {
      config: { access: 'public' },
      schema: { hide: true, params: StorePlatformParams },
    },
    async (request, reply) => {
      const platform = /^[a-z0-9-]{1,40}$/.test(request.params.platform)
        ? request.params.platform
        : 'unknown';
      const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
      return reply.redirect(`/#/settings/store/add/${platform}/create${query}`, 302);
    },
  );

  app.get(
    '/api/setting/store/add/:platform/create',
    {
      config: { access: { permission: STORE_PERMISSION } },
      schema: {
        tags,
        summary: 'The callback of a shop authorisation: connects (or reconnects) the store',
        params: StorePlatformParams,
        querystring: CallbackQuery,
        response: {
          200: CallbackAnswer,
          400: CallbackRefusal,
          401: ErrorAnswer,
          403: CallbackRefusal,
          404: CallbackRefusal,
          409: CallbackRefusal,
          503: CallbackRefusal,
        },
      },
    },
    async (request, reply) => {
      try {
        const session = seller(request);
        const platform = platformOf(request.params.platform);
        const query = request.query;
        const { store, reconnected } = await connectStoreFromCallback(
          { db, workflows, log: request.log },
          session,
          {
            platform,
            state: query.state,
            code: query.code,
            shopId: query.shop_id,
          },
        );
        const [view] = await viewsOf(db, [store]);
        const msg = translate(request.language, reconnected ? 'store.reconnected' : 'store.connected', {
          name: store.name,
        });
        return reply.send({
          code: 0 as const,
          msg,
          error: 0 as const,
          api_id: store.id,
          data: { store: view!, reconnected },
        });
      } catch (error) {
        // The callback answers a refusal in its own shape (spec §3 "Callback result"), `error` 1.
        const refused = refusalOf(error);
        if (!refused) throw error;
        const { status, code, msg } = refusalAnswer(refused, request.language);
        return reply.code(status as 400 | 403 | 404 | 409 | 503).send({
          code,
          msg,
          error: 1 as const,
          api_id: null,
        });
      }
    },
  );
};
