import { stockStreamId } from '@domain/inventory/stock';
import { createSeller, createSubUser, type TestSeller } from '@tests/support/api';
import { type ConsoleServer, launchBrowser, signedInPage, startConsoleServer } from '@tests/support/browser';
import { waitFor } from '@tests/support/wait';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { data } from '../api/inventory/inventory-api';
import { stockCalls } from '../api/inventory/stock-api';

/**
 * Issue 5 in a real Chromium: the owner sets three approval layers and raises a goods issue note; three sub-users,
 * each holding one layer's key and each in a browser of their own, approve their layer in turn. Each approver's
 * screen offers the action only once the layer before is approved — without a reload — and the owner's list shows
 * the note complete live. The stock is deducted at the last approval, once.
 */
describe('goods issue notes in the console', () => {
  let server: ConsoleServer;
  let browser: Browser;
  let seller: TestSeller;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startConsoleServer({ workflows: true }), launchBrowser()]);
    seller = await createSeller(server.api, { packageId: 'growth' });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const signedIn = (email: string, password: string) => signedInPage(browser, server.url, email, password);

  it('takes a goods issue note through three approval layers, three users in three browsers', async () => {
    const stock = stockCalls(() => server.api);
    const warehouse = await stock.warehouse(seller.token, 'GINWH');
    const item = await stock.masterCode(seller.token, 'BATIK-01');
    data(
      await stock.receive(seller.token, {
        master_code_id: item.id,
        warehouse_id: warehouse.id,
        quantity: 10,
      }),
    );
    const approvers = [];
    for (const layer of [1, 2, 3] as const) {
      const user = await createSubUser(server.api, seller.tenantId, [`gin-approval-layer-${layer}`]);
      const row = await server.api.database.db
        .selectFrom('users')
        .select('email')
        .where('id', '=', user.userId)
        .executeTakeFirstOrThrow();
      approvers.push({ ...user, email: row.email });
    }
    const onHand = async () => {
      const last = await server.api.store.readLastEvent(
        stockStreamId(seller.tenantId, item.id, warehouse.id),
      );
      return (last?.data as { onHand: number } | undefined)?.onHand ?? 0;
    };

    // ---- the owner: three layers, then a note ----
    const owner = await signedIn(seller.email, seller.password);
    await owner.page.goto('/#/inventory/goods-issue-notes');
    await owner.page.locator('summary', { hasText: 'Approval settings' }).click();
    const settings = owner.page.getByRole('form', { name: 'Approval settings' });
    await settings.getByLabel('Approval layers').selectOption('3');
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await expect.poll(() => owner.page.getByText('Approval settings saved').isVisible()).toBe(true);

    await owner.page.getByRole('button', { name: 'New goods issue note' }).click();
    const form = owner.page.getByRole('dialog', { name: 'New goods issue note' });
    await form.getByLabel('Warehouse').selectOption({ label: 'GINWH — Warehouse GINWH' });
    await form.getByLabel('Reference').fill('GIN-E2E-1');
    await form.getByLabel('Reason').fill('samples for the bazaar');
    await form.getByLabel('Add a master code').fill('BATIK');
    await owner.page
      .getByRole('option', { name: /BATIK-01/ })
      .first()
      .click();
    await form.getByLabel('Quantity of BATIK-01').fill('4');
    await form.getByRole('button', { name: 'Create note' }).click();
    await owner.page.waitForURL(/#\/inventory\/goods-issue-notes\/[0-9a-f-]{36}$/);
    const noteId = /goods-issue-notes\/([0-9a-f-]{36})/.exec(owner.page.url())![1]!;
    await expect
      .poll(() => owner.page.getByRole('heading', { name: 'Goods issue note GIN-E2E-1' }).isVisible())
      .toBe(true);
    await owner.page.getByRole('button', { name: 'Submit for approval' }).click();
    await expect.poll(() => owner.page.getByTestId('layer-1').innerText()).toContain('Waiting for approval');

    // ---- the owner watches the list ----
    await owner.page.goto('/#/inventory/goods-issue-notes');
    const status = owner.page.locator(`[row-id="${noteId}"] [col-id="status"]`);
    await expect
      .poll(() => status.innerText(), { timeout: 15_000 })
      .toContain('Approve in progress · layer 1 of 3');

    // ---- three approvers, each in a browser of their own, all on the note ----
    const pages = [];
    for (const approver of approvers) {
      const opened = await signedIn(approver.email, 'staff password 1');
      await opened.page.goto(`/#/inventory/goods-issue-notes/${noteId}`);
      await expect
        .poll(() => opened.page.getByRole('heading', { name: 'Goods issue note GIN-E2E-1' }).isVisible())
        .toBe(true);
      pages.push(opened);
    }
    const [first, second, third] = pages as [(typeof pages)[0], (typeof pages)[0], (typeof pages)[0]];
    // Only layer 1's holder is offered an approval now.
    expect(await first.page.getByRole('button', { name: 'Approve layer 1' }).isVisible()).toBe(true);
    expect(await second.page.getByRole('button', { name: /Approve layer/ }).count()).toBe(0);
    expect(await third.page.getByRole('button', { name: /Approve layer/ }).count()).toBe(0);

    await first.page.getByRole('button', { name: 'Approve layer 1' }).click();
    await expect.poll(() => first.page.getByText('Layer 1 approved').isVisible()).toBe(true);
    // The second approver's screen offers layer 2 without a reload; nothing has moved yet.
    await expect
      .poll(() => second.page.getByRole('button', { name: 'Approve layer 2' }).isVisible(), {
        timeout: 15_000,
      })
      .toBe(true);
    expect(await onHand()).toBe(10);
    await second.page.getByRole('button', { name: 'Approve layer 2' }).click();
    await expect
      .poll(() => third.page.getByRole('button', { name: 'Approve layer 3' }).isVisible(), {
        timeout: 15_000,
      })
      .toBe(true);
    await expect.poll(() => status.innerText(), { timeout: 15_000 }).toContain('layer 3 of 3');
    expect(await onHand()).toBe(10);

    await third.page.getByRole('button', { name: 'Approve layer 3' }).click();
    await expect
      .poll(() => third.page.getByText('Goods issue note approved and the stock issued').isVisible())
      .toBe(true);

    // ---- everyone sees it complete, live; the stock went down once ----
    await expect.poll(() => status.innerText(), { timeout: 15_000 }).toContain('Complete');
    await expect
      .poll(() => first.page.getByTestId('layer-3').innerText(), { timeout: 15_000 })
      .toContain('Approved by Staff');
    const timeline = third.page.getByRole('list', { name: 'Timeline' });
    await expect.poll(() => timeline.innerText()).toContain('The stock was issued: the note is complete');
    expect(await onHand()).toBe(6);
    const writeOffs = await waitFor(async () => {
      const rows = await server.api.database.db
        .selectFrom('stock_movements')
        .select(['action', 'change', 'source_id'])
        .where('tenant_id', '=', seller.tenantId)
        .where('source_id', '=', noteId)
        .execute();
      return rows.length > 0 ? rows : undefined;
    });
    expect(writeOffs).toEqual([{ action: 'StockWrittenOff', change: '-4', source_id: noteId }]);

    expect([...owner.errors, ...first.errors, ...second.errors, ...third.errors]).toEqual([]);
    for (const opened of [owner, ...pages]) await opened.page.context().close();
  });
});
