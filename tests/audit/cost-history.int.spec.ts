import { randomUUID } from 'node:crypto';
import { handleStockCommand } from '@commands/inventory/stock';
import { eventSchemas } from '@domain/events';
import type { StockCommand } from '@domain/inventory/stock';
import type { Database } from '@infra/db';
import { comparePositions, type Position } from '@infra/eventstore/port';
import { PostgresEventStore } from '@infra/eventstore/postgres';
import { EventSchemaRegistry } from '@infra/eventstore/registry';
import { AVERAGE_COST_PROJECTION } from '@projections/average-cost';
import { projections } from '@projections/index';
import { ProjectionEngine } from '@projections/runtime/engine';
import { createTestDatabase, type TestDatabase } from '@tests/support/db';
import { waitFor } from '@tests/support/wait';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The cost history the average cost projection keeps as it goes: the average and units held after each movement
 * (what a valuation as of a past instant reads), and each sale and return at the average of its moment (what gross
 * profit reads) — rebuilt from the log into exactly the rows it built live.
 */

const registry = new EventSchemaRegistry().registerAll(eventSchemas);
const T = 'tenant-cost';
const OTHER = 'tenant-cost-other';
const minute = (n: number) => new Date(Date.UTC(2026, 3, 1, 9, n)).toISOString();

async function dump(db: Kysely<Database>) {
  const [history, sales] = await Promise.all([
    db
      .selectFrom('average_cost_history')
      .selectAll()
      .orderBy('tenant_id')
      .orderBy('master_code_id')
      .orderBy('global_position')
      .execute(),
    db.selectFrom('cost_of_sales').selectAll().orderBy('tenant_id').orderBy('global_position').execute(),
  ]);
  return { history, sales };
}

describe('the cost history of the average cost projection', () => {
  let database: TestDatabase;
  let store: PostgresEventStore;
  let engine: ProjectionEngine;
  let clock = 0;
  let last: Position | null = null;

  beforeAll(async () => {
    database = await createTestDatabase();
    store = new PostgresEventStore(database.pool, registry, { pollIntervalMs: 20 });
    engine = new ProjectionEngine({ db: database.db, store, projections, retryMs: 20 });
  });
  afterAll(async () => {
    await engine?.stop();
    await store?.close();
    await database?.drop();
  });

  const move = async (tenantId: string, command: StockCommand) => {
    const result = await handleStockCommand(store, command, {
      tenantId,
      userId: 'user-1',
      commandId: randomUUID(),
      occurredAt: minute(clock++),
    });
    last = result.position;
  };
  const project = () =>
    waitFor(
      async () => {
        await engine.catchUp(AVERAGE_COST_PROJECTION, 3);
        const checkpoint = await engine.checkpoint(AVERAGE_COST_PROJECTION);
        return (checkpoint.position && last && comparePositions(checkpoint.position, last) >= 0) || undefined;
      },
      { what: 'the average cost projection to catch up' },
    );
  const target = { masterCodeId: 'mc-1', warehouseId: 'wh-1' };

  it('records each sale at the average of its moment and the average after each movement', async () => {
    // 10 at 4; 4 sold (order o-1) at 4; 6 more at 10: (6 × 4 + 6 × 10) / 12 = 7; 3 sold (o-2) at 7; 1 returned
    // (o-2) at 7. Another tenant's sale of the same master code is its own.
    await move(T, { type: 'ReceiveStock', ...target, quantity: 10, unitCost: '4.0000' });
    await move(T, {
      type: 'ShipStock',
      ...target,
      quantity: 4,
      from: 'free',
      source: { type: 'order', id: 'o-1' },
    });
    await move(T, { type: 'ReceiveStock', ...target, quantity: 6, unitCost: '10.0000' });
    await move(T, {
      type: 'ShipStock',
      ...target,
      quantity: 3,
      from: 'free',
      source: { type: 'order', id: 'o-2' },
    });
    await move(T, { type: 'ReturnStock', ...target, quantity: 1, source: { type: 'order', id: 'o-2' } });
    await move(OTHER, { type: 'ReceiveStock', ...target, quantity: 1, unitCost: '50.0000' });
    await move(OTHER, { type: 'ShipStock', ...target, quantity: 1, from: 'free' });
    await project();

    const { history, sales } = await dump(database.db);
    expect(
      history
        .filter((row) => row.tenant_id === T)
        .map((row) => [row.occurred_at.toISOString(), row.average_cost, row.on_hand]),
    ).toEqual([
      [minute(0), '4.0000', '10'],
      [minute(1), '4.0000', '6'],
      [minute(2), '7.0000', '12'],
      [minute(3), '7.0000', '9'],
      [minute(4), '7.0000', '10'],
    ]);
    expect(
      sales.map((row) => ({
        tenant: row.tenant_id,
        movement: row.movement,
        source: row.source_id,
        quantity: row.quantity,
        unitCost: row.unit_cost,
        warehouse: row.warehouse_id,
      })),
    ).toEqual([
      {
        tenant: T,
        movement: 'StockShipped',
        source: 'o-1',
        quantity: '4',
        unitCost: '4.0000',
        warehouse: 'wh-1',
      },
      {
        tenant: T,
        movement: 'StockShipped',
        source: 'o-2',
        quantity: '3',
        unitCost: '7.0000',
        warehouse: 'wh-1',
      },
      {
        tenant: T,
        movement: 'StockReturned',
        source: 'o-2',
        quantity: '-1',
        unitCost: '7.0000',
        warehouse: 'wh-1',
      },
      {
        tenant: OTHER,
        movement: 'StockShipped',
        source: null,
        quantity: '1',
        unitCost: '50.0000',
        warehouse: 'wh-1',
      },
    ]);
  });

  it('rebuilds the history into exactly the rows it built live', async () => {
    await project();
    const built = await dump(database.db);
    expect(built.history.length).toBe(7);
    await engine.rebuild(AVERAGE_COST_PROJECTION, { rebuildId: 'cost-history-r1', batchSize: 2 });
    expect(await dump(database.db)).toEqual(built);
  });
});
