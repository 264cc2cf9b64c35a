import { FEED_EVENT_TYPES } from '@domain/feed/cloud-events';
import {
  bearer,
  createSeller,
  createSubUser,
  createTestApi,
  type TestApi,
  type TestSeller,
} from '@tests/support/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** The feed over HTTP: apps and their keys, and what an app may and may not read. */

interface Page {
  code: number;
  data: {
    events: { id: string; type: string; source: string; subject: string; position: string; data: unknown }[];
    next: string;
  };
}

const TYPES = ['BatchClosed', 'ScanCheckReset'];

describe('the integrator feed over HTTP', () => {
  let api: TestApi;
  const sellers: TestSeller[] = [];
  const keys: string[] = [];

  const feed = (key: string | undefined, query = '') =>
    api.app.inject({
      method: 'GET',
      url: `/api/feed/events${query}`,
      headers: key ? { authorization: `Bearer ${key}` } : {},
    });

  const createApp = async (token: string, body: Record<string, unknown>) =>
    api.app.inject({ method: 'POST', url: '/api/setting/apps', headers: bearer(token), payload: body });

  /** The tenant's events of these types in log order, as the superuser sees the table. */
  const logOf = async (tenantId: string, types = TYPES) => {
    const { rows } = await api.database.pool.query<{ event_id: string }>(
      `SELECT event_id FROM es_events WHERE metadata->>'tenantId' = $1 AND type = ANY($2)
       ORDER BY transaction_id, global_position`,
      [tenantId, types],
    );
    return rows.map((r) => r.event_id);
  };

  /** Reads everything from the start, page by page. */
  const readAll = async (key: string, limit: number, extra = '') => {
    const ids: string[] = [];
    let after = '';
    for (;;) {
      const response = await feed(key, `?limit=${limit}${after ? `&after=${after}` : ''}${extra}`);
      expect(response.statusCode, response.body).toBe(200);
      const page = response.json<Page>();
      ids.push(...page.data.events.map((e) => e.id));
      after = page.data.next;
      if (page.data.events.length < limit) return { ids, events: page.data.events, next: after };
    }
  };

  beforeAll(async () => {
    api = await createTestApi({ overrides: { feedRateLimit: { perSecond: 1, burst: 60 } } });
    for (let i = 0; i < 5; i++) sellers.push(await createSeller(api));
    // Five accounts' events, interleaved in the log.
    const at = '2026-11-28T01:00:00.000Z';
    for (let i = 0; i < 150; i++) {
      const seller = sellers[i % 5]!;
      const metadata = { tenantId: seller.tenantId, userId: seller.userId, occurredAt: at };
      await api.store.append(
        i % 3 === 0 ? `scanCheck-${seller.tenantId}.o${i % 4}` : `batch-${seller.tenantId}.b${i % 7}`,
        [
          i % 3 === 0
            ? { type: 'ScanCheckReset', data: { at, scanUndone: i % 2 === 0 }, metadata }
            : { type: 'BatchClosed', data: {}, metadata },
        ],
        { expectedRevision: 'any' },
      );
    }
    await api.store.awaitVisible();
    for (const seller of sellers) {
      const response = await createApp(seller.token, { name: 'Warehouse sync', eventTypes: TYPES });
      expect(response.statusCode, response.body).toBe(200);
      keys.push(response.json<{ data: { key: string } }>().data.key);
    }
  });
  afterAll(async () => {
    await api?.close();
  });

  it('shows the key once: the list has its first characters only', async () => {
    const list = await api.app.inject({
      method: 'GET',
      url: '/api/setting/apps',
      headers: bearer(sellers[0]!.token),
    });
    expect(list.statusCode).toBe(200);
    const [app] = list.json<{ data: { name: string; keyHint: string; eventTypes: string[] }[] }>().data;
    expect(app).toMatchObject({ name: 'Warehouse sync', eventTypes: TYPES });
    expect(list.body).not.toContain(keys[0]);
    expect(keys[0]!.startsWith(app!.keyHint.slice(0, -1))).toBe(true);
  });

  it("gives each of five accounts' apps all of their own events in log order across pages, none of another's", async () => {
    for (const [i, seller] of sellers.entries()) {
      const expected = await logOf(seller.tenantId);
      expect(expected.length).toBe(30);
      const { ids } = await readAll(keys[i]!, 7);
      expect(ids).toEqual(expected);
    }
    const one = await feed(keys[2], '?limit=3');
    for (const event of one.json<Page>().data.events) {
      expect(event).toMatchObject({ specversion: '1.0', source: `/kedai/tenants/${sellers[2]!.tenantId}` });
      expect(event.subject).toContain(`-${sellers[2]!.tenantId}.`);
    }
  });

  it('reads one type, resumes from any event, and from the end without reading anything again', async () => {
    const seller = sellers[1]!;
    const scans = await readAll(keys[1]!, 100, '&types=my.kedai.ScanCheckReset');
    expect(scans.ids).toEqual(await logOf(seller.tenantId, ['ScanCheckReset']));
    expect(scans.events[0]).toMatchObject({
      type: 'my.kedai.ScanCheckReset',
      data: { scanUndone: expect.any(Boolean) },
    });
    const all = await readAll(keys[1]!, 100);
    const from = all.events[11]!.position;
    const rest = await feed(keys[1], `?after=${from}&limit=1000`);
    expect(rest.json<Page>().data.events.map((e) => e.id)).toEqual(all.ids.slice(12));
    const none = await feed(keys[1], `?after=${all.next}`);
    expect(none.json<Page>().data.events).toEqual([]);
  });

  it('refuses bad keys, types and positions in the house answer shape', async () => {
    const refused = async (key: string | undefined, query: string, status: number, code: number) => {
      const response = await feed(key, query);
      expect(response.statusCode, response.body).toBe(status);
      expect(response.json()).toMatchObject({ code, msg: expect.any(String) });
      expect(response.body).not.toContain('"events"');
    };
    await refused(undefined, '', 401, 820);
    await refused('kedai_not-a-key', '', 401, 820);
    // A signed-in user's token is not an app key.
    await refused(sellers[0]!.token, '', 401, 820);
    await refused(keys[0], '?types=ListingDeleted', 403, 821);
    await refused(keys[0], '?types=NoSuchThing', 400, 824);
    await refused(keys[0], '?types=SystemStarted', 400, 824);
    await refused(keys[0], '?after=12', 400, 822);
    await refused(keys[0], '?after=99999999999999999999-1', 400, 822);
    await refused(keys[0], '?after=9223372036854775807-1', 400, 823);
    await refused(keys[0], '?limit=0', 400, 400);
    const messages = await feed(undefined, '');
    expect(messages.json<{ msg: string }>().msg).toBe('The API key is missing, invalid or revoked.');
    const thai = await api.app.inject({
      method: 'GET',
      url: '/api/feed/events',
      headers: { language: 'th-th' },
    });
    expect(thai.json<{ msg: string }>().msg).toBe('ไม่มีคีย์ API หรือคีย์ไม่ถูกต้องหรือถูกเพิกถอนแล้ว');
  });

  it('stops an old key when the key is rotated, and every key when revoked', async () => {
    const seller = sellers[3]!;
    const made = await createApp(seller.token, { name: 'Short-lived', eventTypes: ['BatchClosed'] });
    const { id, key } = made.json<{ data: { id: string; key: string } }>().data;
    expect((await feed(key)).statusCode).toBe(200);
    const rotated = await api.app.inject({
      method: 'POST',
      url: `/api/setting/apps/${id}/rotate`,
      headers: bearer(seller.token),
    });
    expect(rotated.statusCode, rotated.body).toBe(200);
    const newKey = rotated.json<{ data: { key: string } }>().data.key;
    expect((await feed(key)).statusCode).toBe(401);
    expect((await feed(newKey)).statusCode).toBe(200);
    for (const url of ['/api/setting/apps/not-an-id', `/api/setting/apps/${id}`]) {
      const other = await api.app.inject({ method: 'GET', url, headers: bearer(sellers[0]!.token) });
      expect(other.statusCode, url).toBe(404);
    }
    // Another account cannot touch the app: it is a record it does not have.
    const foreign = await api.app.inject({
      method: 'POST',
      url: `/api/setting/apps/${id}/revoke`,
      headers: bearer(sellers[0]!.token),
    });
    expect(foreign.statusCode).toBe(404);
    const revoked = await api.app.inject({
      method: 'POST',
      url: `/api/setting/apps/${id}/revoke`,
      headers: bearer(seller.token),
    });
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(revoked.json<{ data: { revokedAt: string | null } }>().data.revokedAt).not.toBeNull();
    expect((await feed(newKey)).statusCode).toBe(401);
    const again = await api.app.inject({
      method: 'POST',
      url: `/api/setting/apps/${id}/rotate`,
      headers: bearer(seller.token),
    });
    expect(again.json()).toMatchObject({ code: 828 });
  });

  it("acts with its maker's keys: types the maker cannot read are refused, and a maker who loses the apps key stops it", async () => {
    const seller = sellers[4]!;
    const staff = await createSubUser(api, seller.tenantId, ['appstore', 'orders-batch']);
    const tooWide = await createApp(staff.token, { name: 'Listings', eventTypes: ['ListingDeleted'] });
    expect(tooWide.statusCode).toBe(403);
    expect(tooWide.json()).toMatchObject({ code: 821 });
    const types = await api.app.inject({
      method: 'GET',
      url: '/api/setting/apps/event-types',
      headers: bearer(staff.token),
    });
    expect(types.json<{ data: string[] }>().data).toContain('BatchClosed');
    expect(types.json<{ data: string[] }>().data).not.toContain('ListingDeleted');
    const made = await createApp(staff.token, { name: 'Batches', eventTypes: ['BatchClosed'] });
    expect(made.statusCode, made.body).toBe(200);
    const key = made.json<{ data: { key: string } }>().data.key;
    expect((await readAll(key, 100)).ids).toEqual(await logOf(seller.tenantId, ['BatchClosed']));
    await api.database.db
      .updateTable('user_groups')
      .set({ permissions: ['orders-batch'] })
      .where('tenant_id', '=', seller.tenantId)
      .execute();
    const stopped = await feed(key);
    expect(stopped.statusCode).toBe(403);
    expect(stopped.json()).toMatchObject({ code: 829 });
    // Without the apps key, the settings are closed too.
    const list = await api.app.inject({
      method: 'GET',
      url: '/api/setting/apps',
      headers: bearer(staff.token),
    });
    expect(list.statusCode).toBe(403);
  });

  it('answers 429 with Retry-After past the rate of an app', async () => {
    const made = await createApp(sellers[0]!.token, { name: 'Eager', eventTypes: ['BatchClosed'] });
    const key = made.json<{ data: { key: string } }>().data.key;
    const answers = [];
    for (let i = 0; i < 70; i++) answers.push(await feed(key, '?limit=1'));
    const limited = answers.find((r) => r.statusCode === 429);
    expect(limited).toBeDefined();
    expect(limited!.json()).toMatchObject({ code: 825, msg: expect.any(String) });
    expect(Number(limited!.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // Another app of the same account has a bucket of its own.
    expect((await feed(keys[0], '?limit=1')).statusCode).toBe(200);
  });

  it('documents every event type in the OpenAPI document', async () => {
    const doc = (await api.app.inject({ method: 'GET', url: '/docs/json' })).json<{
      components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
    }>();
    for (const type of FEED_EVENT_TYPES) {
      const schema = doc.components.schemas[`my.kedai.${type}`];
      expect(schema, type).toBeDefined();
      expect(schema!.properties).toHaveProperty('data');
    }
    expect(doc.components.schemas['my.kedai.SystemStarted']).toBeUndefined();
  });
});
