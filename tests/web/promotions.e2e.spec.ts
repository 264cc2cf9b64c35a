import { randomUUID } from 'node:crypto';
import { createSeller, type TestSeller } from '@tests/support/api';
import { type ConsoleServer, launchBrowser, signedInPage, startConsoleServer } from '@tests/support/browser';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { data } from '../api/inventory/inventory-api';
import { stockCalls } from '../api/inventory/stock-api';

/**
 * Issue 15 item 6 in a real Chromium: a seller opens Products → discount promotions, fills the form for a store's
 * SKU, is told the §5 rule a promo ending within an hour breaks (and nothing is saved), puts the end right, and the
 * new promotion shows in the list as upcoming.
 */
describe('discount promotions in the console', () => {
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

  /** `date` as a datetime-local value in the browser's zone (the test runs both in the same one). */
  const local = (date: Date) => {
    const pad = (n: number) => String(n).padStart(2, '0');
    return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
  };

  it('creates a discount promotion for a store SKU, refusing an end within an hour first', async () => {
    const stock = stockCalls(() => server.api);
    const warehouse = await stock.warehouse(seller.token, 'PROMOWH');
    const batik = await stock.masterCode(seller.token, 'BATIK-P', { unit_price: '80.00' });
    data(
      await stock.receive(seller.token, {
        master_code_id: batik.id,
        warehouse_id: warehouse.id,
        quantity: 12,
      }),
    );
    const storeId = randomUUID();
    await server.api.database.db
      .insertInto('stores')
      .values({
        id: storeId,
        tenant_id: seller.tenantId,
        platform: 'shopee',
        name: 'Batik House',
        shop_id: 424242,
        region: 'MY',
        status: 'connected',
        connected_at: new Date(),
      })
      .execute();
    await server.api.database.db
      .insertInto('channel_skus')
      .values({
        tenant_id: seller.tenantId,
        store_id: storeId,
        item_id: '5001',
        model_id: '',
        seller_sku: 'BATIK-P',
        item_name: 'Batik scarf',
        price: '100.00',
        master_code_id: batik.id,
      })
      .execute();

    const { page } = await signedIn();
    await page.goto('/#/products/shopee-discount');
    await page.getByRole('button', { name: 'New discount' }).click();
    const form = page.getByRole('dialog', { name: 'New discount promotion' });
    await form.getByLabel('Store').selectOption({ label: 'Batik House' });
    await form.getByLabel('Promo name').fill('Merdeka sale');
    const start = new Date(Date.now() + 2 * 24 * 3600_000);
    start.setSeconds(0, 0);
    await form.getByLabel('Start').fill(local(start));
    await form.getByLabel('End').fill(local(new Date(start.getTime() + 30 * 60_000)));
    await form.getByRole('checkbox', { name: /BATIK-P/ }).check();
    await form.getByLabel('Sale price of BATIK-P').fill('79.90');
    await form.getByLabel('Sale stock of BATIK-P').fill('12');
    await form.getByRole('button', { name: 'Create' }).click();
    await expect
      .poll(() => form.getByRole('alert').first().innerText())
      .toContain('End time must be at least 1 hour after the start time.');
    const saved = await server.api.database.db
      .selectFrom('es_events')
      .select('event_id')
      .where('stream_id', 'like', `promotion-${seller.tenantId}.%`)
      .execute();
    expect(saved).toEqual([]);

    await form.getByLabel('End').fill(local(new Date(start.getTime() + 26 * 3600_000)));
    await form.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => page.getByText('Promotion created').isVisible()).toBe(true);
    const row = page.getByRole('row', { name: /Merdeka sale/ });
    await expect.poll(() => row.isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await row.innerText()).toContain('Upcoming');
    expect(await row.innerText()).toContain('Batik House');
  });

  const signedIn = () => signedInPage(browser, server.url, seller.email, seller.password);
});
