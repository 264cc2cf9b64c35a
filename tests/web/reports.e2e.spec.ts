import { readFile } from 'node:fs/promises';
import { seedKnownOrders } from '@tests/reports/reports-support';
import { createSeller, type TestSeller } from '@tests/support/api';
import { type ConsoleServer, launchBrowser, signedInPage, startConsoleServer } from '@tests/support/browser';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * A report in a real Chromium: from the reports' index to the sales report, filtered to January 2026, its rows and
 * totals on screen, exported to CSV with the same filters; and its note of what it cannot show yet.
 */
describe('reports in the console', () => {
  let server: ConsoleServer;
  let browser: Browser;
  let seller: TestSeller;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startConsoleServer(), launchBrowser()]);
    seller = await createSeller(server.api);
    await seedKnownOrders(server.api, seller);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('opens the sales report, filters it to January, shows its totals and exports it', async () => {
    const { page, errors } = await signedInPage(browser, server.url, seller.email, seller.password);
    await page.setViewportSize({ width: 1600, height: 1000 });
    await page.goto('/#/reports');
    await expect.poll(() => page.title()).toBe('Kedai - Reports');
    await page
      .getByRole('region', { name: 'Sales' })
      .getByRole('link', { name: 'Sales', exact: true })
      .click();
    await expect.poll(() => page.title()).toBe('Kedai - Sales');
    await expect
      .poll(() => page.getByRole('note').first().innerText())
      .toMatch(/Point of sale \(POS\) sales are not included/);

    // The last 30 days hold none of the January orders.
    const totals = page.getByTestId('report-totals');
    await expect.poll(() => page.getByTestId('report-total-rows').innerText()).toBe('0');

    await page.getByLabel('From', { exact: true }).fill('2026-01-01');
    await page.getByLabel('To', { exact: true }).fill('2026-01-31');
    await expect.poll(() => page.getByTestId('report-total-rows').innerText()).toBe('3');
    await expect.poll(() => page.getByTestId('report-total-revenue').innerText()).toBe('160.00');
    expect(await totals.innerText()).toMatch(/Orders\s*3/);
    const grid = page.getByRole('region', { name: 'Report rows' });
    await expect
      .poll(() =>
        grid
          .locator('.ag-row')
          .filter({ hasText: /store-[ab]/ })
          .count(),
      )
      .toBe(3);
    await expect.poll(() => grid.innerText()).toMatch(/2026-01-05[\s\S]*store-a/);

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^report-sales-\d{8}\.csv$/);
    const lines = (await readFile((await file.path())!, 'utf8'))
      .replace(/^\ufeff/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toBe(
      'Day,Store,Orders,Paid orders,Items,Revenue,Shipping fee,Cancelled orders,Returned amount',
    );
    expect(lines.slice(1).map((line) => line.split(',')[0])).toEqual([
      '2026-01-07',
      '2026-01-06',
      '2026-01-05',
    ]);
    expect(errors).toEqual([]);
  });
});
