import { randomBytes, randomUUID } from 'node:crypto';
import { StockListQuery } from '@api/contracts/inventory-stock';
import { ensurePackages } from '@commands/accounts/seed';
import { handleStockCommand } from '@commands/inventory/stock';
import { eventSchemas } from '@domain/events';
import { initialState, STOCK_EVENT_TYPES, type StockCommand } from '@domain/inventory/stock';
import { createPool, type Database } from '@infra/db';
import { createScopedDb, runInScope, withTenant } from '@infra/db/tenant';
import { comparePositions, type Position } from '@infra/eventstore/port';
import { PostgresEventStore } from '@infra/eventstore/postgres';
import { EventSchemaRegistry } from '@infra/eventstore/registry';
import { projections } from '@projections/index';
import { ProjectionEngine } from '@projections/runtime/engine';
import { LiveHub } from '@projections/runtime/live-hub';
import type { LiveChange } from '@projections/runtime/projection';
import {
  movements,
  movementsUntil,
  STOCK_PROJECTION,
  STOCK_VIEW,
  stockAt,
  stockLevel,
} from '@projections/stock';
import { stockList } from '@projections/stock.queries';
import { createTestDatabase, type TestDatabase } from '@tests/support/db';
import { waitFor } from '@tests/support/wait';
import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { z } from 'zod';

const registry = new EventSchemaRegistry().registerAll(eventSchemas);
const A = 'tenant-a';
const B = 'tenant-b';
const minute = (n: number) => new Date(Date.UTC(2026, 0, 1, 8, n));

/**
 * The stock list (the console's) names a stock by its master code and warehouse rows, joined by uuid: the ids it
 * lists are uuids with rows. A uuid is one tenant's row, so the ids both tenants' streams share (MC-TIME in WH-1)
 * are tenant B's rows; tenant A lists its own (MC-L1..3 in WH-LIST).
 */
const WH_1 = randomUUID();
const WH_LIST = randomUUID();
const MC = {
  L1: randomUUID(),
  L2: randomUUID(),
  L3: randomUUID(),
  TIME: randomUUID(),
  B_ONLY: randomUUID(),
};

/** Tenants, warehouses and master codes the lists join. */
async function seedReferences(db: Kysely<Database>) {
  await ensurePackages(db);
  await db
    .insertInto('tenants')
    .values([A, B].map((id) => ({ id, name: id, country: 'MY', package_id: 'growth', status: 'active' })))
    .execute();
  await db
    .insertInto('warehouses')
    .values([
      { id: WH_LIST, tenant_id: A, kind: 'warehouse', code: 'WH-LIST', name: 'List', is_default: true },
      { id: WH_1, tenant_id: B, kind: 'warehouse', code: 'WH-1', name: 'One', is_default: true },
    ])
    .execute();
  const codes = [
    [MC.L1, A, 'MC-L1'],
    [MC.L2, A, 'MC-L2'],
    [MC.L3, A, 'MC-L3'],
    [MC.TIME, B, 'MC-TIME'],
    [MC.B_ONLY, B, 'MC-B-ONLY'],
  ] as const;
  await db
    .insertInto('master_codes')
    .values(codes.map(([id, tenant_id, code]) => ({ id, tenant_id, code, name: code, type: 'standard' })))
    .execute();
}

/** The stock list as GET /api/inventory/stock runs it, the query parsed by its contract. */
const listOf = (db: Kysely<Database>, tenantId: string, query: z.input<typeof StockListQuery>) =>
  stockList(db, tenantId, StockListQuery.parse(query));

/** Both tables as plain rows in a fixed order. */
async function dump(db: Kysely<Database>) {
  const levels = await db
    .selectFrom('stock_levels')
    .selectAll()
    .orderBy('tenant_id')
    .orderBy('master_code_id')
    .orderBy('warehouse_id')
    .execute();
  const ledger = await db
    .selectFrom('stock_movements')
    .selectAll()
    .orderBy('tenant_id')
    .orderBy('master_code_id')
    .orderBy('warehouse_id')
    .orderBy('revision')
    .execute();
  return {
    levels: levels.map((r) => ({ ...r, last_movement_at: r.last_movement_at.toISOString() })),
    ledger: ledger.map((r) => ({ ...r, occurred_at: r.occurred_at.toISOString() })),
  };
}

