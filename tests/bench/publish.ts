import { randomUUID } from 'node:crypto';
import { ListingBody } from '@api/contracts/listings';
import { uploadListingImage } from '@commands/listings/images';
import { runPublication } from '@commands/listings/publish';
import { saveListing } from '@commands/listings/save-listing';
import { sql } from 'kysely';
import {
  benchAccount,
  benchDatabase,
  benchSandbox,
  benchWorker,
  type Closers,
  connectShops,
  sandboxShops,
} from './channel-setup';
import { percentile } from './load';
import { log } from './report';
import type { BenchServer } from './server';

/**
 * `publishListingsPerMin` (issue 15): listings of 10 variants each published to 5 sandbox Shopee stores through the
 * real publish saga — the publish use case (one workflow per store), the Temporal worker and its activities (create
 * the item with its tier and models, set prices, set stock, record the store's SKUs), the signed Open Platform calls
 * to the sandbox. A listing counts once every one of its stores recorded it published; the figure is listings fully
 * published per minute, from the first publish asked to the last store done.
 */

const STORES = 5;
const VARIANTS = 10;

export interface PublishFigures {
  publishListingsPerMin: number;
  listings: number;
  stores: number;
  seconds: number;
  /** Per listing, from its publish asked to its last store done. */
  listingP50Ms: number;
  listingP99Ms: number;
}

/** A 1×1 PNG: the listing's picture, uploaded to Kedai as a seller does (the channel is handed its bytes). */
const PIXEL_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** A listing of one colour tier with VARIANTS options, for `storeIds`. */
function listingBody(storeIds: string[], imageId: string, n: number) {
  const colours = Array.from({ length: VARIANTS }, (_, v) => `Colour ${v + 1}`);
  return ListingBody.parse({
    platform: 'shopee',
    store_ids: storeIds,
    product_name: `Bench batik ${n}`,
    brand: 'Kedai',
    category_id: '100017',
    description: 'Hand-drawn batik from Terengganu',
    package_weight: 0.3,
    logistics: ['20011'],
    images: [{ id: imageId }],
    tiers: [{ name: 'Colour', options: colours }],
    skus: colours.map((_, v) => ({
      seller_sku: `PUB-${n}-${v + 1}`,
      price: '39.90',
      stock: 10,
      tier_index: [v],
    })),
  });
}

export async function measurePublishListings(
  bench: BenchServer,
  opts: { listings: number; stores?: number },
): Promise<PublishFigures> {
  const storeCount = opts.stores ?? STORES;
  const closers: Closers = [];
  try {
    const { db, store } = await benchDatabase(bench, 'kedai_publish', closers);
    const sandbox = await benchSandbox(
      'bench-publish',
      Array.from({ length: storeCount }, (_, n) => ({ name: `Publish ${n + 1}`, skus: ['SEED'] })),
      closers,
    );
    const owner = await benchAccount(db, 'Publish');
    const actor = { tenantId: owner.tenantId, userId: owner.userId };
    const storeIds = (await connectShops(db, sandboxShops(sandbox, storeCount), actor, null)).map(
      (connected) => connected.id,
    );
    const workflows = await benchWorker({ db, store }, 'bench-publish', closers);

    // ---- the listings saved as drafts (not timed), then all published as a seller's bulk publish would ----
    const deps = { db, store, workflows };
    const image = await uploadListingImage(deps, actor, PIXEL_PNG);
    const draft = async (n: number) => {
      const groupId = randomUUID();
      await saveListing(deps, actor, { groupId, body: listingBody(storeIds, image.id, n) });
      return groupId;
    };
    const publish = (groupId: string) =>
      runPublication(deps, actor, { groupId, action: 'publish', storeIds: undefined });

    /** When each listing had every store recorded published (a failure ends the wait: it never will be). */
    async function published(groupIds: readonly string[]): Promise<Map<string, number>> {
      const done = new Map<string, number>();
      const deadline = performance.now() + 10 * 60_000;
      for (;;) {
        const rows = await db
          .selectFrom('es_events')
          .select(['type', sql<string>`data->>'storeId'`.as('store_id'), 'stream_id'])
          .where('type', 'in', ['ListingPublished', 'ListingPublicationFailed'])
          .execute();
        const failed = rows.find((row) => row.type === 'ListingPublicationFailed');
        if (failed) throw new Error(`a publish failed on store ${failed.store_id} (${failed.stream_id})`);
        const stores = new Map<string, number>();
        for (const row of rows) stores.set(row.stream_id, (stores.get(row.stream_id) ?? 0) + 1);
        const now = performance.now();
        for (const groupId of groupIds) {
          const stream = `listing-${owner.tenantId}.${groupId}`;
          if (!done.has(groupId) && (stores.get(stream) ?? 0) >= storeCount) done.set(groupId, now);
        }
        if (done.size === groupIds.length) return done;
        if (now > deadline) throw new Error(`${done.size} of ${groupIds.length} listings published in time`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }

    // One listing first, untimed: the worker's first workflows load the bundle into their isolates.
    const warmUp = await draft(-1);
    await publish(warmUp);
    await published([warmUp]);

    const listingIds: string[] = [];
    for (let n = 0; n < opts.listings; n++) listingIds.push(await draft(n));
    const asked = new Map<string, number>();
    const started = performance.now();
    for (const groupId of listingIds) {
      asked.set(groupId, performance.now());
      await publish(groupId);
    }
    const done = await published(listingIds);
    const seconds = (Math.max(...done.values()) - started) / 1000;
    const latencies = listingIds.map((id) => done.get(id)! - asked.get(id)!).sort((a, b) => a - b);
    const figures: PublishFigures = {
      publishListingsPerMin: Number(((listingIds.length / seconds) * 60).toFixed(1)),
      listings: listingIds.length,
      stores: storeCount,
      seconds: Number(seconds.toFixed(1)),
      listingP50Ms: Math.round(percentile(latencies, 0.5)),
      listingP99Ms: Math.round(percentile(latencies, 0.99)),
    };
    log(
      `publish: ${figures.publishListingsPerMin} listings/min (${figures.listings} listings × ${VARIANTS} variants ` +
        `× ${storeCount} stores in ${figures.seconds} s; per listing p50 ${figures.listingP50Ms} ms, ` +
        `p99 ${figures.listingP99Ms} ms)`,
    );
    return figures;
  } finally {
    for (const close of closers.reverse())
      await close().catch((error: unknown) => log(`cleanup: ${String(error)}`));
  }
}
