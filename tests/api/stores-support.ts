import { randomBytes, randomUUID } from 'node:crypto';
import { type ShopeeSandbox, type ShopeeSandboxOptions, startShopeeSandbox } from '@integrations/shopee';
import {
  DEFAULT_IMPORT_RETRY,
  type StoreSettings,
  StoreTokenStore,
  setStoreSettings,
} from '@integrations/stores';
import { formOf, PARTNER, type TestSandbox } from '@tests/integrations/shopee/support';
import { bearer, type TestApi } from '@tests/support/api';
import { orderImportKey } from '@workflows/order-import-protocol';
import { expect } from 'vitest';

/**
 * The Shopee sandbox as the store tests use it: the real clock (the import reads "now"), no orders of its own, a
 * short hold for a `timeout` failure, and this process's store settings pointed at it with quick retries.
 */

export { PARTNER };

export async function startStoreSandbox(
  options: Partial<ShopeeSandboxOptions> = {},
): Promise<{ sandbox: ShopeeSandbox; settings: StoreSettings; restore(): void }> {
  const sandbox = await startShopeeSandbox({
    partners: [PARTNER],
    seed: `stores-${randomBytes(3).toString('hex')}`,
    tickIntervalMs: 0,
    orderRate: 0,
    timeoutHoldMs: 2_500,
    ...options,
  });
  const settings: StoreSettings = {
    shopee: {
      baseUrl: sandbox.url,
      partnerId: PARTNER.partnerId,
      partnerKey: PARTNER.partnerKey,
      timeoutMs: 1_000,
    },
    stateSecret: randomBytes(32),
    importRetry: { initialIntervalMs: 100, maximumIntervalMs: 400, maximumAttempts: 3 },
  };
  const previous = setStoreSettings(settings);
  return {
    sandbox,
    settings,
    restore() {
      if (previous) setStoreSettings(previous);
    },
  };
}

/** This process's store settings pointed at a test sandbox, signing with its clock; answers the previous ones. */
export function pointStoresAt(test: TestSandbox): StoreSettings | undefined {
  return setStoreSettings({
    shopee: {
      baseUrl: test.sandbox.url,
      partnerId: PARTNER.partnerId,
      partnerKey: PARTNER.partnerKey,
      now: test.clock.now,
    },
    stateSecret: randomBytes(32),
    importRetry: DEFAULT_IMPORT_RETRY,
  });
}

/** A connected Shopee store of the account for a sandbox shop, holding the sandbox's tokens for it (its id). */
export async function connectSandboxStore(
  api: TestApi,
  tenantId: string,
  test: TestSandbox,
  shopId: number,
  name: string,
): Promise<string> {
  const storeId = randomUUID();
  await api.database.db
    .insertInto('stores')
    .values({
      id: storeId,
      tenant_id: tenantId,
      platform: 'shopee',
      name,
      shop_id: shopId,
      region: 'MY',
      status: 'connected',
      connected_at: new Date(),
    })
    .execute();
  await new StoreTokenStore(api.database.db, { tenantId, storeId, shopId }).save(
    shopId,
    test.sandbox.issueTokens(PARTNER.partnerId, shopId),
  );
  return storeId;
}

export interface CallbackAnswer {
  status: number;
  body: {
    code: number;
    msg: string;
    error?: 0 | 1;
    api_id?: string | null;
    data?: { store: StoreAnswer; reconnected: boolean };
  };
}

export interface StoreAnswer {
  id: string;
  platform: string;
  name: string;
  shop_id: number;
  region: string;
  status: 'connected' | 'error' | 'disconnected';
  warehouse: { id: string; code: string; name: string } | null;
  import_interval_minutes: number;
  last_import_at: string | null;
  last_import_orders: number | null;
  import_checkpoint: string | null;
  last_error: { kind: string; message: string; at: string } | null;
  schedule: { paused: boolean; importing: boolean; next_import_at: string | null } | null;
}

/**
 * The seller's way through the authorisation, as a browser goes: the API's link → the sandbox's page → Authorize
 * (the sandbox redirects with code and shop_id) → our redirect route (on into the console's hash route) → the query
 * the console's callback route hands to the API.
 */
export async function authorizeShop(
  api: TestApi,
  sandbox: ShopeeSandbox,
  token: string,
  shopName: string,
): Promise<URLSearchParams> {
  const link = await api.app.inject({
    method: 'POST',
    url: '/api/setting/store/add/shopee/authorize',
    headers: bearer(token),
  });
  expect(link.statusCode, link.body).toBe(200);
  const url = new URL(link.json<{ data: { url: string } }>().data.url);
  expect(url.origin).toBe(sandbox.url);
  expect(url.pathname).toBe('/api/v2/shop/auth_partner');
  const page = await fetch(url);
  expect(page.status).toBe(200);
  const { action, fields } = formOf(await page.text(), shopName);
  const pressed = await fetch(new URL(action, sandbox.url), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: fields.toString(),
    redirect: 'manual',
  });
  expect(pressed.status).toBe(302);
  const back = new URL(pressed.headers.get('location')!);
  expect(back.origin).toBe('http://kedai.test');
  expect(back.pathname).toBe('/settings/store/add/shopee/create');
  const bounce = await api.app.inject({ method: 'GET', url: `${back.pathname}${back.search}` });
  expect(bounce.statusCode).toBe(302);
  const console = String(bounce.headers.location);
  expect(console.startsWith('/#/settings/store/add/shopee/create?')).toBe(true);
  return new URLSearchParams(console.slice(console.indexOf('?') + 1));
}

export async function callback(api: TestApi, token: string, query: URLSearchParams): Promise<CallbackAnswer> {
  const response = await api.app.inject({
    method: 'GET',
    url: `/api/setting/store/add/shopee/create?${query}`,
    headers: bearer(token),
  });
  return { status: response.statusCode, body: response.json() };
}

/** Connects the sandbox shop to the seller's account through the whole flow; the store. */
export async function connectShop(
  api: TestApi,
  sandbox: ShopeeSandbox,
  token: string,
  shopName: string,
): Promise<StoreAnswer> {
  const answer = await callback(api, token, await authorizeShop(api, sandbox, token, shopName));
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  expect(answer.body.error).toBe(0);
  return answer.body.data!.store;
}

/** Deletes the schedules the tests made on the run's shared Temporal server. */
export async function deleteSchedules(api: TestApi, stores: Iterable<{ tenantId: string; storeId: string }>) {
  for (const { tenantId, storeId } of stores) {
    await api.workflows.client.schedule
      .getHandle(orderImportKey(tenantId, storeId))
      .delete()
      .catch(() => undefined);
  }
}
