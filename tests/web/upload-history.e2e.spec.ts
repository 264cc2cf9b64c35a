import { bearer, caller, createSeller, type TestSeller } from '@tests/support/api';
import { type ConsoleServer, launchBrowser, signedInPage, startConsoleServer } from '@tests/support/browser';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The stock adjustment upload history in a real Chromium: reached from the upload form, it lists a good file as complete
 * and a refused one as failed, filters by status, and opens the refused file with each bad row and why.
 */
describe('the upload history in a browser', () => {
  let server: ConsoleServer;
  let browser: Browser;
  let seller: TestSeller;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startConsoleServer(), launchBrowser()]);
    seller = await createSeller(server.api, { packageId: 'growth' });
    const call = caller(() => server.api);
    await call('POST', '/api/inventory/master-code', seller.token, { code: 'WEB-1', name: 'Web item' });
    await call('POST', '/api/inventory/warehouse', seller.token, { code: 'WWH', name: 'Web warehouse' });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const upload = (rows: string[], filename: string) =>
    server.api.app.inject({
      method: 'POST',
      url: `/api/inventory/stock/upload?filename=${filename}`,
      headers: { ...bearer(seller.token), 'content-type': 'text/csv' },
      payload: Buffer.from(['master_code,warehouse_code,mode,quantity,reason', ...rows].join('\n')),
    });

  it('lists each file with its status, filters by status, and shows why rows were refused', async () => {
    expect((await upload(['WEB-1,WWH,add,5,Opening'], 'good.csv')).statusCode).toBe(202);
    expect((await upload(['NOPE,WWH,add,1,typo'], 'bad.csv')).statusCode).toBe(400);

    const { page, errors } = await signedInPage(browser, server.url, seller.email, seller.password);
    await page.setViewportSize({ width: 1600, height: 900 });
    await page.goto('/#/inventory/stock-adjustment');
    await page.getByRole('link', { name: 'Upload history', exact: true }).click();
    await page.waitForURL(/#\/inventory\/stock-adjustment\/upload-history/);
    await page.getByRole('heading', { name: 'Stock adjustment upload history' }).waitFor();
    const good = page.getByRole('row').filter({ hasText: 'good.csv' });
    const bad = page.getByRole('row').filter({ hasText: 'bad.csv' });
    // The good file finishes in the background: the list shows it complete once reloaded.
    await expect
      .poll(
        async () => {
          await good.waitFor();
          if ((await good.getByText('Complete').count()) > 0) return true;
          await page.reload();
          return false;
        },
        { timeout: 30_000 },
      )
      .toBe(true);
    await bad.getByText('Failed').waitFor();

    await page.getByLabel('Filter by status').selectOption('failed');
    await good.waitFor({ state: 'detached' });
    await bad.waitFor();

    await bad.getByRole('button', { name: 'bad.csv' }).click();
    const dialog = page.getByRole('dialog', { name: 'Upload of bad.csv' });
    await dialog.getByText('Master code [NOPE] not found').waitFor();
    await dialog.getByRole('button', { name: 'Download the file' }).waitFor();
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('keeps the order uploads too, reached from the order upload screen', async () => {
    const header =
      'order_number,store,sku,quantity,unit_price,buyer_name,phone,address,city,state,postcode,paid,payment_method,shipping_fee';
    const sent = await server.api.app.inject({
      method: 'POST',
      url: '/api/orders/upload?filename=web-orders.csv',
      headers: { ...bearer(seller.token), 'content-type': 'text/csv' },
      payload: Buffer.from(
        [header, 'W-1,Nowhere Shop,WEB-1,1,10,Siti,+6012,Jalan 2,Shah Alam,Selangor,40000'].join('\n'),
      ),
    });
    expect(sent.statusCode).toBe(400);

    const { page, errors } = await signedInPage(browser, server.url, seller.email, seller.password);
    await page.setViewportSize({ width: 1600, height: 900 });
    await page.goto('/#/orders/upload');
    await page.getByRole('link', { name: 'Upload history', exact: true }).click();
    await page.waitForURL(/#\/orders\/upload-history/);
    await page.getByRole('heading', { name: 'Order upload history' }).waitFor();
    const row = page.getByRole('row').filter({ hasText: 'web-orders.csv' });
    await row.getByText('Failed').waitFor();
    await row.getByRole('button', { name: 'web-orders.csv' }).click();
    const dialog = page.getByRole('dialog', { name: 'Upload of web-orders.csv' });
    await dialog.getByText('Store Nowhere Shop not found (or disconnected).').waitFor();
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
