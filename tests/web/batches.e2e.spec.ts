import { loadOrder } from '@commands/orders/order';
import { makeOrders } from '@tests/api/batches-support';
import { line, seedCatalogue } from '@tests/api/orders-support';
import { createSeller, type TestSeller } from '@tests/support/api';
import { type ConsoleServer, launchBrowser, openPage, startConsoleServer } from '@tests/support/browser';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Batches in a real Chromium: a seller ticks waiting orders, makes a batch numbered with their prefix and padding,
 * reads its pick list in two item filters and prints it as a PDF.
 */
describe('batches in the console', () => {
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

  async function signedIn(): Promise<{ page: Page; errors: string[] }> {
    const opened = await openPage(browser, server.url);
    await opened.page.goto('/#/login');
    await opened.page.getByLabel('Username or e-mail').fill(seller.email);
    await opened.page.getByLabel('Password', { exact: true }).fill(seller.password);
    await opened.page.getByRole('button', { name: 'Sign in' }).click();
    await opened.page.waitForURL((url) => url.hash === '#/' || url.hash === '');
    return opened;
  }

  it('makes a batch from ticked orders and prints its pick list', async () => {
    const catalogue = await seedCatalogue(server.api, seller.tenantId);
    const orders = await makeOrders(server.api, seller.tenantId, catalogue, [
      { lines: [line('BATIK-01', 2)] },
      { lines: [line('BATIK-01', 1), line('SONGKET-01', 1)] },
      {},
    ]);
    const { page, errors } = await signedIn();
    await page.setViewportSize({ width: 1600, height: 1000 });
    await page.goto('/#/orders/batch');
    await expect.poll(() => page.getByRole('heading', { name: 'Batches', level: 1 }).isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Create batch' }).click();
    const form = page.getByRole('form', { name: 'Create batch' });
    await expect.poll(() => form.getByLabel(`Select order ${orders[0]!.orderNumber}`).isVisible()).toBe(true);
    await form.getByLabel(`Select order ${orders[0]!.orderNumber}`).check();
    await form.getByLabel(`Select order ${orders[1]!.orderNumber}`).check();
    await form.getByLabel('Prefix').fill('E2E-');
    await form.getByLabel('Leading-zero padding (digits)').fill('3');
    await expect.poll(() => page.getByText('2 orders selected').isVisible()).toBe(true);
    await page
      .getByRole('dialog', { name: 'Create batch' })
      .getByRole('button', { name: 'Create batch' })
      .click();

    const detail = page.getByRole('dialog', { name: 'Batch E2E-001' });
    await expect.poll(() => detail.isVisible(), { timeout: 15_000 }).toBe(true);
    const batchId = (await loadOrder(server.api.store, seller.tenantId, orders[0]!.orderId)).batchId;
    expect(batchId).not.toBeNull();
    expect((await loadOrder(server.api.store, seller.tenantId, orders[1]!.orderId)).batchId).toBe(batchId);
    expect((await loadOrder(server.api.store, seller.tenantId, orders[2]!.orderId)).batchId).toBeNull();

    const pickList = detail.getByRole('table', { name: 'Pick list' });
    await expect.poll(() => pickList.innerText()).toContain('BATIK');
    expect(await pickList.innerText()).toMatch(/BATIK[^\n]*\t3/);
    await detail.getByLabel('Items').selectOption({ label: 'All order lines' });
    await expect.poll(() => pickList.locator('tbody tr').count()).toBe(3);

    const download = page.waitForEvent('download');
    await detail.getByRole('button', { name: 'Print pick list' }).click();
    expect((await download).suggestedFilename()).toBe('pick-list-E2E-001.pdf');

    // The list shows it.
    await detail.getByRole('button', { name: 'Close' }).first().click();
    await expect
      .poll(() => page.locator(`[row-id="${batchId}"] [col-id="label"]`).innerText(), { timeout: 15_000 })
      .toBe('E2E-001');
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
