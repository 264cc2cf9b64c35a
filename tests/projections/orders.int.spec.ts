import { randomUUID } from 'node:crypto';
import { handleOrderCommand } from '@commands/orders/order';
import { splitOrder } from '@commands/orders/split';
import type { OrderCommand } from '@domain/orders/order';
import { ORDER_COUNTS_VIEW, ORDERS_PROJECTION, ORDERS_VIEW } from '@projections/orders';
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
