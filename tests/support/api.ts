import { randomBytes, randomUUID } from 'node:crypto';
import { type AppDeps, buildApp, type KedaiApp } from '@api/app';
import type { WorkflowDeps } from '@api/workflows';
import { createTenantWithOwner, ensurePackages } from '@commands/accounts/seed';
import type { SignInLimits } from '@commands/accounts/sign-in-limits';
import { AutoBatchCountTrigger, followOrderCounts } from '@commands/batches/auto-batch';
import { createGoodsIssueWorkflowReactor } from '@commands/goods-issue/workflow-reactor';
import { createOrderStockReactor } from '@commands/orders/stock-reactor';
import { createPromotionPushReactor } from '@commands/promotions/workflow-reactor';
import { createPurchaseWorkflowReactor } from '@commands/purchases/workflow-reactor';
import { hashSecret } from '@commands/support/secrets';
import { createTransferWorkflowReactor } from '@commands/transfers/workflow-reactor';
import type { PermissionKey } from '@domain/access/permissions';
import { eventSchemas } from '@domain/events';
import { PostgresEventStore } from '@infra/eventstore/postgres';
import { EventSchemaRegistry } from '@infra/eventstore/registry';
import { createMailer } from '@infra/mail';
import { projections } from '@projections/index';
import { ProjectionEngine } from '@projections/runtime/engine';
import { LiveHub } from '@projections/runtime/live-hub';
import { ReactorRunner } from '@projections/runtime/reactor';
import { createTestDatabase, type TestDatabase } from '@tests/support/db';
import { startTestWorker, unusedWorkflows } from '@tests/support/temporal';
import { expect } from 'vitest';

/**
 * The whole API on a fresh database, for `app.inject` tests: the real session check, mailer (outbox only), live hub
 * and projection engine. With `workflows: true` a worker runs the workflows in this process on a task queue of its
 * own, against the run's shared Temporal dev server; without, the routes' workflow client is never reached.
 */

export const TEST_CLIENT = { clientId: 'kedai-console', clientSecret: 'test-client-secret' } as const;

/** The deps besides health's that buildApp needs, for tests that build the app around their own health deps. */
export function shellDeps(database: TestDatabase) {
  return {
    auth: { ...TEST_CLIENT, tokenTtlSeconds: 3600 },
    mailer: createMailer(
      database.systemDb,
      { from: 'Kedai <no-reply@kedai.test>' },
      { info() {}, error() {} },
    ),
    hub: new LiveHub(),
    publicUrl: 'http://kedai.test',
    workflows: unusedWorkflows(),
  };
}

export interface TestApi {
  app: KedaiApp;
  database: TestDatabase;
  store: PostgresEventStore;
  engine: ProjectionEngine;
  hub: LiveHub;
  /** The reactors (the order stock reactor; with workflows, the ones starting them), running live as in `npm start`. */
  reactors: ReactorRunner;
  /** The routes' workflow client and task queue (a worker polls it when created with `workflows: true`). */
  workflows: WorkflowDeps;
  close(): Promise<void>;
}

export async function createTestApi(
  opts: {
    signInLimits?: SignInLimits;
    webDir?: string;
    overrides?: Partial<AppDeps>;
    workflows?: boolean;
    /** Registers more routes (a test's probe) before the app is ready. */
    register?: (app: KedaiApp) => void;
  } = {},
): Promise<TestApi> {
  const database = await createTestDatabase();
  await ensurePackages(database.db);
  // As in `npm start`: the API's queries run as the app role (database.appDb), the rest as the system role.
  const { systemDb } = database;
  const store = new PostgresEventStore(
    database.systemPool,
    new EventSchemaRegistry().registerAll(eventSchemas),
  );
  const hub = new LiveHub(database.systemPool);
  // The projections publish what they change to the hub, as in `npm start`, so `/api/live` sees it.
  const engine = new ProjectionEngine({ db: systemDb, store, projections, hub, retryMs: 50 });
  const mailer = createMailer(systemDb, { from: 'Kedai <no-reply@kedai.test>' }, { info() {}, error() {} });
  const running = opts.workflows
    ? await startTestWorker({ engine, db: systemDb, store, mailer })
    : { workflows: unusedWorkflows(), stop: async () => undefined };
  // The reactors that start documents' workflows run where a workflow client is reachable.
  const workflows = opts.overrides?.workflows ?? (opts.workflows ? running.workflows : undefined);
  const reactors = new ReactorRunner({
    db: systemDb,
    store,
    reactors: [
      createOrderStockReactor({ db: systemDb, store }),
      ...(workflows
        ? [
            createTransferWorkflowReactor({ store, workflows }),
            createGoodsIssueWorkflowReactor({ store, workflows }),
            createPurchaseWorkflowReactor({ store, workflows }),
            createPromotionPushReactor({ workflows }),
          ]
        : []),
    ],
    retryMs: 50,
  });
  reactors.start();
  // The auto batch count trigger follows the board's counts, as in `npm start`.
  const autoBatchTrigger = new AutoBatchCountTrigger(
    systemDb,
    opts.overrides?.workflows ?? running.workflows,
  );
  const stopFollowing = followOrderCounts(hub, autoBatchTrigger);
  const app = buildApp({
    logLevel: 'silent',
    version: 'test',
    autoBatchTrigger,
    db: database.appDb,
    store,
    engine,
    temporal: {
      address: 'not-started',
      check: async () => {
        throw new Error('Temporal is not started in this test');
      },
    },
    auth: { ...TEST_CLIENT, tokenTtlSeconds: 3600, signInLimits: opts.signInLimits },
    mailer,
    hub,
    publicUrl: 'http://kedai.test',
    webDir: opts.webDir,
    workflows: running.workflows,
    ...opts.overrides,
  });
  opts.register?.(app);
  await app.ready();
  return {
    app,
    database,
    store,
    engine,
    hub,
    reactors,
    workflows: running.workflows,
    async close() {
      stopFollowing();
      await app.close();
      await reactors.stop();
      await running.stop();
      await engine.stop();
      await hub.close();
      await store.close();
      await database.drop();
    },
  };
}

