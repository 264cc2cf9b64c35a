import {
  type Catalogue,
  importOrder,
  line,
  marketplaceOrder,
  seedCatalogue,
} from '@tests/api/orders-support';
import { createSeller, type TestSeller } from '@tests/support/api';
import { type ConsoleServer, launchBrowser, openPage, startConsoleServer } from '@tests/support/browser';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The live order board in a real Chromium, two browsers at once: orders imported as a store's import does appear on
 * browser B's board without a reload; an action in browser A moves B's tab counts and rows; the title follows the
 * tab (spec §2); A's drawer maps an unmapped line ("item not found") to a master code.
 */
describe('the live order board', () => {
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

  async function signedIn(): Promise<{ page: Page; errors: string[] }> {
    const opened = await openPage(browser, server.url);
    await opened.page.setViewportSize({ width: 1600, height: 1000 });
    await opened.page.goto('/#/login');
    await opened.page.getByLabel('Username or e-mail').fill(seller.email);
    await opened.page.getByLabel('Password', { exact: true }).fill(seller.password);
    await opened.page.getByRole('button', { name: 'Sign in' }).click();
    await opened.page.waitForURL((url) => url.hash === '#/' || url.hash === '');
    return opened;
  }

  const count = (page: Page, tab: string) => page.getByTestId(`tab-count-${tab}`).innerText();
  const row = (page: Page, id: string) => page.locator(`[row-id="${id}"]`);

  it('moves live in browser B as orders arrive and as browser A works on them', async () => {
    const a = await signedIn();
    const b = await signedIn();

    // ---- B watches the new orders (the spec's list route leads to its tab; the title follows the tab) ----
    await b.page.goto('/#/orders/new-orders');
    await expect.poll(() => b.page.url(), { timeout: 15_000 }).toMatch(/#\/orders\/manage\/new$/);
    await expect.poll(() => b.page.title()).toBe('Kedai - New orders');
    await expect.poll(() => count(b.page, 'new'), { timeout: 15_000 }).toBe('0');

    // ---- orders arrive from a store's import: B's board shows them without a reload ----
    const first = await importOrder(
      server.api,
      seller.tenantId,
      catalogue.warehouseId,
      marketplaceOrder([line('BATIK-01', 2)]),
    );
    const second = await importOrder(
      server.api,
      seller.tenantId,
      catalogue.warehouseId,
      marketplaceOrder([line('MYSTERY-SKU', 1), line('SONGKET-01', 1)]),
    );
    await expect.poll(() => count(b.page, 'new'), { timeout: 15_000 }).toBe('2');
    await expect.poll(() => row(b.page, first).count(), { timeout: 15_000 }).toBe(1);
    await expect
      .poll(() => row(b.page, second).locator('[col-id="flags"]').innerText())
      .toContain('Item not found');

    // ---- A moves the first order to unscan: B's counts and rows follow ----
    await a.page.goto('/#/orders/manage/new');
    await expect.poll(() => a.page.title()).toBe('Kedai - New orders');
    await expect.poll(() => row(a.page, first).count(), { timeout: 15_000 }).toBe(1);
    await a.page.locator(`[row-id="${first}"] input.ag-checkbox-input`).first().check({ force: true });
    await expect.poll(() => a.page.getByTestId('selected-count').innerText()).toBe('1 selected');
    // The selection prints too: a document opens the print screen for the selected order in a new tab.
    const printing = a.page.context().waitForEvent('page');
    await a.page
      .getByRole('group', { name: 'Print 1 selected order' })
      .getByRole('button', { name: 'Packing list' })
      .click();
    const printPage = await printing;
    await expect.poll(() => printPage.url()).toContain('/orders/print?');
    expect(printPage.url()).toContain(first);
    expect(printPage.url()).toContain('document=PL');
    await printPage.close();
    await a.page
      .getByRole('toolbar', { name: 'Actions on the selected orders' })
      .getByRole('button', { name: 'Move to unscan' })
      .click();
    await expect.poll(() => a.page.getByText('Done for 1 of 1 order.').isVisible()).toBe(true);
    await expect.poll(() => count(b.page, 'new'), { timeout: 15_000 }).toBe('1');
    await expect.poll(() => count(b.page, 'unscan')).toBe('1');
    await expect.poll(() => row(b.page, first).count(), { timeout: 15_000 }).toBe(0);

    // ---- B follows the order to its tab; the title follows ----
    await b.page
      .getByRole('navigation', { name: 'Order lists' })
      .getByRole('link', { name: /Unscan/ })
      .click();
    await expect.poll(() => b.page.title()).toBe('Kedai - Unscan orders');
    await expect.poll(() => row(b.page, first).count(), { timeout: 15_000 }).toBe(1);

    // ---- A maps the second order's unknown line in its drawer; B's row loses its flag ----
    await a.page.locator(`[row-id="${second}"] [col-id="order_number"] button`).click();
    const drawer = a.page.getByRole('dialog', { name: /^Order / });
    await expect
      .poll(() => drawer.getByRole('table', { name: 'Items' }).innerText())
      .toContain('Item not found');
    await drawer.getByRole('button', { name: 'Map to master code' }).click();
    const picker = a.page.getByRole('dialog', { name: /Map .* to a master code/ });
    await picker.getByLabel('Search master codes').fill('BATIK');
    await picker.getByRole('button', { name: /BATIK · Batik sarong/ }).click();
    await expect
      .poll(() => drawer.getByRole('table', { name: 'Items' }).innerText())
      .not.toContain('Item not found');
    await expect
      .poll(() => drawer.getByRole('list', { name: 'Timeline' }).innerText())
      .toContain('Item mapped to a master code, stock reserved');
    // The mapping can be changed while the order waits.
    const mysteryRow = drawer.getByRole('table', { name: 'Items' }).getByRole('row', { name: /MYSTERY-SKU/ });
    await mysteryRow.getByRole('button', { name: 'Change mapping' }).click();
    const changing = a.page.getByRole('dialog', { name: /Map .* to a master code/ });
    await changing.getByLabel('Search master codes').fill('SONGKET');
    await changing.getByRole('button', { name: /SONGKET · Songket scarf/ }).click();
    await expect.poll(() => mysteryRow.innerText()).toContain('SONGKET');
    await b.page.getByRole('navigation', { name: 'Order lists' }).getByRole('link', { name: /New/ }).click();
    await expect.poll(() => row(b.page, second).count(), { timeout: 15_000 }).toBe(1);
    await expect
      .poll(() => row(b.page, second).locator('[col-id="flags"]').innerText(), { timeout: 15_000 })
      .toBe('');

    expect([...a.errors, ...b.errors]).toEqual([]);
    await a.page.context().close();
    await b.page.context().close();
  });
});
