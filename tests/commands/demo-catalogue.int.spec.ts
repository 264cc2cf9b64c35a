import { DEMO_TENANT_ID, ensureFirstStart } from '@commands/accounts/seed';
import { mapSellerSkus } from '@commands/orders/import';
import { DEFAULT_SKUS } from '@integrations/shopee';
import { createTestDatabase, type TestDatabase } from '@tests/support/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * A seller's first minutes (issue 14): the demo account's master codes are the sandbox shop's SKUs, so the orders
 * it sends find their items instead of all being "item not found".
 */

describe('the demo account at the first start', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.drop();
  });

  it("has a master code for every SKU the sandbox shop sells, found the way an order's lines are", async () => {
    const created = await ensureFirstStart(database.db);
    expect(created.demo?.tenantId).toBe(DEMO_TENANT_ID);
    const sellerSkus = DEFAULT_SKUS.map((sku) => sku.sku);
    const mapped = await mapSellerSkus(database.db, DEMO_TENANT_ID, '', sellerSkus);
    expect(sellerSkus.filter((sku) => !mapped.has(sku))).toEqual([]);
    const serum = await database.db
      .selectFrom('master_codes')
      .select(['name', 'unit_price', 'type', 'status'])
      .where('tenant_id', '=', DEMO_TENANT_ID)
      .where('code', '=', 'SERUM-VITC-30')
      .executeTakeFirstOrThrow();
    expect(serum).toEqual({
      name: 'Vitamin C Brightening Serum 30ml',
      unit_price: '39.90',
      type: 'standard',
      status: 'active',
    });
  });

  it('seeds them once: a second start adds nothing', async () => {
    await ensureFirstStart(database.db);
    const count = await database.db
      .selectFrom('master_codes')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('tenant_id', '=', DEMO_TENANT_ID)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(DEFAULT_SKUS.length);
  });
});