describe('stock read models', () => {
  let database: TestDatabase;
  let store: PostgresEventStore;
  let engine: ProjectionEngine;
  let written: Position | undefined;
  /** Run after the database is dropped (a role holds privileges in it until then). */
  const cleanups: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    database = await createTestDatabase({ poolSize: 20 });
    store = new PostgresEventStore(database.pool, registry, { pollIntervalMs: 20 });
    engine = new ProjectionEngine({ db: database.db, store, projections, retryMs: 20 });
    await seedReferences(database.db);
  });
  afterAll(async () => {
    await engine?.stop();
    await store?.close();
    await database?.drop();
    for (const cleanup of cleanups) await cleanup();
  });

  /** Runs a stock command at `at` as user-1 of `tenantId`. */
  async function move(tenantId: string, at: Date, command: StockCommand) {
    const result = await handleStockCommand(store, command, {
      tenantId,
      userId: 'user-1',
      commandId: randomUUID(),
      occurredAt: at.toISOString(),
    });
    if (!written || comparePositions(result.position, written) > 0) written = result.position;
    return result;
  }

  /** Catches the projection up to everything appended so far (waiting for slower writers to commit). */
  async function project() {
    await waitFor(
      async () => {
        await engine.catchUp(STOCK_PROJECTION, 4);
        const checkpoint = await engine.checkpoint(STOCK_PROJECTION);
        return (
          (checkpoint.position && written && comparePositions(checkpoint.position, written) >= 0) || undefined
        );
      },
      { what: 'the stock projection to catch up' },
    );
  }

  it('writes a ledger row for each of the nine movements, and the level after them', async () => {
    const at = { masterCodeId: 'MC-LEDGER', warehouseId: WH_1 };
    const source = { type: 'purchase', id: 'PO-1' };
    await move(A, minute(0), { type: 'ReceiveStock', ...at, quantity: 100, reason: 'opening', source });
    await move(A, minute(1), { type: 'AdjustStock', ...at, mode: 'add', quantity: 5, refuseNegative: true });
    await move(A, minute(2), {
      type: 'AdjustStock',
      ...at,
      mode: 'deduct',
      quantity: 10,
      refuseNegative: true,
    });
    await move(A, minute(3), { type: 'AdjustStock', ...at, mode: 'set', quantity: 90, refuseNegative: true });
    await move(A, minute(4), { type: 'ReserveStock', ...at, quantity: 30 });
    await move(A, minute(5), { type: 'ReleaseStock', ...at, quantity: 10 });
    await move(A, minute(6), { type: 'ShipStock', ...at, quantity: 15, from: 'reserved' });
    await move(A, minute(7), { type: 'ReturnStock', ...at, quantity: 3 });
    await move(A, minute(8), { type: 'TransferStockOut', ...at, quantity: 8, toWarehouseId: 'wh-2' });
    await move(A, minute(8), {
      type: 'TransferStockIn',
      masterCodeId: at.masterCodeId,
      warehouseId: 'wh-2',
      quantity: 8,
      fromWarehouseId: WH_1,
    });
    await move(A, minute(9), { type: 'WriteOffStock', ...at, quantity: 2, refuseNegative: true });
    await move(A, minute(10), { type: 'StartProcessing', ...at, quantity: 3 });
    await move(A, minute(11), { type: 'StopProcessing', ...at, quantity: 1 });
    await move(A, minute(12), { type: 'HoldStock', ...at, quantity: 4, hold: 'online' });
    await move(A, minute(13), { type: 'ReleaseHold', ...at, quantity: 1, hold: 'online' });
    await move(A, minute(14), { type: 'ExpectStock', ...at, quantity: 20 });
    await move(A, minute(15), { type: 'CancelExpectedStock', ...at, quantity: 5 });
    await project();

    const ledger = await movements(database.db, A, {
      masterCodeId: at.masterCodeId,
      startRow: 0,
      endRow: 100,
    });
    expect(ledger.lastRow).toBe(17);
    const all = ledger.rows.filter((r) => r.warehouseId === WH_1).reverse();
    const rows = all.slice(0, 10);
    // action, mode, previous stock, change, in, out, new stock, reserved after
    expect(
      rows.map((r) => [
        r.action,
        r.mode,
        r.previousStock,
        r.change,
        r.stockIn,
        r.stockOut,
        r.newStock,
        r.reserved,
      ]),
    ).toEqual([
      ['StockReceived', null, 0, 100, 100, 0, 100, 0],
      ['StockAdjusted', 'add', 100, 5, 5, 0, 105, 0],
      ['StockAdjusted', 'deduct', 105, -10, 0, 10, 95, 0],
      ['StockAdjusted', 'set', 95, -5, 0, 5, 90, 0],
      ['StockReserved', null, 90, 0, 0, 0, 90, 30],
      ['StockReleased', null, 90, 0, 0, 0, 90, 20],
      ['StockShipped', 'reserved', 90, -15, 0, 15, 75, 5],
      ['StockReturned', null, 75, 3, 3, 0, 78, 5],
      ['StockTransferredOut', null, 78, -8, 0, 8, 70, 5],
      ['StockWrittenOff', null, 70, -2, 0, 2, 68, 5],
    ]);
    expect(rows.map((r) => r.revision)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    // Orders in process, holds and incoming stock move their own figures and leave on hand alone.
    expect(
      all
        .slice(10)
        .map((r) => [r.action, r.mode, r.change, r.reserved, r.inProcess, r.onHold, r.incoming, r.available]),
    ).toEqual([
      ['StockProcessingStarted', null, 0, 2, 3, 0, 0, 63],
      ['StockProcessingStopped', null, 0, 3, 2, 0, 0, 63],
      ['StockHeld', 'online', 0, 3, 2, 4, 0, 59],
      ['StockHoldReleased', 'online', 0, 3, 2, 3, 0, 60],
      ['StockIncomingExpected', null, 0, 3, 2, 3, 20, 60],
      ['StockIncomingCancelled', null, 0, 3, 2, 3, 15, 60],
    ]);
    expect(rows[0]).toMatchObject({
      reason: 'opening',
      source,
      createdBy: 'user-1',
      quantity: 100,
      occurredAt: minute(0),
      available: 100,
    });
    expect(rows[3]!.quantity).toBe(90);
    expect(rows[8]!.counterpartWarehouseId).toBe('wh-2');
    const arrived = ledger.rows.find((r) => r.warehouseId === 'wh-2')!;
    expect(arrived).toMatchObject({
      action: 'StockTransferredIn',
      counterpartWarehouseId: WH_1,
      previousStock: 0,
      newStock: 8,
    });
    expect(new Set(ledger.rows.map((r) => r.action))).toEqual(new Set(STOCK_EVENT_TYPES));

    expect(await stockLevel(database.db, A, at.masterCodeId, WH_1)).toEqual({
      masterCodeId: at.masterCodeId,
      warehouseId: WH_1,
      onHand: 68,
      reserved: 3,
      inProcess: 2,
      onHold: 3,
      posOnHold: 0,
      supplierOnHold: 0,
      incoming: 15,
      available: 60,
      negative: false,
      lastMovementAt: minute(15),
      movements: 16,
    });
    expect(await stockAt(database.db, A, at.masterCodeId, WH_1, minute(12))).toMatchObject({
      onHand: 68,
      reserved: 3,
      inProcess: 2,
      onHold: 4,
      incoming: 0,
      available: 59,
    });
    expect(await stockLevel(database.db, A, at.masterCodeId, 'wh-2')).toMatchObject({
      onHand: 8,
      movements: 1,
    });
    expect(await stockLevel(database.db, A, at.masterCodeId, 'wh-9')).toBeNull();

    // The report's filters: by warehouse, by action, by period.
    const shipped = await movements(database.db, A, { type: 'StockShipped', startRow: 0, endRow: 10 });
    expect(shipped.rows.map((r) => r.change)).toEqual([-15]);
    const period = await movements(database.db, A, {
      warehouseId: WH_1,
      from: minute(2),
      to: minute(4),
      startRow: 0,
      endRow: 2,
    });
    expect(period.rows.map((r) => r.revision)).toEqual([4, 3]);
    expect(period.lastRow).toBeNull();
    const next = await movements(database.db, A, {
      warehouseId: WH_1,
      from: minute(2),
      to: minute(4),
      startRow: 2,
      endRow: 4,
    });
    expect(next).toMatchObject({ lastRow: 3 });
    expect(next.rows.map((r) => r.revision)).toEqual([2]);
  });

  it('flags oversold stock, and lists it sorted, filtered and paged', async () => {
    const wh = WH_LIST;
    await move(A, minute(20), { type: 'ReceiveStock', masterCodeId: MC.L1, warehouseId: wh, quantity: 5 });
    await move(A, minute(21), { type: 'ReserveStock', masterCodeId: MC.L1, warehouseId: wh, quantity: 8 });
    await move(A, minute(22), { type: 'ReceiveStock', masterCodeId: MC.L2, warehouseId: wh, quantity: 40 });
    await move(A, minute(23), { type: 'ReceiveStock', masterCodeId: MC.L3, warehouseId: wh, quantity: 12 });
    await move(A, minute(24), { type: 'ReserveStock', masterCodeId: MC.L3, warehouseId: wh, quantity: 2 });
    await project();

    const oversold = await stockLevel(database.db, A, MC.L1, wh);
    expect(oversold).toMatchObject({ onHand: 5, reserved: 8, available: -3, negative: true });
    const byAvailable = await listOf(database.db, A, {
      warehouse_id: wh,
      sortModel: [{ colId: 'available', sort: 'desc' }],
      startRow: 0,
      endRow: 10,
    });
    expect(byAvailable.rows.map((r) => [r.code, r.available])).toEqual([
      ['MC-L2', 40],
      ['MC-L3', 10],
      ['MC-L1', -3],
    ]);
    expect(byAvailable.lastRow).toBe(3);
    const negative = await listOf(database.db, A, { negative_only: 'true', startRow: 0, endRow: 10 });
    expect(negative.rows.map((r) => r.code)).toEqual(['MC-L1']);
    const page = await listOf(database.db, A, {
      warehouse_id: wh,
      sortModel: [{ colId: 'on_hand', sort: 'asc' }],
      startRow: 1,
      endRow: 2,
    });
    expect(page.rows.map((r) => r.code)).toEqual(['MC-L3']);
    // A full page: the console's list counts the rows (exactly, up to STOCK_COUNT_CAP) where the old one said null.
    expect(page.lastRow).toBe(3);
    const searched = await listOf(database.db, A, {
      filterModel: {
        code: {
          operator: 'OR',
          conditions: ['MC-L2', 'MC-L3', 'MC-NONE'].map((code) => ({ type: 'equals', filter: code })),
        },
      },
      startRow: 0,
      endRow: 10,
    });
    expect(searched.rows.map((r) => r.code)).toEqual(['MC-L2', 'MC-L3']);

    // Receiving enough clears the flag.
    await move(A, minute(25), { type: 'ReceiveStock', masterCodeId: MC.L1, warehouseId: wh, quantity: 10 });
    await project();
    expect(await stockLevel(database.db, A, MC.L1, wh)).toMatchObject({ available: 7, negative: false });
    expect((await listOf(database.db, A, { negative_only: 'true', startRow: 0, endRow: 10 })).rows).toEqual(
      [],
    );
  });

  it('answers the stock at any past instant, and the movements that led to it', async () => {
    const at = { masterCodeId: MC.TIME, warehouseId: WH_1 };
    await move(A, minute(30), { type: 'ReceiveStock', ...at, quantity: 10 });
    await move(A, minute(32), {
      type: 'AdjustStock',
      ...at,
      mode: 'add',
      quantity: 5,
      refuseNegative: false,
    });
    await move(A, minute(34), { type: 'ReserveStock', ...at, quantity: 4 });
    await move(A, minute(36), { type: 'ShipStock', ...at, quantity: 6, from: 'reserved' });
    await project();
    const when = (instant: Date) => stockAt(database.db, A, at.masterCodeId, at.warehouseId, instant);

    expect(await when(minute(29))).toEqual({ ...initialState, available: 0, asOf: null });
    expect(await when(minute(30))).toMatchObject({ onHand: 10, reserved: 0, asOf: { revision: 0 } });
    expect(await when(minute(31))).toMatchObject({ onHand: 10, available: 10 });
    const between = await when(minute(35));
    expect(between).toMatchObject({ onHand: 15, reserved: 4, available: 11 });
    expect(between.asOf).toMatchObject({ revision: 2, action: 'StockReserved', occurredAt: minute(34) });
    expect(await when(new Date(minute(36).getTime() - 1))).toMatchObject({ onHand: 15, reserved: 4 });
    const after = await when(minute(59));
    expect(after).toMatchObject({ onHand: 9, reserved: 0, available: 9, asOf: { revision: 3 } });
    const now = await stockLevel(database.db, A, at.masterCodeId, at.warehouseId);
    expect([after.onHand, after.reserved]).toEqual([now!.onHand, now!.reserved]);
    // Instants as ISO strings, with an offset, name the same moment.
    expect(
      await stockAt(database.db, A, at.masterCodeId, at.warehouseId, '2026-01-01T16:35:00+08:00'),
    ).toEqual(between);

    const replay = await movementsUntil(database.db, A, at.masterCodeId, at.warehouseId, minute(35));
    expect(replay.total).toBe(3);
    expect(replay.asOf).toEqual(between.asOf);
    expect(replay.movements.map((m) => [m.revision, m.newStock])).toEqual([
      [0, 10],
      [1, 15],
      [2, 15],
    ]);
    const lastTwo = await movementsUntil(database.db, A, at.masterCodeId, at.warehouseId, minute(35), {
      limit: 2,
    });
    expect(lastTwo.movements.map((m) => m.revision)).toEqual([1, 2]);
    const before = await movementsUntil(database.db, A, at.masterCodeId, at.warehouseId, minute(35), {
      limit: 2,
      beforeRevision: 1,
    });
    expect(before.movements.map((m) => m.revision)).toEqual([0]);
    expect(await movementsUntil(database.db, A, at.masterCodeId, at.warehouseId, minute(1))).toEqual({
      asOf: null,
      movements: [],
      total: 0,
    });
  });

  it("never answers a tenant with another tenant's stock", async () => {
    // Tenant B holds the same master code and warehouse ids as tenant A.
    const at = { masterCodeId: MC.TIME, warehouseId: WH_1 };
    await move(B, minute(31), { type: 'ReceiveStock', ...at, quantity: 1000 });
    await move(B, minute(33), {
      type: 'ReceiveStock',
      masterCodeId: MC.B_ONLY,
      warehouseId: WH_1,
      quantity: 1,
    });
    await project();

    expect(await stockLevel(database.db, A, at.masterCodeId, at.warehouseId)).toMatchObject({ onHand: 9 });
    expect(await stockLevel(database.db, B, at.masterCodeId, at.warehouseId)).toMatchObject({ onHand: 1000 });
    expect((await stockAt(database.db, A, at.masterCodeId, at.warehouseId, minute(31))).onHand).toBe(10);
    expect((await stockAt(database.db, B, at.masterCodeId, at.warehouseId, minute(31))).onHand).toBe(1000);
    const listA = await listOf(database.db, A, { startRow: 0, endRow: 1000 });
    expect(listA.rows.some((r) => r.code === 'MC-B-ONLY' || r.on_hand === 1000)).toBe(false);
    const listB = await listOf(database.db, B, { startRow: 0, endRow: 1000 });
    expect(listB.rows.map((r) => r.code)).toEqual(['MC-B-ONLY', 'MC-TIME']);
    const ledgerB = await movements(database.db, B, { startRow: 0, endRow: 1000 });
    expect(ledgerB.rows).toHaveLength(2);
    const ledgerA = await movements(database.db, A, { startRow: 0, endRow: 1000 });
    expect(ledgerA.rows.some((r) => r.newStock === 1000 || r.masterCodeId === MC.B_ONLY)).toBe(false);
    await expect(withTenant(database.db, '', async () => 0)).rejects.toThrow('not a tenant id');
  });

  it("hides another tenant's rows from an ordinary role, even from a query without the tenant filter", async () => {
    // The app's own role in a deployment that wants the second lock: no superuser, no BYPASSRLS.
    const role = `kedai_rls_${randomBytes(4).toString('hex')}`;
    await sql`CREATE ROLE ${sql.id(role)} LOGIN PASSWORD 'rls'`.execute(database.db);
    cleanups.push(async () => {
      const admin = new pg.Client({ connectionString: inject('postgresUrl') });
      await admin.connect();
      await admin.query(`DROP ROLE IF EXISTS ${role}`);
      await admin.end();
    });
    await sql`GRANT USAGE ON SCHEMA public TO ${sql.id(role)}`.execute(database.db);
    await sql`GRANT SELECT, INSERT ON stock_levels, stock_movements TO ${sql.id(role)}`.execute(database.db);
    // The stock list joins the reference data it names (plain tables, no policy).
    await sql`GRANT SELECT ON warehouses, master_codes, combo_items TO ${sql.id(role)}`.execute(database.db);
    const url = new URL(database.url);
    url.username = role;
    url.password = 'rls';
    // Scoped as the API's database is: reference data read before withTenant needs the scope's tenant too.
    const roleDb = createScopedDb(createPool(url.toString(), 2), database.systemPool);
    try {
      const tables = await sql<{ relname: string; relrowsecurity: boolean; relforcerowsecurity: boolean }>`
        SELECT relname, relrowsecurity, relforcerowsecurity FROM pg_class
        WHERE relname IN ('stock_levels', 'stock_movements') ORDER BY relname`.execute(database.db);
      expect(tables.rows).toEqual([
        { relname: 'stock_levels', relrowsecurity: true, relforcerowsecurity: true },
        { relname: 'stock_movements', relrowsecurity: true, relforcerowsecurity: true },
      ]);
      const count = async (db: Kysely<Database>) =>
        Number(
          (
            await db
              .selectFrom('stock_movements')
              .select((eb) => eb.fn.countAll<string>().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      const total = await count(database.db);
      const ofB = 2;

      // No tenant set: nothing at all.
      expect(await count(roleDb)).toBe(0);
      // Tenant set, no filter in the query: the policy alone keeps tenant B out.
      expect(await withTenant(roleDb, A, count)).toBe(total - ofB);
      expect(await withTenant(roleDb, B, count)).toBe(ofB);
      const unfiltered = await withTenant(roleDb, A, (trx) =>
        trx.selectFrom('stock_levels').selectAll().execute(),
      );
      expect(unfiltered.length).toBeGreaterThan(0);
      expect(unfiltered.every((r) => r.tenant_id === A)).toBe(true);
      // Nor can it write a row for another tenant.
      await expect(
        withTenant(roleDb, A, (trx) =>
          trx
            .insertInto('stock_levels')
            .values({
              tenant_id: B,
              master_code_id: 'MC-FORGED',
              warehouse_id: WH_1,
              on_hand: 1,
              reserved: 0,
              in_process: 0,
              on_hold: 0,
              pos_on_hold: 0,
              supplier_on_hold: 0,
              incoming: 0,
              last_movement_at: minute(0),
              movements: 1,
              last_revision: 0,
              last_position: 0,
            })
            .execute(),
        ),
      ).rejects.toThrow(/row-level security/);

      // The query functions answer this role as they answer the API's app role: the same policies bind both. (The
      // superuser would differ: it also sees the rows this fixture hangs on the other tenant's warehouse and codes.)
      for (const [tenant, query] of [
        [A, (db: Kysely<Database>) => listOf(db, A, { startRow: 0, endRow: 1000 })],
        [B, (db: Kysely<Database>) => movements(db, B, { startRow: 0, endRow: 1000 })],
        [A, (db: Kysely<Database>) => stockAt(db, A, MC.TIME, WH_1, minute(35))],
      ] as const) {
        const scope = { tenantId: tenant, system: false };
        const asApp = await runInScope(scope, () => query(database.appDb));
        expect(await runInScope(scope, () => query(roleDb)), tenant).toEqual(asApp);
      }
      const scopeA = { tenantId: A, system: false };
      const listed = await runInScope(scopeA, () => listOf(roleDb, A, { startRow: 0, endRow: 1000 }));
      expect(listed.rows.length).toBeGreaterThan(0);

      // The schema's owner here is a superuser, whom no policy binds (the API never connects as it).
      const me = await sql<{ rolsuper: boolean }>`
        SELECT rolsuper FROM pg_roles WHERE rolname = current_user`.execute(database.db);
      expect(me.rows[0]!.rolsuper).toBe(true);
      expect(await withTenant(database.db, A, count)).toBe(total);
    } finally {
      await roleDb.destroy();
    }
  });

  it('publishes the stocks each batch changed, per tenant, while following the log live', async () => {
    const hub = new LiveHub();
    const live = new ProjectionEngine({ db: database.db, store, projections, hub, retryMs: 20 });
    const changes: LiveChange[] = [];
    const unsubscribe = hub.subscribe((change) => changes.push(change));
    live.start();
    try {
      await move(A, minute(40), {
        type: 'ReceiveStock',
        masterCodeId: 'MC-LIVE',
        warehouseId: WH_1,
        quantity: 1,
      });
      await move(A, minute(40), {
        type: 'ReceiveStock',
        masterCodeId: 'MC-LIVE',
        warehouseId: 'wh-2',
        quantity: 1,
      });
      await move(B, minute(40), {
        type: 'ReserveStock',
        masterCodeId: 'MC-LIVE',
        warehouseId: WH_1,
        quantity: 1,
      });
      const ids = (tenantId: string) =>
        new Set(
          changes.filter((c) => c.tenantId === tenantId && c.view === STOCK_VIEW).flatMap((c) => c.ids),
        );
      await waitFor(() => (ids(A).has('MC-LIVE@wh-2') && ids(B).has(`MC-LIVE@${WH_1}`)) || undefined, {
        what: 'live notices of both tenants',
      });
      expect(ids(A)).toEqual(new Set([`MC-LIVE@${WH_1}`, 'MC-LIVE@wh-2']));
      expect(ids(B)).toEqual(new Set([`MC-LIVE@${WH_1}`]));
      // The engine runs every projection; other views that read stock events (the stream catalogue, average cost)
      // announce under their own names, and every notice stays with its tenant.
      expect(changes.every((c) => c.tenantId === A || c.tenantId === B || c.view === 'streams')).toBe(true);
      expect(await stockLevel(database.db, B, 'MC-LIVE', WH_1)).toMatchObject({
        available: -1,
        negative: true,
      });
    } finally {
      unsubscribe();
      await live.stop();
    }
  });

  it('rebuilds into exactly the rows it built live', async () => {
    await project();
    const built = await dump(database.db);
    expect(built.ledger.length).toBeGreaterThan(20);
    const result = await engine.rebuild(STOCK_PROJECTION, { rebuildId: 'stock-r1', batchSize: 3 });
    expect(result.eventsApplied).toBe(BigInt(built.ledger.length));
    expect(await dump(database.db)).toEqual(built);
  });
});
