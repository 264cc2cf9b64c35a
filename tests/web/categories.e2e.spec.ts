import { createSeller, type TestSeller } from '@tests/support/api';
import { type ConsoleServer, launchBrowser, signedInPage, startConsoleServer } from '@tests/support/browser';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The one category tree editor on both of its screens, in a real Chromium against the whole API: the web store's
 * categories (opened from a category, searched on the server, deleted with their sub-categories) and the
 * inventory's (narrowed by name as you type, counted in master codes).
 */

describe('the category tree editor in a browser', () => {
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

  const tree = (page: Page) => page.getByRole('region', { name: 'Category tree' });

  async function addCategory(page: Page, opener: Locator, name: string, submit: string) {
    await opener.click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Category name').fill(name);
    await dialog.getByRole('button', { name: submit }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
  }

  it('builds, opens, searches and deletes the web store’s categories', async () => {
    const { page, errors } = await signedInPage(browser, server.url, seller.email, seller.password);
    await page.goto('/#/webstore/category');
    await expect.poll(() => page.getByText('No categories yet.').isVisible()).toBe(true);

    await addCategory(page, page.getByRole('button', { name: 'Add category' }), 'Batik', 'Add category');
    await expect.poll(() => tree(page).getByText('Batik').isVisible()).toBe(true);
    await addCategory(
      page,
      page.getByRole('button', { name: 'Add a sub-category under Batik' }),
      'Sarongs',
      'Add category',
    );
    await expect.poll(() => tree(page).getByText('Sarongs').isVisible()).toBe(true);
    await expect.poll(() => tree(page).getByText('(1)').isVisible()).toBe(true);

    // Opened from Batik: the breadcrumb names it, and its child is shown.
    await page.getByRole('button', { name: 'Show Batik and its sub-categories' }).click();
    const crumbs = page.getByRole('navigation', { name: 'Shown from' });
    await expect.poll(() => crumbs.getByRole('button', { name: 'Batik' }).isVisible()).toBe(true);
    await expect.poll(() => tree(page).getByText('Sarongs').isVisible()).toBe(true);
    await crumbs.getByRole('button', { name: 'All categories' }).click();

    // The server's search, from 2 characters, lists the match with its path.
    await page.getByLabel('Search categories').fill('sar');
    const results = page.getByRole('region', { name: 'Search results' });
    await expect.poll(() => results.getByText('Sarongs').isVisible()).toBe(true);
    await page.getByLabel('Search categories').fill('');

    // Deleting the parent says it takes its sub-categories.
    await page.getByRole('button', { name: 'Delete Batik' }).click();
    await expect
      .poll(() => page.getByText('Its sub-categories are deleted with it (1 in all).').isVisible())
      .toBe(true);
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => page.getByText('No categories yet.').isVisible()).toBe(true);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('builds, narrows, renames and deletes the inventory’s categories', async () => {
    const { page, errors } = await signedInPage(browser, server.url, seller.email, seller.password);
    await page.goto('/#/inventory/categories');
    await expect.poll(() => page.getByText('No category yet.').isVisible()).toBe(true);

    await addCategory(page, page.getByRole('button', { name: 'Add category' }), 'Drinks', 'Add category');
    await addCategory(
      page,
      page.getByRole('button', { name: 'Add a sub-category under Drinks' }),
      'Teh tarik',
      'Add category',
    );
    await addCategory(page, page.getByRole('button', { name: 'Add category' }), 'Snacks', 'Add category');
    await expect.poll(() => tree(page).getByText('Teh tarik').isVisible()).toBe(true);
    await expect.poll(() => tree(page).getByText('Master codes: 0').first().isVisible()).toBe(true);

    // Narrowed by name: the match stays under its parent, the rest goes.
    await page.getByLabel('Filter categories').fill('teh');
    await expect.poll(() => tree(page).getByText('Snacks').isVisible()).toBe(false);
    await expect.poll(() => tree(page).getByText('Drinks').isVisible()).toBe(true);
    await page.getByLabel('Filter categories').fill('');

    await page.getByRole('button', { name: 'Edit Snacks' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Category name').fill('Kuih');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => tree(page).getByText('Kuih').isVisible()).toBe(true);

    await page.getByRole('button', { name: 'Delete Kuih' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => tree(page).getByText('Kuih').isVisible()).toBe(false);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
