import { createSeller, type TestSeller } from '@tests/support/api';
import { type ConsoleServer, launchBrowser, signedInPage, startConsoleServer } from '@tests/support/browser';
import { waitFor } from '@tests/support/wait';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Catalogue, importOrder, line, marketplaceOrder, seedCatalogue } from '../api/orders-support';
import { arrange } from '../api/printing-support';

/**
 * The worker auto print station in a real Chromium (issue 14; /orders/worker-auto-print): two stations follow the
 * live board and print the invoice of each order reaching "Unscan"; every order is printed once in all — neither
 * two stations nor a reload of one prints an order twice.
 */
describe('worker auto print stations', () => {
  let server: ConsoleServer;
  let browser: Browser;
  let seller: TestSeller;
  let catalogue: Catalogue;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startConsoleServer(), launchBrowser()]);
    seller = await createSeller(server.api);
    catalogue = await seedCatalogue(server.api, seller.tenantId);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const startStation = async (page: Page) => {
    await page.goto('/#/orders/worker-auto-print');
    await page.getByLabel('Print when an order reaches').selectOption('unscan');
    await page.getByLabel('Airway bill').uncheck();
    await page.getByLabel('Invoice').check();
    await page.getByRole('button', { name: 'Start printing' }).click();
    await expect.poll(() => page.getByText('Printing orders that reach Unscan').isVisible()).toBe(true);
  };
  const unscanOrder = async (tracking: string) => {
    const orderId = await importOrder(
      server.api,
      seller.tenantId,
      catalogue.warehouseId,
      marketplaceOrder([line('BATIK-01', 1)]),
    );
    await arrange(server.api, seller.tenantId, orderId, tracking);
    return orderId;
  };
  const invoicePrints = () =>
    server.api.database.db
      .selectFrom('print_log')
      .select('order_id')
      .where('tenant_id', '=', seller.tenantId)
      .where('document', '=', 'INV')
      .execute()
      .then((rows) => rows.map((row) => row.order_id));

  it('prints each order reaching the state once, across two stations and a reload', async () => {
    const first = await signedInPage(browser, server.url, seller.email, seller.password);
    const second = await signedInPage(browser, server.url, seller.email, seller.password);
    await startStation(first.page);
    await startStation(second.page);

    const orders: string[] = [];
    for (const tracking of ['SPXAUTO0001', 'SPXAUTO0002', 'SPXAUTO0003'])
      orders.push(await unscanOrder(tracking));
    await waitFor(async () => (await invoicePrints()).length >= 3, { what: 'the three invoices printed' });

    // A reload carries on as the same station, printing nothing again; the next order is printed once.
    await first.page.reload();
    await expect.poll(() => first.page.getByText('Printing orders that reach Unscan').isVisible()).toBe(true);
    orders.push(await unscanOrder('SPXAUTO0004'));
    await waitFor(async () => (await invoicePrints()).length >= 4, { what: 'the fourth invoice printed' });

    expect((await invoicePrints()).sort()).toEqual([...orders].sort());
    expect([...first.errors, ...second.errors]).toEqual([]);
  });
});
