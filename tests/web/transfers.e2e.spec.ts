import { data } from '@tests/api/inventory/inventory-api';
import { transferCalls } from '@tests/api/transfers-support';
import { createSeller, type TestSeller } from '@tests/support/api';
import { type ConsoleServer, launchBrowser, signedInPage, startConsoleServer } from '@tests/support/browser';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Issue 5 in a real Chromium, with the real workflow: a seller asks for stock in the console, approves the request,
 * ships the transfer and receives it in two parts; a second browser's transfer list follows every step without a
 * reload, and the stock of both places moved.
 */
describe('transfers in the console', () => {
  let server: ConsoleServer;
  let browser: Browser;
  let seller: TestSeller;
  const t = transferCalls(() => server.api);

  beforeAll(async () => {
    [server, browser] = await Promise.all([startConsoleServer({ workflows: true }), launchBrowser()]);
    seller = await createSeller(server.api, { packageId: 'growth' });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const signedIn = () => signedInPage(browser, server.url, seller.email, seller.password);

  it('requests, approves, ships and receives, the other browser following live', async () => {
    const main = await t.stock.warehouse(seller.token, 'MAIN');
    const shop = await t.stock.branch(seller.token, 'KL1');
    const batik = await t.stock.masterCode(seller.token, 'BATIK');
    data(
      await t.stock.receive(seller.token, { master_code_id: batik.id, warehouse_id: main.id, quantity: 10 }),
    );

    const a = await signedIn();
    const b = await signedIn();
    // The second browser watches the transfer list from the start.
    await b.page.goto('/#/transfer-stock/list-transfer');
    // The screen's code loads on first use: slow on a busy machine.
    await expect
      .poll(() => b.page.getByRole('heading', { name: 'Transfers', level: 1 }).isVisible(), {
        timeout: 15_000,
      })
      .toBe(true);

    // ---- a request, made in the form ----
    await a.page.goto('/#/transfer-stock/list-request');
    await a.page.getByRole('button', { name: 'New transfer request' }).click();
    const form = a.page.getByRole('form', { name: 'New transfer request' });
    await form.getByLabel('From (source)').selectOption({ label: 'MAIN — Warehouse MAIN' });
    // The same place at both ends is refused before anything is sent.
    await form.getByLabel('To (destination)').selectOption({ label: 'MAIN — Warehouse MAIN' });
    await form.getByLabel('Reference').fill('REQ-E2E');
    await form.getByLabel('Add a master code').fill('BAT');
    await a.page.getByRole('option', { name: /BATIK/ }).click();
    await form.getByLabel('Quantity of BATIK').fill('4');
    await a.page.getByRole('button', { name: 'Send request' }).click();
    await expect
      .poll(() => form.getByText('Transfer source and destination warehouses must differ').isVisible())
      .toBe(true);
    await form.getByLabel('To (destination)').selectOption({ label: 'KL1 — Branch KL1' });
    await a.page.getByRole('button', { name: 'Send request' }).click();
    await expect.poll(() => form.isVisible()).toBe(false);

    // ---- approved from the list: the transfer appears in the other browser ----
    await a.page.getByRole('button', { name: 'Approve REQ-E2E' }).click();
    const requests = await t.list<{ id: string; reference: string; transfer_id: string | null }>(
      seller.token,
      'requests',
      { search: 'REQ-E2E' },
    );
    const request = requests.rows[0]!;
    const requestStatus = a.page.locator(`[row-id="${request.id}"] [col-id="status"]`);
    await expect.poll(() => requestStatus.innerText(), { timeout: 15_000 }).toBe('Approved');
    const transferId = (
      await t.list<{ transfer_id: string }>(seller.token, 'requests', { search: 'REQ-E2E' })
    ).rows[0]!.transfer_id;
    const watched = b.page.locator(`[row-id="${transferId}"] [col-id="status"]`);
    await expect.poll(() => watched.innerText(), { timeout: 15_000 }).toBe('Pending');

    // ---- shipped from the transfer list ----
    await a.page.goto('/#/transfer-stock/list-transfer');
    await a.page.getByRole('button', { name: 'Ship REQ-E2E' }).click();
    await expect.poll(() => watched.innerText(), { timeout: 15_000 }).toBe('In transit');
    expect(await t.figures(seller.tenantId, batik.id, shop.id)).toEqual({ onHand: 0, incoming: 4 });

    // ---- received in two parts in the detail dialog ----
    await a.page.getByRole('button', { name: 'Receive REQ-E2E' }).click();
    const dialog = a.page.getByRole('dialog', { name: 'Transfer REQ-E2E' });
    await dialog.getByLabel('Receive now of BATIK').fill('1');
    await dialog.getByRole('button', { name: 'Receive', exact: true }).click();
    await expect
      .poll(() => dialog.getByTestId('in-transit-BATIK').innerText(), { timeout: 15_000 })
      .toBe('3');
    await expect.poll(() => dialog.getByText('Received 1 pcs').isVisible()).toBe(true);
    expect(await t.figures(seller.tenantId, batik.id, shop.id)).toEqual({ onHand: 1, incoming: 3 });
    // What is left in transit is offered for the next receipt.
    await expect.poll(() => dialog.getByLabel('Receive now of BATIK').inputValue()).toBe('3');
    await dialog.getByRole('button', { name: 'Receive', exact: true }).click();
    await expect.poll(() => watched.innerText(), { timeout: 15_000 }).toBe('Completed');
    await expect.poll(() => dialog.getByText('Completed', { exact: true }).first().isVisible()).toBe(true);
    // The timeline says what moved and who did it, in the seller's words: no step names, no recorded undo.
    const timeline = dialog.getByRole('list', { name: 'Timeline' });
    await expect.poll(() => timeline.innerText()).toContain('Stock moved: 4 × BATIK out of MAIN');
    const said = await timeline.innerText();
    expect(said).toContain('Siti Aminah');
    expect(said).not.toMatch(/Step:|undo|Transfer[A-Z]\w+/);

    expect(await t.figures(seller.tenantId, batik.id, main.id)).toEqual({ onHand: 6, incoming: 0 });
    expect(await t.figures(seller.tenantId, batik.id, shop.id)).toEqual({ onHand: 4, incoming: 0 });
    expect([...a.errors, ...b.errors]).toEqual([]);
    await a.page.context().close();
    await b.page.context().close();
  });

  it('warns beside a line asking more than the source holds, and edits the transfer before it ships', async () => {
    const depot = await t.stock.warehouse(seller.token, 'DEPOT');
    await t.stock.branch(seller.token, 'PJ1');
    const kain = await t.stock.masterCode(seller.token, 'KAIN');
    data(
      await t.stock.receive(seller.token, { master_code_id: kain.id, warehouse_id: depot.id, quantity: 5 }),
    );

    const a = await signedIn();
    await a.page.goto('/#/transfer-stock/list-transfer');
    await a.page.getByRole('button', { name: 'New transfer', exact: true }).click();
    const form = a.page.getByRole('form', { name: 'New transfer' });
    await form.getByLabel('From (source)').selectOption({ label: 'DEPOT — Warehouse DEPOT' });
    await form.getByLabel('To (destination)').selectOption({ label: 'PJ1 — Branch PJ1' });
    await form.getByLabel('Reference').fill('TRF-E2E');
    await form.getByLabel('Add a master code').fill('KAI');
    await a.page.getByRole('option', { name: /KAIN/ }).click();
    await form.getByLabel('Quantity of KAIN').fill('8');
    // Warned beside the line as it is typed, with the source's figure; saving stays possible.
    const warning = form.getByText('More than is on hand at the source: 5 on hand, 8 to transfer.');
    await expect.poll(() => warning.isVisible(), { timeout: 15_000 }).toBe(true);
    await expect
      .poll(() =>
        form.getByText('1 line asks for more than the source has on hand.', { exact: false }).isVisible(),
      )
      .toBe(true);
    await a.page.getByRole('button', { name: 'Create transfer' }).click();

    // The transfer opens with the same warning, and can be edited while pending.
    const dialog = a.page.getByRole('dialog', { name: 'Transfer TRF-E2E' });
    await expect
      .poll(() => dialog.getByText('KAIN: 5 on hand, 8 to transfer').isVisible(), { timeout: 15_000 })
      .toBe(true);
    await dialog.getByRole('button', { name: 'Edit', exact: true }).click();
    const edit = a.page.getByRole('form', { name: 'Edit transfer TRF-E2E' });
    await expect.poll(() => edit.getByLabel('Quantity of KAIN').inputValue()).toBe('8');
    await edit.getByLabel('Quantity of KAIN').fill('3');
    await expect.poll(() => edit.getByText(/on hand at the source/).count()).toBe(0);
    await a.page.getByRole('button', { name: 'Save changes' }).click();

    // Back on the transfer: the edit on its timeline in the seller's words, the warning gone; it ships the 3.
    const timeline = dialog.getByRole('list', { name: 'Timeline' });
    await expect
      .poll(() => timeline.innerText(), { timeout: 15_000 })
      .toContain('Edited: KAIN quantity from 8 to 3');
    expect(await dialog.getByText(/on hand, \d+ to transfer/).count()).toBe(0);
    await dialog.getByRole('button', { name: 'Ship', exact: true }).click();
    await expect
      .poll(() => t.figures(seller.tenantId, kain.id, depot.id), { timeout: 15_000 })
      .toEqual({ onHand: 2, incoming: 0 });
    expect(a.errors).toEqual([]);
    await a.page.context().close();
  });
});
