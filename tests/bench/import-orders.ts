import { randomUUID } from 'node:crypto';
import { createTenantWithOwner, ensurePackages } from '@commands/accounts/seed';
import { defaultWarehouse } from '@commands/inventory/initial-stock';
import { eventSchemas } from '@domain/events';
import { createDb, createPool } from '@infra/db';
import { migrateToLatest } from '@infra/db/migrator';
import { PostgresEventStore } from '@infra/eventstore/postgres';
import { EventSchemaRegistry } from '@infra/eventstore/registry';
import { channelFor } from '@integrations/channel';
import { memoryStore, SANDBOX_DEMO_PARTNER, startShopeeSandbox } from '@integrations/shopee';
import { connectStore } from '@integrations/stores';
import { importChannelOrderPage } from '@workflows/activities/order-import';
import { orderImportKey } from '@workflows/order-import-protocol';
import { log } from './report';
import type { BenchServer } from './server';

/**
 * `importOrdersPerSec`: 10,000 new orders of a sandbox shop imported into Kedai through the signed protocol — the
 * order import's own page work through the channel port (get_order_list 100 at a time with the cursor,
 * get_order_detail 50 at a time, each order translated and imported as events), page after page as the workflow
 * runs it, minus Temporal's own scheduling. Its own database, so the event store's other figures are not disturbed.
 */
export async function measureImportOrders(
  bench: BenchServer,
  count = 10_000,
): Promise<{ ordersPerSec: number; orders: number; seconds: number; pages: number }> {
  await bench.server.createDatabase('kedai_import');
  const pool = createPool(bench.server.url('kedai_import'), 10);
  const db = createDb(pool);
  const store = new PostgresEventStore(pool, new EventSchemaRegistry().registerAll(eventSchemas));
  const sandbox = await startShopeeSandbox({
    partners: [SANDBOX_DEMO_PARTNER],
    store: memoryStore(),
    seed: 'bench',
    tickIntervalMs: 0,
    orderRate: 0,
  });
  try {
    await migrateToLatest(db);
    await ensurePackages(db);
    const owner = await createTenantWithOwner(db, {
      name: 'Bench Shop',
      country: 'MY',
      // Unlimited orders: the import is measured, not the monthly order limit's holds (10,000 is past any other).
      packageId: 'enterprise',
      status: 'active',
      owner: {
        email: 'bench@shop.test',
        firstName: 'Bench',
        lastName: 'Seller',
        phone: '+60123456789',
        password: 'bench password 1',
      },
    });
    const shopId = sandbox.shops[0]!.shopId;
    const { store: shop } = await connectStore(db, {
      tenantId: owner.tenantId,
      userId: owner.userId,
      platform: 'shopee',
      shopId,
      name: 'Bench Shop',
      region: 'MY',
      tokens: sandbox.issueTokens(SANDBOX_DEMO_PARTNER.partnerId, shopId),
      newStore: { id: randomUUID(), warehouseId: await defaultWarehouse(db, owner) },
    });
    sandbox.generateOrders(count);
    const connection = {
      baseUrl: sandbox.url,
      partnerId: SANDBOX_DEMO_PARTNER.partnerId,
      partnerKey: SANDBOX_DEMO_PARTNER.partnerKey,
    };
    const until = Math.ceil(Date.now() / 1000);
    const started = performance.now();
    let cursor = '';
    let created = 0;
    let pages = 0;
    for (;;) {
      const page = await importChannelOrderPage(
        { db, store, channelOf: (shop) => channelFor(db, shop, connection) },
        {
          tenantId: owner.tenantId,
          storeId: shop.id,
          key: orderImportKey(owner.tenantId, shop.id),
          timeFrom: until - 3600,
          timeTo: until,
          cursor,
        },
      );
      created += page.totals.created;
      pages++;
      if (!page.more) break;
      cursor = page.nextCursor;
    }
    const seconds = (performance.now() - started) / 1000;
    if (created !== count) throw new Error(`the import created ${created} orders of ${count}`);
    log(
      `order import: ${count} sandbox orders in ${pages} pages, ${seconds.toFixed(1)} s (${Math.round(count / seconds)}/s)`,
    );
    return { ordersPerSec: count / seconds, orders: count, seconds, pages };
  } finally {
    await sandbox.stop();
    await store.close();
    await db.destroy();
  }
}
