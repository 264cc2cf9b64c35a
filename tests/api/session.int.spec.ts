import { PERMISSION_KEYS } from '@domain/access/permissions';
import {
  bearer,
  createSeller,
  createTestApi,
  type TestApi,
  type TestSeller,
  tokenRequest,
} from '@tests/support/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

describe('sign-in and the session calls of spec §7', () => {
  let api: TestApi;
  let seller: TestSeller;

  beforeAll(async () => {
    api = await createTestApi();
    seller = await createSeller(api);
  });
  afterAll(async () => {
    await api?.close();
  });

  it('signs in by e-mail with the password grant and answers in OAuth shape', async () => {
    const response = await api.app.inject({
      method: 'POST',
      url: '/oauth/token',
      payload: tokenRequest(seller.email.toUpperCase(), seller.password),
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 3600 });
    const stored = await api.database.db.selectFrom('access_tokens').select('token_hash').execute();
    expect(stored.map((row) => row.token_hash)).not.toContain(body.access_token);
  });

  it('answers the user info and the full permission map of the owner', async () => {
    const info = await api.app.inject({
      method: 'GET',
      url: '/api/user/info',
      headers: bearer(seller.token),
    });
    expect(info.statusCode).toBe(200);
    expect(info.json().data).toMatchObject({
      email: seller.email,
      kind: 'owner',
      tenant: { id: seller.tenantId },
    });
    const permissions = await api.app.inject({
      method: 'GET',
      url: '/api/info/permission',
      headers: bearer(seller.token),
    });
    const map = permissions.json().data as Record<string, boolean>;
    expect(Object.keys(map).sort()).toEqual([...PERMISSION_KEYS].sort());
    expect(Object.values(map).every(Boolean)).toBe(true);
  });

  it('saves table settings and answers with what is stored', async () => {
    const settings = {
      orders: { columnState: [{ colId: 'order_no', width: 180, hide: false }], pageSize: 50 },
    };
    const saved = await api.app.inject({
      method: 'POST',
      url: '/api/info/save_table_settings',
      headers: bearer(seller.token),
      payload: settings,
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().data).toEqual(settings);
    const read = await api.app.inject({
      method: 'GET',
      url: '/api/info/table_settings',
      headers: bearer(seller.token),
    });
    expect(read.json().data).toEqual(settings);
  });

  it('refuses a request without a token, with a made-up token, and after logout', async () => {
    expect((await api.app.inject({ method: 'GET', url: '/api/user/info' })).statusCode).toBe(401);
    const forged = await api.app.inject({ method: 'GET', url: '/api/user/info', headers: bearer('forged') });
    expect(forged.statusCode).toBe(401);
    const token = (
      await api.app.inject({
        method: 'POST',
        url: '/oauth/token',
        payload: tokenRequest(seller.email, seller.password),
      })
    ).json().access_token as string;
    expect(
      (await api.app.inject({ method: 'POST', url: '/api/logout', headers: bearer(token) })).statusCode,
    ).toBe(200);
    const after = await api.app.inject({ method: 'GET', url: '/api/user/info', headers: bearer(token) });
    expect(after.statusCode).toBe(401);
    expect(after.json().code).toBe(401);
  });

  it('refuses an expired token', async () => {
    const token = (
      await api.app.inject({
        method: 'POST',
        url: '/oauth/token',
        payload: tokenRequest(seller.email, seller.password),
      })
    ).json().access_token as string;
    await api.database.db
      .updateTable('access_tokens')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('revoked_at', 'is', null)
      .where('user_id', '=', seller.userId)
      .execute();
    expect(
      (await api.app.inject({ method: 'GET', url: '/api/user/info', headers: bearer(token) })).statusCode,
    ).toBe(401);
    seller.token = (
      await api.app.inject({
        method: 'POST',
        url: '/oauth/token',
        payload: tokenRequest(seller.email, seller.password),
      })
    ).json().access_token as string;
  });

  it('refuses a wrong client, a wrong grant and a wrong password, in OAuth shape and the asked language', async () => {
    const wrongClient = await api.app.inject({
      method: 'POST',
      url: '/oauth/token',
      payload: { ...tokenRequest(seller.email, seller.password), client_id: 'nope' },
    });
    expect(wrongClient.statusCode).toBe(401);
    expect(wrongClient.json().error).toBe('invalid_client');
    const wrongGrant = await api.app.inject({
      method: 'POST',
      url: '/oauth/token',
      payload: { ...tokenRequest(seller.email, seller.password), grant_type: 'client_credentials' },
    });
    expect(wrongGrant.json().error).toBe('unsupported_grant_type');
    const missing = await api.app.inject({
      method: 'POST',
      url: '/oauth/token',
      payload: { grant_type: 'password' },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toBe('invalid_request');
    const wrong = await api.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { language: 'zh-cn' },
      payload: tokenRequest(seller.email, 'wrong password 1'),
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toBe('invalid_grant');
    expect(wrong.json().error_description).toMatch(/[\u4e00-\u9fff]/);
  });
});
