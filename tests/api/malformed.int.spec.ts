import { randomUUID } from 'node:crypto';
import { createAdmin, createSeller, createTestApi, type TestApi } from '@tests/support/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Every route of the API, found in its own OpenAPI document, sent malformed input by every kind of caller: the answer
 * is always a 4xx with `{ code, msg }` (OAuth's shape for /oauth/token), never a 5xx. The routes' own test files
 * check the exact codes; this file makes sure no route was left without validation.
 */

type Schema = { type?: string | string[]; properties?: Record<string, Schema>; items?: Schema };
type Operation = { requestBody?: { content?: Record<string, { schema?: Schema }> }; security?: unknown[] };
type Document = { paths: Record<string, Record<string, Operation>> };

const HUGE = 'x'.repeat(100_000);

/** Bodies that are wrong in every way a client gets a body wrong. */
function badBodies(schema: Schema | undefined): unknown[] {
  const bodies: unknown[] = [[], 'text', 42, null, { unexpected_field: 1 }];
  const properties = Object.entries(schema?.properties ?? {});
  if (properties.length > 0) {
    bodies.push(Object.fromEntries(properties.map(([name]) => [name, { nested: true }])));
    bodies.push(Object.fromEntries(properties.map(([name]) => [name, HUGE])));
    bodies.push(Object.fromEntries(properties.map(([name]) => [name, -1e308])));
    bodies.push(Object.fromEntries(properties.map(([name]) => [name, [HUGE]])));
  }
  return bodies;
}

/** Path parameters no route expects. */
const badParams = ['not-a-uuid', randomUUID(), '..%2F..%2Fetc', '%00', HUGE.slice(0, 2000)];

describe('every route refuses malformed input with a 4xx', () => {
  let api: TestApi;
  let doc: Document;
  const callers: Record<string, Record<string, string>> = {};

  beforeAll(async () => {
    api = await createTestApi();
    const seller = await createSeller(api);
    const admin = (await createAdmin(api)).token;
    callers.anonymous = {};
    callers.seller = { authorization: `Bearer ${seller.token}` };
    callers.admin = { authorization: `Bearer ${admin}` };
    doc = (await api.app.inject({ method: 'GET', url: '/docs/json' })).json<Document>();
  });
  afterAll(async () => {
    await api?.close();
  });

  it('lists the API in its OpenAPI document', () => {
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/oauth/token', '/api/user/info']));
  });

  it('never answers a 5xx, whoever calls with whatever body or path parameter', async () => {
    const failures: string[] = [];
    for (const [path, operations] of Object.entries(doc.paths)) {
      if (path === '/api/live') continue; // a websocket: tests/api/live.int.spec.ts
      for (const [method, operation] of Object.entries(operations)) {
        const schema = operation.requestBody?.content?.['application/json']?.schema;
        const urls = path.includes('{')
          ? badParams.map((value) => path.replace(/\{[^}]+\}/g, value))
          : [
              path,
              `${path}?startRow=-5&endRow=abc&sortModel=%7Bbroken&filterModel=1&search=${HUGE.slice(0, 500)}`,
            ];
        const bodies = ['get', 'delete'].includes(method) ? [undefined] : badBodies(schema);
        for (const [who, headers] of Object.entries(callers)) {
          for (const url of urls) {
            for (const body of bodies) {
              const response = await api.app.inject({
                method: method.toUpperCase() as 'GET',
                url,
                headers: {
                  ...headers,
                  ...(body === undefined ? {} : { 'content-type': 'application/json' }),
                },
                ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
              });
              const answer =
                response.body.length > 0 ? (JSON.parse(response.body) as Record<string, unknown>) : {};
              const shaped =
                path === '/oauth/token'
                  ? typeof answer.error === 'string'
                  : typeof answer.code === 'number' && typeof answer.msg === 'string';
              const refused = response.statusCode >= 400 && response.statusCode < 500;
              const accepted = response.statusCode < 300;
              const isPublic = Array.isArray(operation.security) && operation.security.length === 0;
              // The router refuses a path it cannot take (414) before anyone is asked for a token: that leaks nothing.
              const wrongDoor =
                who === 'anonymous' &&
                !isPublic &&
                response.statusCode !== 401 &&
                response.statusCode !== 414;
              if (wrongDoor || !((refused && shaped) || accepted)) {
                failures.push(
                  `${who} ${method.toUpperCase()} ${url.slice(0, 80)} ${JSON.stringify(body)?.slice(0, 60)} → ${response.statusCode} ${response.body.slice(0, 120)}`,
                );
              }
            }
          }
        }
      }
    }
    expect(failures).toEqual([]);
  }, 600_000);
});
