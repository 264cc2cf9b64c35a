import { randomUUID } from 'node:crypto';
import { createStockPushReactor } from '@commands/channels/stock-push-reactor';
import { handleStockCommand } from '@commands/inventory/stock';
import type { Database } from '@infra/db';
import { channelFor } from '@integrations/channel';
import { ReactorRunner } from '@projections/runtime/reactor';
import type { Kysely } from 'kysely';
import {
  benchAccount,
  benchDatabase,
  benchSandboxProcess,
  benchWorker,
  clock,
  connectShops,
} from './channel-setup';
import { percentile } from './load';
import { log } from './report';
import type { BenchServer } from './server';

/**
 * The stock push's budgets (issue 15):
 *
 * - `stockToChannelP99Ms`: a stock change (an adjustment appended to the log) → the Shopee sandbox holds the new
 *   quantity, for every store the SKU is linked in, at 100 changes a second spread over 1,000 master codes each
 *   linked in 5 sandbox stores — the whole path: the reactor, each store's Temporal workflow, the signed
 *   update_stock calls. A change superseded before a store showed it ends when the store shows the later figure.
 *   The sandbox runs in a process of its own (sandbox-process.ts), as Shopee runs on machines of its own.
 * - `oversoldUnits` and `oversoldUnitsPolling`: a simulated day of orders on 3 stores for scarce SKUs, each store
 *   selling while its shown quantity lasts; the stores learn the true quantity either `stockToChannelP99Ms` after
 *   each sale (Kedai's push) or at the next 15-minute poll. Units sold beyond the stock are oversold.
 */

const STORES = 5;
const SKUS = 1_000;
const CHANGES_PER_SEC = 100;

export interface StockPushFigures {
  stockToChannelP50Ms: number;
  stockToChannelP99Ms: number;
  changes: number;
  acknowledgements: number;
}

/** Links every sandbox item of each store to the master code of the same seller SKU. */
async function linkStores(db: Kysely<Database>, tenantId: string, stores: { id: string; shopId: number }[]) {
  const codes = new Map(
    (
      await db.selectFrom('master_codes').select(['id', 'code']).where('tenant_id', '=', tenantId).execute()
    ).map((row) => [row.code, row.id]),
  );
  for (const store of stores) {
    const channel = channelFor(db, { ...store, tenantId, platform: 'shopee' });
    const ids: string[] = [];
    let page: string | undefined;
    do {
      const listed = await channel.listItems(page);
      ids.push(...listed.items.map((item) => item.itemId));
      page = listed.next;
    } while (page);
    for (let start = 0; start < ids.length; start += 50) {
      const items = await channel.getItems(ids.slice(start, start + 50));
      const rows = items
        .filter((item) => codes.has(item.sellerSku))
        .map((item) => ({
          tenant_id: tenantId,
          store_id: store.id,
          item_id: item.itemId,
          model_id: '',
          seller_sku: item.sellerSku,
          item_name: item.name,
          master_code_id: codes.get(item.sellerSku)!,
        }));
      if (rows.length > 0) await db.insertInto('channel_skus').values(rows).execute();
    }
  }
}

