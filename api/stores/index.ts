/**
 * Marketplace stores (issue 6; spec §2 /settings/store-integration and the store callback routes, §3 "Callback
 * result", §7 `GET /api/setting/store/add/{platform}/create`). Every route needs the `marketplace_control` key
 * (common.ts STORE_PERMISSION); another account's store answers as a missing one (404).
 *
 * POST /api/setting/store/add/:platform/authorize   → { url, expires_at }: the marketplace's authorisation link
 * GET  /settings/store/add/:platform/create          (the marketplace's redirect, public) → 302 into the console's
 *      hash route with the same query
 * GET  /api/setting/store/add/:platform/create?state&code&shop_id   connects or reconnects the store; answers
 *      { code, msg, error: 0 | 1, api_id: store id | null, data?: { store, reconnected } }
 * GET  /api/setting/stores                           the stores, each with its status, last import, last error,
 *      order check interval and schedule (paused, importing, next import)
 * GET  /api/setting/stores/:id
 * PUT  /api/setting/stores/:id                       { name?, import_interval_minutes? (1–1440), warehouse_id? }
 * POST /api/setting/stores/:id/import                "Import now" (409 612 while one runs)
 * POST /api/setting/stores/:id/disconnect
 *
 * Codes (common.ts StoreCode): 600 platform not supported (404), 601 state invalid, 602 state expired, 603 state of
 * another account, 604 callback without code or shop id, 605 the marketplace refused the authorisation, 606 the
 * marketplace unavailable (503), 607 linked-marketplace limit of the package (409), 608 interval not 1–1440,
 * 609 warehouse not found (404), 610 store not found (404), 611 store disconnected (409), 612 import running (409),
 * 613 name invalid, 614 nothing to change; 503 when Temporal does not answer "Import now".
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { StoreDeps } from './common';
import { storeConnectRoutes } from './connect';
import { storeManageRoutes } from './manage';

export type { StoreDeps } from './common';

export const storeRoutes: FastifyPluginAsyncZod<StoreDeps> = async (app, deps) => {
  await app.register(storeConnectRoutes, deps);
  await app.register(storeManageRoutes, deps);
};
