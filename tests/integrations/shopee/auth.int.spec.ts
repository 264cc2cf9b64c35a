import { ShopeeAuthError, type ShopeeTokens } from '@integrations/shopee';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, formOf, MemoryTokens, PARTNER, startTestSandbox, type TestSandbox } from './support';

const REDIRECT = 'https://kedai.example/settings/store/add/shopee/create?state=abc';

describe('connecting a shop: authorisation link → page → redirect with code → tokens → refresh', () => {
  let test: TestSandbox;

  beforeAll(async () => {
    test = await startTestSandbox({ shops: [{ name: 'Kedai Demo Store' }, { name: 'Kedai Outlet' }] });
  });
  afterAll(async () => {
    await test?.sandbox.stop();
  });

  it('takes a seller from the link to tokens, and keeps the shop connected through refreshes', async () => {
    const tokens = new MemoryTokens();
    const client = clientFor(test, tokens);
    const outlet = test.sandbox.shops.find((shop) => shop.name === 'Kedai Outlet')!;

    // The link opens the sandbox's authorisation page, one card per shop.
    const page = await fetch(client.authorizationUrl(REDIRECT));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    expect(html).toContain('Authorize Kedai Demo Store for Kedai Test');
    expect(html).toContain('Authorize Kedai Outlet for Kedai Test');

    // Pressing Authorize on the outlet redirects to our callback with code and shop_id.
    const { action, fields } = formOf(html, 'Kedai Outlet');
    const pressed = await fetch(new URL(action, test.sandbox.url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: fields.toString(),
      redirect: 'manual',
    });
    expect(pressed.status).toBe(302);
    const callback = new URL(pressed.headers.get('location')!);
    expect(callback.origin + callback.pathname).toBe(
      'https://kedai.example/settings/store/add/shopee/create',
    );
    expect(callback.searchParams.get('state')).toBe('abc');
    const code = callback.searchParams.get('code')!;
    const shopId = Number(callback.searchParams.get('shop_id'));
    expect(code).toMatch(/^[0-9a-f]{32}$/);
    expect(shopId).toBe(outlet.shopId);
    expect(test.sandbox.shops.find((shop) => shop.shopId === shopId)!.authorizedPartners).toEqual([
      PARTNER.partnerId,
    ]);

    // The code buys the first pair, once.
    const first = await client.getAccessToken({ code, shopId });
    expect(first).toEqual({
      accessToken: expect.stringMatching(/^[0-9a-f]{32}$/),
      refreshToken: expect.stringMatching(/^[0-9a-f]{32}$/),
      expiresAt: test.clock.now() + 4 * 3600_000,
    });
    const reused = await client.getAccessToken({ code, shopId }).catch((error: unknown) => error);
    expect(reused).toBeInstanceOf(ShopeeAuthError);
    expect(reused).toMatchObject({ code: 'error_auth', reauthorize: true });
    await tokens.save(shopId, first);

    const info = await client.getShopInfo(shopId);
    expect(info).toMatchObject({ shop_name: 'Kedai Outlet', region: 'MY', status: 'NORMAL', is_cb: false });
    expect(info.auth_time).toBe(Math.floor(test.clock.now() / 1000));

    // A refresh rotates both tokens; the spent refresh token is refused; the old access token lives 5 more minutes.
    test.clock.advance(60 * 60_000);
    const second = await client.refreshAccessToken({ shopId, refreshToken: first.refreshToken });
    expect(second.accessToken).not.toBe(first.accessToken);
    expect(second.refreshToken).not.toBe(first.refreshToken);
    expect(second.expiresAt).toBe(test.clock.now() + 4 * 3600_000);
    const spent = await client
      .refreshAccessToken({ shopId, refreshToken: first.refreshToken })
      .catch((e: unknown) => e);
    expect(spent).toBeInstanceOf(ShopeeAuthError);
    expect(spent).toMatchObject({
      code: 'error_auth',
      message: expect.stringContaining('Invalid refresh_token'),
      reauthorize: true,
    });

    const oldTokens = new MemoryTokens();
    oldTokens.put(shopId, { ...first, expiresAt: Number.MAX_SAFE_INTEGER });
    const withOld = clientFor(test, oldTokens);
    await expect(withOld.getShopInfo(shopId)).resolves.toMatchObject({ shop_name: 'Kedai Outlet' });
    test.clock.advance(5 * 60_000 + 1000);
    // Rejected now; the client refreshes with the spent refresh token, which is refused: authorise again.
    const gone = await withOld.getShopInfo(shopId).catch((error: unknown) => error);
    expect(gone).toBeInstanceOf(ShopeeAuthError);
    expect(gone).toMatchObject({ reauthorize: true });

    // The current pair keeps working, and refreshes again.
    await tokens.save(shopId, second);
    await expect(client.getShopInfo(shopId)).resolves.toMatchObject({ shop_name: 'Kedai Outlet' });
    const third = await client.refreshAccessToken({ shopId, refreshToken: second.refreshToken });
    expect(new Set([first.refreshToken, second.refreshToken, third.refreshToken]).size).toBe(3);
  });

  it('an access token lives 4 hours and a refresh token 30 days on the sandbox clock', async () => {
    const issued = test.sandbox.issueTokens(PARTNER.partnerId, test.shopId);
    const tokens = new MemoryTokens();
    tokens.put(test.shopId, { ...issued, expiresAt: Number.MAX_SAFE_INTEGER });
    const client = clientFor(test, tokens);
    test.clock.advance(4 * 3600_000 - 1000);
    await expect(client.getShopInfo(test.shopId)).resolves.toBeDefined();
    expect(tokens.saved).toHaveLength(0);
    test.clock.advance(2000);
    // Expired: the client refreshes once (the refresh token is still good) and the call goes through.
    await expect(client.getShopInfo(test.shopId)).resolves.toBeDefined();
    expect(tokens.saved).toHaveLength(1);

    const late = test.sandbox.issueTokens(PARTNER.partnerId, test.shopId);
    test.clock.advance(30 * 24 * 3600_000 + 1000);
    const refused = await client
      .refreshAccessToken({ shopId: test.shopId, refreshToken: late.refreshToken })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ShopeeAuthError);
  });

  it('the page refuses a stale or tampered link, and a form that was not served by it', async () => {
    const client = clientFor(test);
    const link = new URL(client.authorizationUrl(REDIRECT));
    const tampered = new URL(link);
    tampered.searchParams.set('partner_id', String(PARTNER.partnerId + 1));
    expect(((await (await fetch(tampered)).json()) as { message: string }).message).toBe(
      'Invalid partner_id.',
    );
    const resigned = new URL(link);
    resigned.searchParams.set('sign', '0'.repeat(64));
    expect(await (await fetch(resigned)).json()).toMatchObject({
      error: 'error_sign',
      message: 'Wrong sign.',
    });
    test.clock.advance(5 * 60_000 + 1000);
    expect(await (await fetch(link)).json()).toMatchObject({ message: 'Invalid timestamp.' });

    const forged = new URLSearchParams({
      partner_id: String(PARTNER.partnerId),
      shop_id: String(test.shopId),
      redirect: REDIRECT,
      expires: String(test.clock.now() + 60_000),
      grant: 'f'.repeat(64),
    });
    const refused = await fetch(`${test.sandbox.url}/sandbox/authorize`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: forged.toString(),
      redirect: 'manual',
    });
    expect(refused.status).toBe(403);
  });

  it('a code is good for its shop and partner only, and for 10 minutes', async () => {
    const client = clientFor(test);
    const otherShop = test.sandbox.shops.find((shop) => shop.shopId !== test.shopId)!.shopId;
    const wrongShop = test.sandbox.authorize(PARTNER.partnerId, test.shopId);
    await expect(client.getAccessToken({ code: wrongShop, shopId: otherShop })).rejects.toBeInstanceOf(
      ShopeeAuthError,
    );
    const late = test.sandbox.authorize(PARTNER.partnerId, test.shopId);
    test.clock.advance(10 * 60_000 + 1000);
    await expect(client.getAccessToken({ code: late, shopId: test.shopId })).rejects.toMatchObject({
      message: expect.stringContaining('Invalid code'),
    });
    const fresh = test.sandbox.authorize(PARTNER.partnerId, test.shopId);
    const pair: ShopeeTokens = await client.getAccessToken({ code: fresh, shopId: test.shopId });
    expect(pair.accessToken).toHaveLength(32);
  });
});
