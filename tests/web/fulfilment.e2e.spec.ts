import { loadOrder } from '@commands/orders/order';
import type { PlacedOrder } from '@domain/orders/order';
import type { ShopeeSandbox } from '@integrations/shopee';
import { setStoreSettings } from '@integrations/stores';
import { type Catalogue, seedCatalogue, stockOf } from '@tests/api/orders-support';
import { deleteSchedules, startStoreSandbox } from '@tests/api/stores-support';
import { createSeller, type TestSeller } from '@tests/support/api';
import { type ConsoleServer, launchBrowser, signedInPage, startConsoleServer } from '@tests/support/browser';
import { waitFor } from '@tests/support/wait';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Issue 6's whole path in a real Chromium, two browsers, against the Shopee sandbox through its signed protocol:
 * browser A connects the sandbox shop; its orders arrive on browser B's live board; A arranges their shipment with
 * Shopee (the tracking numbers are Shopee's), batches them and prints the batch's pick list, prints their air
 * waybills (Shopee's shipping documents), scans each one by keyboard as a scanner does, marks them processed and
 * ships them, and records a return; B's board counts and B's stock list follow without a reload, and the stock
 * moves at each step: reserved when the orders arrive, out of the warehouse when they ship, back when returned.
 */
describe('fulfilment from a sandbox store, end to end', () => {
  let server: ConsoleServer;
  let browser: Browser;
  let sandbox: ShopeeSandbox;
  let restore: () => void;
  let seller: TestSeller;
  let catalogue: Catalogue;
  const made: { tenantId: string; storeId: string }[] = [];

  beforeAll(async () => {
    // A shop selling two of the seller's master codes, with two paid orders waiting to ship.
    const started = await startStoreSandbox({ skus: ['BATIK-01', 'SONGKET-01'] });
    ({ sandbox, restore } = started);
    // The store tests' 1 s call timeout is for their timeout failures; this path has none to provoke.
    setStoreSettings({ ...started.settings, shopee: { ...started.settings.shopee, timeoutMs: 15_000 } });
    for (const order of sandbox.generateOrders(2)) {
      if (order.order_status !== 'READY_TO_SHIP') sandbox.setOrderStatus(order.order_sn, 'READY_TO_SHIP');
    }
    [server, browser] = await Promise.all([startConsoleServer({ workflows: true }), launchBrowser()]);
    seller = await createSeller(server.api, { packageId: 'growth' });
    catalogue = await seedCatalogue(server.api, seller.tenantId);
  });
  afterAll(async () => {
    if (server) await deleteSchedules(server.api, made);
    await browser?.close();
    await server?.close();
    await sandbox?.stop();
    restore?.();
  });

  const signedIn = async () => {
    const opened = await signedInPage(browser, server.url, seller.email, seller.password);
    await opened.page.setViewportSize({ width: 1920, height: 1000 });
    return opened;
  };
  const count = (page: Page, tab: string) => page.getByTestId(`tab-count-${tab}`).innerText();
  const select = (page: Page, orderId: string) =>
    page.locator(`[row-id="${orderId}"] input.ag-checkbox-input`).first().check({ force: true });
  const toolbar = (page: Page) => page.getByRole('toolbar', { name: 'Actions on the selected orders' });
  /** What a scanner does: types what it read into whatever has the focus, then Enter. */
  const scan = async (page: Page, text: string) => {
    await page.keyboard.type(text, { delay: 5 });
    await page.keyboard.press('Enter');
  };

  /** Whether the element has the page's focus (evaluated in the page). */
  const hasFocus = (element: unknown) =>
    (element as { ownerDocument: { activeElement: unknown } }).ownerDocument.activeElement === element;

  /** How many of each master code the orders take. */
  function demand(orders: PlacedOrder[]): Map<string, number> {
    const total = new Map<string, number>();
    for (const order of orders)
      for (const line of order.lines) {
        if (line.masterCodeId)
          total.set(line.masterCodeId, (total.get(line.masterCodeId) ?? 0) + line.quantity);
      }
    return total;
  }
  const stock = (masterCodeId: string) =>
    stockOf(server.api, seller.tenantId, masterCodeId, catalogue.warehouseId);

  it('imports, arranges, batches, prints, scans, ships and returns, with the board and stock moving live', async () => {
    const a = await signedIn();
    const b = await signedIn();
    const shopOrders = sandbox.orders();
    expect(shopOrders.map((order) => order.order_status)).toEqual(['READY_TO_SHIP', 'READY_TO_SHIP']);

    // ---- B watches the new orders ----
    await b.page.goto('/#/orders/manage/new');
    await expect.poll(() => count(b.page, 'new'), { timeout: 15_000 }).toBe('0');

    // ---- A connects the sandbox shop: the marketplace's authorisation, and back ----
    await a.page.goto('/#/settings/store-integration');
    await a.page.getByRole('button', { name: 'Connect Shopee store' }).click();
    await a.page.waitForURL((url) => url.origin === sandbox.url);
    await a.page
      .getByRole('form', { name: /^Authorize Kedai Demo Store for / })
      .getByRole('button', { name: 'Authorize' })
      .click();
    await a.page.waitForURL((url) => url.hash.startsWith('#/settings/store/result'), { timeout: 20_000 });
    await expect.poll(() => a.page.getByText('Store Kedai Demo Store connected.').isVisible()).toBe(true);
    const storeId = new URLSearchParams(a.page.url().split('?')[1]).get('api_id')!;
    made.push({ tenantId: seller.tenantId, storeId });

    // ---- the orders arrive on B's board without a reload; their stock is reserved ----
    await expect.poll(() => count(b.page, 'new'), { timeout: 30_000 }).toBe('2');
    const imported = await server.api.database.db
      .selectFrom('orders')
      .select(['id', 'order_number'])
      .where('tenant_id', '=', seller.tenantId)
      .orderBy('order_number')
      .execute();
    expect(imported.map((row) => row.order_number).sort()).toEqual(
      shopOrders.map((order) => order.order_sn).sort(),
    );
    const ids = imported.map((row) => row.id);
    for (const id of ids) await expect.poll(() => b.page.locator(`[row-id="${id}"]`).count()).toBe(1);
    const orders = await Promise.all(ids.map((id) => loadOrder(server.api.store, seller.tenantId, id)));
    const taken = demand(orders);
    expect([...taken.keys()].every((id) => id === catalogue.batik || id === catalogue.songket)).toBe(true);
    for (const [masterCodeId, quantity] of taken) {
      await waitFor(async () => (await stock(masterCodeId)).reserved === quantity, {
        what: 'stock reserved',
      });
      expect((await stock(masterCodeId)).onHand).toBe(100);
    }

    // ---- A arranges the shipments with Shopee: the tracking numbers are the marketplace's ----
    await a.page.goto('/#/orders/manage/new');
    for (const id of ids) await expect.poll(() => a.page.locator(`[row-id="${id}"]`).count()).toBe(1);
    for (const id of ids) await select(a.page, id);
    await expect.poll(() => a.page.getByTestId('selected-count').innerText()).toBe('2 selected');
    await toolbar(a.page).getByRole('button', { name: 'Arrange shipment' }).click();
    const arrange = a.page.getByRole('dialog', { name: 'Arrange shipment (2)' });
    await expect
      .poll(() => arrange.getByText(/the marketplace arranges a drop-off/).count(), { timeout: 15_000 })
      .toBe(2);
    await arrange.getByRole('button', { name: 'Arrange shipment' }).click();
    await expect.poll(() => a.page.getByText('Done for 2 of 2 orders.').isVisible()).toBe(true);
    await expect.poll(() => count(b.page, 'unscan'), { timeout: 15_000 }).toBe('2');
    expect(sandbox.orders().map((order) => order.order_status)).toEqual(['PROCESSED', 'PROCESSED']);
    const arranged = await Promise.all(ids.map((id) => loadOrder(server.api.store, seller.tenantId, id)));
    const trackings = arranged.map((order) => order.trackingNumber!);
    expect(trackings.every(Boolean)).toBe(true);

    // ---- a batch of the two, and its pick list ----
    await a.page.goto('/#/orders/batch');
    await a.page.getByRole('button', { name: 'Create batch' }).click();
    const create = a.page.getByRole('form', { name: 'Create batch' });
    for (const order of arranged) {
      await expect.poll(() => create.getByLabel(`Select order ${order.orderNumber}`).isVisible()).toBe(true);
      await create.getByLabel(`Select order ${order.orderNumber}`).check();
    }
    await create.getByLabel('Prefix').fill('SHP-');
    await a.page
      .getByRole('dialog', { name: 'Create batch' })
      .getByRole('button', { name: 'Create batch' })
      .click();
    const detail = a.page.getByRole('dialog', { name: /^Batch SHP-/ });
    await expect.poll(() => detail.isVisible(), { timeout: 15_000 }).toBe(true);
    const pickList = detail.getByRole('table', { name: 'Pick list' });
    await expect.poll(() => pickList.innerText()).toMatch(/BATIK|SONGKET/);
    const download = a.page.waitForEvent('download');
    await detail.getByRole('button', { name: 'Print pick list' }).click();
    expect((await download).suggestedFilename()).toMatch(/^pick-list-SHP-\d+\.pdf$/);
    const batchId = (await loadOrder(server.api.store, seller.tenantId, ids[0]!)).batchId!;
    expect((await loadOrder(server.api.store, seller.tenantId, ids[1]!)).batchId).toBe(batchId);
    await detail.getByRole('button', { name: 'Close' }).first().click();

    // ---- the air waybills: Shopee's shipping documents, printed from the board's selection ----
    await a.page.goto('/#/orders/manage/unscan');
    for (const id of ids) await expect.poll(() => a.page.locator(`[row-id="${id}"]`).count()).toBe(1);
    for (const id of ids) await select(a.page, id);
    const printing = a.page.context().waitForEvent('page');
    await a.page
      .getByRole('group', { name: 'Print 2 selected orders' })
      .getByRole('button', { name: 'Airway bill' })
      .click();
    const printPage = await printing;
    const shown = async () =>
      (await printPage.locator('iframe.print-frame').count()) === 1
        ? 'the PDF'
        : (await printPage.locator('.page [role="alert"], .form-message').allInnerTexts()).join(' ') ||
          'loading';
    await expect.poll(shown, { timeout: 20_000 }).not.toBe('loading');
    expect(await shown()).toBe('the PDF');
    for (const id of ids) {
      await waitFor(
        async () => (await loadOrder(server.api.store, seller.tenantId, id)).printed.includes('AWB'),
        {
          what: 'the AWB recorded as printed',
        },
      );
    }
    await printPage.close();

    // ---- each order scanned by keyboard: its tracking number, then every item ----
    await a.page.goto('/#/orders/smart-scan');
    await a.page.getByLabel('Scan by batch').selectOption({ value: batchId });
    const trackingInput = a.page.getByLabel('Tracking number', { exact: true });
    const itemInput = a.page.getByLabel('Item code', { exact: true });
    for (const [index, order] of arranged.entries()) {
      await expect.poll(() => trackingInput.evaluate(hasFocus)).toBe(true);
      await scan(a.page, trackings[index]!);
      await expect
        .poll(() => a.page.getByRole('region', { name: `Order ${order.orderNumber}` }).isVisible())
        .toBe(true);
      await expect.poll(() => itemInput.evaluate(hasFocus), { timeout: 60_000 }).toBe(true);
      for (const line of order.lines)
        for (let unit = 0; unit < line.quantity; unit++) await scan(a.page, line.sellerSku);
      await expect
        .poll(() =>
          a.page
            .getByRole('status')
            .filter({ hasText: `Order ${order.orderNumber} scanned` })
            .isVisible(),
        )
        .toBe(true);
    }
    await expect.poll(() => count(b.page, 'scan'), { timeout: 15_000 }).toBe('2');
    await expect.poll(() => count(b.page, 'unscan')).toBe('0');

    // ---- processed (ready to ship), then shipped: the stock leaves the warehouse ----
    await a.page.goto('/#/orders/manage/scan');
    for (const id of ids) await expect.poll(() => a.page.locator(`[row-id="${id}"]`).count()).toBe(1);
    for (const id of ids) await select(a.page, id);
    await toolbar(a.page).getByRole('button', { name: 'Mark as processed (RTS)' }).click();
    await expect.poll(() => count(b.page, 'rts'), { timeout: 15_000 }).toBe('2');
    await a.page.goto('/#/orders/manage/rts');
    for (const id of ids) await expect.poll(() => a.page.locator(`[row-id="${id}"]`).count()).toBe(1);
    for (const id of ids) await select(a.page, id);
    await toolbar(a.page).getByRole('button', { name: 'Set to shipped' }).click();
    await expect.poll(() => count(b.page, 'shipped'), { timeout: 15_000 }).toBe('2');
    for (const [masterCodeId, quantity] of taken) {
      await waitFor(async () => (await stock(masterCodeId)).onHand === 100 - quantity, {
        what: 'stock shipped',
      });
      const figures = await stock(masterCodeId);
      expect(figures.reserved).toBe(0);
    }

    // ---- B watches the stock list; A records a return of the first order's first line to stock ----
    const returned = arranged[0]!.lines[0]!;
    const row = b.page.locator(
      `[row-id="${returned.masterCodeId}@${catalogue.warehouseId}"] [col-id="on_hand"]`,
    );
    await b.page.goto('/#/inventory/list');
    const shippedOnHand = 100 - taken.get(returned.masterCodeId!)!;
    await expect.poll(() => row.innerText(), { timeout: 15_000 }).toBe(String(shippedOnHand));

    await a.page.goto('/#/orders/return-reconciliation');
    await a.page.getByRole('button', { name: 'New return' }).click();
    const form = a.page.getByRole('dialog', { name: 'New return' });
    await form.getByLabel('Order number or tracking number').fill(trackings[0]!);
    await form.getByRole('button', { name: 'Find order' }).click();
    await form.getByLabel(new RegExp(`^Return ${returned.sellerSku}`)).check();
    await form.getByLabel('Refund to buyer (MYR)').fill('10.00');
    await form.getByLabel('Refund reason').fill('Wrong colour');
    await form.getByLabel('No').check();
    await form.getByRole('button', { name: 'Record return' }).click();
    await expect
      .poll(() => a.page.getByText(`Return of order ${arranged[0]!.orderNumber} recorded`).isVisible())
      .toBe(true);
    await expect
      .poll(() => row.innerText(), { timeout: 15_000 })
      .toBe(String(shippedOnHand + returned.quantity));

    expect([...a.errors, ...b.errors]).toEqual([]);
    await a.page.context().close();
    await b.page.context().close();
  }, 240_000);
});
