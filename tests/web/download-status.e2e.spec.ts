import { randomUUID } from 'node:crypto';
import { recordChannelSkus } from '@commands/channels/channel-skus';
import { caller, createSeller, type TestSeller } from '@tests/support/api';
import { type ConsoleServer, launchBrowser, signedInPage, startConsoleServer } from '@tests/support/browser';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Products → download status in a real Chromium (issue 15): the store's download status, the channel SKUs with the
 * master code each is linked to, the "not linked" filter, and linking one by hand from the grid.
 */
describe('the download status screen in a browser', () => {
  let server: ConsoleServer;
  let browser: Browser;
  let seller: TestSeller;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startConsoleServer(), launchBrowser()]);
    seller = await createSeller(server.api, { packageId: 'growth' });
    const call = caller(() => server.api);
    for (const [code, sellerSku] of [
      ['BATIK', 'BATIK-01'],
      ['SONGKET', 'SONGKET-01'],
    ]) {
      const made = await call('POST', '/api/inventory/master-code', seller.token, {
        code,
        name: `${code} cloth`,
        seller_sku: sellerSku,
      });
      expect(made.statusCode, made.body).toBe(200);
    }
    const storeId = randomUUID();
    await server.api.database.db
      .insertInto('stores')
      .values({
        id: storeId,
        tenant_id: seller.tenantId,
        platform: 'shopee',
        name: 'Kedai Kain',
        shop_id: 424242,
        region: 'MY',
        status: 'connected',
        connected_at: new Date(),
      })
      .execute();
    await recordChannelSkus(server.api.database.db, {
      tenantId: seller.tenantId,
      storeId,
      itemId: '5001',
      itemName: 'Sarong collection',
      models: [
        { modelId: '1', sellerSku: 'BATIK-01', modelName: 'Batik', price: '25.00', stock: 4 },
        { modelId: '2', sellerSku: 'KAIN-X', modelName: 'Plain', price: '19.00', stock: 2 },
      ],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows the store and its SKUs, filters the unlinked one and links it by hand', async () => {
    const { page, errors } = await signedInPage(browser, server.url, seller.email, seller.password);
    await page.setViewportSize({ width: 1900, height: 900 });
    await page.goto('/#/products/download-status');
    await page.getByRole('heading', { name: 'Download status' }).first().waitFor();
    const store = page.locator('tr[data-store="Kedai Kain"]');
    await store.getByText('New').waitFor();
    await store.getByRole('checkbox', { name: 'Choose Kedai Kain' }).waitFor();

    const linked = page.locator('.ag-row').filter({ hasText: 'BATIK-01' });
    await linked.getByText('BATIK · BATIK cloth').waitFor();
    await linked.getByText('Linked by seller SKU').waitFor();
    const plain = page.locator('.ag-row').filter({ hasText: 'KAIN-X' });
    await plain.getByText('Not linked').waitFor();

    await page.getByLabel('Filter by link').selectOption('unlinked');
    await linked.waitFor({ state: 'detached' });
    await plain.waitFor();

    await plain.getByRole('button', { name: 'Link KAIN-X to a master code' }).click();
    const dialog = page.getByRole('dialog', { name: 'Link KAIN-X to a master code' });
    await dialog.getByLabel('Find a master code').fill('SONGKET');
    await dialog.getByRole('button', { name: 'Add SONGKET' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('Linked to master code SONGKET.').waitFor();
    // Linked now: the "not linked" filter no longer lists it.
    await plain.waitFor({ state: 'detached' });
    await page.getByLabel('Filter by link').selectOption('linked');
    await plain.getByText('Linked by you').waitFor();
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
