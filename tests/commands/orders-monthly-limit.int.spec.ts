import { randomUUID } from 'node:crypto';
import { announceHeldOrders } from '@commands/announcements/order-limit';
import { admitOrder, releaseHeldOrders } from '@commands/orders/monthly-limit';
import { handleOrderCommand, loadOrder } from '@commands/orders/order';
import { monthIn } from '@domain/orders/monthly-limit';
import { orderStreamId } from '@domain/orders/order';
import { refusalOf } from '@domain/shared/errors';
import {
  type Catalogue,
  importOrder,
  line,
  marketplaceOrder,
  packageOfMonthlyOrders,
  seedCatalogue,
  settle,
  stockOf,
} from '@tests/api/orders-support';
import { caller, createSeller, createTestApi, type TestApi, type TestSeller } from '@tests/support/api';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The package's monthly order limit enforced (issue 14; commands/orders/monthly-limit.ts), on a real Postgres and
 * event store: orders beyond the limit are imported and held (no stock reserved, not printed), shown in the list's
 * "held" filter and the usage answer, told in an announcement; released exactly once, oldest first, by a larger
 * package or a new month, also after a release that died half way; and one account's limit is nobody else's.
 */
describe('the monthly order limit', () => {
  let api: TestApi;
  const call = caller(() => api);
  const LIMIT = 2;
  let twoAMonth: string;

  /** A seller on a package of LIMIT orders a month, with the catalogue the orders map to. */
  async function limitedSeller(): Promise<{ seller: TestSeller; catalogue: Catalogue }> {
    const seller = await createSeller(api, { packageId: twoAMonth });
    return { seller, catalogue: await seedCatalogue(api, seller.tenantId) };
  }
  const importPaid = (tenantId: string, catalogue: Catalogue, quantity = 1) =>
    importOrder(api, tenantId, catalogue.warehouseId, marketplaceOrder([line('BATIK-01', quantity)]));
  const eventsOf = async (tenantId: string, orderId: string) => {
    const types: string[] = [];
    for await (const event of api.store.readStream(orderStreamId(tenantId, orderId))) types.push(event.type);
    return types;
  };
  const usage = async (seller: TestSeller) => {
    const response = await call('GET', '/api/info/usage', seller.token);
    expect(response.statusCode).toBe(200);
    return response.json().data.monthlyOrders as { used: number; limit: number | null; held: number };
  };
  const heldList = async (seller: TestSeller) => {
    const response = await call('GET', '/api/orders?filter=on_hold&startRow=0&endRow=100', seller.token);
    expect(response.statusCode).toBe(200);
    return (response.json().data.rows as { id: string; on_hold: boolean; status: string }[]).map((row) => ({
      id: row.id,
      on_hold: row.on_hold,
      status: row.status,
    }));
  };
  const deps = () => ({ db: api.database.systemDb, store: api.store });

  beforeAll(async () => {
    api = await createTestApi();
    twoAMonth = await packageOfMonthlyOrders(api, LIMIT);
  });
  afterAll(async () => {
    await api?.close();
  });

  it('imports the orders beyond the limit held: no stock reserved, listed as held, counted apart', async () => {
    const { seller, catalogue } = await limitedSeller();
    const other = await limitedSeller();
    const before = await stockOf(api, seller.tenantId, catalogue.batik, catalogue.warehouseId);
    const admitted = [
      await importPaid(seller.tenantId, catalogue),
      await importPaid(seller.tenantId, catalogue),
    ];
    const held = [
      await importPaid(seller.tenantId, catalogue, 3),
      await importPaid(seller.tenantId, catalogue, 4),
    ];
    // First seen already shipped: no work to hold, and no place taken.
    const finished = await importOrder(
      api,
      seller.tenantId,
      catalogue.warehouseId,
      marketplaceOrder([line('BATIK-01', 1)], { status: 'shipped' }),
    );
    // Another account's orders take none of this account's places.
    const othersOrder = await importPaid(other.seller.tenantId, other.catalogue);
    await settle(api);

    for (const orderId of admitted) {
      expect(await eventsOf(seller.tenantId, orderId)).toEqual(['OrderImported', 'OrderAccepted']);
    }
    for (const orderId of held) {
      expect(await eventsOf(seller.tenantId, orderId)).toEqual(['OrderImported', 'OrderHeld']);
      expect(await loadOrder(api.store, seller.tenantId, orderId)).toMatchObject({
        status: 'unpaid',
        stock: 'none',
        onHold: true,
      });
    }
    expect(await eventsOf(seller.tenantId, finished)).toEqual(['OrderImported']);
    expect(await eventsOf(other.seller.tenantId, othersOrder)).toEqual(['OrderImported', 'OrderAccepted']);
    // Only the admitted orders reserved stock.
    expect(await stockOf(api, seller.tenantId, catalogue.batik, catalogue.warehouseId)).toEqual({
      ...before,
      reserved: before.reserved + 2,
    });

    expect(await usage(seller)).toEqual({ used: LIMIT, limit: LIMIT, held: 2 });
    expect(await usage(other.seller)).toEqual({ used: 1, limit: LIMIT, held: 0 });
    expect(await heldList(seller)).toEqual(
      expect.arrayContaining(held.map((id) => ({ id, on_hold: true, status: 'unpaid' }))),
    );
    expect(await heldList(seller)).toHaveLength(2);
    expect(await heldList(other.seller)).toEqual([]);

    // Not printed (nor scanned, batched or split) until released.
    const printing = await handleOrderCommand(
      api.store,
      held[0]!,
      { type: 'MarkPrinted', document: 'AWB', origin: 'unscan' },
      { tenantId: seller.tenantId, commandId: randomUUID(), occurredAt: new Date().toISOString() },
    ).catch((error: unknown) => refusalOf(error)?.code);
    expect(printing).toBe('ORDER_ON_HOLD');

    // The account is told, once a month, in an announcement to it alone.
    await announceHeldOrders(api.database.systemDb, seller.tenantId, new Date());
    await announceHeldOrders(api.database.systemDb, seller.tenantId, new Date());
    const told = await call('GET', '/api/announcement', seller.token);
    expect(told.statusCode).toBe(200);
    const notices = (told.json().data as { subject: string }[]).filter((a) =>
      a.subject.includes('Monthly order limit'),
    );
    expect(notices).toHaveLength(1);
    const elsewhere = await call('GET', '/api/announcement', other.seller.token);
    expect(JSON.stringify(elsewhere.json().data)).not.toContain('Monthly order limit');
  });

  it('releases the held orders once each, oldest first, when a larger package allows', async () => {
    const { seller, catalogue } = await limitedSeller();
    const before = await stockOf(api, seller.tenantId, catalogue.batik, catalogue.warehouseId);
    for (let i = 0; i < LIMIT; i++) await importPaid(seller.tenantId, catalogue);
    const held = [
      await importPaid(seller.tenantId, catalogue, 1),
      await importPaid(seller.tenantId, catalogue, 2),
      await importPaid(seller.tenantId, catalogue, 3),
    ];
    // Nothing fits yet: nothing is released.
    expect(await releaseHeldOrders(deps(), seller.tenantId)).toEqual([]);

    // A package of one more order a month: the oldest held order only.
    const roomier = await packageOfMonthlyOrders(api, LIMIT + 1);
    await api.database.db
      .updateTable('tenants')
      .set({ package_id: roomier })
      .where('id', '=', seller.tenantId)
      .execute();
    // Two rounds at once (the schedule and an import, say) release it once.
    const rounds = await Promise.all([
      releaseHeldOrders(deps(), seller.tenantId),
      releaseHeldOrders(deps(), seller.tenantId),
    ]);
    expect(rounds.flat()).toEqual([held[0]]);

    // Unlimited: the rest, in arrival order.
    await api.database.db
      .updateTable('tenants')
      .set({ package_id: 'enterprise' })
      .where('id', '=', seller.tenantId)
      .execute();
    expect(await releaseHeldOrders(deps(), seller.tenantId)).toEqual([held[1], held[2]]);
    expect(await releaseHeldOrders(deps(), seller.tenantId)).toEqual([]);
    await settle(api);

    for (const orderId of held) {
      expect(await eventsOf(seller.tenantId, orderId)).toEqual([
        'OrderImported',
        'OrderHeld',
        'OrderReleased',
        'OrderAccepted',
      ]);
    }
    expect(await stockOf(api, seller.tenantId, catalogue.batik, catalogue.warehouseId)).toEqual({
      ...before,
      reserved: before.reserved + LIMIT + 1 + 2 + 3,
    });
    expect(await usage(seller)).toEqual({ used: LIMIT + 3, limit: null, held: 0 });
    expect(await heldList(seller)).toEqual([]);
  });

  it('releases at a new month in the account’s time zone, counted in that month', async () => {
    const { seller, catalogue } = await limitedSeller();
    for (let i = 0; i < LIMIT; i++) await importPaid(seller.tenantId, catalogue);
    const held = await importPaid(seller.tenantId, catalogue);
    const now = new Date();
    expect(await releaseHeldOrders(deps(), seller.tenantId, now)).toEqual([]);
    const nextMonth = new Date(now.getTime() + 32 * 24 * 60 * 60_000);
    expect(await releaseHeldOrders(deps(), seller.tenantId, nextMonth)).toEqual([held]);
    // The seller is in Malaysia.
    const month = monthIn('Asia/Kuala_Lumpur', nextMonth);
    expect(month).not.toBe(monthIn('Asia/Kuala_Lumpur', now));
    const released: { type: string; data: unknown }[] = [];
    for await (const event of api.store.readStream(orderStreamId(seller.tenantId, held))) {
      if (event.type === 'OrderReleased') released.push({ type: event.type, data: event.data });
    }
    expect(released).toEqual([{ type: 'OrderReleased', data: { month } }]);
  });

  it('finishes a release that died half way, and records nothing twice', async () => {
    const { seller, catalogue } = await limitedSeller();
    for (let i = 0; i < LIMIT; i++) await importPaid(seller.tenantId, catalogue);
    const held = await importPaid(seller.tenantId, catalogue);
    const nextMonth = new Date(Date.now() + 32 * 24 * 60 * 60_000);
    const ledger = (state: string) =>
      sql`UPDATE order_admissions SET state = ${state} WHERE tenant_id = ${seller.tenantId} AND order_id = ${held}`.execute(
        api.database.systemDb,
      );
    // Died after choosing it, before releasing it: the next round releases it.
    await ledger('releasing');
    expect(await releaseHeldOrders(deps(), seller.tenantId, nextMonth)).toEqual([held]);
    // Died after releasing it, before the ledger said so: the next round records nothing again.
    await ledger('releasing');
    expect(await releaseHeldOrders(deps(), seller.tenantId, nextMonth)).toEqual([]);
    expect((await eventsOf(seller.tenantId, held)).filter((type) => type === 'OrderReleased')).toHaveLength(
      1,
    );
    // An import that died between its place and its order asks again: the same answer, no second place.
    const orderId = randomUUID();
    const first = await admitOrder(api.database.systemDb, seller.tenantId, orderId, new Date());
    expect(first).toMatch(/^\d{4}-\d{2}$/);
    expect(await admitOrder(api.database.systemDb, seller.tenantId, orderId, new Date())).toBe(first);
  });
});
