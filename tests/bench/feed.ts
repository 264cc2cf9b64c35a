import { buildApp } from '@api/app';
import { createTenantWithOwner, ensurePackages } from '@commands/accounts/seed';
import { createApp } from '@commands/apps/apps';
import { PERMISSION_KEYS } from '@domain/access/permissions';
import { eventSchemas } from '@domain/events';
import { createDb, createPool } from '@infra/db';
import { migrateToLatest } from '@infra/db/migrator';
import { createScopedDb } from '@infra/db/tenant';
import { PostgresEventStore } from '@infra/eventstore/postgres';
import { EventSchemaRegistry } from '@infra/eventstore/registry';
import { createMailer } from '@infra/mail';
import { ProjectionEngine } from '@projections/runtime/engine';
import { LiveHub } from '@projections/runtime/live-hub';
import { unusedWorkflows } from '@tests/support/temporal';
import { timed } from './load';
import { log, perSec } from './report';
import type { BenchServer } from './server';

/**
 * The feed budget: "one app reading the feed from the start of a 1,000,000-event log ≥ 50,000 events/s".
 *
 * A fresh database holds `events` StockAdjusted events of one seller account, their appends interleaved with other
 * accounts' (a fifth as many again), 1,000 events per append. An app of the seller, scoped to StockAdjusted, then reads
 * the whole feed from the start over HTTP (the API listening on a port, fetch as an integrator's client), page after
 * page, each page's `next` the following `after`; the figure is events read per second of that read.
 */
export interface FeedReadFigures {
  feedReadPerSec: number;
  events: number;
  pages: number;
  seedSeconds: number;
}

export async function measureFeedRead(
  bench: BenchServer,
  opts: { events: number; database?: string; pageSize?: number },
): Promise<FeedReadFigures> {
  const database = opts.database ?? 'kedai_feed';
  const pageSize = opts.pageSize ?? 5000;
  await bench.server.createDatabase(database);
  const pool = createPool(bench.server.url(database), 8);
  const db = createDb(pool);
  await migrateToLatest(db);
  await ensurePackages(db);
  const systemPool = createPool(bench.server.roleUrl('system', database), 8);
  const systemDb = createDb(systemPool);
  const appDb = createScopedDb(createPool(bench.server.roleUrl('app', database), 8), systemPool);
  const store = new PostgresEventStore(systemPool, new EventSchemaRegistry().registerAll(eventSchemas));
  const { tenantId, userId } = await createTenantWithOwner(db, {
    name: 'Feed bench',
    country: 'MY',
    status: 'active',
    owner: {
      email: 'feed-bench@shop.test',
      firstName: 'Feed',
      lastName: 'Bench',
      phone: '+60123456789',
      password: 'feed bench 1',
    },
  });
  const seedSeconds = await seed(store, tenantId, opts.events);
  await store.awaitVisible();
  const { key } = await createApp(
    { db: appDb },
    { tenantId, userId, permissions: new Set(PERMISSION_KEYS) },
    {
      name: 'Bench reader',
      eventTypes: ['StockAdjusted'],
    },
  );
  const hub = new LiveHub();
  const app = buildApp({
    logLevel: 'silent',
    version: 'bench',
    db: appDb,
    store,
    engine: new ProjectionEngine({ db: systemDb, store, projections: [], hub }),
    temporal: { address: 'not-started', check: async () => undefined },
    auth: { clientId: 'bench', clientSecret: 'bench', tokenTtlSeconds: 3600 },
    mailer: createMailer(systemDb, { from: 'bench <bench@kedai.test>' }, { info() {}, error() {} }),
    hub,
    publicUrl: 'http://kedai.test',
    workflows: unusedWorkflows(),
    // One reader as fast as it can: no rate in the way.
    feedRateLimit: { perSecond: 1_000_000, burst: 1_000_000 },
  });
  try {
    const url = await app.listen({ host: '127.0.0.1', port: 0 });
    let read = 0;
    let pages = 0;
    const { seconds } = await timed(async () => {
      let after = '';
      for (;;) {
        const response = await fetch(
          `${url}/api/feed/events?limit=${pageSize}${after ? `&after=${after}` : ''}`,
          {
            headers: { authorization: `Bearer ${key}` },
          },
        );
        if (response.status !== 200)
          throw new Error(`feed answered ${response.status}: ${await response.text()}`);
        const page = (await response.json()) as { data: { events: unknown[]; next: string } };
        pages += 1;
        read += page.data.events.length;
        after = page.data.next;
        if (page.data.events.length < pageSize) return;
      }
    });
    if (read !== opts.events) throw new Error(`the feed gave ${read} events of ${opts.events}`);
    const figures = { feedReadPerSec: read / seconds, events: read, pages, seedSeconds };
    log(
      `feed: ${read} events in ${pages} pages, ${perSec(figures.feedReadPerSec)} (seeded in ${seedSeconds.toFixed(1)} s)`,
    );
    return figures;
  } finally {
    await app.close();
    await hub.close();
    await store.close();
    await appDb.destroy();
    await systemDb.destroy();
    await db.destroy();
  }
}

/** The seller's events and a fifth as many of four other accounts', interleaved, 1,000 per append, 4 writers. */
async function seed(store: PostgresEventStore, tenantId: string, events: number): Promise<number> {
  const batch = 1000;
  const calls = Math.ceil(events / batch);
  const others = Math.ceil(calls / 5);
  const plan = Array.from({ length: calls + others }, (_, call) =>
    call % 6 === 5 && call / 6 < others ? `other${call % 4}` : tenantId,
  );
  let ours = 0;
  const work = plan
    .map((tenant, call) => {
      const size = tenant === tenantId ? Math.min(batch, events - ours) : batch;
      if (tenant === tenantId) ours += size;
      return { tenant, call, size };
    })
    .filter((w) => w.size > 0);
  let next = 0;
  const { seconds } = await timed(() =>
    Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let i = next++; i < work.length; i = next++) {
          const { tenant, call, size } = work[i]!;
          const metadata = { tenantId: tenant, userId: 'bench', occurredAt: new Date().toISOString() };
          await store.append(
            `stock-${tenant}.mc${call}:wh1`,
            Array.from({ length: size }, (_, n) => ({ type: 'StockAdjusted', data: adjusted(n), metadata })),
            { expectedRevision: 'no_stream' },
          );
        }
      }),
    ),
  );
  return seconds;
}

const adjusted = (n: number) => ({
  masterCodeId: `mc-${n % 997}`,
  warehouseId: 'wh-kl-01',
  change: (n % 7) - 3,
  onHand: 100 + (n % 50),
  reserved: n % 5,
  inProcess: 0,
  onHold: 0,
  posOnHold: 0,
  supplierOnHold: 0,
  incoming: 0,
  mode: 'add' as const,
  quantity: 3,
});
