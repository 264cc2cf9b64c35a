import { randomUUID } from 'node:crypto';
import { loadOrder } from '@commands/orders/order';
import { callerOf, data, makeOrders } from '@tests/api/batches-support';
import { line, seedCatalogue } from '@tests/api/orders-support';
import { createSeller, type TestSeller } from '@tests/support/api';
import { type ConsoleServer, launchBrowser, openPage, startConsoleServer } from '@tests/support/browser';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Smart scan in a real Chromium, driven as a keyboard-wedge scanner drives it: the scanner types into the focused
 * input and presses Enter. A picker scans a batch's order — the tracking number, a wrong item, then every item —
 * and the order is scanned; a second browser on the batch list sees the batch's progress move without a reload.
 */
describe('smart scan in the console', () => {
  let server: ConsoleServer;
  let browser: Browser;
  let seller: TestSeller;
  const call = callerOf(() => server.api);

  beforeAll(async () => {
    [server, browser] = await Promise.all([startConsoleServer(), launchBrowser()]);
    seller = await createSeller(server.api);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function signedIn(who = seller): Promise<{ page: Page; errors: string[] }> {
    const opened = await openPage(browser, server.url);
    await opened.page.goto('/#/login');
    await opened.page.getByLabel('Username or e-mail').fill(who.email);
    await opened.page.getByLabel('Password', { exact: true }).fill(who.password);
    await opened.page.getByRole('button', { name: 'Sign in' }).click();
    await opened.page.waitForURL((url) => url.hash === '#/' || url.hash === '');
    return opened;
  }

  /** Whether the element has the page's focus (evaluated in the page). */
  const hasFocus = (element: unknown) =>
    (element as { ownerDocument: { activeElement: unknown } }).ownerDocument.activeElement === element;

  /** What a scanner does: type what it read into whatever has the focus, then Enter. */
  async function scan(page: Page, text: string) {
    if (text) await page.keyboard.type(text, { delay: 5 });
    await page.keyboard.press('Enter');
  }

  it('scans an order by keyboard: tracking number, then each item; the batch list follows live', async () => {
    const catalogue = await seedCatalogue(server.api, seller.tenantId);
    const tracking = `MYE2E${randomUUID().slice(0, 8).toUpperCase()}`;
    const [order] = await makeOrders(server.api, seller.tenantId, catalogue, [
      { tracking, lines: [line('BATIK-01', 2), line('SONGKET-01', 1)] },
    ]);
    const made = await data<{ batches: { id: string; label: string }[] }>(
      call('POST', '/api/orders/batches', seller.token, { order_ids: [order!.orderId], prefix: 'SC' }),
    );
    const batch = made.batches[0]!;

    const a = await signedIn();
    const b = await signedIn();
    // ---- the second browser watches the batch list ----
    await b.page.setViewportSize({ width: 1920, height: 1000 });
    await b.page.goto('/#/orders/batch');
    const progress = b.page.locator(`[row-id="${batch.id}"] [col-id="total_orders"]`);
    await expect.poll(() => progress.innerText(), { timeout: 15_000 }).toBe('0/1 (0%)');

    // ---- the picker's screen: the input has the focus, as a scanner needs ----
    await a.page.goto('/#/orders/smart-scan');
    await expect
      .poll(() => a.page.getByRole('heading', { name: 'Smart scan', level: 1 }).isVisible())
      .toBe(true);
    const trackingInput = a.page.getByLabel('Tracking number', { exact: true });
    await expect.poll(() => trackingInput.evaluate(hasFocus)).toBe(true);
    await a.page.getByLabel('Scan by batch').selectOption({ value: batch.id });
    await expect.poll(() => trackingInput.evaluate(hasFocus)).toBe(true);

    await scan(a.page, '');
    const alert = a.page.getByRole('alert');
    await expect.poll(() => alert.innerText()).toBe('Tracking Number is required');

    await scan(a.page, tracking);
    const orderSection = a.page.getByRole('region', { name: `Order ${order!.orderNumber}` });
    await expect.poll(() => orderSection.isVisible()).toBe(true);
    const itemInput = a.page.getByLabel('Item code', { exact: true });
    await expect.poll(() => itemInput.evaluate(hasFocus)).toBe(true);
    const lines = a.page.getByRole('table', { name: 'Items of the order' });
    await expect.poll(() => lines.innerText()).toContain('0/2');

    await scan(a.page, 'NOPE-1');
    await expect.poll(() => alert.innerText()).toBe('Item Code [NOPE-1] invalid');

    await scan(a.page, 'BATIK');
    await expect.poll(() => lines.innerText()).toContain('1/2');
    await scan(a.page, 'batik-01');
    await expect.poll(() => lines.innerText()).toContain('2/2');
    await scan(a.page, 'SONGKET');
    await expect
      .poll(() =>
        a.page
          .getByRole('status')
          .filter({ hasText: `Order ${order!.orderNumber} scanned` })
          .isVisible(),
      )
      .toBe(true);
    await expect.poll(() => a.page.getByText('3 of 3 items (100%)').isVisible()).toBe(true);
    // The next scan is a tracking number again, and the input kept the focus.
    await expect.poll(() => trackingInput.evaluate(hasFocus)).toBe(true);
    expect((await loadOrder(server.api.store, seller.tenantId, order!.orderId)).status).toBe('scanned');

    // Scanning the same tracking number again is refused.
    await scan(a.page, tracking);
    await expect.poll(() => alert.innerText()).toBe('Already scanned and checking in progress');

    // ---- the batch list in the other browser moved without a reload ----
    await expect.poll(() => progress.innerText(), { timeout: 15_000 }).toBe('1/1 (100%)');
    expect([...a.errors, ...b.errors]).toEqual([]);
    await a.page.context().close();
    await b.page.context().close();
  });

  it('takes a serial number after each item when asked, and records it on the order line', async () => {
    // An account of its own: its catalogue has the same codes as the first test's.
    const packer = await createSeller(server.api);
    const catalogue = await seedCatalogue(server.api, packer.tenantId);
    const tracking = `MYSN${randomUUID().slice(0, 8).toUpperCase()}`;
    const [order] = await makeOrders(server.api, packer.tenantId, catalogue, [
      { tracking, lines: [line('BATIK-01', 2), line('SONGKET-01', 1)] },
    ]);
    const { page, errors } = await signedIn(packer);
    await page.goto('/#/orders/smart-scan');
    await page.getByLabel('Scan serial numbers').check();
    const trackingInput = page.getByLabel('Tracking number', { exact: true });
    await expect.poll(() => trackingInput.evaluate(hasFocus)).toBe(true);
    await scan(page, tracking);
    const lines = page.getByRole('table', { name: 'Items of the order' });
    await expect.poll(() => lines.innerText()).toContain('0/2');

    // An item, then its serial number in the same input; Enter alone skips the next one.
    await scan(page, 'BATIK');
    const serialInput = page.getByLabel('Serial number of BATIK', { exact: true });
    await expect.poll(() => serialInput.evaluate(hasFocus)).toBe(true);
    await scan(page, 'SN-A1');
    await expect.poll(() => lines.innerText()).toContain('SN-A1');
    await expect.poll(() => page.getByLabel('Item code', { exact: true }).evaluate(hasFocus)).toBe(true);
    await scan(page, 'BATIK');
    await expect.poll(() => serialInput.isVisible()).toBe(true);
    await scan(page, '');
    await expect.poll(() => page.getByLabel('Item code', { exact: true }).isVisible()).toBe(true);
    // The same serial twice on the order is refused with the drawer's rule, and may be scanned again.
    await scan(page, 'SONGKET');
    await expect
      .poll(() => page.getByLabel('Serial number of SONGKET', { exact: true }).isVisible())
      .toBe(true);
    await scan(page, 'SN-A1');
    await expect
      .poll(() => page.getByRole('alert').innerText())
      .toBe('Serial number SN-A1 is already on this order: each unit has its own.');
    await scan(page, 'SN-B7');
    await expect.poll(() => lines.innerText()).toContain('SN-B7');

    const recorded = (await loadOrder(server.api.store, packer.tenantId, order!.orderId)).lines;
    expect(recorded.map((l) => [l.sellerSku, l.serialNumbers ?? []])).toEqual([
      ['BATIK-01', ['SN-A1']],
      ['SONGKET-01', ['SN-B7']],
    ]);
    expect((await loadOrder(server.api.store, packer.tenantId, order!.orderId)).status).toBe('scanned');
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
