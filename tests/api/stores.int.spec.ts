import type { ShopeeSandbox } from '@integrations/shopee';
import { signConnectState } from '@integrations/stores';
import {
  bearer,
  caller,
  createSeller,
  createSubUser,
  createTestApi,
  type TestApi,
  type TestSeller,
} from '@tests/support/api';
import { waitFor } from '@tests/support/wait';
import { orderImportKey } from '@workflows/order-import-protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authorizeShop,
  callback,
  connectShop,
  deleteSchedules,
  type StoreAnswer,
  startStoreSandbox,
} from './stores-support';

/**
 * Issue 6, connecting stores: the spec's callback flow against our signed Shopee sandbox (good code, forged or
 * stale or foreign state, bad or spent code), the store's schedule (the store's interval, paused when disconnected,
 * updated when the interval changes), "Import now", the package's limit, permissions and tenant isolation.
 */
describe('marketplace stores', () => {
  let api: TestApi;
  let sandbox: ShopeeSandbox;
  let stateSecret: Buffer;
  let restore: () => void;
  let seller: TestSeller;
  let other: TestSeller;
  let store: StoreAnswer;
  const call = caller(() => api);
  const made: { tenantId: string; storeId: string }[] = [];
  const DEMO = 'Kedai Demo Store';

  beforeAll(async () => {
    const started = await startStoreSandbox();
    sandbox = started.sandbox;
    stateSecret = started.settings.stateSecret;
    restore = started.restore;
    sandbox.generateOrders(3);
    api = await createTestApi({ workflows: true });
    [seller, other] = await Promise.all([createSeller(api, { packageId: 'growth' }), createSeller(api)]);
  });
  afterAll(async () => {
    if (api) await deleteSchedules(api, made);
    await api?.close();
    await sandbox?.stop();
    restore?.();
  });

  const schedule = (tenantId: string, storeId: string) =>
    api.workflows.client.schedule.getHandle(orderImportKey(tenantId, storeId)).describe();
  const getStore = async (token: string, id: string) => {
    const response = await call('GET', `/api/setting/stores/${id}`, token);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ data: StoreAnswer }>().data;
  };

  it('connects the sandbox shop through the callback flow: the store, its tokens, its schedule and a first import', async () => {
    const query = await authorizeShop(api, sandbox, seller.token, DEMO);
    expect(query.get('code')).toMatch(/^[0-9a-f]{32}$/);
    expect(query.get('shop_id')).toBe(String(sandbox.shops[0]!.shopId));
    const answer = await callback(api, seller.token, query);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toMatchObject({ code: 0, error: 0, msg: `Store ${DEMO} connected.` });
    store = answer.body.data!.store;
    made.push({ tenantId: seller.tenantId, storeId: store.id });
    expect(answer.body.api_id).toBe(store.id);
    expect(answer.body.data!.reconnected).toBe(false);
    expect(store).toMatchObject({
      platform: 'shopee',
      name: DEMO,
      shop_id: sandbox.shops[0]!.shopId,
      region: 'MY',
      status: 'connected',
      import_interval_minutes: 30,
      last_error: null,
    });
    // The account had no warehouse: its orders go to the default one, made for it.
    expect(store.warehouse).toMatchObject({ code: 'MAIN' });

    // The tokens are kept, and never answered.
    const tokens = await api.database.db
      .selectFrom('store_tokens')
      .selectAll()
      .where('store_id', '=', store.id)
      .executeTakeFirstOrThrow();
    expect(tokens.tenant_id).toBe(seller.tenantId);
    const list = await call('GET', '/api/setting/stores', seller.token);
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(tokens.access_token);
    expect(list.body).not.toContain(tokens.refresh_token);
    expect(JSON.stringify(answer.body)).not.toContain(tokens.access_token);

    // Its schedule runs the import every 30 minutes, never two at once.
    const described = await schedule(seller.tenantId, store.id);
    expect(described.spec.intervals).toMatchObject([{ every: 30 * 60_000 }]);
    expect(described.policies.overlap).toBe('SKIP');
    expect(described.state.paused).toBe(false);
    expect(described.action).toMatchObject({ type: 'startWorkflow', workflowType: 'orderImportWorkflow' });

    // …and a first import ran at once: the store shows it.
    const imported = await waitFor(async () => {
      const current = await getStore(seller.token, store.id);
      return current.last_import_at ? current : undefined;
    });
    expect(imported.status).toBe('connected');
    expect(imported.last_import_orders).toBeGreaterThanOrEqual(3);
    expect(imported.import_checkpoint).not.toBeNull();

    const logged = await api.database.db
      .selectFrom('activity_log')
      .select(['action', 'user_id'])
      .where('tenant_id', '=', seller.tenantId)
      .where('subject_id', '=', store.id)
      .execute();
    expect(logged).toContainEqual({ action: 'store.connected', user_id: seller.userId });
  });

  it('refuses a forged, stale or foreign state with error 1 and a clear message, connecting nothing', async () => {
    const query = await authorizeShop(api, sandbox, other.token, DEMO);
    const state = query.get('state')!;
    const before = await api.database.db.selectFrom('stores').select('id').execute();

    const forged = new URLSearchParams(query);
    forged.set('state', `${state.slice(0, 10)}${state[10] === 'A' ? 'B' : 'A'}${state.slice(11)}`);
    expect(await callback(api, other.token, forged)).toEqual({
      status: 400,
      body: {
        code: 601,
        error: 1,
        api_id: null,
        msg: 'This store connection link is not valid. Start connecting the store again.',
      },
    });
    const missing = new URLSearchParams(query);
    missing.delete('state');
    expect((await callback(api, other.token, missing)).body).toMatchObject({ code: 601, error: 1 });

    const stale = new URLSearchParams(query);
    stale.set(
      'state',
      signConnectState(stateSecret, {
        tenantId: other.tenantId,
        userId: other.userId,
        platform: 'shopee',
        now: Date.now() - 31 * 60_000,
      }).state,
    );
    expect(await callback(api, other.token, stale)).toEqual({
      status: 400,
      body: {
        code: 602,
        error: 1,
        api_id: null,
        msg: 'This store connection link has expired. Start connecting the store again.',
      },
    });

    // Another account's authorisation, finished in the seller's session, attaches nothing to the seller.
    const foreign = await callback(api, seller.token, query);
    expect(foreign.status).toBe(400);
    expect(foreign.body).toMatchObject({ code: 603, error: 1, api_id: null });
    expect(foreign.body.msg).toContain('started from another account');

    expect(await api.database.db.selectFrom('stores').select('id').execute()).toEqual(before);
    // The code was not spent by the refusals: the right account still connects with it.
    const good = await callback(api, other.token, query);
    expect(good.status, JSON.stringify(good.body)).toBe(200);
    made.push({ tenantId: other.tenantId, storeId: good.body.api_id! });
  });

  it('refuses a bad, spent or missing code and an unknown platform', async () => {
    const query = await authorizeShop(api, sandbox, seller.token, DEMO);
    const bad = new URLSearchParams(query);
    bad.set('code', 'not-a-code-shopee-gave');
    expect(await callback(api, seller.token, bad)).toEqual({
      status: 400,
      body: {
        code: 605,
        error: 1,
        api_id: null,
        msg: 'Shopee refused the authorisation (error_auth). Start connecting the store again.',
      },
    });
    const incomplete = new URLSearchParams(query);
    incomplete.delete('code');
    expect((await callback(api, seller.token, incomplete)).body).toMatchObject({ code: 604, error: 1 });
    const notAShop = new URLSearchParams(query);
    notAShop.set('shop_id', 'abc');
    expect((await callback(api, seller.token, notAShop)).body).toMatchObject({ code: 604, error: 1 });

    // The good code reconnects the store the account has for the shop; spent, it is refused. Re-authorising a
    // linked shop comes back at the spec's edit path (shell.md §2, §7), through the console, to the edit call.
    const bounce = await api.app.inject({
      method: 'GET',
      url: `/settings/store/edit/shopee/update?${query}`,
    });
    expect(bounce.statusCode).toBe(302);
    expect(bounce.headers.location).toBe(`/#/settings/store/edit/shopee/update?${query}`);
    const good = await api.app.inject({
      method: 'GET',
      url: `/api/setting/store/edit/shopee/update?${query}`,
      headers: bearer(seller.token),
    });
    expect(good.statusCode, good.body).toBe(200);
    expect(good.json()).toMatchObject({ error: 0, api_id: store.id, data: { reconnected: true } });
    expect((await callback(api, seller.token, query)).body).toMatchObject({ code: 605, error: 1 });

    const unknown = await api.app.inject({
      method: 'GET',
      url: `/api/setting/store/add/lazada/create?${query}`,
      headers: bearer(seller.token),
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 600, error: 1 });
    const link = await call('POST', '/api/setting/store/add/lazada/authorize', seller.token);
    expect(link.statusCode).toBe(404);
    expect(link.json().code).toBe(600);
  });

  it('updates the schedule when the interval changes, and refuses an interval outside 1–1440 minutes', async () => {
    const changed = await call('PUT', `/api/setting/stores/${store.id}`, seller.token, {
      import_interval_minutes: 5,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().data.import_interval_minutes).toBe(5);
    expect((await schedule(seller.tenantId, store.id)).spec.intervals).toMatchObject([{ every: 5 * 60_000 }]);
    for (const wrong of [0, 1441, 2.5, '10']) {
      const refused = await call('PUT', `/api/setting/stores/${store.id}`, seller.token, {
        import_interval_minutes: wrong,
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({
        code: 608,
        msg: 'The order check interval must be a whole number of minutes from 1 to 1440.',
      });
    }
    const edge = await call('PUT', `/api/setting/stores/${store.id}`, seller.token, {
      import_interval_minutes: 1440,
    });
    expect(edge.statusCode).toBe(200);
    expect((await schedule(seller.tenantId, store.id)).spec.intervals?.[0]?.every).toBe(1440 * 60_000);
    expect((await call('PUT', `/api/setting/stores/${store.id}`, seller.token, {})).json().code).toBe(614);
    expect(
      (await call('PUT', `/api/setting/stores/${store.id}`, seller.token, { shop_id: 1 })).statusCode,
    ).toBe(400);
    const noWarehouse = await call('PUT', `/api/setting/stores/${store.id}`, seller.token, {
      warehouse_id: '00000000-0000-4000-8000-000000000000',
    });
    expect(noWarehouse.statusCode).toBe(404);
    expect(noWarehouse.json().code).toBe(609);
    const renamed = await call('PUT', `/api/setting/stores/${store.id}`, seller.token, {
      name: '  Kedai MY  ',
    });
    expect(renamed.json().data.name).toBe('Kedai MY');
  });

  it('imports now through the schedule, refusing a second import while one runs', async () => {
    // The import's first list call hangs until the client's timeout: the run is busy meanwhile.
    // (After the import the reconnect above started.)
    const idle = await waitFor(async () => {
      const current = await getStore(seller.token, store.id);
      return current.schedule && !current.schedule.importing ? current : undefined;
    });
    const before = idle.last_import_at;
    sandbox.failNext({ kind: 'timeout', path: '/api/v2/order/get_order_list' });
    const started = await call('POST', `/api/setting/stores/${store.id}/import`, seller.token);
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json().msg).toBe('Import started.');
    await waitFor(async () => (await getStore(seller.token, store.id)).schedule?.importing || undefined);
    const again = await call('POST', `/api/setting/stores/${store.id}/import`, seller.token);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ code: 612, msg: 'An import of this store is already running.' });
    // The timeout is retried and the run ends well: the store shows the new import and no error.
    const done = await waitFor(async () => {
      const current = await getStore(seller.token, store.id);
      return current.last_import_at !== before && !current.schedule?.importing ? current : undefined;
    });
    expect(done).toMatchObject({ status: 'connected', last_error: null });
  });

  it('pauses the schedule of a disconnected store and unpauses it when the shop is connected again', async () => {
    const off = await call('POST', `/api/setting/stores/${store.id}/disconnect`, seller.token);
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().data).toMatchObject({ status: 'disconnected', schedule: { paused: true } });
    expect((await schedule(seller.tenantId, store.id)).state.paused).toBe(true);
    expect(
      await api.database.db
        .selectFrom('store_tokens')
        .select('store_id')
        .where('store_id', '=', store.id)
        .execute(),
    ).toEqual([]);
    const twice = await call('POST', `/api/setting/stores/${store.id}/disconnect`, seller.token);
    expect(twice.statusCode).toBe(200);
    const refused = await call('POST', `/api/setting/stores/${store.id}/import`, seller.token);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe(611);

    const back = await connectShop(api, sandbox, seller.token, DEMO);
    expect(back.id).toBe(store.id);
    expect(back.status).toBe('connected');
    expect(back.import_interval_minutes).toBe(1440);
    expect((await schedule(seller.tenantId, store.id)).state.paused).toBe(false);
  });

  it("refuses a new store beyond the package's linked marketplaces", async () => {
    // The trial package links 2; `other` has the demo shop already.
    const second = sandbox.createShop({ name: 'Second Shop' });
    const third = sandbox.createShop({ name: 'Third Shop' });
    const linked = await connectShop(api, sandbox, other.token, 'Second Shop');
    made.push({ tenantId: other.tenantId, storeId: linked.id });
    expect(linked.shop_id).toBe(second.shopId);
    const over = await callback(
      api,
      other.token,
      await authorizeShop(api, sandbox, other.token, 'Third Shop'),
    );
    expect(over.status).toBe(409);
    expect(over.body).toMatchObject({
      code: 607,
      error: 1,
      msg: 'Your package allows 2 linked marketplaces. Disconnect a store or upgrade your package first.',
    });
    expect(third.shopId).toBeGreaterThan(second.shopId);
  });

  it('keeps every store to its account: another account sees none of them, and an id of theirs is a 404', async () => {
    const theirs = await call('GET', '/api/setting/stores', other.token);
    expect(theirs.json().data.map((s: StoreAnswer) => s.id)).not.toContain(store.id);
    const missing = await call(
      'GET',
      '/api/setting/stores/00000000-0000-4000-8000-000000000000',
      other.token,
    );
    expect(missing.statusCode).toBe(404);
    for (const [method, url, payload] of [
      ['GET', `/api/setting/stores/${store.id}`, undefined],
      ['PUT', `/api/setting/stores/${store.id}`, { import_interval_minutes: 7 }],
      ['POST', `/api/setting/stores/${store.id}/import`, undefined],
      ['POST', `/api/setting/stores/${store.id}/disconnect`, undefined],
    ] as const) {
      const response = await call(method, url, other.token, payload);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.json()).toEqual(missing.json());
    }
    expect((await call('GET', '/api/setting/stores/not-a-uuid', other.token)).json()).toEqual(missing.json());
    expect((await getStore(seller.token, store.id)).import_interval_minutes).toBe(1440);
  });

  it('needs the marketplace_control key on every route', async () => {
    const without = await createSubUser(api, seller.tenantId, ['listings-index']);
    const holder = await createSubUser(api, seller.tenantId, ['marketplace_control']);
    for (const [method, url] of [
      ['GET', '/api/setting/stores'],
      ['GET', `/api/setting/stores/${store.id}`],
      ['PUT', `/api/setting/stores/${store.id}`],
      ['POST', `/api/setting/stores/${store.id}/import`],
      ['POST', `/api/setting/stores/${store.id}/disconnect`],
      ['POST', '/api/setting/store/add/shopee/authorize'],
      ['GET', '/api/setting/store/add/shopee/create?code=x&shop_id=1&state=y'],
    ] as const) {
      const refused = await call(method, url, without.token, method === 'PUT' ? { name: 'x' } : undefined);
      expect(refused.statusCode, `${method} ${url}`).toBe(403);
      const anonymous = await api.app.inject({ method, url });
      expect(anonymous.statusCode, `${method} ${url}`).toBe(401);
    }
    const allowed = await call('GET', '/api/setting/stores', holder.token);
    expect(allowed.statusCode).toBe(200);
    expect(allowed.json().data.map((s: StoreAnswer) => s.id)).toContain(store.id);
  });
});
