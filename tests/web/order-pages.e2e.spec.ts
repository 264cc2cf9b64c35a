import { randomUUID } from 'node:crypto';
import { makeOrders } from '@tests/api/batches-support';
import { line, seedCatalogue } from '@tests/api/orders-support';
import { createSeller, type TestSeller } from '@tests/support/api';
import { type ConsoleServer, launchBrowser, signedInPage, startConsoleServer } from '@tests/support/browser';
import { waitFor } from '@tests/support/wait';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Order pages of issue 14 in a real Chromium: /orders/new-batch makes a batch as a page of its own, and Orders →
 * Upload orders lists every bad row of a file at once, then creates the orders of a good one.
 */
describe('order pages', () => {
  let server: ConsoleServer;
  let browser: Browser;
  let seller: TestSeller;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startConsoleServer(), launchBrowser()]);
    seller = await createSeller(server.api);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('makes a batch on /orders/new-batch and uploads manual orders, bad rows first', async () => {
    const catalogue = await seedCatalogue(server.api, seller.tenantId);
    const [order] = await makeOrders(server.api, seller.tenantId, catalogue, [
      { lines: [line('BATIK-01', 1)] },
    ]);
    await server.api.database.db
      .insertInto('stores')
      .values({
        id: randomUUID(),
        tenant_id: seller.tenantId,
        platform: 'shopee',
        name: 'Kedai Batik',
        shop_id: '7002',
        region: 'MY',
        status: 'connected',
        warehouse_id: catalogue.warehouseId,
        connected_at: new Date(),
      })
      .execute();
    const { page, errors } = await signedInPage(browser, server.url, seller.email, seller.password);
    await page.setViewportSize({ width: 1600, height: 1000 });

    // ---- a batch as a page ----
    await page.goto('/#/orders/new-batch');
    const form = page.getByRole('form', { name: 'Create batch' });
    await expect.poll(() => form.getByLabel(`Select order ${order!.orderNumber}`).isVisible()).toBe(true);
    await form.getByLabel(`Select order ${order!.orderNumber}`).check();
    await form.getByLabel('Prefix').fill('PG-');
    await page.getByRole('button', { name: 'Create batch' }).click();
    await page.waitForURL((url) => url.hash === '#/orders/batch');
    await waitFor(
      async () =>
        (await server.api.database.db
          .selectFrom('batches')
          .select('id')
          .where('tenant_id', '=', seller.tenantId)
          .executeTakeFirst()) !== undefined,
      { what: 'the batch made on the page' },
    );

    // ---- upload orders ----
    await page.goto('/#/orders/upload');
    const header = 'order_number,store,sku,quantity,unit_price,buyer_name,phone,address,city,state,postcode';
    const file = (rows: string[]) => ({
      name: 'orders.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(`\uFEFF${[header, ...rows].join('\n')}`),
    });
    await page
      .getByLabel('File', { exact: true })
      .setInputFiles(
        file([
          'U-1,Kedai Batik,BATIK-01,0,10,Siti,+6012,Jalan 1,Ipoh,Perak,30000',
          'U-2,Nowhere,NOPE,1,10,Ali,+6013,Jalan 2,Ipoh,Perak,30000',
        ]),
      );
    await page.getByRole('button', { name: 'Upload' }).click();
    const problems = page.getByRole('table');
    await expect
      .poll(() => problems.getByText('Store Nowhere not found (or disconnected).').isVisible())
      .toBe(true);
    expect(
      await problems.getByText('SKU NOPE matches no master code (by seller SKU or code).').isVisible(),
    ).toBe(true);
    expect(
      await problems.getByText('The quantity must be a whole number from 1 to 100000.').isVisible(),
    ).toBe(true);

    await page
      .getByLabel('File', { exact: true })
      .setInputFiles(file(['U-1,Kedai Batik,BATIK-01,2,10,Siti,+6012,Jalan 1,Ipoh,Perak,30000']));
    await page.getByRole('button', { name: 'Upload' }).click();
    await expect
      .poll(() => page.getByRole('heading', { name: '1 created, 0 already there' }).isVisible())
      .toBe(true);
    expect(errors).toEqual([]);
  });
});
