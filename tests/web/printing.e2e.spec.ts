import { loadOrder } from '@commands/orders/order';
import { createSeller, type TestSeller } from '@tests/support/api';
import { type ConsoleServer, launchBrowser, signedInPage, startConsoleServer } from '@tests/support/browser';
import { waitFor } from '@tests/support/wait';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Catalogue,
  importOrder,
  line,
  marketplaceOrder,
  seedCatalogue,
  settle,
  stockOf,
} from '../api/orders-support';
import { arrange, ship, shippedStock } from '../api/printing-support';

/**
 * Printing, returns and carrier manifests in a real Chromium: the owner changes the print settings, prints an
 * invoice of a shipped order (the PDF shown, the order marked printed, the print log row arriving live), records
 * a return through the form — refused first without "include shipping", as spec §5 says — with the stock coming
 * back, and creates the month's carrier manifest.
 */
describe('printing, returns and manifests in the console', () => {
  let server: ConsoleServer;
  let browser: Browser;
  let seller: TestSeller;
  let catalogue: Catalogue;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startConsoleServer(), launchBrowser()]);
    seller = await createSeller(server.api);
    catalogue = await seedCatalogue(server.api, seller.tenantId);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('prints an invoice, returns the order to stock and counts it in the month’s manifest', async () => {
    const api = server.api;
    const order = marketplaceOrder([line('BATIK-01', 2, { name: '蜡染纱笼 Batik sarong' })]);
    const orderId = await importOrder(api, seller.tenantId, catalogue.warehouseId, order);
    await settle(api);
    await arrange(api, seller.tenantId, orderId, 'SPXE2E000001');
    await ship(api, seller.tenantId, orderId);
    await settle(api);
    await shippedStock(api, seller.tenantId, orderId, catalogue.warehouseId, [catalogue.batik]);
    const { page, errors } = await signedInPage(browser, server.url, seller.email, seller.password);

    // ---- print settings ----
    await page.goto('/#/orders/print-settings');
    await page.getByLabel('Company name').fill('Batik House 峇迪');
    await page.getByLabel('Font size of the Invoice').selectOption('large');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect.poll(() => page.getByText('Print settings saved').isVisible()).toBe(true);

    // ---- printing an invoice ----
    await page.goto(`/#/orders/print?document=INV&origin=shipped&ids=${orderId}`);
    await expect
      .poll(() => page.getByRole('heading', { name: 'Invoice — 1 order', exact: true }).isVisible())
      .toBe(true);
    await expect.poll(() => page.locator('iframe.print-frame').count(), { timeout: 15_000 }).toBe(1);
    expect(await page.getByRole('link', { name: 'Download PDF' }).getAttribute('download')).toBe(
      `INV-${order.orderNumber}.pdf`,
    );
    await waitFor(async () => (await loadOrder(api.store, seller.tenantId, orderId)).printed.includes('INV'));

    await page.goto('/#/orders/print-log');
    const logRow = page.locator('[col-id="order_number"]', { hasText: order.orderNumber });
    await expect.poll(() => logRow.count(), { timeout: 15_000 }).toBe(1);

    // ---- a return, refused first without "include shipping" ----
    const before = (await stockOf(api, seller.tenantId, catalogue.batik, catalogue.warehouseId)).onHand;
    await page.goto('/#/orders/return-reconciliation');
    await page.getByRole('button', { name: 'New return' }).click();
    const dialog = page.getByRole('dialog', { name: 'New return' });
    await dialog.getByLabel('Order number or tracking number').fill('SPXE2E000001');
    await dialog.getByRole('button', { name: 'Find order' }).click();
    await dialog.getByLabel('Return BATIK-01 蜡染纱笼 Batik sarong').check();
    await dialog.getByLabel('Refund to buyer (MYR)').fill('20.00');
    await dialog.getByLabel('Refund reason').fill('Buyer changed their mind');
    await dialog.getByRole('button', { name: 'Record return' }).click();
    await expect
      .poll(() => dialog.getByRole('alert').first().innerText())
      .toContain('Include shipping is required');
    await dialog.getByLabel('No').check();
    await dialog.getByRole('button', { name: 'Record return' }).click();
    await expect
      .poll(() => page.getByText(`Return of order ${order.orderNumber} recorded`).isVisible())
      .toBe(true);
    await expect
      .poll(() => page.locator('[col-id="order_number"]', { hasText: order.orderNumber }).count(), {
        timeout: 15_000,
      })
      .toBe(1);
    expect((await stockOf(api, seller.tenantId, catalogue.batik, catalogue.warehouseId)).onHand).toBe(
      before + 2,
    );

    // ---- this month's carrier manifest ----
    await page.goto('/#/orders/carrier-manifests');
    await page.getByRole('button', { name: 'Create manifest' }).click();
    await expect
      .poll(() => page.getByText(/Carrier manifest of \d{4}-\d{2}: 1 shipped order\b/).isVisible())
      .toBe(true);
    await expect
      .poll(() => page.locator('[col-id="carriers"]', { hasText: 'SPX Express: 1' }).count(), {
        timeout: 15_000,
      })
      .toBe(1);
    expect(errors).toEqual([]);
  });
});
