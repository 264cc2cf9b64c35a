import { randomBytes } from 'node:crypto';
import type { RegisterRequest } from '@api/contracts/accounts';
import { verifySecret } from '@commands/support/secrets';
import { OTP_MAX_ATTEMPTS, OTP_TTL_SECONDS, SIGNUPS_PER_ADDRESS_PER_HOUR } from '@domain/access/accounts';
import { TEXT_LIMITS } from '@domain/shared/limits';
import { bearer, createTestApi, signIn, type TestApi, tokenRequest } from '@tests/support/api';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Self-registration as a new seller lives it: fill the sign-up form, read the 6-digit code from the mail (the
 * outbox, as no SMTP is configured in tests), enter it, sign in.
 */

describe('registration with an e-mailed 6-digit code', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await createTestApi();
  });
  afterAll(async () => {
    await api?.close();
  });

  const unique = () => randomBytes(4).toString('hex');

  const form = (overrides: Record<string, unknown> = {}) => ({
    first_name: 'Nurul',
    last_name: 'Huda',
    phone: '+60 12-345 6789',
    email: `seller-${unique()}@shop.test`,
    country: 'MY',
    // Nine characters with a digit: just past the "more than 8" rule.
    password: 'kedai2026',
    confirm_password: 'kedai2026',
    promo_code: 'LAUNCH-10',
    agree_terms: true,
    store_name: 'Huda Batik',
    average_orders: '50_200',
    warehouse_size: 'small',
    accounting_system: 'autocount',
    found_us: 'search_engine',
    looking_for: 'order_management',
    ...overrides,
  });

  const post = (url: string, payload: unknown, language?: string) =>
    api.app.inject({
      method: 'POST',
      url,
      payload: payload as object,
      headers: language ? { language } : {},
    });

  const register = async (overrides: Record<string, unknown> = {}, language?: string) => {
    const body = form(overrides);
    const response = await post('/api/register', body, language);
    expect(response.statusCode, response.body).toBe(200);
    return body;
  };

  const mails = (email: string) =>
    api.database.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where(sql<string>`lower(recipient)`, '=', email.toLowerCase())
      .where('purpose', '=', 'register-otp')
      .orderBy('id')
      .execute();

  /** The code in the latest verification mail, read as the seller would. */
  const codeFromMail = async (email: string) => {
    const all = await mails(email);
    const body = all.at(-1)?.body ?? '';
    const code = /\b(\d{6})\b/.exec(body)?.[1];
    expect(code, body).toBeDefined();
    return code!;
  };

  const otherThan = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

  const userOf = (email: string) =>
    api.database.db
      .selectFrom('users')
      .selectAll()
      .where('email', '=', email.toLowerCase())
      .executeTakeFirstOrThrow();

  const counts = async () => {
    const row = await api.database.db
      .selectNoFrom([
        sql<string>`(SELECT count(*) FROM tenants)`.as('tenants'),
        sql<string>`(SELECT count(*) FROM users)`.as('users'),
        sql<string>`(SELECT count(*) FROM email_verifications)`.as('verifications'),
        sql<string>`(SELECT count(*) FROM mail_outbox)`.as('mails'),
        sql<string>`(SELECT count(*) FROM activity_log)`.as('activities'),
      ])
      .executeTakeFirstOrThrow();
    return row;
  };

  /** Lets the next resend through the once-a-minute rule, as if a minute had passed. */
  const aMinuteLater = (userId: string) =>
    api.database.db
      .updateTable('email_verifications')
      .set({ last_sent_at: sql<Date>`now() - interval '61 seconds'` })
      .where('user_id', '=', userId)
      .execute();

  it('registers, mails the code, refuses sign-in until verified, then signs in', async () => {
    const body = form({ email: `Mixed-${unique()}@Shop.test` });
    const registered = await post('/api/register', body);
    expect(registered.statusCode, registered.body).toBe(200);
    const email = body.email.toLowerCase();
    expect(registered.json()).toEqual({
      code: 0,
      msg: `We have sent a 6-digit code to ${email}. Enter it to verify your e-mail.`,
      data: { email, expires_in: OTP_TTL_SECONDS },
    });

    const user = await userOf(email);
    expect(user).toMatchObject({
      kind: 'owner',
      status: 'pending',
      first_name: 'Nurul',
      last_name: 'Huda',
      phone: '+60 12-345 6789',
      country: 'MY',
      language: 'en-us',
      email_verified_at: null,
    });
    expect(await verifySecret(user.password_hash, 'kedai2026')).toBe(true);
    const tenant = await api.database.db
      .selectFrom('tenants')
      .selectAll()
      .where('id', '=', user.tenant_id!)
      .executeTakeFirstOrThrow();
    expect(tenant).toMatchObject({
      name: 'Huda Batik',
      country: 'MY',
      package_id: 'trial',
      status: 'pending',
      promo_code: 'LAUNCH-10',
      business: {
        store_name: 'Huda Batik',
        average_orders: '50_200',
        warehouse_size: 'small',
        accounting_system: 'autocount',
        found_us: 'search_engine',
        looking_for: 'order_management',
      },
    });

    const sent = await mails(email);
    expect(sent).toHaveLength(1);
    const code = await codeFromMail(email);
    expect(sent[0]!.subject).toContain(code);
    const stored = await api.database.db
      .selectFrom('email_verifications')
      .select(['code_hash', 'attempts', sql<number>`extract(epoch from expires_at - now())`.as('ttl')])
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(stored.code_hash).not.toContain(code);
    expect(await verifySecret(stored.code_hash, code)).toBe(true);
    expect(Number(stored.ttl)).toBeGreaterThan(OTP_TTL_SECONDS - 60);
    expect(Number(stored.ttl)).toBeLessThanOrEqual(OTP_TTL_SECONDS);

    const early = await api.app.inject({
      method: 'POST',
      url: '/oauth/token',
      payload: tokenRequest(email, 'kedai2026'),
    });
    expect(early.statusCode).toBe(400);
    expect(early.json().error).toBe('email_not_verified');

    const verified = await post('/api/register/verify', { email: body.email, otp: code });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json()).toEqual({
      code: 0,
      msg: 'Your e-mail is verified. You can sign in now.',
      data: { email },
    });
    const active = await userOf(email);
    expect(active.status).toBe('active');
    expect(active.email_verified_at).toBeInstanceOf(Date);
    const activeTenant = await api.database.db
      .selectFrom('tenants')
      .select('status')
      .where('id', '=', user.tenant_id!)
      .executeTakeFirstOrThrow();
    expect(activeTenant.status).toBe('active');
    const left = await api.database.db
      .selectFrom('email_verifications')
      .select('user_id')
      .where('user_id', '=', user.id)
      .execute();
    expect(left).toEqual([]);
    const activities = await api.database.db
      .selectFrom('activity_log')
      .select(['action', 'tenant_id', 'subject_id'])
      .where('user_id', '=', user.id)
      .where('subject_type', '=', 'user')
      .orderBy('id')
      .execute();
    expect(activities).toEqual([
      { action: 'register', tenant_id: user.tenant_id, subject_id: user.id },
      { action: 'email_verified', tenant_id: user.tenant_id, subject_id: user.id },
    ]);

    const token = await signIn(api.app, email, 'kedai2026');
    const info = await api.app.inject({ method: 'GET', url: '/api/user/info', headers: bearer(token) });
    expect(info.statusCode).toBe(200);
    expect(info.json().data).toMatchObject({ email, kind: 'owner', tenant: { id: user.tenant_id } });

    // The new account starts with its default warehouse and a branch: stock and transfers work at once.
    const places = async (kind: string) =>
      (await api.app.inject({ method: 'GET', url: `/api/inventory/${kind}`, headers: bearer(token) })).json()
        .data as { code: string; name: string; is_default: boolean }[];
    expect(await places('warehouse')).toMatchObject([
      { code: 'MAIN', name: 'Main warehouse', is_default: true },
    ]);
    expect(await places('branch')).toMatchObject([{ code: 'HQ', name: 'Main branch', is_default: false }]);

    // Entering the code again: the e-mail is verified already.
    const again = await post('/api/register/verify', { email, otp: code });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ code: 433, msg: 'This e-mail is already verified. Please sign in.' });
  });

  const refusals: [string, Record<string, unknown>, string, string][] = [
    [
      'an 8-character password',
      { password: 'kedai202', confirm_password: 'kedai202' },
      'body/password',
      'The password must be more than 8 characters.',
    ],
    [
      'a password without a digit',
      { password: 'kedaistore', confirm_password: 'kedaistore' },
      'body/password',
      'The password must contain at least one digit.',
    ],
    [
      'a password over 200 characters',
      { password: `${'a'.repeat(200)}1`, confirm_password: `${'a'.repeat(200)}1` },
      'body/password',
      'The password must be at most 200 characters.',
    ],
    [
      'a confirmation that differs',
      { confirm_password: 'kedai2027' },
      'body/confirm_password',
      'The passwords do not match.',
    ],
    [
      'terms not agreed',
      { agree_terms: false },
      'body/agree_terms',
      'You must agree to the terms and conditions.',
    ],
    [
      'terms agreed as a string',
      { agree_terms: 'true' },
      'body/agree_terms',
      'You must agree to the terms and conditions.',
    ],
    ['a country outside the list', { country: 'US' }, 'body/country', 'Please choose a supported country.'],
    ['an e-mail without a domain', { email: 'nurul@' }, 'body/email', 'Please enter a valid e-mail address.'],
    [
      'an e-mail over 254 characters',
      { email: `${'a'.repeat(250)}@shop.test` },
      'body/email',
      'Please enter a valid e-mail address.',
    ],
    [
      'a blank first name',
      { first_name: '   ' },
      'body/first_name',
      `Please enter your first name (at most ${TEXT_LIMITS.name} characters).`,
    ],
    [
      'a last name over the limit',
      { last_name: 'x'.repeat(TEXT_LIMITS.name + 1) },
      'body/last_name',
      `Please enter your last name (at most ${TEXT_LIMITS.name} characters).`,
    ],
    [
      'a store name over the limit',
      { store_name: 's'.repeat(TEXT_LIMITS.name + 1) },
      'body/store_name',
      `Please enter your store name (at most ${TEXT_LIMITS.name} characters).`,
    ],
    ['a phone number with letters', { phone: 'call me' }, 'body/phone', 'Please enter a valid phone number.'],
    [
      'a phone number as a number',
      { phone: 60123456789 },
      'body/phone',
      'Please enter a valid phone number.',
    ],
    [
      'a promo code over 40 characters',
      { promo_code: 'P'.repeat(41) },
      'body/promo_code',
      'The promo code may only hold letters, digits, - and _ (at most 40 characters).',
    ],
    [
      'an unknown average orders answer',
      { average_orders: 'lots' },
      'body/average_orders',
      'Please choose your average number of orders.',
    ],
    [
      'a warehouse size as a number',
      { warehouse_size: 3 },
      'body/warehouse_size',
      'Please choose your warehouse size.',
    ],
    [
      'a missing accounting system',
      { accounting_system: undefined },
      'body/accounting_system',
      'Please choose your accounting system.',
    ],
    [
      'an unknown found-us answer',
      { found_us: 'radio' },
      'body/found_us',
      'Please tell us how you found us.',
    ],
    [
      'a list where one answer is expected',
      { looking_for: ['pos'] },
      'body/looking_for',
      'Please tell us what you are looking for.',
    ],
  ];

  it.each(refusals)(
    'refuses %s with a 400, a message, and nothing stored',
    async (_, overrides, path, msg) => {
      const before = await counts();
      const response = await post('/api/register', form(overrides));
      expect(response.statusCode, response.body).toBe(400);
      const answer = response.json();
      expect(answer.code).toBe(400);
      expect(answer.msg).toBe(msg);
      expect(answer.errors).toContainEqual({ path, message: msg });
      expect(await counts()).toEqual(before);
    },
  );

  it('refuses an unknown field, an empty body and a body that is not an object, storing nothing', async () => {
    const before = await counts();
    const extra = await post('/api/register', { ...form(), is_admin: true });
    expect(extra.statusCode).toBe(400);
    expect(extra.json().code).toBe(400);
    expect(extra.json().msg).toEqual(expect.any(String));
    expect(JSON.stringify(extra.json().errors)).toContain('is_admin');
    const empty = await post('/api/register', {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().code).toBe(400);
    const list = await post('/api/register', [form()]);
    expect(list.statusCode).toBe(400);
    expect(await counts()).toEqual(before);
  });

  it('refuses an e-mail that is already registered, whatever its case, and changes nothing', async () => {
    const first = await register();
    const before = await counts();
    const again = await post(
      '/api/register',
      form({ email: first.email.toUpperCase(), store_name: 'Other' }),
    );
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      code: 409,
      msg: 'This e-mail is already registered. Please sign in, reset your password, or ask for a new verification code.',
    });
    expect(await counts()).toEqual(before);
  });

  it('refuses a wrong code, and answers an unknown e-mail exactly as a wrong code', async () => {
    const { email } = await register();
    const code = await codeFromMail(email);
    const wrong = await post('/api/register/verify', { email, otp: otherThan(code) });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({
      code: 430,
      msg: 'The code is wrong. Please check the e-mail and try again.',
    });
    const unknown = await post('/api/register/verify', { email: `nobody-${unique()}@shop.test`, otp: code });
    expect(unknown.statusCode).toBe(wrong.statusCode);
    expect(unknown.json()).toEqual(wrong.json());
    expect((await userOf(email)).status).toBe('pending');
    const row = await api.database.db
      .selectFrom('email_verifications as v')
      .innerJoin('users as u', 'u.id', 'v.user_id')
      .select('v.attempts')
      .where('u.email', '=', email)
      .executeTakeFirstOrThrow();
    expect(row.attempts).toBe(1);
  });

  it.each([
    ['five digits', '12345'],
    ['seven digits', '1234567'],
    ['letters', 'abcdef'],
    ['a number', 123456],
  ])('refuses an OTP of %s: it is exactly 6 digits', async (_, otp) => {
    const { email } = await register();
    const response = await post('/api/register/verify', { email, otp });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe(400);
    expect(response.json().msg).toBe('The OTP is exactly 6 digits.');
    const row = await api.database.db
      .selectFrom('email_verifications as v')
      .innerJoin('users as u', 'u.id', 'v.user_id')
      .select('v.attempts')
      .where('u.email', '=', email)
      .executeTakeFirstOrThrow();
    expect(row.attempts).toBe(0);
  });

  it('refuses an expired code, and a new code works', async () => {
    const { email } = await register();
    const user = await userOf(email);
    const code = await codeFromMail(email);
    await api.database.db
      .updateTable('email_verifications')
      .set({ expires_at: sql<Date>`now() - interval '1 second'` })
      .where('user_id', '=', user.id)
      .execute();
    const expired = await post('/api/register/verify', { email, otp: code });
    expect(expired.statusCode).toBe(400);
    expect(expired.json()).toEqual({ code: 431, msg: 'The code has expired. Please ask for a new one.' });

    await aMinuteLater(user.id);
    const resent = await post('/api/register/resend', { email });
    expect(resent.statusCode, resent.body).toBe(200);
    const fresh = await codeFromMail(email);
    expect((await post('/api/register/verify', { email, otp: fresh })).statusCode).toBe(200);
  });

  it(`kills the code after ${OTP_MAX_ATTEMPTS} wrong tries, even for the right code; a new code revives it`, async () => {
    const { email } = await register();
    const user = await userOf(email);
    const code = await codeFromMail(email);
    for (let attempt = 1; attempt < OTP_MAX_ATTEMPTS; attempt++) {
      const wrong = await post('/api/register/verify', { email, otp: otherThan(code) });
      expect(wrong.json().code, `attempt ${attempt}`).toBe(430);
    }
    const last = await post('/api/register/verify', { email, otp: otherThan(code) });
    expect(last.statusCode).toBe(400);
    expect(last.json()).toEqual({ code: 432, msg: 'Too many wrong codes. Please ask for a new code.' });
    const right = await post('/api/register/verify', { email, otp: code });
    expect(right.json().code).toBe(432);
    expect((await userOf(email)).status).toBe('pending');

    await aMinuteLater(user.id);
    expect((await post('/api/register/resend', { email })).statusCode).toBe(200);
    const fresh = await codeFromMail(email);
    // The old code stopped working when the new one was sent (and its tries were forgotten).
    expect(fresh).not.toBe(code);
    expect((await post('/api/register/verify', { email, otp: code })).json().code).toBe(430);
    expect((await post('/api/register/verify', { email, otp: fresh })).statusCode).toBe(200);
    expect((await userOf(email)).status).toBe('active');
  });

  it('sends a new code at most once a minute, and says when to retry', async () => {
    const { email } = await register();
    const before = (await mails(email)).length;
    const tooSoon = await post('/api/register/resend', { email });
    expect(tooSoon.statusCode).toBe(429);
    const answer = tooSoon.json();
    expect(answer.code).toBe(429);
    const seconds = Number(/wait (\d+) seconds?/.exec(answer.msg)?.[1]);
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(60);
    expect(tooSoon.headers['retry-after']).toBe(String(seconds));
    expect((await mails(email)).length).toBe(before);
  });

  it('sends at most five codes an hour, then says how many minutes to wait; an hour later it sends again', async () => {
    const { email } = await register();
    const user = await userOf(email);
    for (let send = 2; send <= 5; send++) {
      await aMinuteLater(user.id);
      const resent = await post('/api/register/resend', { email });
      expect(resent.statusCode, `send ${send}: ${resent.body}`).toBe(200);
    }
    expect(await mails(email)).toHaveLength(5);
    await aMinuteLater(user.id);
    const refused = await post('/api/register/resend', { email });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().msg).toMatch(
      /^Too many codes were sent in the last hour\. Please try again in \d+ minutes?\.$/,
    );
    expect(await mails(email)).toHaveLength(5);

    await api.database.db
      .updateTable('email_verifications')
      .set({ first_sent_at: sql<Date>`now() - interval '61 minutes'` })
      .where('user_id', '=', user.id)
      .execute();
    expect((await post('/api/register/resend', { email })).statusCode).toBe(200);
    expect(await mails(email)).toHaveLength(6);
    const row = await api.database.db
      .selectFrom('email_verifications')
      .select('sends')
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row.sends).toBe(1);
  });

  it('answers a resend for an unknown or verified e-mail like any other, and mails nothing', async () => {
    const pending = await register();
    const user = await userOf(pending.email);
    await aMinuteLater(user.id);
    const real = await post('/api/register/resend', { email: pending.email });
    expect(real.statusCode).toBe(200);

    const nobody = `nobody-${unique()}@shop.test`;
    const unknown = await post('/api/register/resend', { email: nobody });
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json()).toEqual({
      code: 0,
      msg: `If ${nobody} is waiting for verification, a new 6-digit code is on its way.`,
      data: { email: nobody, expires_in: OTP_TTL_SECONDS },
    });
    expect(await mails(nobody)).toEqual([]);

    const verified = await register();
    await post('/api/register/verify', { email: verified.email, otp: await codeFromMail(verified.email) });
    const sentBefore = (await mails(verified.email)).length;
    const done = await post('/api/register/resend', { email: verified.email });
    expect(done.statusCode).toBe(200);
    expect(done.json().code).toBe(0);
    expect(await mails(verified.email)).toHaveLength(sentBefore);

    const malformed = await post('/api/register/resend', { email: 'not-an-email' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().msg).toBe('Please enter a valid e-mail address.');
    const extra = await post('/api/register/resend', { email: nobody, otp: '123456' });
    expect(extra.statusCode).toBe(400);
  });

  it('answers in Chinese and mails the code in Chinese for a zh-cn request', async () => {
    const refused = await post(
      '/api/register',
      form({ password: 'short1', confirm_password: 'short1' }),
      'zh-cn',
    );
    expect(refused.statusCode).toBe(400);
    expect(refused.json().msg).toBe('密码必须多于 8 个字符。');
    const terms = await post('/api/register', form({ agree_terms: false }), 'zh-cn');
    expect(terms.json().msg).toBe('您必须同意条款与条件。');

    const body = await register({}, 'zh-cn');
    const user = await userOf(body.email);
    expect(user.language).toBe('zh-cn');
    const [mail] = await mails(body.email);
    expect(mail!.subject).toMatch(/^您的 Kedai 验证码：\d{6}$/);
    expect(mail!.body).toContain('感谢您注册 Kedai');

    const wrong = await post(
      '/api/register/verify',
      { email: body.email, otp: otherThan(await codeFromMail(body.email)) },
      'zh-cn',
    );
    expect(wrong.json()).toEqual({ code: 430, msg: '验证码错误。请查看邮件后重试。' });
    const thai = await post('/api/register/resend', { email: body.email }, 'th-th');
    expect(thai.json().msg).toMatch(/^กรุณารอ \d+ วินาทีก่อนขอรหัสใหม่$/);
  });

  it(`takes at most ${SIGNUPS_PER_ADDRESS_PER_HOUR} sign-ups an hour from one address, and only from that address`, async () => {
    const busy = '203.0.113.7';
    await api.database.db
      .insertInto('sign_in_failures')
      .values(
        Array.from({ length: SIGNUPS_PER_ADDRESS_PER_HOUR }, () => ({ scope: 'signup' as const, key: busy })),
      )
      .execute();
    const before = await counts();
    const refused = await api.app.inject({
      method: 'POST',
      url: '/api/register',
      payload: form(),
      remoteAddress: busy,
    });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().msg).toMatch(/Too many sign-ups/);
    expect(await counts()).toEqual(before);
    const elsewhere = await api.app.inject({
      method: 'POST',
      url: '/api/register',
      payload: form(),
      remoteAddress: '198.51.100.20',
    });
    expect(elsewhere.statusCode).toBe(200);
  });

  it('documents the registration calls in OpenAPI', async () => {
    const doc = (await api.app.inject({ method: 'GET', url: '/docs/json' })).json();
    for (const path of ['/api/register', '/api/register/verify', '/api/register/resend']) {
      expect(doc.paths[path]?.post?.tags, path).toEqual(['registration']);
    }
    const schema = doc.paths['/api/register'].post.requestBody.content['application/json'].schema;
    expect(schema.additionalProperties).toBe(false);
    expect(Object.keys(schema.properties).sort()).toEqual(
      (
        [
          'first_name',
          'last_name',
          'phone',
          'email',
          'country',
          'password',
          'confirm_password',
          'promo_code',
          'agree_terms',
          'store_name',
          'average_orders',
          'warehouse_size',
          'accounting_system',
          'found_us',
          'looking_for',
        ] satisfies (keyof RegisterRequest)[]
      ).sort(),
    );
  });
});
