import { randomUUID } from 'node:crypto';
import type { PushedLine } from '@domain/channels/push-log';
import { createSeller, type TestSeller } from '@tests/support/api';
import { type ConsoleServer, launchBrowser, signedInPage, startConsoleServer } from '@tests/support/browser';
import { seedStore } from '@tests/workflows/stock-push-support';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Catalogue, seedCatalogue } from '../api/orders-support';

/**
 * The sync quantity log (/logistic/sync-qty-log) in the browser: what Kedai told each store for each SKU and why,
 * a failure waiting to retry found by its filter, the store filter, price pushes beside stock pushes, and the
 * chosen store's push queue.
 */
describe('the sync quantity log in the console', () => {
  let server: ConsoleServer;
  let browser: Browser;
  let seller: TestSeller;
  let catalogue: Catalogue;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startConsoleServer({ workflows: true }), launchBrowser()]);
    seller = await createSeller(server.api);
    catalogue = await seedCatalogue(server.api, seller.tenantId);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** A push call as the stock push (or, with `field: 'price'`, the price push) records it. */
  async function pushed(
    storeId: string,
    line: Partial<PushedLine> & Pick<PushedLine, 'sellerSku'>,
    field: 'stock' | 'price' = 'stock',
  ) {
    const at = new Date().toISOString();
    await server.api.store.append(
      `channelpush-${seller.tenantId}.${storeId}`,
      [
        {
          type: 'ChannelUpdatePushed',
          data: {
            storeId,
            platform: 'shopee',
            field,
            pushedAt: at,
            lines: [
              {
                itemId: `item-${line.sellerSku}`,
                modelId: '',
                masterCodeId: catalogue.batik,
                ...(field === 'stock' ? { quantity: 8 } : {}),
                trigger: { origin: 'change', eventType: 'StockReserved', reason: 'Order accepted' },
                attempt: 1,
                outcome: 'ok',
                answer: '',
                ...line,
              },
            ],
          },
          metadata: { tenantId: seller.tenantId, occurredAt: at },
        },
      ],
      { expectedRevision: 'any' },
    );
  }

  it('shows what each store was told and why, and finds the failures waiting to retry', async () => {
    const shopee = await seedStore(server.api.database.db, seller.tenantId, { name: 'Batik Shopee' });
    const second = await seedStore(server.api.database.db, seller.tenantId, { name: 'Songket Shopee' });
    await pushed(shopee, { sellerSku: 'BATIK-01' });
    await pushed(second, {
      sellerSku: 'SONGKET-01',
      quantity: 3,
      outcome: 'retrying',
      answer: 'error_busy: the shop is busy',
      trigger: { origin: 'change', eventType: 'StockAdjusted', reason: 'Stock count' },
    });
    const { page, errors } = await signedInPage(browser, server.url, seller.email, seller.password);

    // Every column in view (the grid renders only the columns that fit).
    await page.setViewportSize({ width: 1920, height: 1000 });
    await page.goto('/#/logistic/sync-qty-log');
    await expect.poll(() => page.title()).toBe('Kedai - Sync quantity log');
    const batikRow = page.locator('.ag-row', { hasText: 'BATIK-01' });
    await expect.poll(() => batikRow.count(), { timeout: 15_000 }).toBe(1);
    expect(await batikRow.locator('[col-id="why"]').innerText()).toBe(
      'Reserved for an order: Order accepted',
    );
    expect(await batikRow.locator('[col-id="store"]').innerText()).toBe('Batik Shopee');
    expect(await batikRow.locator('[col-id="outcome"]').innerText()).toBe('Taken');
    await expect.poll(() => page.locator('.ag-row', { hasText: 'SONGKET-01' }).count()).toBe(1);

    await page.getByLabel('Waiting to retry only').check();
    await expect.poll(() => page.locator('.ag-row', { hasText: 'BATIK-01' }).count()).toBe(0);
    const waiting = page.locator('.ag-row', { hasText: 'SONGKET-01' });
    await expect.poll(() => waiting.count()).toBe(1);
    expect(await waiting.locator('[col-id="answer"]').innerText()).toBe('error_busy: the shop is busy');
    expect(await waiting.locator('[col-id="outcome"]').innerText()).toBe('Will retry');

    await page.getByLabel('Waiting to retry only').uncheck();
    await page.getByLabel('Store', { exact: true }).selectOption({ label: 'Batik Shopee' });
    await expect.poll(() => page.locator('.ag-row', { hasText: 'SONGKET-01' }).count()).toBe(0);
    await expect.poll(() => page.locator('.ag-row', { hasText: 'BATIK-01' }).count()).toBe(1);

    // A new push shows without a reload.
    await pushed(shopee, { sellerSku: 'BATIK-02', quantity: 5 });
    await expect
      .poll(() => page.locator('.ag-row', { hasText: 'BATIK-02' }).count(), { timeout: 15_000 })
      .toBe(1);
    expect(errors).toEqual([]);
  });

  it('shows the prices told beside the quantities, and filters by what was pushed', async () => {
    const shop = await seedStore(server.api.database.db, seller.tenantId, { name: 'Price Shopee' });
    await pushed(shop, { sellerSku: 'KAIN-01', quantity: 4 });
    await pushed(
      shop,
      {
        sellerSku: 'KAIN-01',
        price: '49.90',
        trigger: { origin: 'pricing', eventId: randomUUID(), reason: '' },
        attempt: 2,
        outcome: 'retrying',
        answer: 'error_busy: the shop is busy',
      },
      'price',
    );
    const { page, errors } = await signedInPage(browser, server.url, seller.email, seller.password);
    await page.setViewportSize({ width: 1920, height: 1000 });
    await page.goto('/#/logistic/sync-qty-log');
    await page.getByLabel('Store', { exact: true }).selectOption({ label: 'Price Shopee' });
    const rows = page.locator('.ag-row', { hasText: 'KAIN-01' });
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(2);
    // The store's push queue, asked of its workflow: none has run for it, so nothing waits.
    const queue = page.getByRole('region', { name: 'Still to push' });
    await expect
      .poll(() => queue.innerText(), { timeout: 15_000 })
      .toContain('0 figures waiting to be told to the store.');

    await page.getByLabel('Stock or prices').selectOption({ label: 'Price' });
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.locator('[col-id="field"]').innerText()).toBe('Price');
    expect(await rows.locator('[col-id="price"]').innerText()).toBe('49.90');
    expect(await rows.locator('[col-id="quantity"]').innerText()).toBe('');
    expect(await rows.locator('[col-id="why"]').innerText()).toBe('Price rule');
    expect(await rows.locator('[col-id="attempt"]').innerText()).toBe('2');
    expect(await rows.locator('[col-id="outcome"]').innerText()).toBe('Will retry');

    await page.getByLabel('Stock or prices').selectOption({ label: 'Stock' });
    await expect.poll(() => rows.locator('[col-id="quantity"]').first().innerText()).toBe('4');
    expect(await rows.count()).toBe(1);
    expect(await rows.locator('[col-id="field"]').innerText()).toBe('Stock');

    // The store's price control page lists the same price push, from the same log, and not the stock one.
    await page.goto('/#/products/marketplace-pricing');
    await page.getByLabel('Store', { exact: true }).selectOption({ label: 'Price Shopee' });
    const priced = page.locator('.ag-row', { hasText: 'KAIN-01' });
    await expect.poll(() => priced.count(), { timeout: 15_000 }).toBe(1);
    expect(await priced.locator('[col-id="price"]').innerText()).toBe('49.90');
    expect(await priced.locator('[col-id="outcome"]').innerText()).toBe('Will retry');
    expect(await priced.locator('[col-id="answer"]').innerText()).toBe('error_busy: the shop is busy');
    expect(errors).toEqual([]);
  });
});
