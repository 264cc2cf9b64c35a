import { randomUUID } from 'node:crypto';
import { PARTNER_SCOPES } from '@domain/access/kinds';
import { ProfileCode } from '@domain/access/profile';
import { TeamCode } from '@domain/access/team';
import {
  caller,
  createSeller,
  createSubUser,
  createTestApi,
  signIn,
  type TestApi,
  type TestSeller,
  tokenRequest,
} from '@tests/support/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Account and team (issue 14): the header menu's own profile, password and language; the company details printed
 * documents carry; the account's activity log and sign-ins as grids; and the partner user kinds with their scopes.
 */
describe('account and team', () => {
  let api: TestApi;
  let owner: TestSeller;
  let other: TestSeller;

  beforeAll(async () => {
    api = await createTestApi();
    owner = await createSeller(api, { packageId: 'growth' });
    other = await createSeller(api, { packageId: 'growth' });
  });
  afterAll(async () => {
    await api?.close();
  });

  const call = caller(() => api);
  const grid = (model: Record<string, unknown>, extra = '') =>
    `filterModel=${encodeURIComponent(JSON.stringify(model))}${extra}`;

  const tokenFor = (login: string, password: string, userAgent = 'KedaiTest/1.0 (X11; Linux)') =>
    api.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { 'user-agent': userAgent },
      payload: tokenRequest(login, password),
    });

  it('lets a user change their own name, phone and language, and nothing else', async () => {
    const seller = await createSeller(api);
    const changed = await call('PUT', '/api/user/profile', seller.token, {
      first_name: 'Siti',
      last_name: 'Rahman',
      phone: '+60 11-222 3333',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().data).toMatchObject({
      first_name: 'Siti',
      last_name: 'Rahman',
      phone: '+60 11-222 3333',
    });

    const language = await call('PUT', '/api/user/language', seller.token, { language: 'th-th' });
    expect(language.statusCode, language.body).toBe(200);
    const info = await call('GET', '/api/user/info', seller.token);
    expect(info.json().data).toMatchObject({ first_name: 'Siti', language: 'th-th', email: seller.email });
    expect(language.json().msg).toBe('Language saved');

    const badLanguage = await call('PUT', '/api/user/language', seller.token, { language: 'xx-yy' });
    expect(badLanguage.statusCode).toBe(400);
    expect(badLanguage.json().code).toBe(ProfileCode.languageInvalid);
    const email = await call('PUT', '/api/user/profile', seller.token, { email: 'new@shop.test' });
    expect(email.statusCode).toBe(400);
    const empty = await call('PUT', '/api/user/profile', seller.token, {});
    expect(empty.json().code).toBe(ProfileCode.nothingToChange);
    expect((await call('GET', '/api/user/info', seller.token)).json().data.email).toBe(seller.email);
  });

  it('changes the password only with the current one and the §5 rule, and signs the other sessions out', async () => {
    const seller = await createSeller(api);
    const elsewhere = await signIn(api.app, seller.email, seller.password);
    const next = 'new secret 42';

    const wrong = await call('POST', '/api/user/password', seller.token, {
      current_password: 'not it 12345',
      password: next,
      confirm_password: next,
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().code).toBe(ProfileCode.currentPasswordWrong);
    const weak = await call('POST', '/api/user/password', seller.token, {
      current_password: seller.password,
      password: 'nodigitshere',
      confirm_password: 'nodigitshere',
    });
    expect(weak.json().code).toBe(TeamCode.passwordRule);
    const mismatch = await call('POST', '/api/user/password', seller.token, {
      current_password: seller.password,
      password: next,
      confirm_password: `${next}x`,
    });
    expect(mismatch.json().code).toBe(TeamCode.passwordMismatch);
    expect((await tokenFor(seller.email, seller.password)).statusCode).toBe(200);

    const changed = await call('POST', '/api/user/password', seller.token, {
      current_password: seller.password,
      password: next,
      confirm_password: next,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().data.signed_out_elsewhere).toBe(2);
    expect((await call('GET', '/api/user/info', seller.token)).statusCode).toBe(200);
    expect((await call('GET', '/api/user/info', elsewhere)).statusCode).toBe(401);
    expect((await tokenFor(seller.email, seller.password)).statusCode).toBe(400);
    expect((await tokenFor(seller.email, next)).statusCode).toBe(200);
  });

  it('keeps the company details printed documents carry, changed by the owner only', async () => {
    const company = {
      name: 'Kedai Runcit Sdn Bhd',
      address: '12 Jalan Ampang, 50450 Kuala Lumpur',
      phone: '+60 3-1234 5678',
      email: 'hello@runcit.test',
      registration_no: '201901000123',
    };
    const saved = await call('PUT', '/api/setting/company', owner.token, company);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data.company).toEqual(company);
    // The print settings (what the invoice, packing list and delivery order are drawn from) hold the same details.
    const print = await call('GET', '/api/orders/print-settings', owner.token);
    expect(print.json().data.company).toEqual(company);
    expect((await call('GET', '/api/setting/company', other.token)).json().data.company.name).not.toBe(
      company.name,
    );

    const staff = await createSubUser(api, owner.tenantId, ['activity-logs']);
    expect((await call('PUT', '/api/setting/company', staff.token, company)).statusCode).toBe(403);
    const tooLong = await call('PUT', '/api/setting/company', owner.token, {
      ...company,
      name: 'x'.repeat(500),
    });
    expect(tooLong.statusCode).toBe(400);
  });

  it('lists the activity log by user, action and date, a page at a time, for the activity-logs key only', async () => {
    const seller = await createSeller(api);
    for (const first_name of ['A', 'B', 'C']) {
      expect((await call('PUT', '/api/user/profile', seller.token, { first_name })).statusCode).toBe(200);
    }
    await call('PUT', '/api/setting/company', seller.token, {
      name: 'Co',
      address: '',
      phone: '',
      email: '',
      registration_no: '',
    });
    await call('PUT', '/api/user/profile', other.token, { first_name: 'Other' });

    const all = await call('GET', '/api/user-activities-logs?startRow=0&endRow=100', seller.token);
    expect(all.statusCode, all.body).toBe(200);
    const rows = all.json().data.rows as { action: string; user: { id: string } | null; at: string }[];
    expect(rows.map((r) => r.action)).toEqual([
      'company.updated',
      'profile.updated',
      'profile.updated',
      'profile.updated',
    ]);
    expect(rows.every((r) => r.user?.id === seller.userId)).toBe(true);

    const byAction = await call(
      'GET',
      `/api/user-activities-logs?${grid({ action: { type: 'equals', filter: 'profile.updated' } })}&startRow=0&endRow=2`,
      seller.token,
    );
    expect(byAction.json().data.lastRow).toBe(3);
    expect(byAction.json().data.rows).toHaveLength(2);
    const byUser = await call(
      'GET',
      `/api/user-activities-logs?${grid({ user: { type: 'contains', filter: 'nobody-like-this' } })}`,
      seller.token,
    );
    expect(byUser.json().data.lastRow).toBe(0);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const byDate = await call(
      'GET',
      `/api/user-activities-logs?${grid({ at: { type: 'lessThan', dateFrom: yesterday } })}`,
      seller.token,
    );
    expect(byDate.json().data.lastRow).toBe(0);

    const without = await createSubUser(api, seller.tenantId, ['sales-index']);
    expect((await call('GET', '/api/user-activities-logs', without.token)).statusCode).toBe(403);
    const withKey = await createSubUser(api, seller.tenantId, ['activity-logs']);
    expect((await call('GET', '/api/user-activities-logs', withKey.token)).json().data.lastRow).toBe(4);
    const bad = await call(
      'GET',
      `/api/user-activities-logs?${grid({ at: { type: 'equals', dateFrom: 'soon' } })}`,
      seller.token,
    );
    expect(bad.statusCode).toBe(400);
  });

  it('records every sign-in with its time, address, device and result, for the account alone', async () => {
    const seller = await createSeller(api);
    expect(
      (await tokenFor(seller.email, seller.password, 'Mozilla/5.0 (Macintosh) Safari/605')).statusCode,
    ).toBe(200);
    // Three failures make this address wait; the next attempt, even with the right password, is held back.
    for (let i = 0; i < 3; i++)
      expect((await tokenFor(seller.email, 'wrong password 1')).statusCode).toBe(400);
    expect((await tokenFor(seller.email, seller.password)).statusCode).toBe(429);

    const list = await call('GET', '/api/login_access/list?startRow=0&endRow=50', seller.token);
    expect(list.statusCode, list.body).toBe(200);
    const rows = list.json().data.rows as {
      result: string;
      user_agent: string;
      address: string;
      login: string;
      user: { id: string } | null;
    }[];
    // createSeller's own sign-in first, newest first.
    expect(rows.map((r) => r.result)).toEqual([
      'locked',
      'failure',
      'failure',
      'failure',
      'success',
      'success',
    ]);
    expect(rows[4]).toMatchObject({
      user_agent: 'Mozilla/5.0 (Macintosh) Safari/605',
      address: '127.0.0.1',
      login: seller.email,
      user: { id: seller.userId },
    });

    const failures = await call('GET', '/api/login_access/list?result=failure', seller.token);
    expect(failures.json().data.lastRow).toBe(3);
    const theirs = await call('GET', '/api/login_access/list', other.token);
    expect((theirs.json().data.rows as { login: string }[]).some((r) => r.login === seller.email)).toBe(
      false,
    );
    const staff = await createSubUser(api, seller.tenantId, []);
    expect((await call('GET', '/api/login_access/list', staff.token)).statusCode).toBe(403);
  });

  it('creates and lists the partner kinds, each holding its kind’s scope and no seller-wide route', async () => {
    const password = 'partner pass 9';
    const created: Record<string, string> = {};
    for (const kind of Object.keys(PARTNER_SCOPES)) {
      const username = `${kind.replace('_', '-')}.${randomUUID().slice(0, 6)}`;
      const response = await call('POST', '/api/setting/users', owner.token, {
        kind,
        username,
        email: `${username}@partner.test`,
        first_name: kind,
        password,
        confirm_password: password,
        status: 'active',
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().data).toMatchObject({ kind, group: null, editable: true });
      created[kind] = username;
    }
    const noGroup = await call('POST', '/api/setting/users', owner.token, {
      username: `staff.${randomUUID().slice(0, 6)}`,
      email: `staff.${randomUUID().slice(0, 6)}@shop.test`,
      first_name: 'Staff',
      password,
      confirm_password: password,
      status: 'active',
    });
    expect(noGroup.statusCode).toBe(400);
    expect(noGroup.json().code).toBe(TeamCode.groupNotFound);
    const badKind = await call('POST', '/api/setting/users', owner.token, { kind: 'admin' });
    expect(badKind.statusCode).toBe(400);

    const dealers = await call(
      'GET',
      `/api/setting/users?${grid({ kind: { filterType: 'set', values: ['dealer', 'supplier'] } })}`,
      owner.token,
    );
    expect((dealers.json().data.rows as { kind: string }[]).map((r) => r.kind).sort()).toEqual([
      'dealer',
      'supplier',
    ]);

    const supplier = await signIn(api.app, created.supplier!, password);
    const permissions = (await call('GET', '/api/info/permission', supplier)).json().data as Record<
      string,
      boolean
    >;
    expect(
      Object.keys(permissions)
        .filter((key) => permissions[key])
        .sort(),
    ).toEqual([...PARTNER_SCOPES.supplier].sort());
    expect((await call('GET', '/api/user/info', supplier)).json().data.kind).toBe('supplier');
    // A route open to every member of the seller's staff is not open to a partner.
    expect((await call('GET', '/api/info/usage', supplier)).statusCode).toBe(403);
    expect((await call('GET', '/api/info/usage', owner.token)).statusCode).toBe(200);
  });
});
