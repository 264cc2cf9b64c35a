import { buildApp, ErrorAnswer, type KedaiApp } from '@api/app';
import { eventSchemas } from '@domain/events';
import { PostgresEventStore } from '@infra/eventstore/postgres';
import { EventSchemaRegistry } from '@infra/eventstore/registry';
import { projections } from '@projections/index';
import { ProjectionEngine } from '@projections/runtime/engine';
import { shellDeps } from '@tests/support/api';
import { createTestDatabase, type TestDatabase } from '@tests/support/db';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';

describe('the API error answers', () => {
  let database: TestDatabase;
  let store: PostgresEventStore;
  let app: KedaiApp;

  beforeAll(async () => {
    database = await createTestDatabase();
    store = new PostgresEventStore(database.pool, new EventSchemaRegistry().registerAll(eventSchemas));
  });
  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });

  beforeEach(() => {
    app = buildApp({
      logLevel: 'silent',
      version: 'test',
      db: database.db,
      store,
      engine: new ProjectionEngine({ db: database.db, store, projections }),
      temporal: { address: 'unused:7233', check: async () => undefined },
      ...shellDeps(database),
    });
    // Routes that fail in each of the ways the error handler tells apart.
    app.post(
      '/test/orders',
      { schema: { body: z.object({ quantity: z.number().int().positive(), sku: z.string().min(1) }) } },
      async (request) => ({ code: 0, msg: 'ok', data: request.body }),
    );
    app.get('/test/gone', async () => {
      throw Object.assign(new Error('This order was archived.'), { statusCode: 410 });
    });
    app.get('/test/bug', async () => {
      throw new Error('relation "orders" does not exist at /srv/kedai/secret.ts');
    });
  });
  afterEach(async () => {
    await app.close();
  });

  it('answers a request that fails its zod schema with 400 and the bad fields', async () => {
    const response = await app.inject({ method: 'POST', url: '/test/orders', payload: { quantity: -1 } });
    expect(response.statusCode).toBe(400);
    const body = ErrorAnswer.parse(response.json());
    expect(body).toMatchObject({ code: 400, msg: 'The body is invalid.' });
    expect(body.errors?.map((e) => e.path).sort()).toEqual(['body/quantity', 'body/sku']);
  });

  it('lets a valid request through', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/test/orders',
      payload: { quantity: 2, sku: 'KOPI-1' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ code: 0, msg: 'ok', data: { quantity: 2, sku: 'KOPI-1' } });
  });

  it('answers an error carrying a 4xx status with that status and its message', async () => {
    const response = await app.inject({ method: 'GET', url: '/test/gone' });
    expect(response.statusCode).toBe(410);
    expect(response.json()).toEqual({ code: 410, msg: 'This order was archived.' });
  });

  it('answers malformed JSON with 400', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/test/orders',
      headers: { 'content-type': 'application/json' },
      payload: '{"quantity":',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 400 });
  });

  it('answers anything else with a 500 that gives nothing away', async () => {
    const response = await app.inject({ method: 'GET', url: '/test/bug' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ code: 500, msg: 'Internal error' });
    expect(response.body).not.toContain('secret');
  });

  it('answers an unknown path with 404', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/no-such-thing' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ code: 404, msg: 'Not found' });
  });
});
