import { createHmac } from 'node:crypto';
import {
  ShopeeClient,
  ShopeeRequestError,
  ShopeeSignatureError,
  shopeeSign,
  signatureBaseString,
} from '@integrations/shopee';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectedClient, PARTNER, START, signedUrl, startTestSandbox, type TestSandbox } from './support';

const hmac = (key: string, base: string) => createHmac('sha256', key).update(base).digest('hex');

describe('Shopee request signing', () => {
  it('signs the documented base strings with HMAC-SHA256 of the partner key, in lower-case hex', () => {
    // The examples of Shopee's "API calls" guide.
    const shop = {
      partnerId: 2001887,
      path: '/api/v2/shop/get_shop_info',
      timestamp: 1655714431,
      accessToken: '59777174636562737266615546704c6d',
      shopId: 14701711,
    };
    expect(signatureBaseString(shop)).toBe(
      '2001887/api/v2/shop/get_shop_info165571443159777174636562737266615546704c6d14701711',
    );
    const key = 'test-partner-key';
    const sign = shopeeSign(key, shop);
    expect(sign).toBe(
      hmac(key, '2001887/api/v2/shop/get_shop_info165571443159777174636562737266615546704c6d14701711'),
    );
    expect(sign).toMatch(/^[0-9a-f]{64}$/);

    const publicCall = {
      partnerId: 2001887,
      path: '/api/v2/public/get_shops_by_partner',
      timestamp: 1655714431,
    };
    expect(signatureBaseString(publicCall)).toBe('2001887/api/v2/public/get_shops_by_partner1655714431');
    expect(shopeeSign(key, publicCall)).toBe(
      hmac(key, '2001887/api/v2/public/get_shops_by_partner1655714431'),
    );
    expect(() => signatureBaseString({ ...publicCall, accessToken: 'x' })).toThrow(TypeError);
  });

  it('builds the shop authorisation link: partner_id, timestamp, sign of partner_id + path + timestamp, redirect', () => {
    const client = new ShopeeClient({
      baseUrl: 'https://partner.shopeemobile.com/',
      partnerId: 10090,
      partnerKey: 'key',
      now: () => 1594897040_000,
    });
    const url = new URL(
      client.authorizationUrl('https://kedai.example/settings/store/add/shopee/create?x=1'),
    );
    expect(url.origin + url.pathname).toBe('https://partner.shopeemobile.com/api/v2/shop/auth_partner');
    expect(url.searchParams.get('partner_id')).toBe('10090');
    expect(url.searchParams.get('timestamp')).toBe('1594897040');
    expect(url.searchParams.get('sign')).toBe(hmac('key', '10090/api/v2/shop/auth_partner1594897040'));
    expect(url.searchParams.get('redirect')).toBe(
      'https://kedai.example/settings/store/add/shopee/create?x=1',
    );
  });
});

