import { randomUUID } from 'node:crypto';
import { handleStockCommand } from '@commands/inventory/stock';
import { handleOrderCommand } from '@commands/orders/order';
import type { OrderCommand } from '@domain/orders/order';
import { AVERAGE_COST_PROJECTION } from '@projections/average-cost';
import { REPORT_FACTS_PROJECTION } from '@projections/reports/facts';
import { SALES_DAILY_PROJECTION } from '@projections/reports/sales-daily';
import { RETURNS_PROJECTION } from '@projections/returns';
import { STOCK_PROJECTION } from '@projections/stock';
import { importOrder, line, marketplaceOrder, seedCatalogue, settle } from '@tests/api/orders-support';
import { bearer, type TestApi } from '@tests/support/api';

/**
 * A known set of orders for the report tests, through the real commands (import, arrange, scan, ship, cancel, return),
 * made by the seller's owner, in a Malaysian account (days in Asia/Kuala_Lumpur, UTC+8):
 *
 * - the catalogue's batik and songket, 100 each at no cost and 100 at 4.00 and 6.00 (averages 2.00 and 3.00);
 * - A, store-a, paid 2026-01-05 10:00 local: BATIK-01 ×7 at 10.00 and SONGKET-01 ×1 at 15.00, total 85.00, shipping
 *   4.50; scanned, shipped, then 2 batik returned (refund 20.00);
 * - B, store-a, paid 2026-01-05 18:00 local: BATIK-01 ×1, total 10.00, cancelled;
 * - C, store-a, ordered 2026-01-06 09:00 local, unpaid: SONGKET-01 ×2, total 30.00;
 * - D, store-b, paid 2026-01-07 01:00 local (2026-01-06 17:00 UTC): SONGKET-01 ×3 at 15.00, total 45.00.
 */

export interface KnownOrders {
  warehouseId: string;
  a: string;
  b: string;
  c: string;
  d: string;
  orderNumbers: { a: string; b: string; c: string; d: string };
}

export async function seedKnownOrders(
  api: TestApi,
  seller: { tenantId: string; userId: string; token: string },
): Promise<KnownOrders> {
  const { tenantId, userId, token } = seller;
  const catalogue = await seedCatalogue(api, tenantId, 100);
  // 100 more of each at a cost: batik averages (100 × 0 + 100 × 4) / 200 = 2.00, songket 3.00.
  for (const [masterCodeId, unitCost] of [
    [catalogue.batik, '4.0000'],
    [catalogue.songket, '6.0000'],
  ] as const) {
    await handleStockCommand(
      api.store,
      { type: 'ReceiveStock', masterCodeId, warehouseId: catalogue.warehouseId, quantity: 100, unitCost },
      { tenantId, commandId: randomUUID(), occurredAt: new Date().toISOString() },
    );
  }
  const run = (orderId: string, command: OrderCommand) =>
    handleOrderCommand(api.store, orderId, command, {
      tenantId,
      userId,
      commandId: randomUUID(),
      occurredAt: new Date().toISOString(),
    });
  const at = (iso: string) => ({ orderedAt: iso, paidAt: iso, updatedAt: iso });
  const orderA = marketplaceOrder(
    [line('BATIK-01', 7, { unitPrice: '10.00' }), line('SONGKET-01', 1, { unitPrice: '15.00' })],
    { ...at('2026-01-05T02:00:00Z'), totalAmount: '85.00', shippingFee: '4.50' },
  );
  const orderB = marketplaceOrder([line('BATIK-01', 1)], {
    ...at('2026-01-05T10:00:00Z'),
    totalAmount: '10.00',
  });
  const orderC = marketplaceOrder([line('SONGKET-01', 2, { unitPrice: '15.00' })], {
    ...at('2026-01-06T01:00:00Z'),
    paidAt: null,
    status: 'unpaid',
    totalAmount: '30.00',
  });
  const orderD = marketplaceOrder([line('SONGKET-01', 3, { unitPrice: '15.00' })], {
    ...at('2026-01-06T17:00:00Z'),
    totalAmount: '45.00',
  });
  const a = await importOrder(api, tenantId, catalogue.warehouseId, orderA);
  const b = await importOrder(api, tenantId, catalogue.warehouseId, orderB);
  const c = await importOrder(api, tenantId, catalogue.warehouseId, orderC);
  const d = await importOrder(api, tenantId, catalogue.warehouseId, orderD, 'store-b');
  await settle(api);
  await run(a, { type: 'ArrangeShipment', trackingNumber: 'SPXREP0001', shippingProvider: 'SPX Express' });
  await run(a, { type: 'ScanOrder' });
  await run(a, { type: 'ShipOrder', byMarketplace: false });
  await run(b, { type: 'CancelOrder', reason: 'Buyer asked', byMarketplace: false });
  await settle(api);
  const returned = await api.app.inject({
    method: 'POST',
    url: '/api/orders/returns',
    headers: bearer(token),
    payload: {
      order_id: a,
      lines: [{ line_id: orderA.lines[0]!.lineKey, quantity: 2, condition: 'reusable' }],
      action: 'return_to_stock',
      reason: 'Wrong colour',
      refund_to_buyer: '20.00',
      include_shipping: false,
      refund_reason: 'Buyer returned two',
    },
  });
  if (returned.statusCode !== 200) throw new Error(`return refused: ${returned.body}`);
  await settle(api);
  await api.engine.catchUp(RETURNS_PROJECTION);
  await api.engine.catchUp(REPORT_FACTS_PROJECTION);
  await api.engine.catchUp(SALES_DAILY_PROJECTION);
  await api.engine.catchUp(STOCK_PROJECTION);
  await api.engine.catchUp(AVERAGE_COST_PROJECTION);
  return {
    warehouseId: catalogue.warehouseId,
    a,
    b,
    c,
    d,
    orderNumbers: {
      a: orderA.orderNumber,
      b: orderB.orderNumber,
      c: orderC.orderNumber,
      d: orderD.orderNumber,
    },
  };
}
