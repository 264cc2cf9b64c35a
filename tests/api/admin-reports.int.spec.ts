import type { PlatformSummary, TenantUsage } from '@api/contracts/admin-reports';
import { addStore } from '@tests/api/listings-support';
import {
  importOrder,
  line,
  marketplaceOrder,
  packageOfMonthlyOrders,
  seedCatalogue,
} from '@tests/api/orders-support';
import { caller, createAdmin, createSeller, createTestApi, type TestApi } from '@tests/support/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The provider's reports (/admin-reports/): figures across every account, read by admins alone. Two accounts of
 * this test (one over its monthly order limit) beside whatever else the database holds: the figures are checked as
 * differences and per account.
 */
describe('admin reports', () => {
  let api: TestApi;
  let adminToken: string;
  const call = caller(() => api);

  beforeAll(async () => {
    api = await createTestApi();
    adminToken = (await createAdmin(api)).token;
  });
  afterAll(async () => {
    await api?.close();
  });

  const summary = async () => {
    const response = await call('GET', '/api/admin/reports/summary', adminToken);
    expect(response.statusCode).toBe(200);
    return response.json().data as PlatformSummary;
  };
  const usage = async (filterModel: object = {}, sortModel: object[] = []) => {
    const query = new URLSearchParams({
      startRow: '0',
      endRow: '100',
      filterModel: JSON.stringify(filterModel),
      sortModel: JSON.stringify(sortModel),
    });
    const response = await call('GET', `/api/admin/reports/tenants?${query}`, adminToken);
    expect(response.statusCode).toBe(200);
    return response.json().data as { rows: TenantUsage[]; lastRow: number };
  };

  it("counts accounts, sign-ups, stores and this month's orders, held ones apart", async () => {
    const before = await summary();
    const name = `Kedai Reports ${Date.now()}`;
    const busy = await createSeller(api, {
      name: `${name} busy`,
      packageId: await packageOfMonthlyOrders(api, 2),
    });
    const quiet = await createSeller(api, { name: `${name} quiet` });
    await addStore(api, busy.tenantId, 'Busy on Shopee');
    const catalogue = await seedCatalogue(api, busy.tenantId);
    for (let i = 0; i < 3; i++) {
      await importOrder(api, busy.tenantId, catalogue.warehouseId, marketplaceOrder([line('BATIK-01', 1)]));
    }

    const after = await summary();
    expect(after.tenants.total - before.tenants.total).toBe(2);
    expect(after.tenants.new_30_days - before.tenants.new_30_days).toBe(2);
    expect(after.sign_ups).toHaveLength(30);
    const signedUp = (s: PlatformSummary) => s.sign_ups.reduce((sum, day) => sum + day.tenants, 0);
    expect(signedUp(after) - signedUp(before)).toBe(2);
    const shopee = (s: PlatformSummary) => s.stores.find((row) => row.platform === 'shopee')?.connected ?? 0;
    expect(shopee(after) - shopee(before)).toBe(1);
    // Three orders against a limit of two: two admitted, one held.
    expect(after.orders_this_month.admitted - before.orders_this_month.admitted).toBe(2);
    expect(after.orders_this_month.held - before.orders_this_month.held).toBe(1);

    const page = await usage({ name: { filterType: 'text', type: 'startsWith', filter: name } }, [
      { colId: 'orders_this_month', sort: 'desc' },
    ]);
    expect(page.lastRow).toBe(2);
    expect(page.rows.map((row) => row.id)).toEqual([busy.tenantId, quiet.tenantId]);
    expect(page.rows[0]).toMatchObject({
      users: 1,
      stores: 1,
      master_codes: 3,
      orders_this_month: 2,
      held_this_month: 1,
      status: 'active',
    });
    expect(page.rows[1]).toMatchObject({ stores: 0, orders_this_month: 0, held_this_month: 0 });
    // The sort turns round, the filter narrows by status.
    const ascending = await usage({ name: { filterType: 'text', type: 'startsWith', filter: name } }, [
      { colId: 'orders_this_month', sort: 'asc' },
    ]);
    expect(ascending.rows.map((row) => row.id)).toEqual([quiet.tenantId, busy.tenantId]);
    const suspended = await usage({
      name: { filterType: 'text', type: 'startsWith', filter: name },
      status: { filterType: 'set', values: ['suspended'] },
    });
    expect(suspended.lastRow).toBe(0);
  });

  it("is the provider's: a seller gets 403, an unknown sort column 400", async () => {
    const seller = await createSeller(api);
    for (const url of ['/api/admin/reports/summary', '/api/admin/reports/tenants?startRow=0&endRow=10']) {
      expect((await call('GET', url, seller.token)).statusCode).toBe(403);
    }
    const bad = await call(
      'GET',
      `/api/admin/reports/tenants?startRow=0&endRow=10&sortModel=${encodeURIComponent('[{"colId":"password_hash","sort":"asc"}]')}`,
      adminToken,
    );
    expect(bad.statusCode).toBe(400);
  });
});