describe('the sandbox checks every signature', () => {
  let test: TestSandbox;
  let accessToken: string;
  const path = '/api/v2/order/get_order_list';
  const query = (url: URL) => {
    url.searchParams.set('time_range_field', 'create_time');
    url.searchParams.set('time_from', String(START / 1000 - 3600));
    url.searchParams.set('time_to', String(START / 1000));
    url.searchParams.set('page_size', '10');
    return url;
  };

  beforeAll(async () => {
    test = await startTestSandbox();
    accessToken = test.sandbox.issueTokens(PARTNER.partnerId, test.shopId).accessToken;
  });
  afterAll(async () => {
    await test?.sandbox.stop();
  });

  const call = async (url: URL) => {
    const response = await fetch(url);
    return { status: response.status, body: (await response.json()) as { error: string; message: string } };
  };
  const shopCall = (overrides: {
    key?: string;
    timestamp?: number;
    sign?: (key: string, base: string) => string;
  }) =>
    query(
      signedUrl(
        test.sandbox.url,
        path,
        {
          partnerId: PARTNER.partnerId,
          key: overrides.key ?? PARTNER.partnerKey,
          timestamp: overrides.timestamp ?? Math.floor(test.clock.now() / 1000),
          accessToken,
          shopId: test.shopId,
        },
        overrides.sign ?? hmac,
      ),
    );

  it('accepts a request signed by hand from the documented base string', async () => {
    const { status, body } = await call(shopCall({}));
    expect(status).toBe(200);
    expect(body.error).toBe('');
  });

  it('refuses a tampered sign with error_sign "Wrong sign."', async () => {
    const url = shopCall({});
    const sign = url.searchParams.get('sign')!;
    url.searchParams.set('sign', `${sign.slice(0, -1)}${sign.endsWith('0') ? '1' : '0'}`);
    expect(await call(url)).toEqual({
      status: 403,
      body: expect.objectContaining({ error: 'error_sign', message: 'Wrong sign.' }),
    });

    // Signed, then a signed parameter changed: the shop.
    const moved = shopCall({});
    moved.searchParams.set('shop_id', String(test.shopId + 1));
    expect((await call(moved)).body.error).toBe('error_sign');

    // Upper-case hex is not the documented form.
    const upper = shopCall({});
    upper.searchParams.set('sign', upper.searchParams.get('sign')!.toUpperCase());
    expect((await call(upper)).body.error).toBe('error_sign');
  });

  it('refuses a wrong partner key, through the client too', async () => {
    expect((await call(shopCall({ key: 'not-the-key' }))).body).toMatchObject({ error: 'error_sign' });
    const { client } = connectedClient(test, { partnerKey: 'not-the-key' });
    const refused = await client.getShopInfo(test.shopId).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ShopeeSignatureError);
    expect(refused).toMatchObject({ code: 'error_sign', status: 403, retryable: true });
  });

  it('refuses a timestamp outside the 5-minute window, either way', async () => {
    const now = Math.floor(test.clock.now() / 1000);
    expect((await call(shopCall({ timestamp: now - 300 }))).status).toBe(200);
    expect(await call(shopCall({ timestamp: now - 301 }))).toEqual({
      status: 403,
      body: expect.objectContaining({ error: 'error_param', message: 'Invalid timestamp.' }),
    });
    expect((await call(shopCall({ timestamp: now + 301 }))).body.message).toBe('Invalid timestamp.');

    // A client whose clock is six minutes behind the platform's.
    const { client } = connectedClient(test, { now: () => test.clock.now() - 6 * 60_000 });
    await expect(client.getShopInfo(test.shopId)).rejects.toBeInstanceOf(ShopeeSignatureError);
  });

  it('refuses an unknown partner and a missing sign', async () => {
    const unknown = shopCall({});
    unknown.searchParams.set('partner_id', '999');
    expect((await call(unknown)).body.message).toBe('Invalid partner_id.');
    const unsigned = shopCall({});
    unsigned.searchParams.delete('sign');
    expect((await call(unsigned)).body.error).toBe('error_sign');
  });

  it('signs public calls without token or shop: a shop-style sign is refused there', async () => {
    const tokenPath = '/api/v2/auth/token/get';
    const timestamp = Math.floor(test.clock.now() / 1000);
    const url = signedUrl(
      test.sandbox.url,
      tokenPath,
      { partnerId: PARTNER.partnerId, key: PARTNER.partnerKey, timestamp },
      hmac,
    );
    const wrong = new URL(url);
    wrong.searchParams.set(
      'sign',
      hmac(PARTNER.partnerKey, `${PARTNER.partnerId}${tokenPath}${timestamp}${accessToken}${test.shopId}`),
    );
    const post = (target: URL) =>
      fetch(target, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ code: 'nope', shop_id: test.shopId, partner_id: PARTNER.partnerId }),
      }).then(async (response) => (await response.json()) as { error: string; message: string });
    expect(await post(wrong)).toMatchObject({ error: 'error_sign' });
    // Correctly signed, the sandbox gets as far as the code.
    expect(await post(url)).toMatchObject({ error: 'error_auth', message: 'Invalid code.' });
  });

  it('the client refuses what Shopee would, before sending', async () => {
    const { client } = connectedClient(test);
    const before = test.sandbox.requests.length;
    const refused = await client
      .getOrderList(test.shopId, {
        time_range_field: 'create_time',
        time_from: 0,
        time_to: 100,
        page_size: 101,
      })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ShopeeRequestError);
    expect(refused).toMatchObject({ code: 'error_param', requestId: undefined });
    expect(test.sandbox.requests.length).toBe(before);
  });
});
