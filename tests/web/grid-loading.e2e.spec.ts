import { createSeller, type TestSeller } from '@tests/support/api';
import { type ConsoleServer, launchBrowser, signedInPage, startConsoleServer } from '@tests/support/browser';
import type { Browser, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * A grid's first rows on their way show a spinner (the order board used to show one empty row, read as "no orders"),
 * and the spinner leaves when the rows come.
 */
describe('a grid loading its first rows', () => {
  let server: ConsoleServer;
  let browser: Browser;
  let seller: TestSeller;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startConsoleServer(), launchBrowser()]);
    seller = await createSeller(server.api, { packageId: 'growth' });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows a spinner on the order board until the first rows answer', async () => {
    const { page, errors } = await signedInPage(browser, server.url, seller.email, seller.password);
    // The board's list requests wait until the test lets them through.
    const held: Route[] = [];
    await page.route(
      (url) => url.pathname === '/api/orders',
      (route) => {
        held.push(route);
      },
    );
    await page.goto('/#/orders/manage/new');
    await expect.poll(() => held.length, { timeout: 15_000 }).toBeGreaterThan(0);
    const grid = page.getByRole('region', { name: 'Orders', exact: true });
    await expect.poll(() => grid.getByRole('status').isVisible()).toBe(true);
    await expect.poll(() => grid.getByRole('status').innerText()).toContain('Loading…');

    await page.unroute((url) => url.pathname === '/api/orders');
    for (const route of held.splice(0)) await route.continue();
    await expect.poll(() => grid.getByText('No record found!').isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await grid.getByRole('status').count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
