import { randomUUID } from 'node:crypto';
import { defaultWarehouse } from '@commands/inventory/initial-stock';
import type { ShopeeSandbox } from '@integrations/shopee';
import { connectStore, type StoreSettings } from '@integrations/stores';
import { startStoreSandbox } from '@tests/api/stores-support';
import { caller, createSeller, type TestSeller } from '@tests/support/api';
import { type ConsoleServer, launchBrowser, signedInPage, startConsoleServer } from '@tests/support/browser';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Products → download status in a real Chromium (issue 15): a connected sandbox store downloaded from the screen,
 * its SKUs with the master code each is linked to, the "not linked" filter, linking one by hand from the grid, and
 * importing its item to listings.
 */
describe('the download status screen in a browser', () => {
  let server: ConsoleServer;
  let browser: Browser;
  let seller: TestSeller;
  let sandbox: ShopeeSandbox;
  let settings: StoreSettings;
  let restore: () => void;

  beforeAll(async () => {
    ({ sandbox, settings, restore } = await startStoreSandbox());
    [server, browser] = await Promise.all([startConsoleServer({ workflows: true }), launchBrowser()]);
    seller = await createSeller(server.api, { packageId: 'growth' });
    const call = caller(() => server.api);
    // Master codes for two of the shop's SKUs by seller SKU, and one whose seller SKU the shop does not use.
    for (const [code, sellerSku] of [
      ['TSHIRT-BLK-M', 'TSHIRT-BLK-M'],
      ['SAMBAL', 'SAMBAL-250G'],
      ['KOPI', 'KOPI-3IN1'],
    ]) {
      const made = await call('POST', '/api/inventory/master-code', seller.token, {
        code,
        name: `${code} item`,
        seller_sku: sellerSku,
      });
      expect(made.statusCode, made.body).toBe(200);
    }
    const shopId = sandbox.shops[0]!.shopId;
    await connectStore(server.api.database.db, {
      tenantId: seller.tenantId,
      userId: seller.userId,
      platform: 'shopee',
      shopId,
      name: 'Kedai Kain',
      region: 'MY',
      tokens: sandbox.issueTokens(settings.shopee.partnerId, shopId),
      newStore: { id: randomUUID(), warehouseId: await defaultWarehouse(server.api.database.db, seller) },
    });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await sandbox?.stop();
    restore?.();
  });

  it("downloads the store's items, shows their links, filters the unlinked, links one by hand and imports it", async () => {
    const { page, errors } = await signedInPage(browser, server.url, seller.email, seller.password);
    await page.setViewportSize({ width: 1900, height: 900 });
    await page.goto('/#/products/download-status');
    await page.getByRole('heading', { name: 'Download status' }).first().waitFor();
    const store = page.locator('tr[data-store="Kedai Kain"]');
    await store.getByText('New').waitFor();
    await store.getByRole('checkbox', { name: 'Choose Kedai Kain' }).check();
    await page.getByRole('button', { name: 'Download items of 1 store' }).click();
    await page.getByText('Download started for 1 store.').waitFor();
    await store.getByText('Completed').waitFor({ timeout: 30_000 });

    const linked = page.locator('.ag-row').filter({ hasText: 'SAMBAL-250G' });
    await linked.getByText('SAMBAL · SAMBAL item').waitFor();
    await linked.getByText('Linked by seller SKU').waitFor();
    const kopi = page.locator('.ag-row').filter({ hasText: 'KOPI-PUTIH-15S' });
    await kopi.getByText('Not linked').waitFor();

    await page.getByLabel('Filter by link').selectOption('unlinked');
    await linked.waitFor({ state: 'detached' });
    await kopi.waitFor();

    await kopi.getByRole('button', { name: 'Link KOPI-PUTIH-15S to a master code' }).click();
    const dialog = page.getByRole('dialog', { name: 'Link KOPI-PUTIH-15S to a master code' });
    await dialog.getByLabel('Find a master code').fill('KOPI');
    await dialog.getByRole('button', { name: 'Add KOPI' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('Linked to master code KOPI.').waitFor();
    // Linked now: the "not linked" filter no longer lists it.
    await kopi.waitFor({ state: 'detached' });
    await page.getByLabel('Filter by link').selectOption('linked');
    await kopi.getByText('Linked by you').waitFor();

    // "Import to listings": a draft of the row's item, its SKU linked as here, opened in the editor.
    await kopi.getByRole('button', { name: 'Import the item of KOPI-PUTIH-15S to listings' }).click();
    const importing = page.getByRole('dialog', {
      name: 'Import Kopi Putih Ipoh 3 in 1 (15 sachets) to listings',
    });
    await importing.getByLabel('Logistics').fill('20011');
    await importing.getByRole('button', { name: 'Import to listings' }).click();
    await page.getByText('Listing imported as a draft.').waitFor();
    await page.getByRole('heading', { name: 'Kopi Putih Ipoh 3 in 1 (15 sachets)', level: 1 }).waitFor();
    const form = page.getByRole('form', { name: 'Listing' });
    expect(await form.getByLabel('Seller SKU', { exact: true }).inputValue()).toBe('KOPI-PUTIH-15S');
    expect(await form.getByLabel('Master code', { exact: true }).inputValue()).toBe('KOPI');
    expect(await form.getByLabel('Kedai Kain', { exact: true }).isChecked()).toBe(true);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
