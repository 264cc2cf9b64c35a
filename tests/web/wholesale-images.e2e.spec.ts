import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createSeller, type TestSeller } from '@tests/support/api';
import { type ConsoleServer, launchBrowser, signedInPage, startConsoleServer } from '@tests/support/browser';
import bwipjs from 'bwip-js/node';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Issue 14, stock, in a real Chromium: a master code's picture uploaded from the editor (previewed, kept, and a text
 * file named .png refused with the server's message), and its wholesale tiers edited on
 * /inventory/wholesale-pricing, every bad tier named at once before anything is saved.
 */
describe('master code images and wholesale pricing in the console', () => {
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

  it('uploads a master code image with a preview and refuses a file that is not one', async () => {
    const { page, errors } = await signedInPage(browser, server.url, seller.email, seller.password);
    const picture = path.join(os.tmpdir(), `kedai-kopi-${Date.now()}.png`);
    await writeFile(picture, await bwipjs.toBuffer({ bcid: 'qrcode', text: 'kopi', scale: 3 }));
    const fake = path.join(os.tmpdir(), `kedai-fake-${Date.now()}.png`);
    await writeFile(fake, 'this is text, not a picture');

    await page.goto('/#/inventory/master-code/new');
    await page.getByLabel('Master code', { exact: true }).fill('KOPI-IMG');
    await page.getByLabel('Name', { exact: true }).fill('Kopi O with a picture');
    const upload = page.getByLabel('Upload an image');
    await upload.setInputFiles(fake);
    await expect
      .poll(() => page.getByText('The image must be a PNG, JPEG, WebP or GIF file.').isVisible())
      .toBe(true);

    await upload.setInputFiles(picture);
    const preview = page.getByRole('img', { name: 'Image of Kopi O with a picture' });
    await expect.poll(() => preview.getAttribute('src')).toMatch(/^blob:/);
    await expect
      .poll(() => preview.evaluate((img) => (img as { naturalWidth: number }).naturalWidth))
      .toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Create master code' }).click();
    await page.waitForURL(/#\/inventory\/master-code\/[0-9a-f-]{36}/);

    const saved = await server.api.database.db
      .selectFrom('master_codes')
      .select(['image_id', 'image_url'])
      .where('tenant_id', '=', seller.tenantId)
      .where('code', '=', 'KOPI-IMG')
      .executeTakeFirstOrThrow();
    expect(saved.image_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(saved.image_url).toBeNull();
    // Opened again, the editor shows the stored picture.
    await page.reload();
    await expect
      .poll(() => page.getByRole('img', { name: 'Image of Kopi O with a picture' }).getAttribute('src'))
      .toMatch(/^blob:/);
    expect(errors).toEqual([]);
  });

  it('edits wholesale tiers, naming every bad tier at once, and shows them in the grid', async () => {
    const { page, errors } = await signedInPage(browser, server.url, seller.email, seller.password);
    await page.goto('/#/inventory/master-code/new');
    await page.getByLabel('Master code', { exact: true }).fill('TEH-TARIK');
    await page.getByLabel('Name', { exact: true }).fill('Teh tarik sachets');
    await page.getByLabel('Unit price', { exact: true }).fill('10');
    await page.getByRole('button', { name: 'Create master code' }).click();
    await page.waitForURL(/#\/inventory\/master-code\/[0-9a-f-]{36}/);

    await page.goto('/#/inventory/wholesale-pricing');
    await page.getByRole('button', { name: 'Edit the wholesale tiers of TEH-TARIK' }).click();
    const dialog = page.getByRole('dialog', { name: 'Wholesale tiers of TEH-TARIK' });
    for (let tier = 0; tier < 3; tier += 1) await dialog.getByRole('button', { name: 'Add tier' }).click();
    await dialog.getByLabel('Minimum quantity of tier 1').fill('50');
    await dialog.getByLabel('Unit price of tier 1').fill('8.50');
    await dialog.getByLabel('Minimum quantity of tier 2').fill('10');
    await dialog.getByLabel('Unit price of tier 2').fill('0');
    await dialog.getByLabel('Minimum quantity of tier 3').fill('10');
    await dialog.getByLabel('Unit price of tier 3').fill('9.00');
    await dialog.getByRole('button', { name: 'Save tiers' }).click();
    await expect
      .poll(() =>
        dialog.getByText('Each tier must start at a higher quantity than the one above it.').count(),
      )
      .toBe(1);
    expect(await dialog.getByText('Another tier already starts at this quantity.').count()).toBe(1);
    expect(await dialog.getByText('Enter a price above 0 with at most 2 decimals.').count()).toBe(1);

    // Put right: lowest first, the repeat removed.
    await dialog.getByLabel('Minimum quantity of tier 1').fill('10');
    await dialog.getByLabel('Unit price of tier 1').fill('9.00');
    await dialog.getByLabel('Minimum quantity of tier 2').fill('50');
    await dialog.getByLabel('Unit price of tier 2').fill('8.50');
    await dialog.getByRole('button', { name: 'Remove tier 3' }).click();
    await dialog.getByRole('button', { name: 'Save tiers' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    await expect
      .poll(() => page.getByText('10+ at 9.00, 50+ at 8.50').isVisible(), { timeout: 15_000 })
      .toBe(true);
    expect(errors).toEqual([]);
  });
});
