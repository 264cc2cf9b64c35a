import { ErrorAnswer, ok } from '@api/answers';
import { seller } from '@api/auth/session';
import { IdParams } from '@api/contracts/ids';
import {
  AuthorizeAnswer,
  CallbackAnswer,
  CallbackQuery,
  CallbackRefusal,
  StoreChangesBody,
  StorePlatformParams,
  StoreView,
} from '@api/contracts/stores';
import { refusalAnswer } from '@api/errors';
import { conflicts, router } from '@api/route';
import {
  authorizationLink,
  connectFromCallback,
  disconnectStoreView,
  editStore,
  importStoreNow,
  storeViewOf,
  storeViews,
} from '@commands/stores/store-screen';
import type { PermissionKey } from '@domain/access/permissions';
import { refusalOf } from '@domain/shared/errors';
import type { Db } from '@infra/db';
import { translate } from '@infra/i18n';
import type { WorkflowDeps } from '@workflows/updates';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

/**
 * Marketplace stores (issue 6; spec §2 /settings/store-integration, §3 "Callback result", §7). Every route needs
 * `marketplace_control` (spec §6 has no store integration key; this is the closest, the listings area's control of
 * the marketplaces). The marketplace sends the browser back to the public `/settings/store/add/:platform/create`,
 * which goes on into the console's hash route (a marketplace adds its query before the `#`); that calls the API's
 * `…/create`, which answers in the callback's own shape (`error` 0 or 1).
 */

export interface StoreDeps {
  db: Db;
  workflows: WorkflowDeps;
  /** Where the console is reached: the marketplace sends the seller back there. */
  publicUrl: string;
}

const STORE_PERMISSION = 'marketplace_control' satisfies PermissionKey;
const one = { params: IdParams, answer: StoreView } as const;
const CALLBACK_PATHS = [
  ['add', 'create'],
  ['edit', 'update'],
] as const;

export const storeRoutes: FastifyPluginAsyncZod<StoreDeps> = async (app, { db, workflows, publicUrl }) => {
  const route = router(app, { tags: ['stores'], access: { permission: STORE_PERMISSION } });

  route.post(
    '/api/setting/store/add/:platform/authorize',
    {
      summary: "The marketplace's link to authorise a shop (connect a store)",
      params: StorePlatformParams,
      answer: AuthorizeAnswer,
    },
    async (request) => {
      const link = authorizationLink(publicUrl, seller(request), request.params.platform);
      return ok(request, link, 'store.authorize_ready');
    },
  );

  // Spec §2/§7: the way back after connecting a shop (add…/create) and after re-authorising a linked one
  // (edit…/update). Both are the same exchange: the command reconnects the store it finds.
  for (const [step, action] of CALLBACK_PATHS) {
    route.get(
      `/settings/store/${step}/:platform/${action}`,
      {
        summary: 'The marketplace sends the browser back here',
        access: 'public',
        hide: true,
        params: StorePlatformParams,
        raw: {},
      },
      async (request, reply) => {
        const platform = /^[a-z0-9-]{1,40}$/.test(request.params.platform)
          ? request.params.platform
          : 'unknown';
        const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
        return reply.redirect(`/#/settings/store/${step}/${platform}/${action}${query}`, 302);
      },
    );

    route.get(
      `/api/setting/store/${step}/:platform/${action}`,
      {
        summary: 'The callback of a shop authorisation: connects (or reconnects) the store',
        params: StorePlatformParams,
        query: CallbackQuery,
        raw: {
          200: CallbackAnswer,
          400: CallbackRefusal,
          401: ErrorAnswer,
          403: CallbackRefusal,
          404: CallbackRefusal,
          409: CallbackRefusal,
          503: CallbackRefusal,
        },
      },
      async (request, reply) => {
        try {
          const { state, code, shop_id: shopId } = request.query;
          const deps = { db, workflows, log: request.log };
          const input = { platform: request.params.platform, state, code, shopId };
          const data = await connectFromCallback(deps, seller(request), input);
          const key = data.reconnected ? 'store.reconnected' : 'store.connected';
          const msg = translate(request.language, key, { name: data.store.name });
          return reply.send({ code: 0 as const, msg, error: 0 as const, api_id: data.store.id, data });
        } catch (error) {
          // The callback answers a refusal in its own shape (spec §3 "Callback result"), `error` 1.
          const refused = refusalOf(error);
          if (!refused) throw error;
          const { status, code, msg } = refusalAnswer(refused, request.language);
          return reply.code(status as 400).send({ code, msg, error: 1 as const, api_id: null });
        }
      },
    );
  }

  route.get(
    '/api/setting/stores',
    { summary: "The account's marketplace stores, with their import status", answer: z.array(StoreView) },
    async (request) => ok(request, await storeViews({ db, workflows }, seller(request).tenantId)),
  );

  route.get('/api/setting/stores/:id', { ...one, summary: 'One store' }, async (request) =>
    ok(request, await storeViewOf({ db, workflows }, seller(request).tenantId, request.params.id)),
  );

  route.put(
    '/api/setting/stores/:id',
    {
      ...one,
      summary: "Change a store's name, order check interval (minutes, 1–1440) or warehouse",
      body: StoreChangesBody,
      errors: conflicts,
    },
    async (request) => {
      const deps = { db, workflows, log: request.log };
      const view = await editStore(deps, seller(request), request.params.id, request.body);
      return ok(request, view, 'store.updated');
    },
  );

  route.post(
    '/api/setting/stores/:id/import',
    {
      ...one,
      summary: "Import the store's orders now (refused while an import of it runs)",
      errors: conflicts,
    },
    async (request) => {
      const view = await importStoreNow({ db, workflows }, seller(request), request.params.id);
      return ok(request, view, 'store.import_started');
    },
  );

  route.post(
    '/api/setting/stores/:id/disconnect',
    {
      ...one,
      summary: 'Disconnect a store: its orders stay, nothing more is imported, its tokens are deleted',
      errors: conflicts,
    },
    async (request) => {
      const deps = { db, workflows, log: request.log };
      return ok(
        request,
        await disconnectStoreView(deps, seller(request), request.params.id),
        'store.disconnected',
      );
    },
  );
};
