import {
  type Catalogue,
  importOrder,
  line,
  marketplaceOrder,
  seedCatalogue,
} from '@tests/api/orders-support';
import { createSeller, type TestSeller } from '@tests/support/api';
import { type ConsoleServer, launchBrowser, signedInPage, startConsoleServer } from '@tests/support/browser';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The sales dashboard in a real Chromium: the console's home shows the seller's sales, charts drawn by AG Charts,
 * and fills as orders arrive from a store's import, over the live websocket, without a reload; the shortcuts stay.
 */
describe('the sales dashboard', () => {
  let server: ConsoleServer;
  let browser: Browser;
  let seller: TestSeller;
  let catalogue: Catalogue;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startConsoleServer(), launchBrowser()]);
    seller = await createSeller(server.api, { country: 'MY' });
    catalogue = await seedCatalogue(server.api, seller.tenantId);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const text = (page: Page, testId: string) => page.getByTestId(testId).innerText();
  const now = () => new Date().toISOString();

  it('fills live as orders arrive, with its charts drawn', async () => {
    const { page, errors } = await signedInPage(browser, server.url, seller.email, seller.password);
    await page.setViewportSize({ width: 1400, height: 1000 });
    await expect.poll(() => page.title()).toBe('Kedai - Dashboard');
    await expect.poll(() => text(page, 'revenue-today'), { timeout: 15_000 }).toBe('MYR 0.00');
    await expect.poll(() => text(page, 'orders-today')).toBe('0 orders');
    await expect.poll(() => page.getByRole('heading', { name: 'Shortcuts' }).count()).toBe(1);
    // The sales chart is drawn (a canvas of some size) even before the first sale.
    const canvases = page.locator('figure.chart canvas');
    await expect.poll(() => canvases.count(), { timeout: 15_000 }).toBeGreaterThan(0);
    const box = await canvases.first().boundingBox();
    expect(box?.width ?? 0).toBeGreaterThan(100);
    expect(box?.height ?? 0).toBeGreaterThan(100);

    // Marks the page: a reload would lose the mark.
    await page.evaluate('window.stayed = true');
    await importOrder(
      server.api,
      seller.tenantId,
      catalogue.warehouseId,
      marketplaceOrder([line('BATIK-01', 2)], { orderedAt: now(), paidAt: now(), updatedAt: now() }),
    );
    await expect.poll(() => text(page, 'revenue-today'), { timeout: 15_000 }).toBe('MYR 20.00');
    await expect.poll(() => text(page, 'orders-today')).toBe('1 order');
    await expect.poll(() => text(page, 'revenue-last_7_days')).toBe('MYR 20.00');
    await expect.poll(() => text(page, 'ranking-revenue')).toContain('BATIK');
    // The marketplace's share is drawn as a second chart once something sold.
    await expect.poll(() => canvases.count()).toBeGreaterThan(1);

    await importOrder(
      server.api,
      seller.tenantId,
      catalogue.warehouseId,
      marketplaceOrder([line('SONGKET-01', 1, { unitPrice: '25.00' })], {
        status: 'unpaid',
        orderedAt: now(),
        paidAt: null,
        updatedAt: now(),
      }),
    );
    await expect.poll(() => text(page, 'revenue-today'), { timeout: 15_000 }).toBe('MYR 45.00');
    await expect.poll(() => text(page, 'orders-today')).toBe('2 orders');
    await expect.poll(() => text(page, 'task-unpaid'), { timeout: 15_000 }).toContain('1');
    expect(await page.evaluate<boolean | undefined>('window.stayed')).toBe(true);
    expect(errors).toEqual([]);
  });
});
