import { randomUUID } from 'node:crypto';
import { ensurePackages } from '@commands/accounts/seed';
import { ChannelError, channelFor } from '@integrations/channel';
import type { ShopeeSandbox } from '@integrations/shopee';
import { findStore, type Store, type StoreSettings, StoreTokenStore } from '@integrations/stores';
import { startStoreSandbox } from '@tests/api/stores-support';
import { createTestDatabase, type TestDatabase } from '@tests/support/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * `channelFor(db, store)`: the store's platform picks the adapter, which acts with the store's own tokens from
 * `store_tokens` (refreshed and saved there when Shopee refuses the access token); the order calls of the port
 * read the shop's orders in Kedai's words.
 */
describe('the channel of a connected store', () => {
  let database: TestDatabase;
  let sandbox: ShopeeSandbox;
  let settings: StoreSettings;
  let restore: () => void;
  let store: Store;
  const tenantId = `channel-${randomUUID()}`;

  beforeAll(async () => {
    ({ sandbox, settings, restore } = await startStoreSandbox());
    database = await createTestDatabase();
    await ensurePackages(database.db);
    await database.db
      .insertInto('tenants')
      .values({ id: tenantId, name: 'Channel', country: 'MY', package_id: 'growth', status: 'active' })
      .execute();
    const shopId = sandbox.shops[0]!.shopId;
    const storeId = randomUUID();
    await database.db
      .insertInto('stores')
      .values({
        id: storeId,
        tenant_id: tenantId,
        platform: 'shopee',
        name: 'Kedai Demo Store',
        shop_id: shopId,
        region: 'MY',
        status: 'connected',
        connected_at: new Date(),
      })
      .execute();
    await new StoreTokenStore(database.db, { tenantId, storeId, shopId }).save(
      shopId,
      sandbox.issueTokens(settings.shopee.partnerId, shopId),
    );
    store = (await findStore(database.db, tenantId, storeId))!;
  });
  afterAll(async () => {
    await database?.drop();
    await sandbox?.stop();
    restore?.();
  });

  it("is the Shopee adapter, with the store's tokens, refreshed into the store when refused", async () => {
    const channel = channelFor(database.db, store);
    expect(channel.platform).toBe('shopee');
    expect(channel.maxModelsPerCall).toBe(50);
    const { items } = await channel.listItems();
    expect(items.length).toBeGreaterThan(0);

    const tokens = new StoreTokenStore(database.db, { tenantId, storeId: store.id, shopId: store.shopId });
    const before = await tokens.load(store.shopId);
    sandbox.failNext({ kind: 'expired', path: '/api/v2/product/get_item_list' });
    await channel.listItems();
    const after = await tokens.load(store.shopId);
    expect(after!.accessToken).not.toBe(before!.accessToken);
  });

  it('reads orders by number and by window, in Kedai words', async () => {
    const channel = channelFor(database.db, store);
    const made = sandbox.generateOrders(3);
    const numbers = made.map((order) => order.order_sn);
    const orders = await channel.getOrders(numbers);
    expect(orders.map((order) => order.orderNumber).sort()).toEqual([...numbers].sort());
    expect(orders[0]).toMatchObject({ platform: 'shopee', currency: 'MYR' });

    const now = Math.ceil(Date.now() / 1000);
    // A window longer than Shopee's 15 days is read slice by slice.
    const listed: string[] = [];
    let page: string | undefined;
    let pages = 0;
    do {
      const answer = await channel.listOrders({ from: now - 40 * 86_400, until: now + 60 }, page);
      listed.push(...answer.items.map((order) => order.orderNumber));
      page = answer.next;
      pages++;
    } while (page);
    expect(pages).toBe(3);
    expect(listed.sort()).toEqual([...numbers].sort());
  });

  it('refuses a platform it has no adapter for', () => {
    const other = { ...store, platform: 'lazada' } as unknown as Store;
    expect(() => channelFor(database.db, other)).toThrow(ChannelError);
  });
});
