import { defaultSignInLimits, type SignInLimits } from '@commands/accounts/sign-in-limits';
import { createSeller, createTestApi, type TestApi, type TestSeller, tokenRequest } from '@tests/support/api';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Guessing passwords is throttled without locking the owner out (issue 13): per account and address with a growing
 * wait, one counter whichever login is used, an account ceiling that asks a new address for an e-mailed unlock link
 * while known addresses still sign in. The throttle reads a clock the tests move, so nothing waits real seconds.
 */

/** A clock the tests move forward instead of waiting. */
function movableClock() {
  let offsetMs = 0;
  return {
    now: () => new Date(Date.now() + offsetMs),
    advance(seconds: number) {
      offsetMs += seconds * 1000;
    },
  };
}

const A = '203.0.113.10';
const B = '198.51.100.20';
const KNOWN = '192.0.2.30';

describe('sign-in throttle', () => {
  let api: TestApi;
  const clock = movableClock();
  const limits: SignInLimits = { ...defaultSignInLimits, accountCeiling: 8, now: clock.now };

  beforeAll(async () => {
    api = await createTestApi({ signInLimits: limits });
  });
  afterAll(async () => {
    await api?.close();
  });

  const attempt = (login: string, password: string, address: string, language?: string) =>
    api.app.inject({
      method: 'POST',
      url: '/oauth/token',
      payload: tokenRequest(login, password),
      remoteAddress: address,
      headers: language ? { language } : {},
    });

  const unlockMails = (email: string) =>
    api.database.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where(sql<string>`lower(recipient)`, '=', email.toLowerCase())
      .where('purpose', '=', 'sign-in-unlock')
      .orderBy('id')
      .execute();

  /** The token of the unlock link in the latest mail, read as the owner would. */
  const unlockToken = async (email: string) => {
    const body = (await unlockMails(email)).at(-1)?.body ?? '';
    const match = /http:\/\/kedai\.test\/#\/login\?unlock=([A-Za-z0-9_-]+)/.exec(body);
    expect(match, body).not.toBeNull();
    return match![1]!;
  };

  /** Wrong passwords from `address` until the account has `count` more failures, waiting out each delay. */
  const guess = async (login: string, address: string, count: number) => {
    for (let i = 0; i < count; i++) {
      let answer = await attempt(login, `wrong guess ${i}x`, address);
      if (answer.statusCode === 429) {
        clock.advance(Number(answer.headers['retry-after']));
        answer = await attempt(login, `wrong guess ${i}x`, address);
      }
      expect([400, 403]).toContain(answer.statusCode);
    }
  };

  it('makes one address wait longer after each failure past the third, never the owner at a clean address', async () => {
    const seller = await createSeller(api);
    for (let i = 0; i < 3; i++) {
      expect((await attempt(seller.email, `guess ${i}xx`, A)).statusCode).toBe(400);
    }
    const waits: number[] = [];
    for (let round = 0; round < 3; round++) {
      const held = await attempt(seller.email, seller.password, A);
      expect(held.statusCode).toBe(429);
      expect(held.json().error).toBe('too_many_attempts');
      const seconds = Number(held.headers['retry-after']);
      expect(held.json().error_description).toBe(
        `Too many failed sign-in attempts from here. Please wait ${seconds} seconds and try again.`,
      );
      waits.push(seconds);
      clock.advance(seconds - 1);
      expect((await attempt(seller.email, seller.password, A)).statusCode).toBe(429);
      clock.advance(1);
      expect((await attempt(seller.email, `guess again ${round}`, A)).statusCode).toBe(400);
    }
    expect(waits).toEqual([2, 4, 8]);
    const thai = await attempt(seller.email, seller.password, A, 'th-th');
    expect(thai.json().error_description).toContain('16');
    expect(thai.json().error_description).toMatch(/[\u0e00-\u0e7f]/);

    // Meanwhile the owner, elsewhere, signs in at once; the guesser's address still waits.
    expect((await attempt(seller.email, seller.password, B)).statusCode).toBe(200);
    expect((await attempt(seller.email, seller.password, A)).statusCode).toBe(429);
  });

  it('counts the e-mail and the username of one account together, and unknown logins alike', async () => {
    const seller = await createSeller(api);
    await api.database.db
      .updateTable('users')
      .set({ username: `owner${seller.userId.slice(0, 8)}` })
      .where('id', '=', seller.userId)
      .execute();
    const username = `OWNER${seller.userId.slice(0, 8)}`;
    expect((await attempt(seller.email, 'wrong one 1', A)).statusCode).toBe(400);
    expect((await attempt(username, 'wrong two 2', A)).statusCode).toBe(400);
    expect((await attempt(seller.email.toUpperCase(), 'wrong three 3', A)).statusCode).toBe(400);
    const byName = await attempt(username, seller.password, A);
    expect(byName.statusCode).toBe(429);
    expect(byName.headers['retry-after']).toBe('2');

    // An unknown login is throttled the same way, answered the same way.
    const unknown = `nobody-${seller.userId.slice(0, 8)}@shop.test`;
    for (let i = 0; i < 3; i++) {
      const refused = await attempt(unknown, `guess ${i}yy`, A);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error).toBe('invalid_grant');
    }
    const held = await attempt(unknown.toUpperCase(), 'guess 4yy', A);
    expect(held.statusCode).toBe(429);
    expect(held.headers['retry-after']).toBe('2');
  });

  describe('past the account ceiling', () => {
    let seller: TestSeller;

    beforeAll(async () => {
      seller = await createSeller(api);
      // The owner has signed in from KNOWN before.
      expect((await attempt(seller.email, seller.password, KNOWN)).statusCode).toBe(200);
    });

    it('lets the owner in from a known address, and a new one through the e-mailed unlock link', async () => {
      // A guess spread over many addresses, two tries each: none of them is ever delayed.
      for (let i = 0; i < limits.accountCeiling / 2; i++) await guess(seller.email, `10.0.0.${i + 1}`, 2);

      expect((await attempt(seller.email, seller.password, KNOWN)).statusCode).toBe(200);

      // A new address, wrong password or right, hears the same "check your e-mail"; only the right one mails.
      const wrong = await attempt(seller.email, 'not the password', '10.9.9.9');
      expect(wrong.statusCode).toBe(403);
      expect(await unlockMails(seller.email)).toHaveLength(0);
      const fromB = await attempt(seller.email, seller.password, B);
      expect(fromB.statusCode).toBe(403);
      expect(fromB.json()).toEqual(wrong.json());
      expect(fromB.json()).toEqual({
        error: 'unlock_required',
        error_description: expect.stringContaining('e-mailed a link'),
      });
      const [mail] = await unlockMails(seller.email);
      expect(mail!.subject).toBe('Unlock sign-in to Kedai');

      // An unknown login past its own ceiling answers the same: no way to tell known from unknown accounts.
      const ghost = `ghost-${seller.userId.slice(0, 8)}`;
      for (let i = 0; i < limits.accountCeiling / 2; i++) await guess(ghost, `10.1.0.${i + 1}`, 2);
      expect((await attempt(ghost, 'any password 1', B)).json()).toEqual(fromB.json());

      // The owner opens the link on the device at B, then signs in from there.
      const token = await unlockToken(seller.email);
      const opened = await api.app.inject({
        method: 'POST',
        url: '/api/sign-in/unlock',
        payload: { token },
        remoteAddress: B,
      });
      expect(opened.statusCode, opened.body).toBe(200);
      expect(opened.json().msg).toBe('Sign-in is unlocked for this device. Please sign in now.');
      expect((await attempt(seller.email, seller.password, B)).statusCode).toBe(200);
      // The unlock was for B: the guessers' addresses still need a link, and the link works once.
      expect((await attempt(seller.email, seller.password, '10.0.0.1')).statusCode).toBe(403);
      const again = await api.app.inject({
        method: 'POST',
        url: '/api/sign-in/unlock',
        payload: { token },
        remoteAddress: B,
      });
      expect(again.statusCode).toBe(400);
      expect(again.json().code).toBe(442);
    });

    it('lets the owner in past a single address that guessed past the ceiling', async () => {
      const victim = await createSeller(api);
      expect((await attempt(victim.email, victim.password, KNOWN)).statusCode).toBe(200);
      await guess(victim.email, A, limits.accountCeiling + 2);
      expect((await attempt(victim.email, victim.password, KNOWN)).statusCode).toBe(200);
      expect((await attempt(victim.email, victim.password, B)).statusCode).toBe(403);
      const token = await unlockToken(victim.email);
      expect(
        (
          await api.app.inject({
            method: 'POST',
            url: '/api/sign-in/unlock',
            payload: { token },
            remoteAddress: B,
          })
        ).statusCode,
      ).toBe(200);
      expect((await attempt(victim.email, victim.password, B)).statusCode).toBe(200);
    });

    it('mails at most one unlock link a minute, and refuses bad links with a growing wait', async () => {
      const owner = await createSeller(api);
      await guess(owner.email, A, limits.accountCeiling);
      expect((await attempt(owner.email, owner.password, B)).statusCode).toBe(403);
      expect((await attempt(owner.email, owner.password, B)).statusCode).toBe(403);
      expect(await unlockMails(owner.email)).toHaveLength(1);

      const bad = (address: string) =>
        api.app.inject({
          method: 'POST',
          url: '/api/sign-in/unlock',
          payload: { token: 'not-a-link' },
          remoteAddress: address,
        });
      for (let i = 0; i < 3; i++) expect((await bad('10.7.7.7')).json().code).toBe(440);
      const held = await bad('10.7.7.7');
      expect(held.statusCode).toBe(429);
      expect(held.json().msg).toMatch(/wait 2 seconds/);
      expect((await bad('10.7.7.8')).json().code).toBe(440);
    });
  });

  it('makes an address that tries bad reset links wait, per flow and per link, and lets another address in', async () => {
    const reset = (url: string, payload: object, address: string) =>
      api.app.inject({ method: 'POST', url, payload, remoteAddress: address });
    const password = (token: string) => ({
      token,
      password: 'new secret 12',
      confirm_password: 'new secret 12',
    });
    for (let i = 0; i < 3; i++) {
      expect((await reset('/api/password/reset', password(`bad-${i}`), A)).json().code).toBe(440);
    }
    const held = await reset('/api/password/reset', password('bad-3'), A);
    expect(held.statusCode).toBe(429);
    expect(held.json()).toEqual({
      code: 429,
      msg: 'Too many attempts with links that do not work. Please wait 2 seconds and try again.',
    });
    expect((await reset('/api/password/reset', password('bad-3'), B)).json().code).toBe(440);
    clock.advance(2);
    expect((await reset('/api/password/reset', password('bad-4'), A)).json().code).toBe(440);
    expect((await reset('/api/password/reset', password('bad-5'), A)).statusCode).toBe(429);

    // One link tried from many addresses is held too; so is the PIN reset from a guessing address.
    const pin = (token: string) => ({ token, pin: '123456', confirm_pin: '123456' });
    for (let i = 0; i < 3; i++) {
      expect((await reset('/api/pos-pin/reset', pin('same-link'), `10.5.0.${i + 1}`)).json().code).toBe(440);
    }
    expect((await reset('/api/pos-pin/reset', pin('same-link'), '10.5.0.9')).statusCode).toBe(429);
  });
});

describe('TRUST_PROXY decides which address counts', () => {
  const forwarded = (app: TestApi, login: string, password: string, client: string) =>
    app.app.inject({
      method: 'POST',
      url: '/oauth/token',
      payload: tokenRequest(login, password),
      remoteAddress: '127.0.0.1',
      headers: { 'x-forwarded-for': client },
    });

  it.each([
    ['trusted', ['127.0.0.1'], 200],
    ['not trusted', undefined, 429],
  ] as const)('X-Forwarded-For from the proxy, %s', async (_, trustProxy, secondClient) => {
    const api = await createTestApi(trustProxy ? { overrides: { trustProxy: [...trustProxy] } } : {});
    try {
      const seller = await createSeller(api);
      for (let i = 0; i < 3; i++) {
        expect((await forwarded(api, seller.email, `wrong ${i}zzz`, A)).statusCode).toBe(400);
      }
      expect((await forwarded(api, seller.email, seller.password, A)).statusCode).toBe(429);
      // Another client behind the same proxy: its own address only when the proxy is believed.
      expect((await forwarded(api, seller.email, seller.password, B)).statusCode).toBe(secondClient);
    } finally {
      await api.close();
    }
  });
});
