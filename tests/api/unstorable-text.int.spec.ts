import { createSeller, createTestApi, type TestApi, type TestSeller } from '@tests/support/api';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Text Postgres cannot store (a NUL, a lone UTF-16 surrogate) is refused by the one validator every route has, with
 * the house's 400 naming the field, wherever it sits: a query parameter, JSON inside a query parameter, a body at any
 * depth, a path parameter. Nothing is appended or written.
 */
describe('text Postgres cannot store', () => {
  let api: TestApi;
  let seller: TestSeller;

  beforeAll(async () => {
    api = await createTestApi();
    seller = await createSeller(api);
  });
  afterAll(async () => {
    await api?.close();
  });

  const send = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
    api.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${seller.token}` },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const written = async () => {
    const events = await sql<{ n: string }>`SELECT count(*) AS n FROM es_events`.execute(api.database.db);
    const warehouses = await api.database.db
      .selectFrom('warehouses')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    return { events: Number(events.rows[0]?.n), warehouses: Number(warehouses.n) };
  };

  it.each([
    [
      'a search query parameter with a NUL',
      'GET',
      '/api/inventory/rack?search=A%00B',
      undefined,
      'querystring/search',
    ],
    [
      'a filter inside a JSON query parameter',
      'GET',
      `/api/orders?filterModel=${encodeURIComponent(JSON.stringify({ buyer_name: { type: 'contains', filter: 'x\u0000' } }))}`,
      undefined,
      'querystring/filterModel/buyer_name/filter',
    ],
    ['a path parameter with a NUL', 'GET', '/api/orders/ORD%00', undefined, 'params/id'],
    ['a path parameter of a delete', 'DELETE', '/api/inventory/rack/R%00', undefined, 'params/id'],
    [
      'a body name with a NUL',
      'POST',
      '/api/inventory/warehouse',
      { code: 'W1', name: 'Main\u0000' },
      'body/name',
    ],
    [
      'a body name with a lone surrogate',
      'POST',
      '/api/inventory/warehouse',
      { code: 'W2', name: 'Main \ud83d' },
      'body/name',
    ],
  ] as const)(
    'refuses %s with a 400 naming the field, writing nothing',
    async (_what, method, url, body, path) => {
      const before = await written();
      const response = await send(method, url, body);
      expect(response.statusCode, response.body).toBe(400);
      const answer = response.json<{
        code: number;
        msg: string;
        errors: { path: string; message: string }[];
      }>();
      expect(answer.code).toBe(400);
      expect(answer.msg).toContain('cannot be saved');
      expect(answer.errors[0]?.path).toBe(path);
      expect(await written()).toEqual(before);
    },
  );

  it('still takes text with a surrogate pair (an emoji) and stores it', async () => {
    const response = await send('POST', '/api/inventory/warehouse', { code: 'W3', name: 'Main 📦' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<{ data: { name: string } }>().data.name).toBe('Main 📦');
  });
});
