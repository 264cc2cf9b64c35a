import { randomUUID } from 'node:crypto';
import { ErrorAnswer, Ok, ok, refusals } from '@api/answers';
import { seller } from '@api/auth/session';
import {
  AuthorizeAnswer,
  CallbackAnswer,
  CallbackQuery,
  CallbackRefusal,
  StorePlatformParams,
} from '@api/contracts/stores';
import { defaultWarehouse } from '@commands/inventory/initial-stock';
import { PackageLimits } from '@domain/access/packages';
import { refuseStore } from '@domain/platform/stores';
import { refusalOf } from '@domain/shared/errors';
import { translate } from '@infra/i18n';
import { ShopeeAuthError, ShopeeRequestError, type ShopeeTokens } from '@integrations/shopee';
import {
  type ConnectablePlatform,
  checkConnectState,
  classifyStoreError,
  connectStore,
  countLinkedStores,
  findStoreByShop,
  isConnectablePlatform,
  shopeeClient,
  signConnectState,
  storeSettings,
} from '@integrations/stores';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { STORE_PERMISSION, type StoreDeps, tags, viewsOf } from './common';
import { ensureImportSchedule, importNow } from './schedule';

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

/** What a failed call to the marketplace during connecting means for the seller. */
function marketplaceRefusal(error: unknown) {
  if (error instanceof ShopeeAuthError || error instanceof ShopeeRequestError)
    return refuseStore('AUTHORIZATION_REFUSED', { detail: error.code });
  const failure = classifyStoreError(error);
  if (failure.kind === 'internal') throw error;
  return refuseStore('MARKETPLACE_UNAVAILABLE', { detail: failure.kind });
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
        const settings = storeSettings();
        const query = request.query;

        const checked = checkConnectState(settings.stateSecret, query.state, {
          tenantId: session.tenantId,
          platform,
        });
        if (!checked.ok) {
          const refusal = {
            invalid: 'STATE_INVALID',
            expired: 'STATE_EXPIRED',
            other_account: 'STATE_OTHER_ACCOUNT',
          } as const;
          throw refuseStore(refusal[checked.reason]);
        }
        const shopId = Number(query.shop_id);
        if (!query.code || !query.shop_id || !/^\d{1,15}$/.test(query.shop_id) || shopId <= 0)
          throw refuseStore('CALLBACK_INCOMPLETE');

        const existing = await findStoreByShop(db, session.tenantId, platform, shopId);
        if (!existing || existing.status === 'disconnected') {
          const limit = await marketplaceLimit(session.tenantId);
          if (limit !== null && (await countLinkedStores(db, session.tenantId)) >= limit)
            throw refuseStore('LIMIT_REACHED', { limit });
        }

        const client = shopeeClient(settings.shopee);
        let tokens: ShopeeTokens;
        let shop: { shop_name: string; region: string };
        try {
          tokens = await client.getAccessToken({ code: query.code, shopId });
          let held = tokens;
          const reader = shopeeClient(settings.shopee, {
            load: async () => held,
            save: async (_shop, fresh) => {
              held = fresh;
            },
          });
          shop = await reader.getShopInfo(shopId);
          tokens = held;
        } catch (error) {
          throw marketplaceRefusal(error);
        }

        const warehouseId = existing ? null : await defaultWarehouse(db, session);
        const { store, reconnected } = await connectStore(db, {
          tenantId: session.tenantId,
          userId: session.userId,
          platform,
          shopId,
          name: shop.shop_name.trim().slice(0, 100) || `Shopee ${shopId}`,
          region: shop.region.slice(0, 8),
          tokens,
          newStore: { id: randomUUID(), warehouseId },
        });
        // The store is connected whatever Temporal says; a schedule not made now is made by "Import now" or the
        // next change of the store.
        try {
          await ensureImportSchedule(workflows, store);
          await importNow(workflows, store);
        } catch (error) {
          request.log.warn({ err: error, storeId: store.id }, 'store import schedule not started yet');
        }
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
        if (!refused?.refusal) throw error;
        return reply.code(refused.refusal.status as 400 | 403 | 404 | 409 | 503).send({
          code: refused.refusal.code,
          msg: translate(request.language, refused.refusal.key, refused.params),
          error: 1 as const,
          api_id: null,
        });
      }
    },
  );

  /** The package's "linked marketplaces" (null: no limit). */
  async function marketplaceLimit(tenantId: string): Promise<number | null> {
    const row = await db
      .selectFrom('tenants as t')
      .innerJoin('packages as p', 'p.id', 't.package_id')
      .select('p.limits')
      .where('t.id', '=', tenantId)
      .executeTakeFirst();
    if (!row) return null;
    const limits = PackageLimits.safeParse(row.limits);
    return limits.success ? limits.data.marketplaces : null;
  }
};
