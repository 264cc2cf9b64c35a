import { randomBytes, randomUUID } from 'node:crypto';
import { createTenantWithOwner } from '@commands/accounts/seed';
import { defaultSignInLimits } from '@commands/accounts/sign-in-limits';
import { tokenHash, verifySecret } from '@commands/support/secrets';
import {
  bearer,
  createSeller,
  createTestApi,
  signIn,
  type TestApi,
  type TestSeller,
  tokenRequest,
} from '@tests/support/api';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Forgotten password and POS app PIN, as the seller lives it: ask with the e-mail, open the link from the mail (the
 * outbox, as no SMTP is configured in tests), choose a new secret.
 */

describe('password and POS app PIN reset by e-mailed link', () => {
  let api: TestApi;

  beforeAll(async () => {
    // Many bad links come from one address here; their throttle is tested in sign-in-throttle.int.spec.ts.
    api = await createTestApi({ signInLimits: { ...defaultSignInLimits, freeFailures: 100 } });
  });
  afterAll(async () => {
    await api?.close();
  });

  const unique = () => randomBytes(4).toString('hex');

  const post = (url: string, payload: unknown, language?: string) =>
    api.app.inject({
      method: 'POST',
      url,
      payload: payload as object,
      headers: language ? { language } : {},
    });

  const mails = (email: string, purpose: string) =>
    api.database.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where(sql<string>`lower(recipient)`, '=', email.toLowerCase())
      .where('purpose', '=', purpose)
      .orderBy('id')
      .execute();

  /** The token of the link in the latest mail, read as the seller would. */
  const linkToken = async (email: string, purpose: string, route: string) => {
    const body = (await mails(email, purpose)).at(-1)?.body ?? '';
    const match = new RegExp(`http://kedai\\.test/#${route}\\?token=([A-Za-z0-9_-]+)`).exec(body);
    expect(match, body).not.toBeNull();
    return match![1]!;
  };

  /** Lets the next forgot request through the once-a-minute rule, as if a minute had passed. */
  const aMinuteLater = (userId: string) =>
    api.database.db
      .updateTable('reset_links')
      .set({ created_at: sql<Date>`created_at - interval '61 seconds'` })
      .where('user_id', '=', userId)
      .execute();

  const passwordHash = async (userId: string) =>
    (
      await api.database.db
        .selectFrom('users')
        .select(['password_hash', 'pos_pin_hash'])
        .where('id', '=', userId)
        .executeTakeFirstOrThrow()
    ).password_hash;

  const forgotSent = {
    code: 0,
    msg: 'If this e-mail belongs to an account, we have sent a link to reset the password.',
    data: null,
  };

  describe('password', () => {
    let seller: TestSeller;

    beforeAll(async () => {
      seller = await createSeller(api);
    });

    it('mails a single-use link, changes the password and signs the user out everywhere', async () => {
      const secondSession = await signIn(api.app, seller.email, seller.password);
      const asked = await post('/api/password/forgot', { email: seller.email.toUpperCase() });
      expect(asked.statusCode).toBe(200);
      expect(asked.json()).toEqual(forgotSent);

      const [mail] = await mails(seller.email, 'password-reset');
      expect(mail!.subject).toBe('Reset your Kedai password');
      const token = await linkToken(seller.email, 'password-reset', '/reset-password');
      const link = await api.database.db
        .selectFrom('reset_links')
        .select([
          'token_hash',
          'purpose',
          'used_at',
          sql<number>`extract(epoch from expires_at - created_at)`.as('ttl'),
        ])
        .where('user_id', '=', seller.userId)
        .executeTakeFirstOrThrow();
      expect(link).toMatchObject({ token_hash: tokenHash(token), purpose: 'password', used_at: null });
      expect(Number(link.ttl)).toBe(3600);

      const reset = await post('/api/password/reset', {
        token,
        password: 'new secret 42',
        confirm_password: 'new secret 42',
      });
      expect(reset.statusCode, reset.body).toBe(200);
      expect(reset.json()).toEqual({
        code: 0,
        msg: 'Your password has been changed. Please sign in with the new password.',
        data: null,
      });

      for (const old of [seller.token, secondSession]) {
        const info = await api.app.inject({ method: 'GET', url: '/api/user/info', headers: bearer(old) });
        expect(info.statusCode).toBe(401);
      }
      const live = await api.database.db
        .selectFrom('access_tokens')
        .select('token_hash')
        .where('user_id', '=', seller.userId)
        .where('revoked_at', 'is', null)
        .execute();
      expect(live).toEqual([]);

      const oldPassword = await api.app.inject({
        method: 'POST',
        url: '/oauth/token',
        payload: tokenRequest(seller.email, seller.password),
      });
      expect(oldPassword.json().error).toBe('invalid_grant');
      seller.password = 'new secret 42';
      seller.token = await signIn(api.app, seller.email, seller.password);

      const again = await post('/api/password/reset', {
        token,
        password: 'another one 7',
        confirm_password: 'another one 7',
      });
      expect(again.statusCode).toBe(400);
      expect(again.json()).toEqual({
        code: 442,
        msg: 'This link has already been used. Please ask for a new link.',
      });
      expect(await verifySecret(await passwordHash(seller.userId), 'new secret 42')).toBe(true);

      const logged = await api.database.db
        .selectFrom('activity_log')
        .select(['action', 'tenant_id'])
        .where('user_id', '=', seller.userId)
        .where('action', '=', 'password_reset')
        .execute();
      expect(logged).toEqual([{ action: 'password_reset', tenant_id: seller.tenantId }]);
    });

    it('answers an unknown e-mail exactly like a known one, and mails nothing', async () => {
      const nobody = `nobody-${unique()}@shop.test`;
      const asked = await post('/api/password/forgot', { email: nobody });
      expect(asked.statusCode).toBe(200);
      expect(asked.json()).toEqual(forgotSent);
      expect(await mails(nobody, 'password-reset')).toEqual([]);
    });

    it('mails nothing to an account that has not verified its e-mail', async () => {
      const email = `pending-${unique()}@shop.test`;
      await createTenantWithOwner(api.database.db, {
        name: 'Pending Shop',
        country: 'TH',
        status: 'pending',
        owner: { email, firstName: 'Somchai', lastName: 'K', phone: '+66812345678', password: 'pending 123' },
      });
      const asked = await post('/api/password/forgot', { email });
      expect(asked.json()).toEqual(forgotSent);
      expect(await mails(email, 'password-reset')).toEqual([]);
    });

    it('mails at most one link a minute, answering the same', async () => {
      const other = await createSeller(api);
      for (let i = 0; i < 3; i++) {
        const asked = await post('/api/password/forgot', { email: other.email });
        expect(asked.json()).toEqual(forgotSent);
      }
      expect(await mails(other.email, 'password-reset')).toHaveLength(1);
      const links = await api.database.db
        .selectFrom('reset_links')
        .select('token_hash')
        .where('user_id', '=', other.userId)
        .execute();
      expect(links).toHaveLength(1);
    });

    it('lets a newer link replace an older one that was not used', async () => {
      const other = await createSeller(api);
      await post('/api/password/forgot', { email: other.email });
      const older = await linkToken(other.email, 'password-reset', '/reset-password');
      await aMinuteLater(other.userId);
      await post('/api/password/forgot', { email: other.email });
      const newer = await linkToken(other.email, 'password-reset', '/reset-password');
      expect(newer).not.toBe(older);

      const stale = await post('/api/password/reset', {
        token: older,
        password: 'replaced 123',
        confirm_password: 'replaced 123',
      });
      expect(stale.statusCode).toBe(400);
      expect(stale.json()).toEqual({
        code: 440,
        msg: 'This link is not valid or has been replaced by a newer one. Please ask for a new link.',
      });
      const fresh = await post('/api/password/reset', {
        token: newer,
        password: 'replaced 123',
        confirm_password: 'replaced 123',
      });
      expect(fresh.statusCode).toBe(200);
      await signIn(api.app, other.email, 'replaced 123');
    });

    it('refuses an expired link and an unknown one, changing nothing', async () => {
      const other = await createSeller(api);
      await post('/api/password/forgot', { email: other.email });
      const token = await linkToken(other.email, 'password-reset', '/reset-password');
      await api.database.db
        .updateTable('reset_links')
        .set({ expires_at: sql<Date>`now() - interval '1 second'` })
        .where('user_id', '=', other.userId)
        .execute();
      const before = await passwordHash(other.userId);
      const expired = await post('/api/password/reset', {
        token,
        password: 'too late 123',
        confirm_password: 'too late 123',
      });
      expect(expired.statusCode).toBe(400);
      expect(expired.json()).toEqual({ code: 441, msg: 'This link has expired. Please ask for a new link.' });
      const unknown = await post('/api/password/reset', {
        token: randomBytes(32).toString('base64url'),
        password: 'made up 123',
        confirm_password: 'made up 123',
      });
      expect(unknown.json().code).toBe(440);
      expect(await passwordHash(other.userId)).toBe(before);
      // The session the seller had is untouched.
      const info = await api.app.inject({
        method: 'GET',
        url: '/api/user/info',
        headers: bearer(other.token),
      });
      expect(info.statusCode).toBe(200);
    });

    it.each([
      [
        'an 8-character password',
        { password: 'abcdefg1', confirm_password: 'abcdefg1' },
        400,
        'The password must be more than 8 characters.',
      ],
      [
        'a password without a digit',
        { password: 'no digits here', confirm_password: 'no digits here' },
        400,
        'The password must contain at least one digit.',
      ],
      [
        'a confirmation that differs',
        { confirm_password: 'something 2' },
        400,
        'The passwords do not match.',
      ],
      ['a password as a number', { password: 123456789, confirm_password: 123456789 }, 400, undefined],
      [
        'a missing token',
        { token: undefined },
        440,
        'This link is not valid or has been replaced by a newer one. Please ask for a new link.',
      ],
      ['an oversize token', { token: 'x'.repeat(201) }, 440, undefined],
      ['an unknown field', { user_id: 'someone-else' }, 400, undefined],
    ])('refuses %s and keeps the link usable', async (_, overrides, code, msg) => {
      const other = await createSeller(api);
      await post('/api/password/forgot', { email: other.email });
      const token = await linkToken(other.email, 'password-reset', '/reset-password');
      const before = await passwordHash(other.userId);
      const refused = await post('/api/password/reset', {
        token,
        password: 'something 1',
        confirm_password: 'something 1',
        ...overrides,
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().code).toBe(code);
      expect(refused.json().msg).toEqual(msg ?? expect.any(String));
      expect(await passwordHash(other.userId)).toBe(before);
      const link = await api.database.db
        .selectFrom('reset_links')
        .select('used_at')
        .where('token_hash', '=', tokenHash(token))
        .executeTakeFirstOrThrow();
      expect(link.used_at).toBeNull();
    });

    it('refuses a malformed forgot request', async () => {
      for (const payload of [{}, { email: 'nope' }, { email: 42 }, { email: `${'a'.repeat(250)}@x.test` }]) {
        const refused = await post('/api/password/forgot', payload);
        expect(refused.statusCode, JSON.stringify(payload)).toBe(400);
        expect(refused.json().msg).toBe('Please enter a valid e-mail address.');
      }
      const extra = await post('/api/password/forgot', {
        email: 'a@shop.test',
        redirect: 'http://evil.test',
      });
      expect(extra.statusCode).toBe(400);
    });

    it('answers and mails in Chinese for a zh-cn request', async () => {
      const other = await createSeller(api);
      const asked = await post('/api/password/forgot', { email: other.email }, 'zh-cn');
      expect(asked.json().msg).toBe('如果该电子邮件属于某个账户，我们已发送重置密码的链接。');
      const [mail] = await mails(other.email, 'password-reset');
      expect(mail!.subject).toBe('重置您的 Kedai 密码');
      expect(mail!.body).toContain('http://kedai.test/#/reset-password?token=');
      const refused = await post(
        '/api/password/reset',
        { token: 'unknown', password: 'something 1', confirm_password: 'something 1' },
        'zh-cn',
      );
      expect(refused.json()).toEqual({ code: 440, msg: '此链接无效或已被新的链接取代。请申请新的链接。' });
    });
  });

  describe('POS app PIN', () => {
    it('mails a link to the PIN screen and stores the new PIN hashed, keeping the sessions', async () => {
      const seller = await createSeller(api);
      const asked = await post('/api/pos-pin/forgot', { email: seller.email });
      expect(asked.statusCode).toBe(200);
      expect(asked.json()).toEqual({
        code: 0,
        msg: 'If this e-mail belongs to an account, we have sent a link to reset the POS app PIN.',
        data: null,
      });
      const [mail] = await mails(seller.email, 'pos-pin-reset');
      expect(mail!.subject).toBe('Reset your Kedai POS app PIN');
      const token = await linkToken(seller.email, 'pos-pin-reset', '/reset-pos-app-pin');

      // A PIN link is not a password link.
      const wrongDoor = await post('/api/password/reset', {
        token,
        password: 'sneaky 123',
        confirm_password: 'sneaky 123',
      });
      expect(wrongDoor.json().code).toBe(440);

      const reset = await post('/api/pos-pin/reset', { token, pin: '024680', confirm_pin: '024680' });
      expect(reset.statusCode, reset.body).toBe(200);
      expect(reset.json()).toEqual({ code: 0, msg: 'Your POS app PIN has been changed.', data: null });
      const user = await api.database.db
        .selectFrom('users')
        .select('pos_pin_hash')
        .where('id', '=', seller.userId)
        .executeTakeFirstOrThrow();
      expect(user.pos_pin_hash).not.toContain('024680');
      expect(await verifySecret(user.pos_pin_hash!, '024680')).toBe(true);

      const info = await api.app.inject({
        method: 'GET',
        url: '/api/user/info',
        headers: bearer(seller.token),
      });
      expect(info.statusCode).toBe(200);
      const again = await post('/api/pos-pin/reset', { token, pin: '111111', confirm_pin: '111111' });
      expect(again.json().code).toBe(442);
      const logged = await api.database.db
        .selectFrom('activity_log')
        .select('action')
        .where('user_id', '=', seller.userId)
        .execute();
      expect(logged).toEqual([{ action: 'pos_pin_reset' }]);
    });

    it.each([
      ['five digits', { pin: '12345', confirm_pin: '12345' }, 'The PIN must be exactly 6 digits.'],
      ['seven digits', { pin: '1234567', confirm_pin: '1234567' }, 'The PIN must be exactly 6 digits.'],
      ['letters', { pin: '12ab56', confirm_pin: '12ab56' }, 'The PIN must be exactly 6 digits.'],
      ['a number', { pin: 123456, confirm_pin: 123456 }, 'The PIN must be exactly 6 digits.'],
      ['a confirmation that differs', { pin: '123456', confirm_pin: '654321' }, 'The PINs do not match.'],
    ])('refuses a PIN of %s and changes nothing', async (_, pins, msg) => {
      const seller = await createSeller(api);
      await post('/api/pos-pin/forgot', { email: seller.email });
      const token = await linkToken(seller.email, 'pos-pin-reset', '/reset-pos-app-pin');
      const refused = await post('/api/pos-pin/reset', { token, ...pins });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ code: 400, msg });
      const user = await api.database.db
        .selectFrom('users')
        .select('pos_pin_hash')
        .where('id', '=', seller.userId)
        .executeTakeFirstOrThrow();
      expect(user.pos_pin_hash).toBeNull();
    });

    it('refuses an expired PIN link, in Thai for a th-th request', async () => {
      const seller = await createSeller(api);
      await post('/api/pos-pin/forgot', { email: seller.email }, 'th-th');
      const [mail] = await mails(seller.email, 'pos-pin-reset');
      expect(mail!.subject).toBe('รีเซ็ต PIN ของแอป POS ใน Kedai');
      const token = await linkToken(seller.email, 'pos-pin-reset', '/reset-pos-app-pin');
      await api.database.db
        .updateTable('reset_links')
        .set({ expires_at: sql<Date>`now() - interval '1 second'` })
        .where('user_id', '=', seller.userId)
        .execute();
      const refused = await post(
        '/api/pos-pin/reset',
        { token, pin: '135790', confirm_pin: '135790' },
        'th-th',
      );
      expect(refused.json()).toEqual({ code: 441, msg: 'ลิงก์นี้หมดอายุแล้ว กรุณาขอลิงก์ใหม่' });
    });

    it("mails no PIN link to the provider's admin, whose account has no POS app", async () => {
      const admin = await api.database.db
        .insertInto('users')
        .values({
          id: randomUUID(),
          tenant_id: null,
          kind: 'admin',
          email: `admin-${unique()}@kedai.test`,
          first_name: 'Admin',
          password_hash: 'unused',
          status: 'active',
        })
        .returning('email')
        .executeTakeFirstOrThrow();
      const asked = await post('/api/pos-pin/forgot', { email: admin.email });
      expect(asked.json().code).toBe(0);
      expect(await mails(admin.email, 'pos-pin-reset')).toEqual([]);
    });
  });

  it('documents the reset calls in OpenAPI', async () => {
    const doc = (await api.app.inject({ method: 'GET', url: '/docs/json' })).json();
    for (const path of [
      '/api/password/forgot',
      '/api/password/reset',
      '/api/pos-pin/forgot',
      '/api/pos-pin/reset',
    ]) {
      expect(doc.paths[path]?.post?.tags, path).toEqual(['registration']);
    }
  });
});
