import { randomUUID } from 'node:crypto';
import { type ComboComponent, handleComboCommand } from '@commands/inventory/combo';
import { handleStockCommand } from '@commands/inventory/stock';
import { eventSchemas } from '@domain/events';
import { stockStreamId } from '@domain/inventory/stock';
import { PostgresEventStore } from '@infra/eventstore/postgres';
import { EventSchemaRegistry } from '@infra/eventstore/registry';
import { createTestDatabase, type TestDatabase } from '@tests/support/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

describe('selling a combo moves its components', () => {
  let database: TestDatabase;
  let store: PostgresEventStore;
  const tenantId = 'tenant-combo';
  const warehouseId = 'wh-1';

  beforeAll(async () => {
    database = await createTestDatabase();
    store = new PostgresEventStore(database.pool, new EventSchemaRegistry().registerAll(eventSchemas));
  });
  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });

  const context = (commandId = randomUUID()) => ({
    tenantId,
    userId: 'user-1',
    commandId,
    occurredAt: new Date().toISOString(),
  });

  async function figures(masterCodeId: string) {
    const events = [];
    for await (const event of store.readStream(stockStreamId(tenantId, masterCodeId, warehouseId))) {
      events.push(event);
    }
    return { count: events.length, ...(events.at(-1)?.data as { onHand: number; reserved: number }) };
  }

  async function comboOf(): Promise<ComboComponent[]> {
    const components = [
      { masterCodeId: randomUUID(), quantity: 2 },
      { masterCodeId: randomUUID(), quantity: 1 },
    ];
    for (const component of components) {
      await handleStockCommand(
        store,
        { type: 'ReceiveStock', masterCodeId: component.masterCodeId, warehouseId, quantity: 20 },
        context(),
      );
    }
    return components;
  }

  it('reserves and ships each component for its quantity times the combos sold', async () => {
    const [a, b] = await comboOf();
    const combo = { comboId: randomUUID(), warehouseId, quantity: 3 };
    const source = { type: 'order', id: 'SO-1' };
    await handleComboCommand(store, { type: 'ReserveStock', ...combo, source }, [a!, b!], context());
    expect(await figures(a!.masterCodeId)).toMatchObject({ onHand: 20, reserved: 6 });
    expect(await figures(b!.masterCodeId)).toMatchObject({ onHand: 20, reserved: 3 });

    const shipped = await handleComboCommand(
      store,
      { type: 'ShipStock', ...combo, from: 'reserved', source },
      [a!, b!],
      context(),
    );
    expect(shipped.components.map((c) => [c.masterCodeId, c.quantity])).toEqual([
      [a!.masterCodeId, 6],
      [b!.masterCodeId, 3],
    ]);
    expect(await figures(a!.masterCodeId)).toMatchObject({ onHand: 14, reserved: 0, source });
    expect(await figures(b!.masterCodeId)).toMatchObject({ onHand: 17, reserved: 0, source });
  });

  it('moves each component once when the same combo command runs again, finishing one cut short', async () => {
    const [a, b] = await comboOf();
    const commandId = randomUUID();
    const ship = {
      type: 'ShipStock' as const,
      comboId: randomUUID(),
      warehouseId,
      quantity: 2,
      from: 'free' as const,
    };
    // A run that stopped after the first component: only a's movement was recorded.
    await handleComboCommand(store, ship, [a!], context(commandId));
    expect(await figures(b!.masterCodeId)).toMatchObject({ count: 1, onHand: 20 });

    const again = await handleComboCommand(store, ship, [a!, b!], context(commandId));
    expect(again.components.map((c) => c.replayed)).toEqual([true, false]);
    expect(again.replayed).toBe(false);
    const thrice = await handleComboCommand(store, ship, [a!, b!], context(commandId));
    expect(thrice.replayed).toBe(true);
    expect(await figures(a!.masterCodeId)).toMatchObject({ count: 2, onHand: 16 });
    expect(await figures(b!.masterCodeId)).toMatchObject({ count: 2, onHand: 18 });
  });

  it('refuses a quantity that is not a whole positive number of combos, moving nothing', async () => {
    const [a, b] = await comboOf();
    for (const quantity of [0, -1, 1.5, 600_000_000]) {
      await expect(
        handleComboCommand(
          store,
          { type: 'ReserveStock', comboId: randomUUID(), warehouseId, quantity },
          [a!, b!],
          context(),
        ),
      ).rejects.toMatchObject({ code: 'QUANTITY_NOT_POSITIVE' });
    }
    expect(await figures(a!.masterCodeId)).toMatchObject({ count: 1, reserved: 0 });
    expect(await figures(b!.masterCodeId)).toMatchObject({ count: 1, reserved: 0 });
  });
});
