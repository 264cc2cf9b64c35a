import { randomUUID } from 'node:crypto';
import {
  type Catalogue,
  importOrder,
  line,
  marketplaceOrder,
  seedCatalogue,
} from '@tests/api/orders-support';
import { createSeller, type TestSeller } from '@tests/support/api';
import { type ConsoleServer, launchBrowser, openPage, startConsoleServer } from '@tests/support/browser';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The order drawer in a real Chromium shows the order fields of spec §3: each line's rack, a free gift marked as
 * one, the buyer's first and last name, money by the console's one rule; the packer records a line's bin and serial
 * numbers and adds a gift by hand there.
 */
describe('the order drawer: gifts, racks, bin and serial numbers, first and last name', () => {
  let server: ConsoleServer;
  let browser: Browser;
  let seller: TestSeller;
  let catalogue: Catalogue;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startConsoleServer(), launchBrowser()]);
    seller = await createSeller(server.api, { packageId: 'growth' });
    catalogue = await seedCatalogue(server.api, seller.tenantId);
    const rack = randomUUID();
    const where = { tenant_id: seller.tenantId, warehouse_id: catalogue.warehouseId };
    await server.api.database.db
      .insertInto('racks')
      .values({ ...where, id: rack, name: 'B-07' })
      .execute();
    await server.api.database.db
      .insertInto('master_code_locations')
      .values({ ...where, master_code_id: catalogue.batik, rack_id: rack })
      .execute();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows and records them', async () => {
    const orderId = await importOrder(
      server.api,
      seller.tenantId,
      catalogue.warehouseId,
      marketplaceOrder(
        [
          line('BATIK-01', 2, { unitPrice: '1250.50' }),
          line('SONGKET-01', 1, { gift: true, unitPrice: '9.90' }),
        ],
        { totalAmount: '2501.00' },
      ),
    );
    const { page, errors } = await openPage(browser, server.url);
    await page.setViewportSize({ width: 1600, height: 1000 });
    await page.goto('/#/login');
    await page.getByLabel('Username or e-mail').fill(seller.email);
    await page.getByLabel('Password', { exact: true }).fill(seller.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.hash === '#/' || url.hash === '');
    await page.goto('/#/orders/manage/new');
    const row = page.locator(`[row-id="${orderId}"] [col-id="order_number"] button`);
    await expect.poll(() => row.count(), { timeout: 30_000 }).toBe(1);
    await row.click();

    const drawer = page.getByRole('dialog', { name: /^Order / });
    const items = drawer.getByRole('table', { name: 'Items' });
    await expect.poll(() => drawer.getByTestId('order-first-name').innerText()).toBe('Nur');
    expect(await drawer.getByTestId('order-last-name').innerText()).toBe('Aisyah');
    expect(await drawer.innerText()).toContain('MYR 2,501.00');
    const batik = items.getByRole('row', { name: /BATIK-01/ });
    const songket = items.getByRole('row', { name: /SONGKET-01/ });
    expect(await batik.getByTestId('line-racks').innerText()).toBe('B-07');
    expect(await batik.innerText()).toContain('1,250.50');
    expect(await songket.getByTestId('line-gift').innerText()).toBe('Free gift');
    expect(await songket.innerText()).toContain('0.00');

    // ---- the packer records the bin and serial numbers; one too many is refused in the dialog ----
    await batik.getByRole('button', { name: 'Bin and serials' }).click();
    const packing = page.getByRole('dialog', { name: /Bin and serial numbers of/ });
    await packing.getByLabel('Bin number').fill('BIN-3');
    await packing.getByLabel('Serial numbers').fill('SN-1\nSN-2\nSN-3');
    await packing.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => packing.innerText()).toContain('record at most 2 serial numbers');
    await packing.getByLabel('Serial numbers').fill('SN-1\nSN-2');
    await packing.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => batik.getByTestId('line-serials').innerText()).toBe('Serial numbers: SN-1, SN-2');
    expect(await batik.getByTestId('line-bin').innerText()).toBe('Bin number: BIN-3');

    // ---- a gift added by hand ----
    await drawer.getByRole('button', { name: 'Add free gift' }).click();
    const gift = page.getByRole('dialog', { name: 'Add a free gift' });
    await gift.getByLabel('Search master codes').fill('BATIK');
    await gift.getByRole('button', { name: /BATIK · Batik sarong/ }).click();
    await expect.poll(() => items.getByTestId('line-gift').count()).toBe(2);
    await expect
      .poll(() => drawer.getByRole('list', { name: 'Timeline' }).innerText())
      .toContain('Free gift added');

    expect(errors).toEqual([]);
    await page.context().close();
  });
});
