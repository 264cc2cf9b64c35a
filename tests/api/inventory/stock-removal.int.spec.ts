import { randomUUID } from 'node:crypto';
import { handleStockCommand } from '@commands/inventory/stock';
import { stockLevel } from '@projections/stock';
import { createSeller, createTestApi, type TestApi, type TestSeller } from '@tests/support/api';
import { waitFor } from '@tests/support/wait';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller, data, gridParams, refusal } from './inventory-api';

/**
 * The branch-removal rule with the real figures: stock received through the stock command, projected by the stock
 * read model, read by the inventory routes (no stand-in `stockOf`).
 */
describe('removing a master code or a place, against the projected stock', () => {
  let api: TestApi;
  let owner: TestSeller;
  const call = caller(() => api);

  beforeAll(async () => {
    api = await createTestApi();
    owner = await createSeller(api, { packageId: 'growth' });
  });
  afterAll(async () => {
    await api?.close();
  });

  /** Moves stock and waits until the read model shows it (the log may hold back an event briefly: wait on it). */
  const move = async (command: Parameters<typeof handleStockCommand>[1]) => {
    const { event } = await handleStockCommand(api.store, command, {
      tenantId: owner.tenantId,
      userId: owner.userId,
      commandId: randomUUID(),
      occurredAt: new Date().toISOString(),
    });
    await waitFor(
      async () => {
        await api.engine.catchUp('stock');
        const level = await stockLevel(
          api.database.db,
          owner.tenantId,
          command.masterCodeId,
          command.warehouseId,
        );
        return level?.onHand === event.data.onHand;
      },
      { what: 'the stock read model to show the movement' },
    );
  };

  it('refuses while the branch holds stock, and removes once it is counted down to 0', async () => {
    const item = data<{ id: string }>(
      await call('POST', '/api/inventory/master-code', owner.token, { code: 'KOPI-250', name: 'Kopi 250 g' }),
    );
    const branch = data<{ id: string }>(
      await call('POST', '/api/inventory/branch', owner.token, { code: 'PJ', name: 'Petaling Jaya' }),
    );
    data(
      await call('PUT', `/api/inventory/master-code/${item.id}/location`, owner.token, {
        warehouse_id: branch.id,
      }),
    );
    const url = `/api/inventory/master-code/${item.id}/location/${branch.id}`;

    await move({ type: 'ReceiveStock', masterCodeId: item.id, warehouseId: branch.id, quantity: 4 });
    expect(refusal(await call('DELETE', url, owner.token))).toMatchObject({
      status: 409,
      msg: 'Only 0 quantity able to be removed from a branch',
    });

    await move({
      type: 'AdjustStock',
      masterCodeId: item.id,
      warehouseId: branch.id,
      mode: 'set',
      quantity: 0,
      refuseNegative: true,
    });
    expect((await call('DELETE', url, owner.token)).statusCode).toBe(200);
  });

  it('refuses to delete a warehouse holding stock that has no rack location, and keeps its name on its movements', async () => {
    const item = data<{ id: string; code: string }>(
      await call('POST', '/api/inventory/master-code', owner.token, { code: 'TEH-100', name: 'Teh 100 g' }),
    );
    const warehouse = data<{ id: string }>(
      await call('POST', '/api/inventory/warehouse', owner.token, { code: 'KLANG', name: 'Klang store' }),
    );
    const url = `/api/inventory/warehouse/${warehouse.id}`;
    const count = async () =>
      data<{ master_code_count: number }>(await call('GET', url, owner.token)).master_code_count;

    await move({ type: 'ReceiveStock', masterCodeId: item.id, warehouseId: warehouse.id, quantity: 6 });
    expect(await count()).toBe(1);
    expect(refusal(await call('DELETE', url, owner.token))).toMatchObject({
      status: 409,
      msg: `Master code TEH-100 still has stock here. Only 0 quantity able to be removed from a branch`,
    });
    expect(await count()).toBe(1);

    await move({
      type: 'AdjustStock',
      masterCodeId: item.id,
      warehouseId: warehouse.id,
      mode: 'set',
      quantity: 0,
      refuseNegative: true,
    });
    expect(await count()).toBe(0);
    expect((await call('DELETE', url, owner.token)).statusCode).toBe(200);

    // Its movements still name it, as the seller knew it.
    const movements = data<{
      rows: { warehouse: { id: string; code: string | null; name: string | null } }[];
    }>(
      await call(
        'GET',
        `/api/inventory/stock/movements?${gridParams({ master_code_id: item.id })}`,
        owner.token,
      ),
    );
    expect(movements.rows).toHaveLength(2);
    for (const row of movements.rows) {
      expect(row.warehouse).toEqual({ id: warehouse.id, code: 'KLANG', name: 'Klang store' });
    }
  });
});
