import { createTestApi, type TestApi } from '@tests/support/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

interface Operation {
  tags?: string[];
  summary?: string;
  security?: unknown[];
  parameters?: { in: string; name: string; required?: boolean; schema: Record<string, unknown> }[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { content?: Record<string, { schema: JsonSchema }> }>;
}
interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  maxLength?: number;
}
interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, unknown> };
  security: unknown[];
}

describe('the OpenAPI document at /docs', () => {
  let api: TestApi;
  let doc: OpenApiDocument;

  beforeAll(async () => {
    api = await createTestApi();
    const response = await api.app.inject({ method: 'GET', url: '/docs/json' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    doc = response.json<OpenApiDocument>();
  });
  afterAll(async () => {
    await api?.close();
  });

  const operation = (path: string, method: string) => {
    const op = doc.paths[path]?.[method];
    expect(op, `${method.toUpperCase()} ${path} is in the document`).toBeDefined();
    return op!;
  };
  const jsonBody = (op: Operation) => op.requestBody?.content['application/json']?.schema;
  const answer = (op: Operation, status = '200') =>
    op.responses[status]?.content?.['application/json']?.schema;

  it('is an OpenAPI 3 document of the Kedai API with bearer authentication', () => {
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.info).toMatchObject({ title: 'Kedai API', version: 'test' });
    expect(doc.components.securitySchemes).toEqual({ bearer: { type: 'http', scheme: 'bearer' } });
    expect(doc.security).toEqual([{ bearer: [] }]);
  });

  it('lists the session calls of spec §7', () => {
    operation('/oauth/token', 'post');
    operation('/api/logout', 'post');
    operation('/api/user/info', 'get');
    operation('/api/info/permission', 'get');
    operation('/api/info/table_settings', 'get');
    operation('/api/info/save_table_settings', 'post');
  });

  it('derives request bodies from the zod schemas', () => {
    const token = operation('/oauth/token', 'post');
    const body = jsonBody(token);
    expect(body?.type).toBe('object');
    expect(Object.keys(body?.properties ?? {})).toEqual(
      expect.arrayContaining(['grant_type', 'client_id', 'client_secret', 'username', 'password', 'scope']),
    );
    expect(body?.required).toEqual(
      expect.arrayContaining(['grant_type', 'client_id', 'username', 'password']),
    );
    // The console is a public client: no secret.
    expect(body?.required).not.toContain('client_secret');
    expect(body?.properties?.username?.maxLength).toBe(254);
    expect(body?.properties?.scope?.enum).toEqual(['admin', '']);
    // Signing in needs no token.
    expect(token.security).toEqual([]);
    expect(Object.keys(answer(token)?.properties ?? {})).toEqual([
      'access_token',
      'token_type',
      'expires_in',
    ]);

    expect(jsonBody(operation('/api/info/save_table_settings', 'post'))?.type).toBe('object');
  });

  it('lists the lookups with their answers and query parameters', () => {
    for (const path of [
      'states',
      'msic',
      'classifications',
      'taxes',
      'payment-modes',
      'countries',
      'currencies',
      'units',
      'platforms',
    ]) {
      const op = operation(`/api/lookup/${path}`, 'get');
      expect(op.tags).toEqual(['lookups']);
      expect(op.summary).toEqual(expect.any(String));
      const ok = answer(op);
      expect(ok?.required).toEqual(['code', 'msg', 'data']);
      expect(ok?.properties?.code?.enum).toEqual([0]);
    }
    const states = answer(operation('/api/lookup/states', 'get'));
    expect(Object.keys(states?.properties?.data?.items?.properties ?? {})).toEqual(['code', 'name']);

    const msic = operation('/api/lookup/msic', 'get');
    expect(msic.parameters?.map((p) => `${p.in}:${p.name}`).sort()).toEqual([
      'query:endRow',
      'query:search',
      'query:startRow',
    ]);
    expect(Object.keys(answer(msic)?.properties?.data?.properties ?? {})).toEqual(['rows', 'lastRow']);
    expect(answer(msic, '401')?.required).toEqual(['code', 'msg']);

    // The registration form reads countries and platforms before anyone signs in.
    expect(operation('/api/lookup/countries', 'get').security).toEqual([]);
    expect(operation('/api/lookup/platforms', 'get').security).toEqual([]);
    expect(operation('/api/lookup/states', 'get').security).toBeUndefined();
  });

  it('gives every operation a tag and a summary', () => {
    const untold = Object.entries(doc.paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(([, op]) => !op.tags?.length || !op.summary)
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(untold).toEqual([]);
  });

  it('serves the Swagger UI page and its assets from the package itself (works offline)', async () => {
    const page = await api.app.inject({ method: 'GET', url: '/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('<div id="swagger-ui"></div>');
    expect(page.body).not.toMatch(/(src|href)="(https?:)?\/\//);

    const assets = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(assets).toEqual(expect.arrayContaining([expect.stringMatching(/swagger-ui-bundle\.js$/)]));
    for (const asset of assets) {
      const response = await api.app.inject({
        method: 'GET',
        url: new URL(asset, 'http://kedai.test/docs/').pathname,
      });
      expect(response.statusCode, asset).toBe(200);
      expect(response.body.length, asset).toBeGreaterThan(0);
    }

    // The page loads the document from this server.
    const initializer = await api.app.inject({ method: 'GET', url: '/docs/static/swagger-initializer.js' });
    expect(initializer.body).toContain("resolveUrl('./json')");
  });
});
