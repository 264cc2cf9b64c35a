import { randomUUID } from 'node:crypto';
import { handleOrderCommand, loadOrder } from '@commands/orders/order';
import { FULFILMENT_PROJECTION } from '@projections/print-log';
import { type BatchAnswer, makeOrders } from '@tests/api/batches-support';
import { seedCatalogue, settle } from '@tests/api/orders-support';
import { bearer, createSeller, type TestSeller } from '@tests/support/api';
import { type ConsoleServer, launchBrowser, signedInPage, startConsoleServer } from '@tests/support/browser';
import { waitFor } from '@tests/support/wait';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Batch separation, the bulk scan control and the manifest invoice in a real Chromium (issue 14): a seller sees the
 * groups a batch would make and separates it, turns on quantity entry, and reads a month's invoice per carrier.
 */
describe('batch separation, bulk scan control and manifest invoice in the console', () => {
  let server: ConsoleServer;
  let browser: Browser;
  let seller: TestSeller;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startConsoleServer(), launchBrowser()]);
    seller = await createSeller(server.api, { country: 'MY' });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('separates a batch by carrier, saves the bulk scan control and shows the manifest invoice', async () => {
    const api = server.api;
    const catalogue = await seedCatalogue(api, seller.tenantId);
    const orders = await makeOrders(api, seller.tenantId, catalogue, [
      { shippingProvider: 'J&T Express' },
      { shippingProvider: 'J&T Express' },
      { shippingProvider: 'Ninja Van' },
    ]);
    const created = await api.app.inject({
      method: 'POST',
      url: '/api/orders/batches',
      headers: bearer(seller.token),
      payload: { order_ids: orders.map((order) => order.orderId), name: 'Evening' },
    });
    const batch = created.json<{ data: { batches: BatchAnswer[] } }>().data.batches[0]!;
    // A parcel shipped in March, for the invoice.
    const [shipped] = await makeOrders(api, seller.tenantId, catalogue, [
      { tracking: `TRK${randomUUID().slice(0, 8)}`, shippingProvider: 'SPX Express' },
    ]);
    await handleOrderCommand(
      api.store,
      shipped!.orderId,
      { type: 'ShipOrder', byMarketplace: false },
      { tenantId: seller.tenantId, commandId: randomUUID(), occurredAt: '2026-03-05T02:00:00.000Z' },
    );
    await settle(api);
    await api.engine.catchUp(FULFILMENT_PROJECTION);

    const { page, errors } = await signedInPage(browser, server.url, seller.email, seller.password);
    await page.setViewportSize({ width: 1600, height: 1000 });

    // ---- batch separation ----
    await page.goto('/#/orders/batch-separation');
    await expect.poll(() => page.title()).toBe('Kedai - Batch separation');
    await page.getByLabel('Batch', { exact: true }).selectOption(batch.id);
    await page.getByLabel('Carrier', { exact: true }).check();
    const groups = page.getByRole('table', { name: 'Groups' });
    await expect
      .poll(() => groups.getByRole('row', { name: /Ninja Van/ }).innerText())
      .toContain('A new batch');
    expect(await groups.getByRole('row', { name: /J&T Express/ }).innerText()).toContain(
      `Stays in ${batch.label}`,
    );
    await page.getByRole('button', { name: 'Separate', exact: true }).click();
    await expect.poll(() => page.getByText('Batch separated: 1 new batch').isVisible()).toBe(true);
    const moved = await waitFor(
      async () => {
        const order = await loadOrder(api.store, seller.tenantId, orders[2]!.orderId);
        return order.batchId !== batch.id && order.batchId;
      },
      { what: 'the Ninja Van order in a batch of its own' },
    );
    await expect
      .poll(() => page.getByRole('region', { name: 'The batches now' }).innerText())
      .toContain('Evening · Ninja Van: 1 order');
    expect(moved).not.toBe(batch.id);

    // ---- bulk scan control ----
    await page.goto('/#/settings/bulk-scan-control');
    await expect.poll(() => page.title()).toBe('Kedai - Bulk scan control');
    await page.getByLabel('Enter a quantity with an item scan').check();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByText('Bulk scan control saved').isVisible()).toBe(true);
    const row = await api.database.db
      .selectFrom('scan_settings')
      .selectAll()
      .where('tenant_id', '=', seller.tenantId)
      .executeTakeFirst();
    expect(row).toMatchObject({ quantity_entry: true, order_number_scan: false, bulk_single_items: false });

    // ---- manifest invoice ----
    await page.goto('/#/orders/manifest-invoice');
    await expect.poll(() => page.title()).toBe('Kedai - Manifest invoice');
    await page.getByLabel('Month').fill('2026-03');
    const invoice = page.getByRole('table', { name: 'Manifest invoice of 2026-03' });
    await expect
      .poll(() => invoice.getByRole('row', { name: /SPX Express/ }).innerText())
      .toMatch(/SPX Express\s+1\s+1/);
    expect(await invoice.getByRole('row', { name: /Total/ }).innerText()).toContain(
      '1 parcel without postage',
    );

    expect(errors).toEqual([]);
  });
});
