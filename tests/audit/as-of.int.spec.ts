import { handleOrderCommand } from '@commands/orders/order';
import { data, gridParams } from '@tests/api/inventory/inventory-api';
import { expectRefusal, stockCalls } from '@tests/api/inventory/stock-api';
import { importOrder, line, marketplaceOrder, seedCatalogue } from '@tests/api/orders-support';
import { bearer, createSeller, createTestApi, type TestApi, type TestSeller } from '@tests/support/api';
import { waitFor } from '@tests/support/wait';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moveAt, settleAll } from './audit-support';

interface StockPage {
  rows: {
    master_code: { id: string; code: string | null };
    warehouse: { id: string; code: string | null };
    on_hand: number;
    reserved: number;
    available: number;
    average_cost: string;
    value: string;
  }[];
  lastRow: number;
  totals: { on_hand: number; value: string; stocks: number };
}
interface OrdersPage {
  rows: { id: string; order_number: string; status: string; status_now: string }[];
  lastRow: number;
}

/**
 * Reports as of a past instant: a stock moved (and its average cost changed) at several instants, its balance and
 * valuation at each of them; orders open at an instant (imported by then, not yet cancelled or shipped then).
 */
describe('reports as of a past instant', () => {
  let api: TestApi;
  let owner: TestSeller;
  let other: TestSeller;
  const stock = stockCalls(() => api);
  let cup: { id: string; code: string };
  let w1: { id: string; code: string };
  const at = (minute: number) => new Date(Date.UTC(2026, 5, 1, 9, minute));

  beforeAll(async () => {
    api = await createTestApi();
    owner = await createSeller(api, { packageId: 'growth' });
    other = await createSeller(api, { packageId: 'growth' });
    cup = await stock.masterCode(owner.token, 'CUP');
    w1 = await stock.warehouse(owner.token, 'W1');
    const target = { masterCodeId: cup.id, warehouseId: w1.id };
    // 09:00 10 in at 4; 09:10 4 shipped; 09:20 6 in at 10 (average 7); 09:30 2 counted off; 09:40 3 reserved.
    await moveAt(api, owner.tenantId, owner.userId, at(0), {
      type: 'ReceiveStock',
      ...target,
      quantity: 10,
      unitCost: '4.0000',
    });
    await moveAt(api, owner.tenantId, owner.userId, at(10), {
      type: 'ShipStock',
      ...target,
      quantity: 4,
      from: 'free',
      source: { type: 'order', id: 'o-1' },
    });
    await moveAt(api, owner.tenantId, owner.userId, at(20), {
      type: 'ReceiveStock',
      ...target,
      quantity: 6,
      unitCost: '10.0000',
    });
    await moveAt(api, owner.tenantId, owner.userId, at(30), {
      type: 'AdjustStock',
      ...target,
      mode: 'deduct',
      quantity: 2,
      refuseNegative: false,
    });
    await moveAt(api, owner.tenantId, owner.userId, at(40), { type: 'ReserveStock', ...target, quantity: 3 });
    await settleAll(api, owner.tenantId);
  });
  afterAll(async () => {
    await api?.close();
  });

  const stockAt = async (instant: Date, token = owner.token, extra: Record<string, unknown> = {}) =>
    api.app.inject({
      method: 'GET',
      url: `/api/audit/as-of/stock?${gridParams({ at: instant.toISOString(), startRow: 0, endRow: 100, ...extra })}`,
      headers: bearer(token),
    });

  it('states the balance and the valuation as they stood at each instant', async () => {
    const expected = [
      { instant: new Date(at(0).getTime() - 1), rows: [] as unknown[], value: '0.00' },
      { instant: at(5), on_hand: 10, reserved: 0, average_cost: '4.0000', value: '40.00' },
      { instant: at(15), on_hand: 6, reserved: 0, average_cost: '4.0000', value: '24.00' },
      { instant: at(25), on_hand: 12, reserved: 0, average_cost: '7.0000', value: '84.00' },
      { instant: at(35), on_hand: 10, reserved: 0, average_cost: '7.0000', value: '70.00' },
      { instant: at(45), on_hand: 10, reserved: 3, average_cost: '7.0000', value: '70.00' },
    ];
    for (const want of expected) {
      const page = data<StockPage>(await stockAt(want.instant));
      if ('rows' in want) {
        expect(page.rows).toEqual([]);
        expect(page.totals).toEqual({ stocks: 0, on_hand: 0, value: '0.00' });
        continue;
      }
      expect(page.rows, want.instant.toISOString()).toEqual([
        expect.objectContaining({
          master_code: expect.objectContaining({ id: cup.id, code: 'CUP' }),
          warehouse: expect.objectContaining({ id: w1.id, code: 'W1' }),
          on_hand: want.on_hand,
          reserved: want.reserved,
          available: want.on_hand - want.reserved,
          average_cost: want.average_cost,
          value: want.value,
        }),
      ]);
      expect(page.totals).toEqual({ stocks: 1, on_hand: want.on_hand, value: want.value });
    }
  });

  it('exports the figures at an instant as a file', async () => {
    const response = await api.app.inject({
      method: 'GET',
      url: `/api/audit/as-of/stock/export?${gridParams({ at: at(25).toISOString(), format: 'csv' })}`,
      headers: bearer(owner.token),
    });
    expect(response.statusCode, response.body).toBe(200);
    const rows = Papa.parse<string[]>(response.body.replace(/^\ufeff/, ''), { skipEmptyLines: true }).data;
    expect(rows).toHaveLength(2);
    expect(rows[1]).toEqual(expect.arrayContaining(['CUP', 'W1', '12', '7', '84']));
  });

  it('refuses an instant in the future or malformed, and a warehouse of another account', async () => {
    expectRefusal(await stockAt(new Date(Date.now() + 3_600_000)), 400, 860);
    const malformed = await api.app.inject({
      method: 'GET',
      url: '/api/audit/as-of/stock?at=yesterday',
      headers: bearer(owner.token),
    });
    expectRefusal(malformed, 400, 860);
    const theirs = await stock.warehouse(other.token, 'THEIRS');
    expect((await stockAt(at(25), owner.token, { warehouse_id: theirs.id })).statusCode).toBe(404);
    // Another account sees none of this stock.
    expect(data<StockPage>(await stockAt(at(25), other.token)).rows).toEqual([]);
  });

  it('lists the orders open at an instant with their status then', async () => {
    const seller = await createSeller(api, { packageId: 'growth' });
    const catalogue = await seedCatalogue(api, seller.tenantId);
    const first = await importOrder(
      api,
      seller.tenantId,
      catalogue.warehouseId,
      marketplaceOrder([line('BATIK-01', 1)]),
    );
    const second = await importOrder(
      api,
      seller.tenantId,
      catalogue.warehouseId,
      marketplaceOrder([line('SONGKET-01', 1)]),
    );
    await settleAll(api, seller.tenantId);
    const bothOpen = new Date();
    await waitFor(() => Date.now() > bothOpen.getTime() + 1);
    await handleOrderCommand(
      api.store,
      first,
      { type: 'CancelOrder', reason: 'Buyer changed mind', byMarketplace: false },
      {
        tenantId: seller.tenantId,
        userId: seller.userId,
        commandId: `cancel-${first}`,
        occurredAt: new Date().toISOString(),
      },
    );
    await settleAll(api, seller.tenantId);
    const oneOpen = new Date();

    const openAt = async (instant: Date) =>
      data<OrdersPage>(
        await api.app.inject({
          method: 'GET',
          url: `/api/audit/as-of/orders?${gridParams({ at: instant.toISOString(), startRow: 0, endRow: 100 })}`,
          headers: bearer(seller.token),
        }),
      );
    const before = await openAt(bothOpen);
    expect(before.rows.map((row) => row.id).sort()).toEqual([first, second].sort());
    expect(before.rows.find((row) => row.id === first)).toMatchObject({ status_now: 'cancelled' });
    expect(before.rows.find((row) => row.id === first)?.status).not.toBe('cancelled');
    const after = await openAt(oneOpen);
    expect(after.rows.map((row) => row.id)).toEqual([second]);
    expect(after.lastRow).toBe(1);
    // Before either was imported, nothing was open; the owner's account has none of these orders.
    expect((await openAt(new Date(Date.UTC(2026, 0, 1)))).rows).toEqual([]);
    const owners = data<OrdersPage>(
      await api.app.inject({
        method: 'GET',
        url: `/api/audit/as-of/orders?${gridParams({ at: oneOpen.toISOString() })}`,
        headers: bearer(owner.token),
      }),
    );
    expect(owners.rows).toEqual([]);
  });
});
