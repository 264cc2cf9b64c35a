import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { KedaiApp } from '@api/app';
import type { Db } from '@infra/db';
import {
  bearer,
  createAdmin,
  createSeller,
  createTestApi,
  type TestApi,
  type TestSeller,
} from '@tests/support/api';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The API's queries run as the app role, scoped to the signed-in seller's tenant by the session hook (no route passes
 * the tenant to the database itself); the cross-tenant routes by design (public ones, the provider's admins) run as
 * the system role. A probe route answers who its query ran as and which warehouses it could see without a filter.
 */

interface Seen {
  user: string;
  tenant: string | null;
  tenants: string[];
}

function probe(db: () => Db) {
  return async (): Promise<Seen> => {
    const who = await sql<{ user: string; tenant: string | null }>`
      SELECT current_user AS user, nullif(current_setting('kedai.tenant_id', true), '') AS tenant`.execute(
      db(),
    );
    const rows = await db()
      .selectFrom('warehouses')
      .select('tenant_id')
      .distinct()
      .orderBy('tenant_id')
      .execute();
    return { ...who.rows[0]!, tenants: rows.map((r) => r.tenant_id) };
  };
}

describe('the API runs as the app role, scoped to the session tenant', () => {
  let api: TestApi;
  let a: TestSeller;
  let b: TestSeller;
  let admin: { token: string };

  beforeAll(async () => {
    let db: Db | undefined;
    api = await createTestApi({
      register: (app: KedaiApp) => {
        const seen = probe(() => db!);
        app.get('/api/test/tenancy', { config: { access: 'seller' } }, seen);
        app.post('/api/test/tenancy', { config: { access: 'seller' } }, seen);
        app.get('/api/test/tenancy/public', { config: { access: 'public' } }, seen);
        app.get('/api/test/tenancy/admin', { config: { access: 'admin' } }, seen);
      },
    });
    db = api.database.appDb;
    a = await createSeller(api);
    b = await createSeller(api);
    admin = await createAdmin(api);
    await api.app.listen({ host: '127.0.0.1', port: 0 });
    for (const tenantId of [a.tenantId, b.tenantId]) {
      await api.database.db
        .insertInto('warehouses')
        .values({
          id: randomUUID(),
          tenant_id: tenantId,
          name: 'Main',
          code: `WH-${tenantId.slice(0, 8)}`,
          kind: 'warehouse',
        })
        .execute();
    }
  });

  afterAll(async () => {
    await api?.close();
  });

  // Over a real socket, as a browser calls: a body read from it arrives in the socket's async context.
  const call = async (method: 'GET' | 'POST', url: string, token?: string) => {
    const address = api.app.server.address() as AddressInfo;
    const response = await fetch(`http://127.0.0.1:${address.port}${url}`, {
      method,
      headers: {
        ...(token ? bearer(token) : {}),
        ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
      },
      ...(method === 'POST' ? { body: JSON.stringify({ some: 'body'.repeat(20_000) }) } : {}),
    });
    const text = await response.text();
    expect(response.status, text).toBe(200);
    return JSON.parse(text) as Seen;
  };

  it("runs a seller's queries as kedai_app bound to the seller's tenant, one tenant after the other", async () => {
    for (const seller of [a, b, a]) {
      for (const method of ['GET', 'POST'] as const) {
        expect(await call(method, '/api/test/tenancy', seller.token)).toEqual({
          user: 'kedai_app',
          tenant: seller.tenantId,
          tenants: [seller.tenantId],
        });
      }
    }
  });

  it('runs the public and the admin routes, cross-tenant by design, as kedai_system', async () => {
    const both = [a.tenantId, b.tenantId].sort();
    expect(await call('GET', '/api/test/tenancy/public')).toMatchObject({
      user: 'kedai_system',
      tenants: both,
    });
    expect(await call('GET', '/api/test/tenancy/admin', admin.token)).toMatchObject({
      user: 'kedai_system',
      tenants: both,
    });
    // A seller's request after them is bound again.
    expect(await call('GET', '/api/test/tenancy', b.token)).toMatchObject({
      user: 'kedai_app',
      tenants: [b.tenantId],
    });
  });
});
