import { settleAll, stockWithHistory } from '@tests/audit/audit-support';
import { createSeller, type TestSeller } from '@tests/support/api';
import { type ConsoleServer, launchBrowser, signedInPage, startConsoleServer } from '@tests/support/browser';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The auditor's replay in a real Chromium: from the stock list's "Replay" link, a stock's history is stepped through
 * event by event (who, what, every figure before and after), back again, and on to the replay of the order that
 * reserved the stock.
 */
describe("the auditor's replay in the console", () => {
  let server: ConsoleServer;
  let browser: Browser;
  let seller: TestSeller;
  let orderId: string;
  const at = (minute: number) => new Date(Date.UTC(2026, 7, 1, 9, minute));

  beforeAll(async () => {
    [server, browser] = await Promise.all([startConsoleServer(), launchBrowser()]);
    seller = await createSeller(server.api, { packageId: 'growth' });
    ({ orderId } = await stockWithHistory(server.api, seller, at, () => ({
      type: 'AdjustStock',
      mode: 'deduct',
      quantity: 1,
      refuseNegative: false,
      reason: 'Broken in storage',
    })));
    await settleAll(server.api, seller.tenantId);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("steps through a stock's history and on to the order behind a movement", async () => {
    const { page, errors } = await signedInPage(browser, server.url, seller.email, seller.password);
    await page.setViewportSize({ width: 1920, height: 1000 });
    await page.goto('/#/inventory/list');
    await page.getByRole('link', { name: 'Replay the history of CUP in W1' }).click();
    await page.waitForURL(/#\/audit\/stock\?/);

    const position = page.getByTestId('replay-position');
    const figure = (name: string) => page.getByTestId(`figure-${name}`);
    await expect.poll(() => position.innerText(), { timeout: 15_000 }).toBe('Step 1 of 3');
    expect(await page.getByTestId('replay-action').innerText()).toBe('Received');
    expect(await page.getByTestId('replay-who').innerText()).toBe('Siti Aminah');
    expect(await figure('on_hand').getByTestId('before').innerText()).toBe('0');
    expect(await figure('on_hand').getByTestId('after').innerText()).toBe('10');

    await page.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => position.innerText()).toBe('Step 2 of 3');
    expect(await figure('reserved').getByTestId('before').innerText()).toBe('0');
    expect(await figure('reserved').getByTestId('after').innerText()).toBe('4');
    expect(await figure('available').getByTestId('after').innerText()).toBe('6');

    await page.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => position.innerText()).toBe('Step 3 of 3');
    expect(await page.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true);
    expect(await figure('on_hand').getByTestId('before').innerText()).toBe('10');
    expect(await figure('on_hand').getByTestId('after').innerText()).toBe('9');
    expect(await page.getByTestId('replay-event').innerText()).toContain('Broken in storage');

    await page.getByRole('button', { name: 'Previous' }).click();
    await expect.poll(() => position.innerText()).toBe('Step 2 of 3');
    // The reservation's order, replayed from its link.
    await page.getByTestId('replay-event').getByRole('link').click();
    await page.waitForURL(new RegExp(`#/audit/order/${orderId}`));
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).innerText(), { timeout: 15_000 })
      .toBe('Order history');
    await expect.poll(() => page.getByTestId('replay-position').innerText()).toMatch(/^Step 1 of \d+$/);

    // The stock in the valuation report now (beside the order's catalogue), and at a past instant when it alone had moved.
    await page.goto('/#/audit/as-of/stock');
    await expect.poll(() => page.getByTestId('as-of-on-hand').innerText(), { timeout: 15_000 }).toBe('209');
    await expect.poll(() => page.locator('[row-id] [col-id="code"]').allInnerTexts()).toContain('CUP');
    await page.goto(`/#/audit/as-of/stock?at=${encodeURIComponent(at(5).toISOString())}`);
    await expect.poll(() => page.getByTestId('as-of-stocks').innerText()).toBe('1');
    await expect.poll(() => page.getByTestId('as-of-on-hand').innerText()).toBe('9');

    expect(errors).toEqual([]);
    await page.context().close();
  });
});
