import { releaseHeldOrders } from '@commands/orders/monthly-limit';
import {
  importOrder,
  line,
  marketplaceOrder,
  packageOfMonthlyOrders,
  seedCatalogue,
  settle,
} from '@tests/api/orders-support';
import { createSeller } from '@tests/support/api';
import { type ConsoleServer, launchBrowser, openPage, startConsoleServer } from '@tests/support/browser';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The monthly order limit in the console (issue 14): with orders held over the package's limit, the shell shows a
 * banner with their count on every screen, its link opens the board on the "held" filter with the held order
 * marked; once a larger package lets them in, the banner goes.
 */
describe('the monthly order limit banner', () => {
  let server: ConsoleServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startConsoleServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('tells of held orders, lists them, and goes once they are released', async () => {
    const api = server.api;
    const seller = await createSeller(api, { packageId: await packageOfMonthlyOrders(api, 1) });
    const catalogue = await seedCatalogue(api, seller.tenantId);
    await importOrder(api, seller.tenantId, catalogue.warehouseId, marketplaceOrder([line('BATIK-01', 1)]));
    const held = await importOrder(
      api,
      seller.tenantId,
      catalogue.warehouseId,
      marketplaceOrder([line('BATIK-01', 2)]),
    );
    await settle(api);

    const { page, errors } = await openPage(browser, server.url);
    await page.setViewportSize({ width: 1600, height: 1000 });
    await page.goto('/#/login');
    await page.getByLabel('Username or e-mail').fill(seller.email);
    await page.getByLabel('Password', { exact: true }).fill(seller.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.hash === '#/' || url.hash === '');

    const banner = page.getByTestId('order-limit-banner');
    await expect.poll(() => banner.innerText(), { timeout: 15_000 }).toContain('1 order is held');
    await banner.getByRole('link', { name: 'Show held orders' }).click();
    await expect.poll(() => page.url(), { timeout: 15_000 }).toContain('filter=on_hold');
    const row = page.locator(`[row-id="${held}"]`);
    await expect
      .poll(() => row.locator('[col-id="flags"]').innerText(), { timeout: 15_000 })
      .toContain('Held: monthly order limit reached');

    await api.database.db
      .updateTable('tenants')
      .set({ package_id: 'enterprise' })
      .where('id', '=', seller.tenantId)
      .execute();
    expect(await releaseHeldOrders({ db: api.database.systemDb, store: api.store }, seller.tenantId)).toEqual(
      [held],
    );
    await settle(api);
    await page.reload();
    // The usage panel reads what the banner reads: once it shows nothing held, the banner has gone.
    await page.getByRole('button', { name: 'Usage' }).click();
    const heldRow = page.locator('.usage-row', { hasText: 'Orders held over the limit' });
    await expect.poll(() => heldRow.locator('dd').innerText(), { timeout: 15_000 }).toBe('0');
    expect(await banner.count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
