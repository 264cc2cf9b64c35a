import {
  type Catalogue,
  importOrder,
  line,
  marketplaceOrder,
  seedCatalogue,
} from '@tests/api/orders-support';
import { bearer, createSeller, type TestSeller } from '@tests/support/api';
import { type ConsoleServer, launchBrowser, signedInPage, startConsoleServer } from '@tests/support/browser';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The board's follow-ups of spec §4 in a real Chromium: a shipped order's drawer makes a replacement order of one of
 * its items, the two drawers name each other, and the "Replacement" list shows it; an order's third-party shipment
 * is cancelled from the board's toolbar and the order is back in the new orders.
 */
describe('replacement and cancel third-party shipment on the board', () => {
  let server: ConsoleServer;
  let browser: Browser;
  let seller: TestSeller;
  let catalogue: Catalogue;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startConsoleServer(), launchBrowser()]);
    seller = await createSeller(server.api, { packageId: 'growth' });
    catalogue = await seedCatalogue(server.api, seller.tenantId);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const act = async (body: Record<string, unknown>) => {
    const response = await server.api.app.inject({
      method: 'POST',
      url: '/api/orders/actions',
      headers: bearer(seller.token),
      payload: body,
    });
    expect(response.statusCode, response.body).toBe(200);
  };
  async function arrangedOrder(): Promise<{ id: string; number: string }> {
    const order = marketplaceOrder([line('BATIK-01', 2)]);
    const id = await importOrder(server.api, seller.tenantId, catalogue.warehouseId, order);
    await act({
      action: 'arrange_shipment',
      shipments: [{ order_id: id, tracking_number: `OWN${id.slice(0, 6)}`, shipping_provider: 'Own van' }],
    });
    return { id, number: order.orderNumber };
  }
  const row = (page: Page, id: string) => page.locator(`[row-id="${id}"]`);

  it('makes a replacement order from a shipped order’s drawer, linked both ways', async () => {
    const original = await arrangedOrder();
    await act({ action: 'ship', order_ids: [original.id] });
    const { page, errors } = await signedInPage(browser, server.url, seller.email, seller.password);
    await page.setViewportSize({ width: 1600, height: 1000 });
    await page.goto('/#/orders/manage/shipped');
    await expect.poll(() => row(page, original.id).count(), { timeout: 60_000 }).toBe(1);
    await row(page, original.id).locator('[col-id="order_number"] button').click();
    const drawer = page.getByRole('dialog', { name: `Order ${original.number}` });
    await drawer.getByRole('button', { name: 'Make replacement order' }).click();
    const dialog = page.getByRole('dialog', { name: `Replacement for order ${original.number}` });
    await dialog.getByLabel('Item BATIK-01 (up to 2)').fill('1');
    await dialog.getByRole('button', { name: 'Make replacement order' }).click();
    await expect
      .poll(() => drawer.getByTestId('order-replacements').innerText(), { timeout: 60_000 })
      .toBe(`${original.number}-R1`);
    await expect
      .poll(() => drawer.getByRole('list', { name: 'Timeline' }).innerText())
      .toContain('Replacement order made');
    await drawer.getByRole('button', { name: 'Close' }).first().click();

    await page.goto('/#/orders/manage/all');
    await page.getByRole('combobox', { name: 'List', exact: true }).selectOption('replacement');
    const replacementRow = page.locator('[row-id]', { hasText: `${original.number}-R1` });
    await expect.poll(() => replacementRow.count(), { timeout: 60_000 }).toBe(1);
    await expect.poll(() => page.locator('[row-id]').count()).toBe(1);
    await replacementRow.locator('[col-id="order_number"] button').click();
    const replacement = page.getByRole('dialog', { name: `Order ${original.number}-R1` });
    await expect
      .poll(() => replacement.getByTestId('order-replaces').innerText(), { timeout: 60_000 })
      .toBe(`Replacement of order ${original.number}`);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('cancels an order’s third-party shipment from the toolbar: back to new, without its tracking number', async () => {
    const order = await arrangedOrder();
    const { page, errors } = await signedInPage(browser, server.url, seller.email, seller.password);
    await page.setViewportSize({ width: 1600, height: 1000 });
    await page.goto('/#/orders/manage/unscan');
    await expect.poll(() => row(page, order.id).count(), { timeout: 60_000 }).toBe(1);
    await page.locator(`[row-id="${order.id}"] input.ag-checkbox-input`).first().check({ force: true });
    await page
      .getByRole('toolbar', { name: 'Actions on the selected orders' })
      .getByRole('button', { name: 'Cancel third-party shipment' })
      .click();
    await expect.poll(() => page.getByText('Done for 1 of 1 order.').isVisible()).toBe(true);
    await expect.poll(() => row(page, order.id).count(), { timeout: 60_000 }).toBe(0);
    await page.goto('/#/orders/manage/new');
    await expect.poll(() => row(page, order.id).count(), { timeout: 60_000 }).toBe(1);
    await row(page, order.id).locator('[col-id="order_number"] button').click();
    const drawer = page.getByRole('dialog', { name: `Order ${order.number}` });
    await expect.poll(() => drawer.getByTestId('order-tracking').innerText(), { timeout: 60_000 }).toBe('—');
    await expect
      .poll(() => drawer.getByRole('list', { name: 'Timeline' }).innerText())
      .toContain('Third-party shipment cancelled');
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
