import {
  ShopeeAuthError,
  ShopeeClient,
  ShopeeNetworkError,
  ShopeeRateLimitError,
  ShopeeServerError,
  ShopeeSignatureError,
  ShopeeTimeoutError,
} from '@integrations/shopee';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  clientFor,
  connectedClient,
  MemoryTokens,
  PARTNER,
  START,
  startTestSandbox,
  type TestSandbox,
} from './support';

const window = {
  time_range_field: 'create_time' as const,
  time_from: START / 1000 - 3600,
  time_to: START / 1000 + 3600,
  page_size: 20,
};

const refreshCalls = (test: TestSandbox) =>
  test.sandbox.requests.filter((request) => request.path === '/api/v2/auth/access_token/get').length;

describe('failures the client meets, and what it does about them', () => {
  let test: TestSandbox;

  beforeAll(async () => {
    test = await startTestSandbox({ timeoutHoldMs: 5_000 });
    test.sandbox.generateOrders(5);
  });
  afterAll(async () => {
    await test?.sandbox.stop();
  });

  it('a 5xx is a retryable ShopeeServerError, and the next call goes through', async () => {
    const { client } = connectedClient(test);
    test.sandbox.failNext({ kind: '5xx' });
    const failed = await client.getOrderList(test.shopId, window).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(ShopeeServerError);
    expect(failed).toMatchObject({
      code: 'error_server',
      status: 500,
      retryable: true,
      requestId: expect.any(String),
    });
    await expect(client.getOrderList(test.shopId, window)).resolves.toMatchObject({ more: false });
  });

  it('no answer within the timeout is a ShopeeTimeoutError', async () => {
    const { client } = connectedClient(test, { timeoutMs: 200 });
    test.sandbox.failNext({ kind: 'timeout', path: '/api/v2/order/get_order_list' });
    const failed = await client.getOrderList(test.shopId, window).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(ShopeeTimeoutError);
    expect(failed).toMatchObject({ code: 'timeout', retryable: true, path: '/api/v2/order/get_order_list' });
    await expect(client.getOrderList(test.shopId, window)).resolves.toBeDefined();
  });

  it('a refused signature is a ShopeeSignatureError, not retried by the client', async () => {
    const { client } = connectedClient(test);
    const before = test.sandbox.requests.length;
    test.sandbox.failNext({ kind: 'signature' });
    await expect(client.getOrderList(test.shopId, window)).rejects.toBeInstanceOf(ShopeeSignatureError);
    expect(test.sandbox.requests.length).toBe(before + 1);
  });

  it('a rate limit is a ShopeeRateLimitError', async () => {
    const { client } = connectedClient(test);
    test.sandbox.failNext({ kind: 'rate_limit' });
    const failed = await client.getOrderList(test.shopId, window).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(ShopeeRateLimitError);
    expect(failed).toMatchObject({ status: 429, code: 'error_too_many_request', retryable: true });
  });

  it('an expired access token: the client refreshes once, saves the new pair, and the call succeeds', async () => {
    const { client, tokens } = connectedClient(test);
    const old = (await tokens.load(test.shopId))!;
    const refreshesBefore = refreshCalls(test);
    test.sandbox.failNext({ kind: 'expired' });
    const page = await client.getOrderList(test.shopId, window);
    expect(page.order_list.length).toBe(5);
    expect(refreshCalls(test)).toBe(refreshesBefore + 1);
    expect(tokens.saved).toHaveLength(1);
    expect(tokens.saved[0]!.refreshToken).not.toBe(old.refreshToken);
    const listCalls = test.sandbox.requests
      .filter((r) => r.path === '/api/v2/order/get_order_list')
      .slice(-2);
    expect(listCalls.map((call) => call.error)).toEqual(['invalid_acceess_token', '']);

    // Rejected again after the refresh: no second refresh, the error goes to the caller.
    test.sandbox.failNext({ kind: 'expired', times: 2 });
    const failed = await client.getOrderList(test.shopId, window).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(ShopeeAuthError);
    expect(failed).toMatchObject({ code: 'invalid_acceess_token' });
    expect(refreshCalls(test)).toBe(refreshesBefore + 2);
    expect(tokens.saved).toHaveLength(2);
  });

  it('refreshes ahead of expiry on the sandbox clock, once for many calls side by side', async () => {
    const { client, tokens } = connectedClient(test);
    test.clock.advance(4 * 3600_000 - 30_000);
    const refreshesBefore = refreshCalls(test);
    const pages = await Promise.all(
      Array.from({ length: 8 }, () => client.getOrderList(test.shopId, window)),
    );
    expect(pages).toHaveLength(8);
    expect(refreshCalls(test)).toBe(refreshesBefore + 1);
    expect(tokens.saved).toHaveLength(1);
    expect(tokens.saved[0]!.expiresAt).toBe(test.clock.now() + 4 * 3600_000);
  });

  it('calls side by side, all rejected: one refresh, every call goes through', async () => {
    const { client, tokens } = connectedClient(test);
    await tokens.save(test.shopId, {
      ...(await tokens.load(test.shopId))!,
      expiresAt: Number.MAX_SAFE_INTEGER,
    });
    const refreshesBefore = refreshCalls(test);
    test.sandbox.failNext({ kind: 'expired', times: 4 });
    const pages = await Promise.all(
      Array.from({ length: 4 }, () => client.getOrderList(test.shopId, window)),
    );
    expect(pages.every((page) => page.order_list.length === 5)).toBe(true);
    expect(refreshCalls(test)).toBe(refreshesBefore + 1);
  });

  it('clients sharing a store with a lock: one refresh between them', async () => {
    let chain: Promise<unknown> = Promise.resolve();
    class LockedTokens extends MemoryTokens {
      lock<T>(_shopId: number, run: () => Promise<T>): Promise<T> {
        const result = chain.then(run);
        chain = result.catch(() => {});
        return result;
      }
    }
    const tokens = new LockedTokens();
    tokens.put(test.shopId, {
      ...test.sandbox.issueTokens(PARTNER.partnerId, test.shopId),
      expiresAt: Number.MAX_SAFE_INTEGER,
    });
    const clients = [clientFor(test, tokens), clientFor(test, tokens), clientFor(test, tokens)];
    const refreshesBefore = refreshCalls(test);
    test.sandbox.failNext({ kind: 'expired', times: 3 });
    await Promise.all(clients.map((client) => client.getOrderList(test.shopId, window)));
    expect(refreshCalls(test)).toBe(refreshesBefore + 1);
    expect(tokens.saved).toHaveLength(1);
  });

  it('a burst of calls reads the stored pair once; one replaced elsewhere is read again when refused', async () => {
    class CountedTokens extends MemoryTokens {
      loads = 0;
      override async load(shopId: number) {
        this.loads++;
        return super.load(shopId);
      }
    }
    const tokens = new CountedTokens();
    tokens.put(test.shopId, {
      ...test.sandbox.issueTokens(PARTNER.partnerId, test.shopId),
      expiresAt: Number.MAX_SAFE_INTEGER,
    });
    const client = clientFor(test, tokens);
    await client.getOrderList(test.shopId, window);
    await Promise.all(Array.from({ length: 6 }, () => client.getOrderList(test.shopId, window)));
    expect(tokens.loads).toBe(1);

    // Another process refreshed the shop: the held pair is refused, the stored one is read and used, no refresh.
    tokens.put(test.shopId, {
      ...test.sandbox.issueTokens(PARTNER.partnerId, test.shopId),
      expiresAt: Number.MAX_SAFE_INTEGER,
    });
    const refreshesBefore = refreshCalls(test);
    test.sandbox.failNext({ kind: 'expired' });
    await expect(client.getOrderList(test.shopId, window)).resolves.toMatchObject({
      order_list: expect.any(Array),
    });
    expect(refreshCalls(test)).toBe(refreshesBefore);
    expect(tokens.loads).toBe(2);
    expect(tokens.saved).toHaveLength(0);
  });

  it('a shop without tokens, or with a refused refresh token, needs authorising again', async () => {
    const none = clientFor(test, new MemoryTokens());
    await expect(none.getOrderList(test.shopId, window)).rejects.toMatchObject({
      name: 'ShopeeAuthError',
      code: 'not_authorized',
      reauthorize: true,
    });

    const tokens = new MemoryTokens();
    tokens.put(test.shopId, {
      accessToken: 'a'.repeat(32),
      refreshToken: 'b'.repeat(32),
      expiresAt: Number.MAX_SAFE_INTEGER,
    });
    const failed = await clientFor(test, tokens)
      .getOrderList(test.shopId, window)
      .catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(ShopeeAuthError);
    expect(failed).toMatchObject({ code: 'error_auth', reauthorize: true });
    expect(tokens.saved).toHaveLength(0);
  });

  it('the sandbox’s own rate limit answers 429 with Retry-After', async () => {
    const limited = await startTestSandbox({ rateLimitPerMinute: 3 });
    try {
      const { client } = connectedClient(limited);
      for (let i = 0; i < 3; i++) await client.getShopInfo(limited.shopId);
      const failed = await client.getShopInfo(limited.shopId).catch((error: unknown) => error);
      expect(failed).toBeInstanceOf(ShopeeRateLimitError);
      expect((failed as ShopeeRateLimitError).retryAfterSeconds).toBe(60);
      limited.clock.advance(60_000);
      await expect(client.getShopInfo(limited.shopId)).resolves.toBeDefined();
    } finally {
      await limited.sandbox.stop();
    }
  });

  it('a platform that cannot be reached is a ShopeeNetworkError', async () => {
    const gone = await startTestSandbox();
    const { client } = connectedClient(gone);
    await gone.sandbox.stop();
    const failed = await client.getShopInfo(gone.shopId).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(ShopeeNetworkError);
    expect(failed).toMatchObject({ code: 'network', retryable: true });
  });

  it('a public call needs no token store; a shop call without one is a programming error', async () => {
    const bare = new ShopeeClient({ baseUrl: test.sandbox.url, ...PARTNER, now: test.clock.now });
    const code = test.sandbox.authorize(PARTNER.partnerId, test.shopId);
    await expect(bare.getAccessToken({ code, shopId: test.shopId })).resolves.toMatchObject({
      accessToken: expect.any(String),
    });
    await expect(bare.getShopInfo(test.shopId)).rejects.toBeInstanceOf(TypeError);
  });
});
