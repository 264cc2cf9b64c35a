import { randomUUID } from 'node:crypto';
import { handleStockCommand } from '@commands/inventory/stock';
import { handleGoodsReceiptCommand, handlePurchaseCommand } from '@commands/purchases/documents';
import { eventSchemas } from '@domain/events';
import type { StockCommand } from '@domain/inventory/stock';
import type { GoodsReceiptCommand } from '@domain/purchases/goods-receipt';
import type { PurchaseCommand } from '@domain/purchases/purchase';
import type { Database } from '@infra/db';
import { comparePositions, type Position } from '@infra/eventstore/port';
import { PostgresEventStore } from '@infra/eventstore/postgres';
import { EventSchemaRegistry } from '@infra/eventstore/registry';
import { AVERAGE_COST_PROJECTION, averageCostsOf } from '@projections/average-cost';
import { projections } from '@projections/index';
import { PURCHASES_PROJECTION } from '@projections/purchases';
import { ProjectionEngine } from '@projections/runtime/engine';
import { createTestDatabase, type TestDatabase } from '@tests/support/db';
import { waitFor } from '@tests/support/wait';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The purchasing read models from events written by the command handlers (what the workflows' activities run): the
 * order and note lists, and the moving average cost — which blends each receipt at its net unit cost, moves the
 * quantity held with every other movement, ignores transfers between the tenant's own places, and is rebuilt from
 * the log into exactly the rows it built live.
 */

const registry = new EventSchemaRegistry().registerAll(eventSchemas);
const T = 'tenant-p';
const OTHER = 'tenant-q';
const minute = (n: number) => new Date(Date.UTC(2026, 2, 1, 9, n)).toISOString();

async function dump(db: Kysely<Database>) {
  const [purchases, notes, costs, pending] = await Promise.all([
    db.selectFrom('purchases').selectAll().orderBy('tenant_id').orderBy('id').execute(),
    db.selectFrom('goods_receipts').selectAll().orderBy('tenant_id').orderBy('id').execute(),
    db.selectFrom('average_costs').selectAll().orderBy('tenant_id').orderBy('master_code_id').execute(),
    db
      .selectFrom('average_cost_receipts')
      .selectAll()
      .orderBy('tenant_id')
      .orderBy('goods_receipt_id')
      .orderBy('master_code_id')
      .execute(),
  ]);
  return { purchases, notes, costs, pending };
}

describe('purchasing read models', () => {
  let database: TestDatabase;
  let store: PostgresEventStore;
  let engine: ProjectionEngine;
  let clock = 0;

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

  const context = (tenantId: string) => ({
    tenantId,
    userId: 'user-1',
    commandId: randomUUID(),
    occurredAt: minute(clock++),
  });
  /** The last position written of each event type: a projection has caught up once it passed its types'. */
  const written = new Map<string, Position>();
  const seen = (types: readonly string[], position: Position | null) => {
    for (const type of types) {
      const last = written.get(type);
      if (position && (!last || comparePositions(position, last) > 0)) written.set(type, position);
    }
  };
  const order = async (tenantId: string, id: string, command: PurchaseCommand) => {
    const result = await handlePurchaseCommand(store, id, command, context(tenantId));
    seen(
      result.events.map((event) => event.type),
      result.position,
    );
  };
  const note = async (tenantId: string, id: string, command: GoodsReceiptCommand) => {
    const result = await handleGoodsReceiptCommand(store, id, command, context(tenantId));
    seen(
      result.events.map((event) => event.type),
      result.position,
    );
  };
  const move = async (tenantId: string, command: StockCommand) => {
    const result = await handleStockCommand(store, command, context(tenantId));
    seen([result.event.type], result.position);
  };

  async function project(name: string) {
    const types = projections.find((projection) => projection.name === name)!.eventTypes;
    const target = types
      .map((type) => written.get(type))
      .filter((position): position is Position => !!position)
      .sort(comparePositions)
      .at(-1)!;
    await waitFor(
      async () => {
        await engine.catchUp(name, 3);
        const checkpoint = await engine.checkpoint(name);
        return (checkpoint.position && comparePositions(checkpoint.position, target) >= 0) || undefined;
      },
      { what: `the ${name} projection to catch up` },
    );
  }

  /** What the workflows do for an order placed and a note received: the events, in the same order. */
  async function buyAndReceive(
    tenantId: string,
    purchaseId: string,
    lines: { masterCodeId: string; quantity: number; unitCost: string }[],
    discount: string,
    receipt: { masterCodeId: string; received: number; damaged: number; returned: number }[],
  ) {
    await order(tenantId, purchaseId, {
      type: 'CreatePurchase',
      purchaseId,
      poNumber: `PO-${purchaseId}`,
      reference: '',
      date: '2026-03-01',
      supplierId: 'sup-1',
      warehouseId: 'wh-1',
      lines,
      discount,
      estimatedArrival: null,
      note: '',
      by: 'user-1',
    });
    await order(tenantId, purchaseId, { type: 'PlacePurchase', by: 'user-1', approvalRequired: false });
    for (const line of lines) {
      await move(tenantId, {
        type: 'ExpectStock',
        masterCodeId: line.masterCodeId,
        warehouseId: 'wh-1',
        quantity: line.quantity,
      });
    }
    const goodsReceiptId = `grn-${purchaseId}`;
    await order(tenantId, purchaseId, {
      type: 'OpenReceipt',
      goodsReceiptId,
      grnNumber: `GRN-${purchaseId}`,
      lines: receipt,
    });
    await note(tenantId, goodsReceiptId, {
      type: 'CreateGoodsReceipt',
      goodsReceiptId,
      grnNumber: `GRN-${purchaseId}`,
      purchaseId,
      poNumber: `PO-${purchaseId}`,
      supplierId: 'sup-1',
      warehouseId: 'wh-1',
      reference: '',
      note: '',
      lines: receipt,
      approvalRequired: false,
      by: 'user-1',
    });
    await order(tenantId, purchaseId, { type: 'SettleReceipt', goodsReceiptId });
    const source = { type: 'grn', id: goodsReceiptId };
    for (const line of receipt) {
      if (line.received > 0)
        await move(tenantId, {
          type: 'ReceiveStock',
          masterCodeId: line.masterCodeId,
          warehouseId: 'wh-1',
          quantity: line.received,
          settlesIncoming: true,
          source,
        });
      if (line.damaged > 0)
        await move(tenantId, {
          type: 'WriteOffStock',
          masterCodeId: line.masterCodeId,
          warehouseId: 'wh-1',
          quantity: line.damaged,
          refuseNegative: false,
          source,
        });
    }
    return goodsReceiptId;
  }

  it('lists orders and notes as their events leave them', async () => {
    const goodsReceiptId = await buyAndReceive(
      T,
      'po-1',
      [
        { masterCodeId: 'mc-a', quantity: 10, unitCost: '5.0000' },
        { masterCodeId: 'mc-b', quantity: 4, unitCost: '12.5000' },
      ],
      '10.0000',
      [{ masterCodeId: 'mc-a', received: 6, damaged: 1, returned: 1 }],
    );
    await note(T, goodsReceiptId, {
      type: 'CompleteGoodsReceipt',
      by: 'user-1',
      lines: [{ masterCodeId: 'mc-a', received: 6, damaged: 1, returned: 1, unitCost: '4.5000' }],
    });
    await project(PURCHASES_PROJECTION);
    const { purchases, notes } = await dump(database.db);
    expect(purchases).toEqual([
      expect.objectContaining({
        tenant_id: T,
        id: 'po-1',
        status: 'partial',
        item_count: 2,
        quantity: '14',
        received: '6',
        subtotal: '100.0000',
        discount: '10.0000',
        total: '90.0000',
        open_receipts: 0,
      }),
    ]);
    expect(notes).toEqual([
      expect.objectContaining({ id: goodsReceiptId, status: 2, received: '6', damaged: '1', returned: '1' }),
    ]);
  });

  it('keeps the moving average cost per master code across the tenant', async () => {
    // 5 of mc-a held at 5.4: 6 paid for at 4.5, 1 damaged and written off, so the 27 spreads over the 5 good ones;
    // mc-b never received.
    await project(AVERAGE_COST_PROJECTION);
    let costs = await averageCostsOf(database.db, T, ['mc-a', 'mc-b']);
    expect(costs.get('mc-a')).toMatchObject({ onHand: 5, averageCost: '5.4000', receipts: 1 });
    expect(costs.has('mc-b')).toBe(false);

    // Sold 2 (3 left at 5.4), moved to another of the tenant's warehouses and back (no change), then 7 bought at 8.
    await move(T, {
      type: 'ShipStock',
      masterCodeId: 'mc-a',
      warehouseId: 'wh-1',
      quantity: 2,
      from: 'free',
    });
    await move(T, {
      type: 'TransferStockOut',
      masterCodeId: 'mc-a',
      warehouseId: 'wh-1',
      quantity: 3,
      toWarehouseId: 'wh-2',
    });
    await buyAndReceive(T, 'po-2', [{ masterCodeId: 'mc-a', quantity: 7, unitCost: '8.0000' }], '0.0000', [
      { masterCodeId: 'mc-a', received: 7, damaged: 0, returned: 0 },
    ]);
    await move(T, {
      type: 'TransferStockIn',
      masterCodeId: 'mc-a',
      warehouseId: 'wh-2',
      quantity: 3,
      fromWarehouseId: 'wh-1',
    });
    await project(AVERAGE_COST_PROJECTION);
    costs = await averageCostsOf(database.db, T, ['mc-a']);
    // (3 × 5.4 + 7 × 8) / 10 = 7.22
    expect(costs.get('mc-a')).toMatchObject({ onHand: 10, averageCost: '7.2200', receipts: 2 });

    // A manual receipt and a count move the quantity at the average; another tenant's stock is its own.
    await move(T, { type: 'ReceiveStock', masterCodeId: 'mc-a', warehouseId: 'wh-1', quantity: 5 });
    await move(T, {
      type: 'AdjustStock',
      masterCodeId: 'mc-a',
      warehouseId: 'wh-1',
      mode: 'deduct',
      quantity: 1,
      refuseNegative: false,
    });
    await buyAndReceive(
      OTHER,
      'po-9',
      [{ masterCodeId: 'mc-a', quantity: 1, unitCost: '100.0000' }],
      '0.0000',
      [{ masterCodeId: 'mc-a', received: 1, damaged: 0, returned: 0 }],
    );
    await project(AVERAGE_COST_PROJECTION);
    expect((await averageCostsOf(database.db, T, ['mc-a'])).get('mc-a')).toMatchObject({
      onHand: 14,
      averageCost: '7.2200',
    });
    expect((await averageCostsOf(database.db, OTHER, ['mc-a'])).get('mc-a')).toMatchObject({
      onHand: 1,
      averageCost: '100.0000',
    });
  });

  it("counts a new master code's opening stock at the master code's cost, not at nothing", async () => {
    // 10 opened at 3 (the master code's cost), then 10 bought at 5: (30 + 50) / 20 = 4.
    await move(T, {
      type: 'ReceiveStock',
      masterCodeId: 'mc-c',
      warehouseId: 'wh-1',
      quantity: 10,
      reason: 'Initial quantity',
      source: { type: 'master_code', id: 'mc-c' },
      unitCost: '3.0000',
    });
    await buyAndReceive(T, 'po-3', [{ masterCodeId: 'mc-c', quantity: 10, unitCost: '5.0000' }], '0.0000', [
      { masterCodeId: 'mc-c', received: 10, damaged: 0, returned: 0 },
    ]);
    await project(AVERAGE_COST_PROJECTION);
    expect((await averageCostsOf(database.db, T, ['mc-c'])).get('mc-c')).toMatchObject({
      onHand: 20,
      averageCost: '4.0000',
      receipts: 2,
    });
  });

  it('rebuilds both projections into exactly the rows they built live', async () => {
    await project(PURCHASES_PROJECTION);
    await project(AVERAGE_COST_PROJECTION);
    const built = await dump(database.db);
    expect(built.costs.length).toBe(3);
    await engine.rebuild(AVERAGE_COST_PROJECTION, { rebuildId: 'average-cost-r1', batchSize: 2 });
    await engine.rebuild(PURCHASES_PROJECTION, { rebuildId: 'purchases-r1', batchSize: 2 });
    expect(await dump(database.db)).toEqual(built);
  });
});
