import { caller, createSeller, type TestSeller } from '@tests/support/api';
import { type ConsoleServer, launchBrowser, signedInPage, startConsoleServer } from '@tests/support/browser';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The rack location page on the grid screen, in a real Chromium against the whole API: its two grids are ARIA tabs
 * (arrow keys move between them), the racks tab adds with the header's button, the locations tab removes a master
 * code from a place after a confirmation.
 */

describe('the rack location page in a browser', () => {
  let server: ConsoleServer;
  let browser: Browser;
  let seller: TestSeller;
  const call = caller(() => server.api);

  beforeAll(async () => {
    [server, browser] = await Promise.all([startConsoleServer(), launchBrowser()]);
    seller = await createSeller(server.api, { packageId: 'growth' });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const dataOf = async (response: Promise<{ statusCode: number; json(): { data: { id: string } } }>) => {
    const answer = await response;
    expect(answer.statusCode).toBe(200);
    return answer.json().data;
  };

  it('shows racks and rack locations as two tabs of one grid screen', async () => {
    const warehouse = await dataOf(
      call('POST', '/api/inventory/warehouse', seller.token, { code: 'MAIN', name: 'Main store' }),
    );
    const rack = await dataOf(
      call('POST', '/api/inventory/rack', seller.token, { warehouse_id: warehouse.id, name: 'A-01' }),
    );
    const masterCode = await dataOf(
      call('POST', '/api/inventory/master-code', seller.token, { code: 'KOPI-001', name: 'Kopi' }),
    );
    await dataOf(
      call('PUT', `/api/inventory/master-code/${masterCode.id}/location`, seller.token, {
        warehouse_id: warehouse.id,
        rack_id: rack.id,
      }),
    );

    const { page, errors } = await signedInPage(browser, server.url, seller.email, seller.password);
    await page.goto('/#/inventory/rack-location');
    const tabs = page.getByRole('tablist', { name: 'Racks or locations' });
    const racksTab = tabs.getByRole('tab', { name: 'Racks', exact: true });
    await expect.poll(() => racksTab.getAttribute('aria-selected')).toBe('true');
    const panel = page.getByRole('tabpanel');
    await expect.poll(() => panel.getByText('A-01').first().isVisible()).toBe(true);

    await page.getByRole('button', { name: 'Add rack' }).click();
    await expect.poll(() => page.getByRole('dialog').isVisible()).toBe(true);
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => page.getByRole('dialog').isVisible()).toBe(false);

    await racksTab.focus();
    await page.keyboard.press('ArrowRight');
    const locationsTab = tabs.getByRole('tab', { name: 'Rack locations' });
    await expect.poll(() => locationsTab.getAttribute('aria-selected')).toBe('true');
    await expect.poll(() => page.url()).toContain('tab=locations');
    await expect.poll(() => panel.getByText('KOPI-001').first().isVisible()).toBe(true);

    await page.getByRole('button', { name: 'Remove KOPI-001 from Main store' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Remove' }).click();
    await expect.poll(() => panel.getByText('KOPI-001').count()).toBe(0);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
