import type { ShopeeSandbox } from '@integrations/shopee';
import { deleteSchedules, startStoreSandbox } from '@tests/api/stores-support';
import { createSeller, type TestSeller } from '@tests/support/api';
import { type ConsoleServer, launchBrowser, openPage, startConsoleServer } from '@tests/support/browser';
import { orderImportKey } from '@workflows/order-import-protocol';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Issue 6 in a real Chromium: a seller connects the sandbox's "Kedai Demo Store" from Settings → store integration
 * (the sandbox's authorisation page, the callback route, the result page), sees its orders imported, changes the
 * order check interval, sees an import that keeps failing on the store and then cleared by "Import now", and
 * disconnects it; a forged callback shows the failed result page.
 */
describe('store integration in the console', () => {
  let server: ConsoleServer;
  let browser: Browser;
  let sandbox: ShopeeSandbox;
  let restore: () => void;
  let retries: number;
  let seller: TestSeller;
  const made: { tenantId: string; storeId: string }[] = [];

  beforeAll(async () => {
    const started = await startStoreSandbox();
    ({ sandbox, restore } = started);
    retries = started.settings.importRetry.maximumAttempts;
    sandbox.generateOrders(5);
    [server, browser] = await Promise.all([startConsoleServer({ workflows: true }), launchBrowser()]);
    seller = await createSeller(server.api, { packageId: 'growth' });
  });
  afterAll(async () => {
    if (server) await deleteSchedules(server.api, made);
    await browser?.close();
    await server?.close();
    await sandbox?.stop();
    restore?.();
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

  it('connects the demo shop, imports its orders, and shows an import error until an import succeeds', async () => {
    const { page, errors } = await signedIn();
    await page.goto('/#/settings/store-integration');
    await expect
      .poll(() => page.getByRole('heading', { name: 'Store integration', level: 1 }).isVisible())
      .toBe(true);
    await expect
      .poll(() => page.getByText('No store is connected yet.', { exact: false }).isVisible())
      .toBe(true);

    // ---- the marketplace's authorisation, and back ----
    await page.getByRole('button', { name: 'Connect Shopee store' }).click();
    await page.waitForURL((url) => url.origin === sandbox.url);
    const authorize = page.getByRole('form', { name: 'Authorize Kedai Demo Store for Kedai Test' });
    await authorize.getByRole('button', { name: 'Authorize' }).click();
    await page.waitForURL((url) => url.hash.startsWith('#/settings/store/result'), { timeout: 20_000 });
    await expect.poll(() => page.getByRole('heading', { name: 'Store connected' }).isVisible()).toBe(true);
    await expect.poll(() => page.getByText('Store Kedai Demo Store connected.').isVisible()).toBe(true);
    const storeId = new URLSearchParams(page.url().split('?')[1]).get('api_id')!;
    made.push({ tenantId: seller.tenantId, storeId });

    // ---- the store, its orders imported ----
    await page.getByRole('link', { name: 'Back to store integration' }).click();
    const card = page.getByRole('article', { name: 'Kedai Demo Store' });
    await expect.poll(() => card.getByText('Connected', { exact: true }).isVisible()).toBe(true);
    await expect.poll(() => card.getByText('orders read: 5').isVisible(), { timeout: 30_000 }).toBe(true);

    // ---- the order check interval ----
    const interval = card.getByLabel('Order check interval');
    await interval.fill('0');
    await card.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(() => card.getByText('Enter a whole number of minutes from 1 to 1440.').isVisible())
      .toBe(true);
    await interval.fill('15');
    await card.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByText('Store updated.').isVisible()).toBe(true);
    const schedule = server.api.workflows.client.schedule.getHandle(orderImportKey(seller.tenantId, storeId));
    await expect.poll(async () => (await schedule.describe()).spec.intervals?.[0]?.every).toBe(15 * 60_000);

    // ---- an import that keeps failing shows on the store; the next one clears it ----
    sandbox.failNext({ kind: '5xx', times: retries, path: '/api/v2/order/get_order_list' });
    await card.getByRole('button', { name: 'Import now' }).click();
    await expect.poll(() => page.getByText('Import started.').isVisible()).toBe(true);
    const alert = card.getByRole('alert');
    await expect.poll(() => alert.isVisible(), { timeout: 30_000 }).toBe(true);
    await expect.poll(() => alert.innerText()).toContain('Shopee had a server error');
    await expect
      .poll(() => card.getByText('Error', { exact: true }).isVisible(), { timeout: 30_000 })
      .toBe(true);
    sandbox.generateOrders(2);
    await expect
      .poll(() => card.getByRole('button', { name: 'Import now' }).isEnabled(), { timeout: 30_000 })
      .toBe(true);
    await card.getByRole('button', { name: 'Import now' }).click();
    await expect.poll(() => alert.isVisible(), { timeout: 30_000 }).toBe(false);
    await expect.poll(() => card.getByText('Connected', { exact: true }).isVisible()).toBe(true);

    // ---- disconnected: paused, and offered to connect again ----
    await card.getByRole('button', { name: 'Disconnect' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Disconnect Kedai Demo Store?' });
    await confirm.getByRole('button', { name: 'Disconnect' }).click();
    await expect.poll(() => card.getByText('Disconnected', { exact: true }).isVisible()).toBe(true);
    await expect.poll(() => card.getByText('Paused (disconnected)').isVisible()).toBe(true);
    await expect.poll(() => card.getByRole('button', { name: 'Connect again' }).isVisible()).toBe(true);
    expect((await schedule.describe()).state.paused).toBe(true);
    expect(errors).toEqual([]);
  }, 180_000);

  it('shows the failed result of a callback whose state is not ours', async () => {
    const { page, errors } = await signedIn();
    await page.goto('/#/settings/store/add/shopee/create?state=forged.state&code=abc&shop_id=880001');
    await page.waitForURL((url) => url.hash.startsWith('#/settings/store/result'));
    await expect
      .poll(() => page.getByRole('heading', { name: 'The store was not connected' }).isVisible())
      .toBe(true);
    await expect
      .poll(() =>
        page
          .getByText('This store connection link is not valid. Start connecting the store again.')
          .isVisible(),
      )
      .toBe(true);
    await expect.poll(() => page.getByText('Result code 601').isVisible()).toBe(true);
    expect(errors).toEqual([]);
  });
});
