import { randomUUID } from 'node:crypto';
import { handleOrderCommand } from '@commands/orders/order';
import { splitOrder } from '@commands/orders/split';
import { eventSchemas } from '@domain/events';
import { type OrderCommand, type OrderEvent, orderStreamId } from '@domain/orders/order';
import { PostgresEventStore } from '@infra/eventstore/postgres';
import { EventSchemaRegistry } from '@infra/eventstore/registry';
import { ORDER_COUNTS_VIEW, ORDERS_PROJECTION, ORDERS_VIEW, ordersProjection } from '@projections/orders';
import { ProjectionEngine } from '@projections/runtime/engine';
import type { LiveChange } from '@projections/runtime/projection';
import {
  type Catalogue,
  importOrder,
  line,
  marketplaceOrder,
  seedCatalogue,
  settle,
} from '@tests/api/orders-support';
import { createSeller, createTestApi, type TestApi } from '@tests/support/api';
import { createTestDatabase, type TestDatabase } from '@tests/support/db';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The order board read model (projections/orders.ts): order events replayed into a real Postgres, rows asserted —
 * the list columns and flags, the lines, the counts per store and status, the live changes, and a rebuild that
 * lands on the same rows.
 */
describe('order board projection', () => {
  let api: TestApi;
  let tenantId: string;
  let catalogue: Catalogue;
  const changes: LiveChange[] = [];

  beforeAll(async () => {
    api = await createTestApi();
    tenantId = (await createSeller(api)).tenantId;
    catalogue = await seedCatalogue(api, tenantId, 10);
    api.hub.subscribe((change) => changes.push(change));
  });
  afterAll(async () => {
    await api?.close();
  });

  const userId = randomUUID();
  const run = (orderId: string, command: OrderCommand) =>
    handleOrderCommand(api.store, orderId, command, {
      tenantId,
      userId,
      commandId: randomUUID(),
      occurredAt: new Date().toISOString(),
    });
  const row = (id: string) =>
    api.database.db
      .selectFrom('orders')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  const counts = async () => {
    const rows = await api.database.db
      .selectFrom('order_counts')
      .select(['store_id', 'status', 'platform', 'orders'])
      .where('tenant_id', '=', tenantId)
      .where('orders', '<>', '0')
      .orderBy('store_id')
      .orderBy('status')
      .execute();
    return rows.map((r) => `${r.store_id}/${r.platform}/${r.status}=${r.orders}`);
  };

  it('writes a row per order with its list columns, flags, lines and counts, and moves them live', async () => {
    const paid = marketplaceOrder([line('BATIK-01', 2), line('GIFT-SET', 1)], {
      buyerUsername: 'aisyah88',
      totalAmount: '123.40',
    });
    const first = await importOrder(api, tenantId, catalogue.warehouseId, paid);
    const unpaid = await importOrder(
      api,
      tenantId,
      catalogue.warehouseId,
      marketplaceOrder([line('BATIK-01', 1)], { status: 'unpaid', paidAt: null }),
      'store-b',
    );
    const problems = await importOrder(
      api,
      tenantId,
      catalogue.warehouseId,
      marketplaceOrder([line('UNKNOWN-SKU', 1), line('SONGKET-01', 50)], {
        preOrder: true,
        cod: true,
        paidAt: null,
      }),
    );
    await settle(api);

    expect(await row(first)).toMatchObject({
      order_number: paid.orderNumber,
      store_id: 'store-a',
      platform: 'shopee',
      status: 'new',
      marketplace_status: 'ready_to_ship',
      payment_method: 'Online banking',
      cod: false,
      total_amount: '123.40',
      paid_at: new Date(paid.paidAt!),
      buyer_username: 'aisyah88',
      buyer_name: 'Nur Aisyah',
      warehouse_id: catalogue.warehouseId,
      item_count: 3,
      line_count: 2,
      item_not_found: false,
      out_of_stock: false,
      pre_order: false,
      stock_stage: 'reserved',
      tracking_number: null,
      scanned_at: null,
    });
    expect(await row(unpaid)).toMatchObject({ status: 'unpaid', store_id: 'store-b', stock_stage: 'none' });
    // Unmapped (item not found), oversold (out of stock: 50 songket, 10 on hand), a COD pre-order.
    expect(await row(problems)).toMatchObject({
      status: 'new',
      cod: true,
      paid_at: null,
      item_not_found: true,
      out_of_stock: true,
      pre_order: true,
    });
    const lines = await api.database.db
      .selectFrom('order_lines')
      .select(['seller_sku', 'quantity', 'master_code_id', 'combo', 'removed', 'short', 'unit_price'])
      .where('tenant_id', '=', tenantId)
      .where('order_id', '=', problems)
      .orderBy('position')
      .execute();
    expect(lines).toEqual([
      {
        seller_sku: 'UNKNOWN-SKU',
        quantity: 1,
        master_code_id: null,
        combo: false,
        removed: false,
        short: false,
        unit_price: '10.00',
      },
      {
        seller_sku: 'SONGKET-01',
        quantity: 50,
        master_code_id: catalogue.songket,
        combo: false,
        removed: false,
        short: true,
        unit_price: '10.00',
      },
    ]);
    expect(await counts()).toEqual(['store-a/shopee/new=2', 'store-b/shopee/unpaid=1']);
    const mine = changes.filter((change) => change.tenantId === tenantId);
    expect(new Set(mine.filter((c) => c.view === ORDERS_VIEW).flatMap((c) => c.ids))).toEqual(
      new Set([first, unpaid, problems]),
    );
    expect(new Set(mine.filter((c) => c.view === ORDER_COUNTS_VIEW).flatMap((c) => c.ids))).toEqual(
      new Set([first, unpaid, problems]),
    );
  });

  it('follows the work: arranged, scanned (who and when), processed, shipped; counts move and stay whole', async () => {
    const orderId = await importOrder(
      api,
      tenantId,
      catalogue.warehouseId,
      marketplaceOrder([line('BATIK-01', 1)]),
    );
    await settle(api);
    const before = await counts();
    changes.length = 0;

    await run(orderId, {
      type: 'ArrangeShipment',
      trackingNumber: 'MYJT0001',
      shippingProvider: 'J&T Express',
    });
    await run(orderId, { type: 'ScanOrder' });
    await settle(api);
    const scanned = await row(orderId);
    expect(scanned).toMatchObject({
      status: 'scanned',
      tracking_number: 'MYJT0001',
      shipping_provider: 'J&T Express',
      scanned_by: userId,
      stock_stage: 'inProcess',
    });
    expect(scanned.scanned_at).toBeInstanceOf(Date);
    expect(changes.filter((c) => c.view === ORDER_COUNTS_VIEW).flatMap((c) => c.ids)).toEqual([orderId]);

    // A change that keeps the status moves the row, not the counts.
    changes.length = 0;
    await run(orderId, { type: 'MarkPrinted', document: 'AWB', origin: 'processed' });
    await settle(api);
    expect((await row(orderId)).printed).toEqual(['AWB']);
    expect(changes.map((c) => c.view)).toEqual([ORDERS_VIEW]);

    await run(orderId, { type: 'MoveOrder', action: 'undo_scan' });
    await settle(api);
    expect(await row(orderId)).toMatchObject({ status: 'unscan', scanned_at: null, scanned_by: null });
    await run(orderId, { type: 'ScanOrder' });
    await run(orderId, { type: 'MoveOrder', action: 'mark_processed' });
    await run(orderId, { type: 'ShipOrder', byMarketplace: false });
    await settle(api);
    const shipped = await row(orderId);
    expect(shipped).toMatchObject({ status: 'shipped', stock_stage: 'shipped' });
    expect(shipped.shipped_at).toBeInstanceOf(Date);

    const bump = (list: string[], key: string, by: number) => {
      const found = list.find((entry) => entry.startsWith(`${key}=`));
      const next = (found ? Number(found.split('=')[1]) : 0) + by;
      return [...list.filter((entry) => entry !== found), ...(next ? [`${key}=${next}`] : [])].sort();
    };
    expect(await counts()).toEqual(bump(bump(before, 'store-a/shopee/new', -1), 'store-a/shopee/shipped', 1));
  });

  it('a split makes a second row holding part of the lines; a cancel stamps the reason', async () => {
    const orderId = await importOrder(
      api,
      tenantId,
      catalogue.warehouseId,
      marketplaceOrder([line('BATIK-01', 3)]),
    );
    await settle(api);
    const lineId = (
      await api.database.db
        .selectFrom('order_lines')
        .select('line_id')
        .where('tenant_id', '=', tenantId)
        .where('order_id', '=', orderId)
        .executeTakeFirstOrThrow()
    ).line_id;
    const { childOrderId } = await splitOrder(api.store, orderId, [{ lineId, quantity: 1 }], {
      tenantId,
      userId,
      commandId: randomUUID(),
      occurredAt: new Date().toISOString(),
    });
    await settle(api);
    const parent = await row(orderId);
    const child = await row(childOrderId);
    expect([parent.item_count, child.item_count]).toEqual([2, 1]);
    expect(child).toMatchObject({
      status: 'new',
      split_from: orderId,
      order_number: `${parent.order_number}-1`,
      stock_stage: 'reserved',
      total_amount: '10.00',
    });

    await run(childOrderId, { type: 'CancelOrder', reason: 'Buyer asked', byMarketplace: false });
    await settle(api);
    const cancelled = await row(childOrderId);
    expect(cancelled).toMatchObject({
      status: 'cancelled',
      cancel_reason: 'Buyer asked',
      stock_stage: 'released',
    });
    expect(cancelled.cancelled_at).toBeInstanceOf(Date);
  });

  it('a rebuild from the log lands on the same rows, lines and counts', async () => {
    await settle(api);
    const snapshot = async () => ({
      orders: (
        await api.database.db
          .selectFrom('orders')
          .selectAll()
          .where('tenant_id', '=', tenantId)
          .orderBy('id')
          .execute()
      ).map(({ state: _state, ...rest }) => rest),
      lines: await api.database.db
        .selectFrom('order_lines')
        .selectAll()
        .where('tenant_id', '=', tenantId)
        .orderBy('order_id')
        .orderBy('position')
        .execute(),
      counts: await counts(),
    });
    const before = await snapshot();
    await api.engine.rebuild(ORDERS_PROJECTION, { rebuildId: randomUUID(), batchSize: 7 });
    expect(await snapshot()).toEqual(before);
  });
});

