import type { ShopeeSandbox } from '@integrations/shopee';
import { type StoreSettings, StoreTokenStore } from '@integrations/stores';
import { addStore } from '@tests/api/listings-support';
import { startStoreSandbox } from '@tests/api/stores-support';
import { createSeller, type TestSeller } from '@tests/support/api';
import { type ConsoleServer, launchBrowser, signedInPage, startConsoleServer } from '@tests/support/browser';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Issue 15 in a real Chromium: the listing editor picks a category from a connected store's marketplace (the
 * Shopee sandbox), searched by its path, only last-level categories offered; the category's mandatory attributes
 * appear as fields; a save without them is refused with their messages and nothing saved; with them, the listing
 * keeps the attributes and the brand picked from the category's list.
 */
describe('the listing editor picks a category', () => {
  let server: ConsoleServer;
  let browser: Browser;
  let seller: TestSeller;
  let sandbox: ShopeeSandbox;
  let settings: StoreSettings;
  let restore: () => void;

  beforeAll(async () => {
    ({ sandbox, settings, restore } = await startStoreSandbox());
    [server, browser] = await Promise.all([startConsoleServer(), launchBrowser()]);
    seller = await createSeller(server.api);
    const shop = sandbox.createShop({ name: 'Kuih Shop' });
    const store = await addStore(server.api, seller.tenantId, 'Kuih Shop', shop.shopId);
    await new StoreTokenStore(server.api.database.db, {
      tenantId: seller.tenantId,
      storeId: store.id,
      shopId: shop.shopId,
    }).save(shop.shopId, sandbox.issueTokens(settings.shopee.partnerId, shop.shopId));
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await sandbox?.stop();
    restore?.();
  });

  const created = async () =>
    server.api.database.db
      .selectFrom('es_events')
      .select('data')
      .where('type', '=', 'ListingCreated')
      .execute();

  it('searches the tree, shows the mandatory attributes, refuses them missing and saves them chosen', async () => {
    const { page, errors } = await signedInPage(browser, server.url, seller.email, seller.password);
    await page.goto('/#/products/listings');
    await page.getByRole('link', { name: 'New listing' }).click();
    const form = page.getByRole('form', { name: 'Listing' });
    await expect.poll(() => form.isVisible(), { timeout: 20_000 }).toBe(true);
    await form.getByLabel('Kuih Shop').check();
    await form.getByLabel('Product name').fill('Keropok lekor');
    await form.getByLabel('Logistics').fill('20011');
    await form.getByLabel('Image address (https)').fill('https://img.kedai.test/keropok.jpg');
    await form.getByRole('button', { name: 'Add image' }).click();
    await form.getByLabel('Seller SKU', { exact: true }).fill('E2E-KEROPOK');
    await form.getByLabel('Price', { exact: true }).fill('12.90');
    await form.getByLabel('Stock', { exact: true }).fill('4');

    // The store's tree, searched: only last-level categories are offered, by their path.
    const category = form.getByLabel('Category', { exact: true });
    await expect.poll(() => category.isVisible(), { timeout: 20_000 }).toBe(true);
    await form.getByLabel('Search categories').fill('snack');
    const offered = await category.locator('option').allTextContents();
    expect(offered).toEqual(['Choose a last-level category', 'Food & Beverages > Snacks']);
    await category.selectOption({ label: 'Food & Beverages > Snacks' });
    const origin = form.getByLabel('Country of Origin');
    await expect.poll(() => origin.isVisible(), { timeout: 15_000 }).toBe(true);
    await expect.poll(() => form.getByLabel('Shelf Life').isVisible()).toBe(true);

    // Not filled: each mandatory attribute's message, and nothing saved.
    await page.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(() => page.getByText('Enter Shelf Life: the category requires it.').isVisible(), {
        timeout: 15_000,
      })
      .toBe(true);
    expect(await created()).toHaveLength(0);

    await origin.selectOption({ label: 'Malaysia' });
    await form.getByLabel('Shelf Life').selectOption({ label: '3 Months' });
    await form.getByLabel("Brand from the category's list").selectOption({ label: 'Mamee' });
    await page.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(() => page.getByRole('heading', { name: 'Keropok lekor', level: 1 }).isVisible(), {
        timeout: 15_000,
      })
      .toBe(true);
    const [event] = await created();
    const content = (event!.data as { content: Record<string, unknown> }).content;
    expect(content).toMatchObject({ categoryId: '100631', brand: 'Mamee' });
    expect(
      (content.attributes as { values: { name: string }[] }[]).map((attribute) => attribute.values[0]!.name),
    ).toEqual(['Malaysia', '3 Months']);
    expect(errors).toEqual([]);
  });
});