export async function measureStockToChannel(
  bench: BenchServer,
  opts: { seconds: number; skus?: number; stores?: number; database?: string },
): Promise<StockPushFigures> {
  const skuCount = opts.skus ?? SKUS;
  const storeCount = opts.stores ?? STORES;
  const closers: Array<() => Promise<unknown>> = [];
  try {
    const { db, store } = await benchDatabase(bench, opts.database ?? 'kedai_push', closers);
    const codes = Array.from({ length: skuCount }, (_, n) => `PUSH-${String(n).padStart(4, '0')}`);
    // Per shop and item, the changes not yet shown there; a shown quantity ends every wait for it or an older one.
    const waiting = new Map<string, { since: number; quantity: number }[]>();
    const samples: number[] = [];
    const acknowledged = ([shopId, itemId, stock, at]: [number, number, number, number]) => {
      const key = `${shopId}|${itemId}`;
      const pending = waiting.get(key);
      if (!pending) return;
      // Quantities only grow per SKU: the store showing one means every earlier change reached it too.
      const left = pending.filter((entry) => entry.quantity > stock);
      for (const entry of pending) if (entry.quantity <= stock) samples.push(at - entry.since);
      if (left.length === 0) waiting.delete(key);
      else waiting.set(key, left);
    };
    // The clock of acknowledgements: the sandbox reports each quantity as it sets it, rather than being polled (a
    // poll of every waiting SKU every few ms took a seventh of this process's CPU from the path it measures).
    const sandbox = await benchSandboxProcess(
      Array.from({ length: storeCount }, (_, n) => ({ name: `Push ${n + 1}`, skus: codes })),
      (sets) => {
        for (const set of sets) acknowledged(set);
      },
      closers,
    );
    const owner = await benchAccount(db, 'Push');
    const tenantId = owner.tenantId;
    const warehouseId = (
      await db
        .insertInto('warehouses')
        .values({
          id: randomUUID(),
          tenant_id: tenantId,
          kind: 'warehouse',
          code: 'MAIN',
          name: 'Main',
          is_default: true,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    const masterCodes = codes.map((code) => ({ id: randomUUID(), code }));
    for (let start = 0; start < masterCodes.length; start += 500) {
      await db
        .insertInto('master_codes')
        .values(
          masterCodes.slice(start, start + 500).map(({ id, code }) => ({
            id,
            tenant_id: tenantId,
            code,
            name: code,
            type: 'standard' as const,
            seller_sku: code,
          })),
        )
        .execute();
    }
    const stores = await connectShops(db, sandbox.shops, owner, warehouseId);
    await linkStores(db, tenantId, stores);
    const itemOf = new Map<string, number>();
    for (const row of await db
      .selectFrom('channel_skus')
      .select(['store_id', 'item_id', 'master_code_id'])
      .execute())
      itemOf.set(`${row.store_id}/${row.master_code_id}`, Number(row.item_id));

    const workflows = await benchWorker({ db, store }, 'bench-push', closers);
    const reactors = new ReactorRunner({
      db,
      store,
      reactors: [createStockPushReactor({ db, store, workflows })],
      retryMs: 100,
    });
    reactors.start();
    closers.push(() => reactors.stop());

    // ---- the load: CHANGES_PER_SEC adjustments, each waited for in every store ----
    let changes = 0;
    const total = Math.round(opts.seconds * CHANGES_PER_SEC);
    const started = performance.now();
    const next = new Map<string, number>();
    for (let n = 0; n < total; n++) {
      const due = started + (n * 1000) / CHANGES_PER_SEC;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const code = masterCodes[Math.floor(Math.random() * masterCodes.length)]!;
      // Above any stock the sandbox starts with, so a store showing it can only be this push.
      const quantity = (next.get(code.id) ?? 1_000_000) + 1;
      next.set(code.id, quantity);
      const since = clock();
      for (const target of stores) {
        const key = `${target.shopId}|${itemOf.get(`${target.id}/${code.id}`)}`;
        waiting.set(key, [...(waiting.get(key) ?? []), { since, quantity }]);
      }
      await handleStockCommand(
        store,
        {
          type: 'AdjustStock',
          mode: 'set',
          quantity,
          refuseNegative: false,
          masterCodeId: code.id,
          warehouseId,
        },
        { tenantId, commandId: randomUUID(), occurredAt: new Date().toISOString() },
      );
      changes++;
    }
    const deadline = performance.now() + 60_000;
    while (waiting.size > 0 && performance.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    // What never arrived counts as the longest wait there is.
    for (const pending of waiting.values()) for (const entry of pending) samples.push(clock() - entry.since);
    const sorted = samples.sort((a, b) => a - b);
    const figures = {
      stockToChannelP50Ms: Number(percentile(sorted, 0.5).toFixed(1)),
      stockToChannelP99Ms: Number(percentile(sorted, 0.99).toFixed(1)),
      changes,
      acknowledgements: samples.length,
    };
    log(
      `stock to channel: p50 ${figures.stockToChannelP50Ms} ms, p99 ${figures.stockToChannelP99Ms} ms over ` +
        `${changes} changes × ${storeCount} stores (${skuCount} SKUs, ${CHANGES_PER_SEC}/s)`,
    );
    return figures;
  } finally {
    for (const close of closers.reverse())
      await close().catch((error: unknown) => log(`cleanup: ${String(error)}`));
  }
}

// ---- oversold units: push versus a 15-minute poll ----

/** A small seeded generator, so both runs see the very same day of orders. */
function seeded(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

/**
 * One day of orders for `skus` scarce SKUs (a few units each) on 3 stores. Each store sells while the quantity it
 * shows lasts, and lowers its own figure at each sale; it learns the true quantity `syncDelayMs` after every stock
 * change (the push), or only at each poll (`pollEveryMs`). Answers the units sold beyond the stock.
 */
export function simulateOversold(opts: {
  syncDelayMs?: number;
  pollEveryMs?: number;
  skus?: number;
  seed?: number;
}) {
  const random = seeded(opts.seed ?? 15);
  const skus = opts.skus ?? 200;
  const day = 24 * 60 * 60 * 1000;
  const storeCount = 3;
  let oversold = 0;
  for (let sku = 0; sku < skus; sku++) {
    let stock = 3 + Math.floor(random() * 10);
    const shown = Array.from({ length: storeCount }, () => stock);
    // The pending updates: when each store learns which quantity.
    const updates: { at: number; store: number; quantity: number }[] = [];
    // A scarce SKU sells a few times its stock in a day, in bursts (campaign hours).
    const orders = Math.floor(stock * (2 + random() * 3));
    const times = Array.from({ length: orders }, () => {
      const burst = Math.floor(random() * 6) * (day / 6);
      return burst + random() * random() * 3_600_000;
    }).sort((a, b) => a - b);
    let nextPoll = opts.pollEveryMs ?? Number.POSITIVE_INFINITY;
    for (const at of times) {
      while (nextPoll <= at) {
        for (let store = 0; store < storeCount; store++) shown[store] = Math.max(0, stock);
        nextPoll += opts.pollEveryMs!;
      }
      for (const update of updates.filter((u) => u.at <= at))
        shown[update.store] = Math.max(0, update.quantity);
      updates.splice(0, updates.length, ...updates.filter((u) => u.at > at));
      const store = Math.floor(random() * storeCount);
      if (shown[store]! <= 0) continue;
      shown[store]!--;
      if (stock <= 0) oversold++;
      stock--;
      if (opts.syncDelayMs !== undefined) {
        for (let other = 0; other < storeCount; other++)
          updates.push({ at: at + opts.syncDelayMs, store: other, quantity: stock });
      }
    }
  }
  return oversold;
}
