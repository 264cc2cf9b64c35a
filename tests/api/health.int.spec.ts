import { buildApp, type KedaiApp } from '@api/app';
import { type HealthDeps, HealthDetailAnswer, type TemporalProbe, temporalProbe } from '@api/health';
import { ensurePackages } from '@commands/accounts/seed';
import { eventSchemas } from '@domain/events';
import { createDb, createPool } from '@infra/db';
import { freePort } from '@infra/embedded/ports';
import type { EventStore } from '@infra/eventstore/port';
import { PostgresEventStore } from '@infra/eventstore/postgres';
import { EventSchemaRegistry } from '@infra/eventstore/registry';
import { projections } from '@projections/index';
import { checkHealth } from '@projections/platform/health';
import { ProjectionEngine } from '@projections/runtime/engine';
import { Connection } from '@temporalio/client';
import { bearer, createAdmin, createSeller, shellDeps } from '@tests/support/api';
import { createTestDatabase, type TestDatabase } from '@tests/support/db';
import { appendSampleEvents } from '@tests/support/events';
import { startTestTemporal, type TestTemporal } from '@tests/support/temporal';
import { waitFor } from '@tests/support/wait';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

const registry = new EventSchemaRegistry().registerAll(eventSchemas);

describe('GET /api/health', () => {
  let database: TestDatabase;
  let store: PostgresEventStore;
  let engine: ProjectionEngine;
  let temporal: TestTemporal;
  let app: KedaiApp | undefined;

  /** The health deps, with a whole event store as the app needs. */
  type Deps = HealthDeps & { store: EventStore };
  const deps = (overrides: Partial<Deps> = {}): Deps => ({
    version: '1.2.3',
    db: database.db,
    store,
    engine,
    temporal: temporalProbe(temporal.address, temporal.env.connection),
    ...overrides,
  });

  /** The provider's admin, signed in once: its token holds for every app built on this database. */
  let adminToken: string;

  /** The public answer (up or down only) and the admin's detail, which must agree. */
  const health = async (overrides: Partial<Deps> = {}) => {
    app = buildApp({ logLevel: 'silent', ...deps(overrides), ...shellDeps(database) });
    const open = await app.inject({ method: 'GET', url: '/api/health' });
    expect(open.statusCode).toBe(200);
    const detail = await app.inject({
      method: 'GET',
      url: '/api/health/detail',
      headers: bearer(adminToken),
    });
    expect(detail.statusCode, detail.body).toBe(200);
    await app.close();
    app = undefined;
    const data = HealthDetailAnswer.parse(detail.json()).data;
    expect(open.json()).toEqual({ code: 0, msg: 'ok', data: { status: data.status } });
    return data;
  };

  beforeAll(async () => {
    const starting = startTestTemporal();
    database = await createTestDatabase();
    store = new PostgresEventStore(database.pool, registry);
    engine = new ProjectionEngine({ db: database.db, store, projections, retryMs: 50 });
    temporal = await starting;
    app = buildApp({ logLevel: 'silent', ...deps(), ...shellDeps(database) });
    adminToken = (await createAdmin({ app, database })).token;
    await app.close();
    app = undefined;
  });
  afterEach(async () => {
    await app?.close();
  });
  afterAll(async () => {
    await engine?.stop();
    await store?.close();
    await database?.drop();
    await temporal?.stop();
  });

  it('reports every component up, and a projection lag that falls to 0 once the projections catch up', async () => {
    await appendSampleEvents(store, { count: 3, streams: 2, perAppend: 1 });

    const before = await health();
    expect(before).toMatchObject({
      status: 'ok',
      version: '1.2.3',
      components: {
        database: { status: 'up' },
        eventStore: { status: 'up', kind: 'postgres' },
        temporal: { status: 'up', address: temporal.address },
        projections: expect.arrayContaining([
          { name: 'stream_catalogue', status: 'live', position: null, eventsApplied: '0', lag: '3' },
        ]),
      },
    });

    engine.start();
    const after = await waitFor(
      async () => {
        const data = await health();
        return Array.isArray(data.components.projections) &&
          data.components.projections.every((projection) => projection.lag === '0')
          ? data
          : undefined;
      },
      { what: 'the projection lag to reach 0' },
    );
    expect(after.status).toBe('ok');
    expect(after.components.projections).toHaveLength(projections.length);
    expect(after.components.projections).toContainEqual({
      name: 'stream_catalogue',
      status: 'live',
      position: expect.stringMatching(/^\d+\/\d+$/),
      eventsApplied: '3',
      lag: '0',
    });
  });

  it("tells an anonymous caller only up or down, and the detail only to the provider's admin", async () => {
    app = buildApp({ logLevel: 'silent', ...deps(), ...shellDeps(database) });
    const open = await app.inject({ method: 'GET', url: '/api/health' });
    expect(open.statusCode).toBe(200);
    expect(open.json()).toEqual({ code: 0, msg: 'ok', data: { status: 'ok' } });
    expect(open.body).not.toMatch(/version|temporal|projections|eventsApplied|1\.2\.3/);
    const anonymous = await app.inject({ method: 'GET', url: '/api/health/detail' });
    expect(anonymous.statusCode).toBe(401);
    await ensurePackages(database.db);
    const seller = await createSeller({ app, database });
    const refused = await app.inject({
      method: 'GET',
      url: '/api/health/detail',
      headers: bearer(seller.token),
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.body).not.toContain('1.2.3');
  });

  it('is degraded, still with HTTP 200, when Temporal does not answer', async () => {
    const address = `127.0.0.1:${await freePort()}`;
    const data = await health({ temporal: temporalProbe(address, Connection.lazy({ address }), 1_000) });
    expect(data.status).toBe('degraded');
    expect(data.components.temporal).toEqual({ status: 'down', address, error: expect.any(String) });
    expect(data.components.database.status).toBe('up');
  });

  it('reports the database, the event store and the projections down when Postgres cannot be reached', async () => {
    const pool = createPool(`postgres://kedai:kedai@127.0.0.1:${await freePort()}/kedai`, 2);
    const db = createDb(pool);
    const unreachableStore = new PostgresEventStore(pool, registry);
    try {
      // The admin's session check needs the database too, so the detail is read from the check itself here.
      const broken = deps({
        db,
        store: unreachableStore,
        engine: new ProjectionEngine({ db, store: unreachableStore, projections }),
      });
      app = buildApp({ logLevel: 'silent', ...broken, ...shellDeps(database) });
      const open = await app.inject({ method: 'GET', url: '/api/health' });
      expect(open.json()).toEqual({ code: 0, msg: 'ok', data: { status: 'degraded' } });
      const data = await checkHealth(broken);
      expect(data.status).toBe('degraded');
      expect(data.components).toMatchObject({
        database: { status: 'down', error: expect.stringContaining('ECONNREFUSED') },
        eventStore: { status: 'down', kind: 'postgres', error: expect.stringContaining('ECONNREFUSED') },
        temporal: { status: 'up' },
        projections: { status: 'down', error: expect.stringContaining('ECONNREFUSED') },
      });
    } finally {
      await unreachableStore.close();
      await db.destroy();
    }
  });

  it('counts a component that does not answer in time as down instead of waiting for it', async () => {
    const hanging: TemporalProbe = {
      address: 'nowhere:7233',
      check: () => new Promise<void>(() => undefined),
    };
    const data = await health({ temporal: hanging, timeoutMs: 200 });
    expect(data.status).toBe('degraded');
    expect(data.components.temporal).toEqual({
      status: 'down',
      address: 'nowhere:7233',
      error: 'no answer within 200 ms',
    });
  });
});
