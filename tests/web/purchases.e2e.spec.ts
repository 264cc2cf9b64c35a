import { stockCalls } from '@tests/api/inventory/stock-api';
import { purchaseCalls } from '@tests/api/purchases-support';
import { createSeller, type TestSeller } from '@tests/support/api';
import { type ConsoleServer, launchBrowser, signedInPage, startConsoleServer } from '@tests/support/browser';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Issue 5 in a real Chromium, with the real workflows: a seller raises a purchase order in the form and places it,
 * receives it through a goods receive note, and the order becomes received; a second browser's purchase list follows
 * without a reload.
 */
describe('purchases in the console', () => {
  let server: ConsoleServer;
  let browser: Browser;
  let seller: TestSeller;
  const calls = purchaseCalls(() => server.api);
  const stock = stockCalls(() => server.api);

  beforeAll(async () => {
    [server, browser] = await Promise.all([startConsoleServer({ workflows: true }), launchBrowser()]);
    seller = await createSeller(server.api, { packageId: 'growth' });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const signedIn = () => signedInPage(browser, server.url, seller.email, seller.password);

  it('raises a purchase, receives it, and the other browser follows', async () => {
    const warehouse = await stock.warehouse(seller.token, 'MAIN');
    const batik = await stock.masterCode(seller.token, 'BATIK');
    await calls.supplier(seller.token, 'Kilang Batik', { code: 'KB' });

    const a = await signedIn();
    const b = await signedIn();
    await b.page.setViewportSize({ width: 1920, height: 1000 });
    await b.page.goto('/#/purchases/list');
    await expect
      .poll(() => b.page.getByRole('heading', { name: 'Purchases', level: 1 }).isVisible())
      .toBe(true);

    // ---- the form ----
    await a.page.goto('/#/purchases/add');
    const form = a.page.getByRole('form', { name: 'Add purchase' });
    // Sent empty, the form says everything that is missing at once, not one thing per submit.
    await a.page.getByRole('button', { name: 'Place order' }).click();
    await expect.poll(() => form.getByText('Please choose a supplier.').isVisible()).toBe(true);
    expect(await form.getByText('Please add at least one item.').isVisible()).toBe(true);
    await form.getByLabel('Supplier').selectOption({ label: 'KB — Kilang Batik' });
    await form.getByLabel('Deliver to').selectOption({ label: 'MAIN — Warehouse MAIN' });
    await form.getByLabel('Reference').fill('E2E-PO');
    await form.getByLabel('Add an item').fill('BAT');
    await a.page.getByRole('button', { name: /BATIK — Item BATIK/ }).click();
    await form.getByLabel('Quantity of BATIK').fill('6');
    await form.getByLabel('Unit cost of BATIK').fill('3.5');
    await a.page.getByRole('button', { name: 'Place order' }).click();
    await a.page.waitForURL(/#\/purchases\/detail\/[0-9a-f-]{36}/);
    const purchaseId = /detail\/([0-9a-f-]{36})/.exec(a.page.url())![1]!;
    await expect.poll(() => a.page.locator('.badge[data-status="ordered"]').isVisible()).toBe(true);
    expect((await calls.stockOf(seller.tenantId, batik.id, warehouse.id)).incoming).toBe(6);

    // ---- the other browser's list shows it without a reload ----
    const row = b.page.locator(`[row-id="${purchaseId}"]`);
    await expect
      .poll(() => row.locator('[col-id="status"]').innerText(), { timeout: 15_000 })
      .toBe('Ordered');

    // ---- receive it through a goods receive note ----
    await a.page.getByRole('button', { name: 'Receive goods' }).click();
    const dialog = a.page.getByRole('dialog');
    await dialog.getByLabel('Received of BATIK').fill('6');
    await dialog.getByRole('button', { name: 'Save goods receive note' }).click();
    await a.page.waitForURL(/#\/inventory\/goods-receive-notes\/[0-9a-f-]{36}/);
    await expect
      .poll(() => a.page.locator('.badge[data-status="2"]').isVisible(), { timeout: 15_000 })
      .toBe(true);
    expect(await calls.stockOf(seller.tenantId, batik.id, warehouse.id)).toMatchObject({
      onHand: 6,
      incoming: 0,
    });

    await expect
      .poll(() => row.locator('[col-id="status"]').innerText(), { timeout: 15_000 })
      .toBe('Received');
    await a.page.getByRole('link', { name: /^PO-\d{6}$/ }).click();
    await expect.poll(() => a.page.locator('.badge[data-status="received"]').isVisible()).toBe(true);
    await expect
      .poll(() => a.page.locator('[data-code="BATIK"] [data-field="average_cost"]').innerText(), {
        timeout: 15_000,
      })
      .toBe('3.50');
    expect(a.errors).toEqual([]);
    expect(b.errors).toEqual([]);
  });

  it('lists suppliers, notes and the bulk upload form, and adds a supplier in its form', async () => {
    const { page, errors } = await signedIn();
    await page.goto('/#/purchases/supplier');
    await page.getByRole('button', { name: 'Add supplier' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add supplier' });
    await dialog.getByRole('button', { name: 'Save supplier' }).click();
    await expect.poll(() => dialog.getByText('Must fill store name').isVisible()).toBe(true);
    const fields: [string, string][] = [
      ['Store name', 'Toko Maju'],
      ['Company', 'PT Maju'],
      ['Contact number', '+62 21 555 0101'],
      ['Address', 'Jl. Thamrin 1'],
      ['City', 'Jakarta'],
      ['Postal code', '10310'],
      ['State', 'DKI Jakarta'],
      ['Country', 'Indonesia'],
    ];
    for (const [label, value] of fields) await dialog.getByLabel(label, { exact: true }).fill(value);
    await dialog.getByRole('button', { name: 'Save supplier' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    await expect
      .poll(() => page.getByRole('button', { name: 'Deactivate Toko Maju' }).isVisible())
      .toBe(true);

    await page.goto('/#/inventory/goods-receive-notes');
    await expect.poll(() => page.getByRole('link', { name: /Open goods receive note GRN-/ }).count()).toBe(1);
    await page.goto('/#/purchases/bulk-upload');
    await expect.poll(() => page.getByRole('button', { name: 'Upload' }).isVisible()).toBe(true);
    expect(errors).toEqual([]);
  });
});
