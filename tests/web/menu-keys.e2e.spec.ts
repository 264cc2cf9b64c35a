import { STANDARD_PACKAGES } from '@domain/access/packages';
import { createSeller, createSubUser, type TestSeller } from '@tests/support/api';
import {
  type ConsoleServer,
  launchBrowser,
  openPage,
  signedInPage,
  startConsoleServer,
} from '@tests/support/browser';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The menu follows the keys the API asks for (issue 14 item 6): a sub-user without an order key is offered no order
 * screen, opening one by its address shows "Access denied", and nothing the console calls on the way is refused. A
 * package without a module hides its screens from everyone, the owner included. And the spec's paths for screens
 * served under another path lead there.
 */

describe('the menu and the screens follow the permission keys and the package', () => {
  let server: ConsoleServer;
  let browser: Browser;
  let seller: TestSeller;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startConsoleServer(), launchBrowser()]);
    seller = await createSeller(server.api, { packageId: 'trial' });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** A page signed in with an API token, that records every call of the API the server refused (401/403). */
  async function pageWithToken(token: string): Promise<{ page: Page; errors: string[]; refused: string[] }> {
    const opened = await openPage(browser, server.url);
    const refused: string[] = [];
    opened.page.on('response', (response) => {
      const url = new URL(response.url());
      if (url.pathname.startsWith('/api/') && [401, 403].includes(response.status()))
        refused.push(`${response.request().method()} ${url.pathname} ${response.status()}`);
    });
    await opened.page.addInitScript(`localStorage.setItem('token', ${JSON.stringify(token)})`);
    return { ...opened, refused };
  }

  const menu = (page: Page) => page.getByRole('navigation').first();

  it('offers a sub-user without an order key no order screen, and no call of theirs is refused', async () => {
    const clerk = await createSubUser(server.api, seller.tenantId, ['inventory-master-code']);
    const { page, errors, refused } = await pageWithToken(clerk.token);
    await page.goto('/#/');
    await expect.poll(() => menu(page).getByRole('link', { name: 'Master codes' }).isVisible()).toBe(true);
    const offered = await menu(page).innerText();
    for (const label of ['Manage orders', 'Print settings', 'Print log', 'Smart scan', 'Batches']) {
      expect(offered, label).not.toContain(label);
    }

    // Opened by its address, each order screen says so instead of calling the API.
    for (const path of ['/#/orders/manage/all', '/#/orders/new-orders', '/#/orders/print-settings']) {
      await page.goto(path);
      await expect.poll(() => page.title()).toBe('Kedai - Access denied');
    }
    await page.goto('/#/inventory/master-code');
    await expect.poll(() => page.title()).toBe('Kedai - Master codes');
    await page.waitForLoadState('networkidle');
    expect(refused).toEqual([]);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('offers a sub-user who prints the board and the print settings', async () => {
    const packer = await createSubUser(server.api, seller.tenantId, ['orders-unscan']);
    const { page, errors, refused } = await pageWithToken(packer.token);
    await page.goto('/#/');
    await expect.poll(() => menu(page).getByRole('link', { name: 'Manage orders' }).isVisible()).toBe(true);
    await expect.poll(() => menu(page).getByRole('link', { name: 'Print settings' }).isVisible()).toBe(true);
    await page.goto('/#/orders/manage/all');
    await expect.poll(() => page.title()).toBe('Kedai - All orders');
    await page.waitForLoadState('networkidle');
    expect(refused).toEqual([]);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('hides the screens of a module the package leaves out, from the owner too', async () => {
    const trial = STANDARD_PACKAGES.find((pkg) => pkg.id === 'trial')!;
    await server.api.database.db
      .insertInto('packages')
      .values({
        id: 'no-modules',
        name: 'No modules',
        limits: JSON.stringify(trial.limits),
        flags: JSON.stringify({ ...trial.flags, userLevelModule: false, smartScan: false }),
      })
      .execute();
    const bare = await createSeller(server.api, { packageId: 'no-modules' });
    const { page, errors } = await signedInPage(browser, server.url, bare.email, bare.password);
    await expect.poll(() => menu(page).getByRole('link', { name: 'Manage orders' }).isVisible()).toBe(true);
    const offered = await menu(page).innerText();
    for (const label of ['Smart scan', 'Users', 'Group permissions'])
      expect(offered, label).not.toContain(label);
    await page.goto('/#/orders/smart-scan');
    await expect.poll(() => page.title()).toBe('Kedai - Access denied');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it("answers at the spec's paths of screens served under another path", async () => {
    const { page, errors } = await signedInPage(browser, server.url, seller.email, seller.password);
    const landings = [
      ['/#/good-receive-note/list', '#/inventory/goods-receive-notes'],
      ['/#/good-issue-note/list', '#/inventory/goods-issue-notes'],
      ['/#/kedai-webstore/category', '#/webstore/category'],
    ] as const;
    for (const [spec, served] of landings) {
      await page.goto(spec);
      await expect.poll(() => new URL(page.url()).hash, { message: spec }).toBe(served);
    }
    // Any other unknown path is still the 404 page.
    await page.goto('/#/no-such-screen');
    await expect.poll(() => page.getByText('404').isVisible()).toBe(true);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
