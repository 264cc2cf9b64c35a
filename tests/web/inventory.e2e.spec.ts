import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createSeller, type TestSeller } from '@tests/support/api';
import { type ConsoleServer, launchBrowser, signedInPage, startConsoleServer } from '@tests/support/browser';
import { waitFor } from '@tests/support/wait';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Issue 4 in a real Chromium: a seller creates a master code with an initial quantity (received into the default
 * warehouse), adjusts it by uploading a CSV and puts some on hold, and a second browser's stock list moves without
 * a reload; the point-in-time view shows the stock before and after, and the movements that led to it.
 */
describe('inventory in the console', () => {
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

  const signedIn = () => signedInPage(browser, server.url, seller.email, seller.password);

  it('creates a master code, adjusts it by upload, moves a second browser live, and replays its history', async () => {
    const a = await signedIn();
    const b = await signedIn();

    // ---- a master code with an initial quantity ----
    await a.page.goto('/#/inventory/master-code/new');
    await a.page.getByLabel('Master code', { exact: true }).fill('BATIK-01');
    await a.page.getByLabel('Name', { exact: true }).fill('Batik sarong, indigo');
    await a.page.getByLabel('Unit price', { exact: true }).fill('59.90');
    await a.page.getByLabel('Initial quantity').fill('10');
    await a.page.getByRole('button', { name: 'Create master code' }).click();
    await a.page.waitForURL(/#\/inventory\/master-code\/[0-9a-f-]{36}/);
    const masterCodeId = /master-code\/([0-9a-f-]{36})/.exec(a.page.url())![1]!;
    // The initial quantity went to the default warehouse, made for the occasion.
    const main = await server.api.database.db
      .selectFrom('warehouses')
      .select('id')
      .where('tenant_id', '=', seller.tenantId)
      .where('is_default', '=', true)
      .executeTakeFirstOrThrow();
    // The point-in-time form takes whole seconds and counts all of the second picked: look back at this
    // second, and start the upload once it is over.
    const beforeUpload = new Date(Math.floor(Date.now() / 1000) * 1000);
    await waitFor(() => Date.now() > beforeUpload.getTime() + 1050, { what: 'the next whole second' });

    // ---- the second browser watches the stock list ----
    // Wide enough for every figure column: ag-grid renders only the columns in view.
    await b.page.setViewportSize({ width: 1920, height: 1000 });
    await b.page.goto('/#/inventory/list');
    const list = b.page.getByRole('region', { name: 'Stock list' }).or(b.page.getByLabel('Stock list'));
    // ag-grid names each row by its id: `<masterCodeId>@<warehouseId>`.
    const onHand = b.page.locator(`[row-id="${masterCodeId}@${main.id}"] [col-id="on_hand"]`);
    await expect.poll(() => onHand.innerText(), { timeout: 15_000 }).toBe('10');
    expect(await list.count()).toBeGreaterThan(0);

    // ---- adjust by upload in the first browser ----
    await a.page.goto('/#/inventory/stock-adjustment');
    const file = path.join(os.tmpdir(), `kedai-adjust-${Date.now()}.csv`);
    await writeFile(
      file,
      'master_code,warehouse_code,mode,quantity,reason\nBATIK-01,MAIN,deduct,3,damaged in storage\n',
    );
    await a.page.getByLabel('Adjustment file (CSV or XLSX)').setInputFiles(file);
    await a.page.getByRole('button', { name: 'Upload' }).click();
    await expect.poll(() => a.page.getByText('Applied now').isVisible(), { timeout: 20_000 }).toBe(true);

    // ---- the second browser's list moves without a reload ----
    await expect.poll(() => onHand.innerText(), { timeout: 15_000 }).toBe('7');

    // ---- put 2 on hold in the first browser: the second's On hold and Available online columns move ----
    const hold = a.page.getByRole('form', { name: 'Hold stock' });
    await hold.getByLabel('Master code', { exact: true }).fill('BATIK');
    await a.page
      .getByRole('option', { name: /BATIK-01/ })
      .first()
      .click();
    await hold.getByLabel('Warehouse').selectOption({ index: 1 });
    await hold.getByLabel('Quantity').fill('2');
    await hold.getByRole('button', { name: 'Put on hold' }).click();
    await expect
      .poll(() => hold.getByRole('status').innerText())
      .toBe('BATIK-01 in MAIN: On hold (online) 0 → 2, available online 5.');
    const row = b.page.locator(`[row-id="${masterCodeId}@${main.id}"]`);
    await expect.poll(() => row.locator('[col-id="on_hold"]').innerText(), { timeout: 15_000 }).toBe('2');
    await expect.poll(() => row.locator('[col-id="available"]').innerText()).toBe('5');
    expect(await onHand.innerText()).toBe('7');

    // ---- point in time: before the upload, and now ----
    await a.page.goto('/#/inventory/stock-history');
    const form = a.page.getByRole('form', { name: 'Point in time' });
    await form.getByLabel('Master code', { exact: true }).fill('BATIK');
    await a.page
      .getByRole('option', { name: /BATIK-01/ })
      .first()
      .click();
    await form.getByLabel('Warehouse').selectOption({ index: 1 });
    const local = (date: Date) =>
      new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 19);
    await form.getByLabel('Date and time').fill(local(beforeUpload));
    await form.getByRole('button', { name: 'Show stock' }).click();
    await expect.poll(() => a.page.getByTestId('stock-at-on-hand').innerText()).toBe('10');
    await form.getByRole('button', { name: 'Now' }).click();
    await form.getByRole('button', { name: 'Show stock' }).click();
    await expect.poll(() => a.page.getByTestId('stock-at-on-hand').innerText()).toBe('7');
    expect(await a.page.getByTestId('stock-at-on-hold').innerText()).toBe('2');
    expect(await a.page.getByTestId('stock-at-available').innerText()).toBe('5');
    const history = a.page.getByRole('table', { name: 'Movements up to that time' });
    await expect.poll(() => history.innerText()).toContain('damaged in storage');
    await expect
      .poll(() => a.page.getByRole('img', { name: /Stock on hand over time: BATIK-01/ }).isVisible())
      .toBe(true);

    expect([...a.errors, ...b.errors]).toEqual([]);
    await a.page.context().close();
    await b.page.context().close();
  });

  it("opens brands and units at the spec's /settings/brands and /settings/units", async () => {
    for (const [kind, name] of [
      ['brand', 'Batik Nusantara'],
      ['unit', 'Bolt'],
    ] as const) {
      const made = await server.api.app.inject({
        method: 'POST',
        url: `/api/inventory/${kind}`,
        headers: { authorization: `Bearer ${seller.token}` },
        payload: { name },
      });
      expect(made.statusCode, made.body).toBe(200);
    }
    const { page, errors } = await signedIn();
    await page.goto('/#/settings/brands');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('Brands');
    await expect.poll(() => page.getByRole('table').innerText()).toContain('Batik Nusantara');
    await page.goto('/#/settings/units');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('Units');
    await expect.poll(() => page.getByRole('table').innerText()).toContain('Bolt');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('fits the stock list and the ledger at 1440 px: whole headers, each with its tooltip, the key column pinned', async () => {
    const { page, errors } = await signedIn();
    await page.setViewportSize({ width: 1440, height: 900 });
    for (const [path, pinned] of [
      ['/#/inventory/list', 'code'],
      ['/#/inventory/stock-movement', 'occurred_at'],
    ] as const) {
      await page.goto(path);
      await expect.poll(() => page.locator(`.ag-header-cell[col-id="${pinned}"]`).count()).toBe(1);
      // The key column's header sits in the pinned-left part of the header.
      const pinnedLeft = await page.evaluate<boolean>(
        `Boolean(document.querySelector('.ag-header-cell[col-id="${pinned}"]').closest('[class*="pinned-left"]'))`,
      );
      expect(pinnedLeft, path).toBe(true);
      // Each header whose text overflows its cell, or whose tooltip is not its whole name.
      const cut = await page.evaluate<string[]>(`[...document.querySelectorAll('.ag-header-cell[col-id]')]
        .flatMap((cell) => {
          const text = cell.querySelector('.ag-header-cell-text');
          if (!text || !text.innerText) return [];
          const title = cell.getAttribute('title') ?? cell.querySelector('[title]')?.getAttribute('title');
          return [
            ...(text.scrollWidth > text.clientWidth + 1 ? [text.innerText + ' is cut'] : []),
            ...(title !== text.innerText ? [text.innerText + ' has no tooltip'] : []),
          ];
        })`);
      expect(cut, path).toEqual([]);
      const box = await page.locator('.data-grid').first().boundingBox();
      expect(box!.x + box!.width, path).toBeLessThanOrEqual(1440);
    }
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
