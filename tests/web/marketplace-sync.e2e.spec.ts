import { createStockPushReactor } from '@commands/channels/stock-push-reactor';
import type { ShopeeSandbox } from '@integrations/shopee';
import { ReactorRunner } from '@projections/runtime/reactor';
import { PIXEL_PNG } from '@tests/api/listings-support';
import { deleteSchedules, startStoreSandbox } from '@tests/api/stores-support';
import { caller, createSeller, type TestSeller } from '@tests/support/api';
import { type ConsoleServer, launchBrowser, signedInPage, startConsoleServer } from '@tests/support/browser';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Issue 15's "Done when", end to end in a real Chromium, each step as a seller takes it in the console: a new
 * seller connects two sandbox Shopee shops, downloads the first one's items and links a T-shirt's two SKUs to master
 * codes, makes a listing with variants on those master codes and edits its variants, publishes it to both stores
 * and watches each store's run finish, then sets the stock of one master code and finds the new quantity in the sync
 * quantity log for both stores — and in the sandbox's own shops.
 */
describe('marketplace sync from download to stock push, in a browser', () => {
  let server: ConsoleServer;
  let browser: Browser;
  let sandbox: ShopeeSandbox;
  let restore: () => void;
  let seller: TestSeller;
  let pushReactor: ReactorRunner;
  const made: { tenantId: string; storeId: string }[] = [];

  beforeAll(async () => {
    ({ sandbox, restore } = await startStoreSandbox({
      shops: [
        // The first shop sells the sandbox's usual goods (a T-shirt with two models among them).
        { name: 'Kedai Kain' },
        { name: 'Kedai Kain Dua', skus: ['CABLE-USBC-1M'] },
      ],
    }));
    [server, browser] = await Promise.all([startConsoleServer({ workflows: true }), launchBrowser()]);
    // The stock push reactor, as `npm start` runs it beside the worker.
    const db = server.api.database.systemDb;
    pushReactor = new ReactorRunner({
      db,
      store: server.api.store,
      reactors: [createStockPushReactor({ db, store: server.api.store, workflows: server.api.workflows })],
      retryMs: 50,
    });
    pushReactor.start();
    // Set-up the issue does not name: the account and its master codes.
    seller = await createSeller(server.api, { packageId: 'growth' });
    const call = caller(() => server.api);
    for (const code of ['TEE-BLACK', 'TEE-WHITE', 'TEE-NAVY']) {
      const answer = await call('POST', '/api/inventory/master-code', seller.token, {
        code,
        name: `Cotton tee ${code.slice(4).toLowerCase()}`,
      });
      expect(answer.statusCode, answer.body).toBe(200);
    }
  });
  afterAll(async () => {
    if (server) await deleteSchedules(server.api, made);
    await pushReactor?.stop();
    await browser?.close();
    await server?.close();
    await sandbox?.stop();
    restore?.();
  });

  /** Settings → store integration → connect a Shopee store, authorising the sandbox shop `name`. */
  async function connect(page: Page, name: string): Promise<string> {
    await page.goto('/#/settings/store-integration');
    await page.getByRole('button', { name: 'Connect Shopee store' }).click();
    await page.waitForURL((url) => url.origin === sandbox.url);
    await page
      .getByRole('form', { name: `Authorize ${name} for Kedai Test` })
      .getByRole('button', { name: 'Authorize' })
      .click();
    await page.waitForURL((url) => url.hash.startsWith('#/settings/store/result'), { timeout: 20_000 });
    await expect.poll(() => page.getByText(`Store ${name} connected.`).isVisible()).toBe(true);
    const storeId = new URLSearchParams(page.url().split('?')[1]).get('api_id')!;
    made.push({ tenantId: seller.tenantId, storeId });
    return storeId;
  }

  /**
   * Saves the listing in the editor, answering its "continue anyway" questions, until the save's message shows
   * (an earlier same message gone first, so the one awaited is this save's).
   */
  async function saveListing(page: Page, message: string) {
    const saved = page.getByRole('status').filter({ hasText: message });
    await expect.poll(() => saved.count(), { timeout: 15_000 }).toBe(0);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const question = page.getByRole('alertdialog');
    await expect
      .poll(
        async () => {
          if (await question.isVisible())
            await question.getByRole('button', { name: 'Continue anyway' }).click();
          return saved.count();
        },
        { timeout: 20_000 },
      )
      .toBeGreaterThan(0);
  }

  it('downloads, links, publishes to two stores and pushes a stock change to both', async () => {
    const { page, errors } = await signedInPage(browser, server.url, seller.email, seller.password);
    await page.setViewportSize({ width: 1900, height: 1000 });

    // ---- two sandbox shops connected from the console ----
    const first = await connect(page, 'Kedai Kain');
    const second = await connect(page, 'Kedai Kain Dua');
    const shopOf = new Map(sandbox.shops.map((shop) => [shop.name, shop.shopId]));

    // ---- the first store's items downloaded ----
    await page.goto('/#/products/download-status');
    const store = page.locator('tr[data-store="Kedai Kain"]');
    await store.getByRole('checkbox', { name: 'Choose Kedai Kain' }).check();
    await page.getByRole('button', { name: 'Download items of 1 store' }).click();
    await expect.poll(() => store.getByText('Completed').isVisible(), { timeout: 30_000 }).toBe(true);

    // ---- the T-shirt's two SKUs linked to master codes by hand ----
    for (const [sku, code] of [
      ['TSHIRT-BLK-M', 'TEE-BLACK'],
      ['TSHIRT-WHT-L', 'TEE-WHITE'],
    ] as const) {
      const row = page.locator('.ag-row').filter({ hasText: sku });
      await expect.poll(() => row.getByText('Not linked').isVisible(), { timeout: 15_000 }).toBe(true);
      await row.getByRole('button', { name: `Link ${sku} to a master code` }).click();
      const dialog = page.getByRole('dialog', { name: `Link ${sku} to a master code` });
      await dialog.getByLabel('Find a master code').fill(code);
      await dialog.getByRole('button', { name: `Add ${code}` }).click();
      await expect.poll(() => page.getByText(`Linked to master code ${code}.`).isVisible()).toBe(true);
      await expect.poll(() => row.getByText('Linked by you').isVisible(), { timeout: 15_000 }).toBe(true);
    }

    // ---- a listing with a colour tier on those master codes, for both stores ----
    await page.goto('/#/products/listings');
    await page.getByRole('link', { name: 'New listing' }).click();
    await expect
      .poll(() => page.getByRole('heading', { name: 'New listing', level: 1 }).isVisible(), {
        timeout: 20_000,
      })
      .toBe(true);
    const form = page.getByRole('form', { name: 'Listing' });
    await form.getByLabel('Kedai Kain', { exact: true }).check();
    await form.getByLabel('Kedai Kain Dua', { exact: true }).check();
    await form.getByLabel('Product name').fill('Cotton tee Kedai Kain');
    // The category from the first store's tree (the sandbox's Tops, 100017: nothing mandatory).
    const category = form.getByLabel('Category', { exact: true });
    await expect.poll(() => category.isVisible(), { timeout: 20_000 }).toBe(true);
    await form.getByLabel('Search categories').fill('tops');
    await category.selectOption({ label: "Women's Clothing > Tops" });
    // Shopee takes no item without a description and a weight.
    await form.getByLabel('Description').fill('Combed cotton tee, pre-shrunk, made in Kelantan.');
    await form.getByLabel('Package weight (kg)').fill('0.2');
    await form.getByLabel('Logistics').fill('20011');
    await form
      .getByLabel('Upload images')
      .setInputFiles({ name: 'tee.png', mimeType: 'image/png', buffer: PIXEL_PNG });
    await expect.poll(() => form.locator('img.listing-image').count()).toBe(1);
    await form.getByRole('button', { name: 'Add variant' }).click();
    await form.getByLabel('Variant 1 name').fill('Colour');
    await form.getByLabel('Variant 1 options').fill('Black, White');
    const fillRow = async (variant: string, sku: string, code: string) => {
      await form.getByLabel(`Seller SKU ${variant}`, { exact: true }).fill(sku);
      await form.getByLabel(`Price ${variant}`, { exact: true }).fill('35.00');
      await form.getByLabel(`Stock ${variant}`, { exact: true }).fill('5');
      await form.getByLabel(`Master code ${variant}`, { exact: true }).fill(code);
    };
    await fillRow('Black', 'KK-TEE-BLK', 'TEE-BLACK');
    await fillRow('White', 'KK-TEE-WHT', 'TEE-WHITE');
    // The master codes are listed already (the download linked them): the editor asks, the seller goes on.
    await saveListing(page, 'Listing saved as a draft.');
    await expect
      .poll(() => page.getByRole('heading', { name: 'Cotton tee Kedai Kain', level: 1 }).isVisible())
      .toBe(true);

    // ---- edited: a third colour. Shopee's tiers changed, so the links go (spec §5) and are made again ----
    await form.getByLabel('Variant 1 options').fill('Black, White, Navy');
    await fillRow('Navy', 'KK-TEE-NVY', 'TEE-NAVY');
    await saveListing(page, 'Listing saved.');
    for (const [variant, code] of [
      ['Black', 'TEE-BLACK'],
      ['White', 'TEE-WHITE'],
      ['Navy', 'TEE-NAVY'],
    ] as const) {
      const masterCode = form.getByLabel(`Master code ${variant}`, { exact: true });
      // The editor shows what was saved: the links are gone.
      await expect.poll(() => masterCode.inputValue()).toBe('');
      await masterCode.fill(code);
    }
    await saveListing(page, 'Listing saved.');

    // ---- published to both stores; each store's run shown until it is done ----
    const publications = page.getByRole('region', { name: 'Stores' });
    for (const storeId of [first, second]) {
      const row = publications.getByTestId(`publication-${storeId}`);
      await expect.poll(() => row.getByText('not published').isVisible(), { timeout: 15_000 }).toBe(true);
      await row.getByRole('button', { name: 'Publish' }).click();
    }
    for (const storeId of [first, second]) {
      const row = publications.getByTestId(`publication-${storeId}`);
      await expect
        .poll(() => row.getByText('listed', { exact: true }).isVisible(), { timeout: 60_000 })
        .toBe(true);
    }

    // ---- the stores show Kedai's quantity of TEE-BLACK (none yet), not the stock typed into the listing ----
    const published = await server.api.database.db
      .selectFrom('channel_skus')
      .select(['store_id', 'item_id', 'model_id', 'channel_stock'])
      .where('tenant_id', '=', seller.tenantId)
      .where('seller_sku', '=', 'KK-TEE-BLK')
      .execute();
    const shopOfStore = new Map([
      [first, shopOf.get('Kedai Kain')!],
      [second, shopOf.get('Kedai Kain Dua')!],
    ]);
    expect(published).toHaveLength(2);
    expect(published.every((sku) => sku.channel_stock > 0)).toBe(true);
    for (const sku of published) {
      await expect
        .poll(
          () =>
            sandbox.stockOf(shopOfStore.get(sku.store_id)!, Number(sku.item_id), Number(sku.model_id || 0))
              ?.stock,
          {
            timeout: 15_000,
          },
        )
        .toBe(0);
    }

    // ---- a stock count of TEE-BLACK in the inventory screen ----
    await page.goto('/#/inventory/stock-adjustment');
    const adjust = page.getByRole('form', { name: 'Stock adjustment' });
    await adjust.getByLabel('Master code', { exact: true }).fill('TEE-BLACK');
    await page
      .getByRole('option', { name: /TEE-BLACK/ })
      .first()
      .click();
    await adjust.getByLabel('Warehouse').selectOption({ index: 1 });
    await adjust.getByLabel('Adjustment type').selectOption('set');
    await adjust.getByLabel('Quantity').fill('23');
    await adjust.getByLabel('Reason').fill('Stock count');
    await adjust.getByRole('button', { name: 'Adjust stock' }).click();
    await expect
      .poll(() => adjust.getByRole('status').innerText())
      .toMatch(/TEE-BLACK in .*: on hand 0 → 23\./);

    // ---- the sync quantity log: 23 told to both stores for the listing's black tee ----
    await page.goto('/#/logistic/sync-qty-log');
    for (const storeName of ['Kedai Kain', 'Kedai Kain Dua']) {
      const row = page
        .locator('.ag-row')
        .filter({ hasText: 'KK-TEE-BLK' })
        .filter({ has: page.locator('[col-id="store"]', { hasText: new RegExp(`^${storeName}$`) }) });
      await expect.poll(() => row.count(), { timeout: 30_000 }).toBeGreaterThan(0);
      await expect.poll(() => row.first().locator('[col-id="quantity"]').innerText()).toBe('23');
      await expect.poll(() => row.first().locator('[col-id="outcome"]').innerText()).toBe('Taken');
    }

    // ---- and the shops themselves hold it: both of the listing's items, and the downloaded one ----
    const nameOf = new Map([
      [first, 'Kedai Kain'],
      [second, 'Kedai Kain Dua'],
    ]);
    const skus = await server.api.database.db
      .selectFrom('channel_skus')
      .select(['store_id', 'item_id', 'model_id', 'seller_sku', 'master_code_id'])
      .where('tenant_id', '=', seller.tenantId)
      .where('seller_sku', 'in', ['KK-TEE-BLK', 'TSHIRT-BLK-M'])
      .execute();
    expect(skus.map((sku) => `${nameOf.get(sku.store_id)}:${sku.seller_sku}`).sort()).toEqual([
      'Kedai Kain Dua:KK-TEE-BLK',
      'Kedai Kain:KK-TEE-BLK',
      'Kedai Kain:TSHIRT-BLK-M',
    ]);
    for (const sku of skus) {
      const shopId = shopOf.get(nameOf.get(sku.store_id)!)!;
      await expect
        .poll(() => sandbox.stockOf(shopId, Number(sku.item_id), Number(sku.model_id || 0))?.stock, {
          timeout: 15_000,
        })
        .toBe(23);
    }
    expect(errors).toEqual([]);
  }, 240_000);
});
