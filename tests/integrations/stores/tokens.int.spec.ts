import { randomBytes, randomUUID } from 'node:crypto';
import { ensurePackages } from '@commands/accounts/seed';
import {
  DEFAULT_IMPORT_RETRY,
  type StoreSettings,
  StoreTokenStore,
  setStoreSettings,
} from '@integrations/stores';
import { createTestDatabase, type TestDatabase } from '@tests/support/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * A store's Shopee tokens are sealed at rest (integrations/stores/token-seal.ts): the row holds no token in the
 * clear, the store reads its own back, a sealed token moved onto another store's row or read under another key
 * does not open (the store then has no tokens, and asks to be authorised again), and a row from before sealing is
 * read as it is and sealed when next saved.
 */
describe('store tokens at rest', () => {
  let database: TestDatabase;
  let previous: StoreSettings | undefined;
  const tenantId = `tokens-${randomUUID()}`;
  // A tenant has one store per shop: each store here is of a shop of its own.
  let shopId = 880_100;
  const settings = (tokenKey: Buffer): StoreSettings => ({
    shopee: { baseUrl: 'http://127.0.0.1:1', partnerId: 1, partnerKey: 'unused-partner-key' },
    stateSecret: randomBytes(32),
    tokenKey,
    importRetry: DEFAULT_IMPORT_RETRY,
  });
  const key = randomBytes(32);
  const tokens = {
    accessToken: 'access-7f3a9c2e41',
    refreshToken: 'refresh-5b8d0e6f12',
    expiresAt: 1_900_000_000_000,
  };

  async function store(): Promise<{ storeId: string; shop: number; tokens: StoreTokenStore }> {
    const storeId = randomUUID();
    shopId += 1;
    await database.db
      .insertInto('stores')
      .values({
        id: storeId,
        tenant_id: tenantId,
        platform: 'shopee',
        name: 'Sealed shop',
        shop_id: shopId,
        region: 'MY',
        status: 'connected',
        connected_at: new Date(),
      })
      .execute();
    return { storeId, shop: shopId, tokens: new StoreTokenStore(database.db, { tenantId, storeId, shopId }) };
  }
  const row = (storeId: string) =>
    database.db
      .selectFrom('store_tokens')
      .select(['access_token', 'refresh_token'])
      .where('store_id', '=', storeId)
      .executeTakeFirstOrThrow();

  beforeAll(async () => {
    database = await createTestDatabase();
    await ensurePackages(database.db);
    await database.db
      .insertInto('tenants')
      .values({ id: tenantId, name: 'Tokens', country: 'MY', package_id: 'growth', status: 'active' })
      .execute();
    previous = setStoreSettings(settings(key));
  });
  afterAll(async () => {
    if (previous) setStoreSettings(previous);
    await database?.drop();
  });

  it('keeps no token in the clear, and reads its own back', async () => {
    const { storeId, shop, tokens: held } = await store();
    await held.save(shop, tokens);
    const stored = await row(storeId);
    for (const value of Object.values(stored)) expect(value).toMatch(/^v1\./);
    expect(JSON.stringify(stored)).not.toContain('access-7f3a9c2e41');
    expect(JSON.stringify(stored)).not.toContain('refresh-5b8d0e6f12');
    // Each sealing is fresh: the same token twice is two different texts.
    await held.save(shop, tokens);
    expect((await row(storeId)).access_token).not.toBe(stored.access_token);
    expect(await held.load(shop)).toEqual(tokens);
  });

  it('does not open a token moved onto another store, or under another key', async () => {
    const first = await store();
    const second = await store();
    await first.tokens.save(first.shop, tokens);
    await second.tokens.save(second.shop, {
      ...tokens,
      accessToken: 'other-access',
      refreshToken: 'other-refresh',
    });
    const moved = await row(first.storeId);
    await database.db
      .updateTable('store_tokens')
      .set({ access_token: moved.access_token, refresh_token: moved.refresh_token })
      .where('store_id', '=', second.storeId)
      .execute();
    expect(await second.tokens.load(second.shop)).toBeUndefined();

    setStoreSettings(settings(randomBytes(32)));
    try {
      expect(await first.tokens.load(first.shop)).toBeUndefined();
    } finally {
      setStoreSettings(settings(key));
    }
    expect(await first.tokens.load(first.shop)).toEqual(tokens);
  });

  it('reads a row saved before tokens were sealed, and seals it at the next save', async () => {
    const { storeId, shop, tokens: held } = await store();
    await database.db
      .insertInto('store_tokens')
      .values({
        store_id: storeId,
        tenant_id: tenantId,
        access_token: tokens.accessToken,
        refresh_token: tokens.refreshToken,
        expires_at: new Date(tokens.expiresAt),
      })
      .execute();
    expect(await held.load(shop)).toEqual(tokens);
    await held.save(shop, tokens);
    expect((await row(storeId)).access_token).toMatch(/^v1\./);
    expect(await held.load(shop)).toEqual(tokens);
  });
});