export interface TestSeller {
  tenantId: string;
  userId: string;
  email: string;
  password: string;
  token: string;
}

const unique = () => randomBytes(4).toString('hex');

/** A verified seller account with its owner signed in. */
export async function createSeller(
  api: Pick<TestApi, 'app' | 'database'>,
  opts: { packageId?: string; country?: string; name?: string } = {},
): Promise<TestSeller> {
  const email = `owner-${unique()}@shop.test`;
  const password = 'correct horse 1';
  const { tenantId, userId } = await createTenantWithOwner(api.database.db, {
    name: opts.name ?? `Shop ${unique()}`,
    country: opts.country ?? 'MY',
    packageId: opts.packageId,
    status: 'active',
    owner: { email, firstName: 'Siti', lastName: 'Aminah', phone: '+60123456789', password },
  });
  return { tenantId, userId, email, password, token: await signIn(api.app, email, password) };
}

/** An admin of the provider (no tenant), signed in through the admin door. */
export async function createAdmin(
  api: Pick<TestApi, 'app' | 'database'>,
): Promise<{ userId: string; email: string; password: string; token: string }> {
  const userId = randomUUID();
  const email = `admin-${unique()}@kedai.test`;
  const password = 'admin password 1';
  await api.database.db
    .insertInto('users')
    .values({
      id: userId,
      tenant_id: null,
      kind: 'admin',
      email,
      first_name: 'Ops',
      password_hash: await hashSecret(password),
      status: 'active',
      email_verified_at: new Date(),
    })
    .execute();
  return { userId, email, password, token: await signIn(api.app, email, password, 'admin') };
}

/** A signed-in sub-user of a seller account, in a group of its own holding exactly `permissions`. */
export async function createSubUser(
  api: TestApi,
  tenantId: string,
  permissions: PermissionKey[] = [],
): Promise<{ userId: string; token: string }> {
  const db = api.database.db;
  const groupId = randomUUID();
  const userId = randomUUID();
  const email = `staff-${unique()}@shop.test`;
  const password = 'staff password 1';
  await db
    .insertInto('user_groups')
    .values({ id: groupId, tenant_id: tenantId, name: `Staff ${groupId}`, permissions })
    .execute();
  await db
    .insertInto('users')
    .values({
      id: userId,
      tenant_id: tenantId,
      kind: 'subuser',
      email,
      first_name: 'Staff',
      password_hash: await hashSecret(password),
      status: 'active',
      group_id: groupId,
      email_verified_at: new Date(),
    })
    .execute();
  return { userId, token: await signIn(api.app, email, password) };
}

export async function signIn(
  app: KedaiApp,
  login: string,
  password: string,
  scope?: 'admin',
): Promise<string> {
  const response = await app.inject({
    method: 'POST',
    url: '/oauth/token',
    payload: {
      grant_type: 'password',
      ...clientFields,
      username: login,
      password,
      ...(scope ? { scope } : {}),
    },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ access_token: string }>().access_token;
}

const clientFields = { client_id: TEST_CLIENT.clientId, client_secret: TEST_CLIENT.clientSecret };
export const tokenRequest = (username: string, password: string, extra: Record<string, string> = {}) => ({
  grant_type: 'password',
  ...clientFields,
  username,
  password,
  ...extra,
});

export const bearer = (token: string, language?: string) => ({
  authorization: `Bearer ${token}`,
  ...(language ? { language } : {}),
});

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** `call(method, url, token, payload?, language?)` against the app of `api()` (read when called: set in beforeAll). */
export function caller(api: () => TestApi) {
  return (method: Method, url: string, token: string, payload?: unknown, language?: string) =>
    api().app.inject({
      method,
      url,
      headers: bearer(token, language),
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
}

/** A POST with the caller's token and more headers (an Idempotency-Key, say). */
export function poster(api: () => TestApi) {
  return (url: string, token: string, payload: unknown = {}, headers: Record<string, string> = {}) =>
    api().app.inject({
      method: 'POST',
      url,
      headers: { ...bearer(token), ...headers },
      payload: payload as object,
    });
}

/** A group of the seller's account made through the API; returns its id. */
export async function createGroup(
  api: TestApi,
  seller: TestSeller,
  name: string,
  permissions: string[],
): Promise<string> {
  const response = await caller(() => api)('POST', '/api/setting/groups', seller.token, {
    name,
    permissions,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data.id as string;
}