describe('order board projection on a large table', () => {
  let database: TestDatabase;
  let store: PostgresEventStore;
  beforeAll(async () => {
    database = await createTestDatabase();
    store = new PostgresEventStore(database.pool, new EventSchemaRegistry().registerAll(eventSchemas));
  });
  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });

  it('reads the orders a batch touches by primary key, even for an account the statistics have not seen', async () => {
    // A big account the planner knows all about, and a new one it has never seen.
    await sql`
      INSERT INTO orders (tenant_id, id, order_number, store_id, platform, status, marketplace_status, payment_method,
        cod, currency, total_amount, ordered_at, paid_at, buyer_name, warehouse_id, item_count, line_count,
        item_not_found, out_of_stock, pre_order, printed, preview, stock_stage, imported_at, updated_at, state)
      SELECT 'big-account', md5(n::text), 'BO' || n, 'store-' || (n % 5), 'shopee', 'unscan', 'ready_to_ship', 'Bank',
        false, 'MYR', 10, now(), now(), 'Buyer', 'wh', 1, 1, false, false, false, '{}', false, 'reserved', now(), now(),
        '{}'::jsonb
      FROM generate_series(1, 20000) AS n`.execute(database.db);
    await sql`ANALYZE orders`.execute(database.db);
    const tenantId = 'new-account';
    const occurredAt = '2026-11-21T10:00:00.000Z';
    const orderIds = Array.from({ length: 200 }, () => randomUUID());
    for (const [i, orderId] of orderIds.entries()) {
      const line = { lineId: 'l1', masterCodeId: 'mc', combo: false, quantity: 1 };
      const events: OrderEvent[] = [
        {
          type: 'OrderImported',
          data: {
            orderId,
            storeId: 'store-1',
            platform: 'shopee',
            orderNumber: `NEW${i}`,
            marketplaceStatus: 'ready_to_ship',
            status: 'unpaid',
            warehouseId: 'wh',
            orderedAt: occurredAt,
            paidAt: occurredAt,
            marketplaceUpdatedAt: occurredAt,
            cod: false,
            paymentMethod: 'Bank',
            currency: 'MYR',
            totalAmount: '10.00',
            preOrder: false,
            address: {
              name: 'Buyer',
              phone: '+60123456789',
              fullAddress: '1 Jalan',
              city: 'Kuala Lumpur',
              state: 'WP',
              postalCode: '50450',
              country: 'MY',
            },
            lines: [
              {
                lineId: 'l1',
                sku: 'SP-1',
                sellerSku: 'S-1',
                name: 'Item',
                quantity: 1,
                unitPrice: '10.00',
                masterCodeId: 'mc',
                combo: false,
              },
            ],
          },
        },
        { type: 'OrderAccepted', data: { stock: { warehouseId: 'wh', from: 'none', lines: [line] } } },
        {
          type: 'OrderShipmentArranged',
          data: { trackingNumber: `MYN${i}`, shippingProvider: 'J&T', rearranged: false },
        },
      ];
      await store.append(
        orderStreamId(tenantId, orderId),
        events.map((event) => ({ ...event, metadata: { tenantId, occurredAt } })),
        { expectedRevision: 'no_stream' },
      );
    }
    const engine = new ProjectionEngine({ db: database.db, store, projections: [ordersProjection] });
    await engine.catchUp(ORDERS_PROJECTION);
    for (const orderId of orderIds.slice(0, 20)) {
      await handleOrderCommand(
        store,
        orderId,
        { type: 'ScanOrder' },
        {
          tenantId,
          commandId: randomUUID(),
          occurredAt,
        },
      );
    }
    expect(await engine.catchUp(ORDERS_PROJECTION, 5)).toBe(20);
    // Backends report their index use when they end: close the pool, then look.
    const url = database.url;
    await database.db.destroy();
    const reader = new pg.Client({ connectionString: url });
    await reader.connect();
    try {
      const { rows } = await reader.query<{ index: string; scans: string }>(
        `SELECT indexrelname AS index, idx_scan AS scans FROM pg_stat_user_indexes WHERE relname = 'orders'`,
      );
      const scans = Object.fromEntries(rows.map((r) => [r.index, Number(r.scans)]));
      expect(scans.orders_pkey).toBeGreaterThan(0);
      expect(Object.entries(scans).filter(([index, n]) => index !== 'orders_pkey' && n > 0)).toEqual([]);
      const scanned = await reader.query<{ n: string }>(
        `SELECT count(*) AS n FROM orders WHERE tenant_id = $1 AND status = 'scanned'`,
        [tenantId],
      );
      expect(Number(scanned.rows[0]!.n)).toBe(20);
    } finally {
      await reader.end();
    }
  });
});
