import { announceHeldOrders } from '@commands/announcements/order-limit';
import { importMarketplaceOrder } from '@commands/orders/import';
import { releaseHeldOrders } from '@commands/orders/monthly-limit';
import type { MarketplaceOrder } from '@domain/orders/marketplace-order';
import { refusalOf } from '@domain/shared/errors';
import type { Database } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import { SHOPEE_LIMITS, type ShopeeClient, type ShopeeOrder, ShopeeRequestError } from '@integrations/shopee';
import { findStore, type Store, storeSettings } from '@integrations/stores';
import {
  advanceCheckpoint,
  markImportFailed,
  markImportSucceeded,
  noteImportError,
  type StoreErrorKind,
} from '@integrations/stores/registry';
import type { ShopeeConnection } from '@integrations/stores/settings';
import { classifyStoreError, shopeeClientForStore } from '@integrations/stores/shopee';
import {
  OrderTranslationError,
  SHOPEE_TRACKED_STATUSES,
  shopeeToMarketplaceOrder,
} from '@integrations/stores/shopee-orders';
import { ApplicationFailure } from '@temporalio/common';
import type { Kysely } from 'kysely';
import { type ImportTotals, noTotals, STORE_GONE } from '../order-import-protocol';

/**
 * The order import's activities (workflows/order-import.workflow.ts). `importOrderPage` is the work: one page of
 * get_order_list (100 orders updated in a window), their details 50 at a time, the tracking number of those
 * already shipped, each translated (integrations/stores/shopee-orders.ts) and imported by `importMarketplaceOrder`
 * with the command id `<import key>:<order_sn>@<update_time>`: a retried page, an overlapping window or a later
 * run imports an order's version once. A failed attempt notes its error on the store at once and is thrown for
 * Temporal to retry (or not: a refused authorisation, a bad request) as its kind says. The others keep the store's
 * books: where the next run starts, the last import, and the error that persisted.
 */

export interface OrderImportDeps {
  db: Kysely<Database>;
  store: EventStore;
}

export interface PageInput {
  tenantId: string;
  storeId: string;
  /** The store's import key (orderImportKey): the prefix of every order's command id. */
  key: string;
  /** Unix seconds, both inclusive; at most 15 days apart. */
  timeFrom: number;
  timeTo: number;
  /** '' for the first page. */
  cursor: string;
}

export interface PageResult {
  more: boolean;
  nextCursor: string;
  totals: ImportTotals;
  /** Orders that could not be imported, as "<order_sn>: <why>" (a few). */
  problems: string[];
}

/** How far before the checkpoint each run starts again: an order Shopee lists a little late is still read. */
export const IMPORT_OVERLAP_SECONDS = 120;
/** A new store's first import reads the orders updated this long before it was connected. */
export const FIRST_IMPORT_LOOKBACK_SECONDS = SHOPEE_LIMITS.orderListRangeSeconds;
/** Orders imported side by side within a page (each its own stream); leaves the pool (10) room for the API. */
const IMPORT_CONCURRENCY = 6;
const MAX_PROBLEMS = 10;

class StoreGone extends Error {}

/** Runs `work` over `items`, `limit` at a time. */
async function eachLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>) {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await work(items[next++]!);
  });
  await Promise.all(lanes);
}

/** The warehouse the store's orders go to: its own, else the account's default (else its first warehouse). */
async function warehouseOf(db: Kysely<Database>, store: Store): Promise<string> {
  const rows = await db
    .selectFrom('warehouses')
    .select(['id', 'is_default'])
    .where('tenant_id', '=', store.tenantId)
    .where('kind', '=', 'warehouse')
    .orderBy('is_default', 'desc')
    .orderBy('created_at')
    .execute();
  const own = store.warehouseId && rows.find((row) => row.id === store.warehouseId);
  const chosen = own || rows[0];
  if (!chosen)
    throw new Error("the account has no warehouse for the store's orders: add one under Inventory");
  return typeof chosen === 'string' ? chosen : chosen.id;
}

/** The tracking numbers of the orders Shopee has one for (shipment arranged); none yet is no error. */
async function trackingNumbers(client: ShopeeClient, shopId: number, orders: readonly ShopeeOrder[]) {
  const found = new Map<string, string>();
  for (const order of orders) {
    if (!SHOPEE_TRACKED_STATUSES.has(order.order_status)) continue;
    try {
      const answer = await client.getTrackingNumber(shopId, { order_sn: order.order_sn });
      if (answer.tracking_number) found.set(order.order_sn, answer.tracking_number);
    } catch (error) {
      if (error instanceof ShopeeRequestError) continue;
      throw error;
    }
  }
  return found;
}

/**
 * One page of a store's orders into Kedai (the activity's work, also what the bench measures). Throws StoreGone
 * when the store no longer exists or was disconnected.
 */
export async function importShopeeOrderPage(
  deps: OrderImportDeps,
  input: PageInput,
  connection: ShopeeConnection = storeSettings().shopee,
): Promise<PageResult> {
  const store = await findStore(deps.db, input.tenantId, input.storeId);
  if (!store || store.status === 'disconnected') throw new StoreGone('the store is disconnected');
  const client = shopeeClientForStore(deps.db, store, connection);
  const page = await client.getOrderList(store.shopId, {
    time_range_field: 'update_time',
    time_from: input.timeFrom,
    time_to: input.timeTo,
    page_size: SHOPEE_LIMITS.orderListPageSize,
    cursor: input.cursor,
  });
  const numbers = [...new Set(page.order_list.map((entry) => entry.order_sn))];
  const details: ShopeeOrder[] = [];
  for (let at = 0; at < numbers.length; at += SHOPEE_LIMITS.orderDetailBatch) {
    const batch = numbers.slice(at, at + SHOPEE_LIMITS.orderDetailBatch);
    details.push(...(await client.getOrderDetail(store.shopId, { order_sn_list: batch })).order_list);
  }
  const tracking = await trackingNumbers(client, store.shopId, details);
  const warehouseId = details.length > 0 ? await warehouseOf(deps.db, store) : '';

  const totals = noTotals();
  const problems: string[] = [];
  await eachLimited(details, IMPORT_CONCURRENCY, async (detail) => {
    totals.orders++;
    let order: MarketplaceOrder;
    try {
      const trackingNumber = tracking.get(detail.order_sn);
      order = shopeeToMarketplaceOrder(detail, trackingNumber ? { trackingNumber } : {});
      const { outcome } = await importMarketplaceOrder(
        { db: deps.db, store: deps.store },
        {
          tenantId: store.tenantId,
          storeId: store.id,
          warehouseId,
          order,
          commandId: `${input.key}:${detail.order_sn}@${detail.update_time}`,
        },
      );
      totals[outcome]++;
    } catch (error) {
      // One order the import cannot take (Shopee sent it without items, the order refused the change) stops
      // nothing else; it is named on the store.
      const refused = refusalOf(error);
      if (!(error instanceof OrderTranslationError) && !refused) throw error;
      totals.skipped++;
      if (problems.length < MAX_PROBLEMS)
        problems.push(
          error instanceof OrderTranslationError
            ? error.message
            : `order ${detail.order_sn}: ${refused?.code}`,
        );
    }
  });
  // Orders held over the monthly limit go in as soon as a new month (or package) allows, ahead of the schedule;
  // those still held, the account is told of.
  const now = new Date();
  await releaseHeldOrders(deps, store.tenantId, now);
  await announceHeldOrders(deps.db, store.tenantId, now);
  return { more: page.more, nextCursor: page.next_cursor, totals, problems };
}

export function createOrderImportActivities(deps: OrderImportDeps) {
  const { db } = deps;
  return {
    /** Where this run reads from (the checkpoint, a little before) and to (now), in Unix seconds; or why not. */
    async beginOrderImport(input: {
      tenantId: string;
      storeId: string;
    }): Promise<{ from: number; until: number } | { skip: 'missing' | 'disconnected' }> {
      const store = await findStore(db, input.tenantId, input.storeId);
      if (!store) return { skip: 'missing' };
      if (store.status === 'disconnected') return { skip: 'disconnected' };
      const now = storeSettings().shopee.now ?? Date.now;
      const until = Math.ceil(now() / 1000);
      const from = store.importCheckpoint
        ? Math.floor(store.importCheckpoint.getTime() / 1000) - IMPORT_OVERLAP_SECONDS
        : Math.floor(store.connectedAt.getTime() / 1000) - FIRST_IMPORT_LOOKBACK_SECONDS;
      return { from: Math.min(Math.max(from, 0), until), until };
    },

    async importOrderPage(input: PageInput): Promise<PageResult> {
      try {
        return await importShopeeOrderPage(deps, input);
      } catch (error) {
        if (error instanceof StoreGone)
          throw ApplicationFailure.create({ type: STORE_GONE, message: error.message, nonRetryable: true });
        const failure = classifyStoreError(error);
        await noteImportError(db, input.tenantId, input.storeId, failure).catch(() => undefined);
        throw ApplicationFailure.create({
          type: failure.kind,
          message: failure.message,
          nonRetryable: !failure.retryable,
          ...(failure.retryAfterMs !== undefined ? { nextRetryDelay: failure.retryAfterMs } : {}),
        });
      }
    },

    /** Every order updated up to `checkpoint` (Unix seconds) is imported. */
    async advanceImportCheckpoint(input: {
      tenantId: string;
      storeId: string;
      checkpoint: number;
    }): Promise<void> {
      await advanceCheckpoint(db, input.tenantId, input.storeId, new Date(input.checkpoint * 1000));
    },

    async markOrderImportFailed(input: {
      tenantId: string;
      storeId: string;
      kind: string;
      message: string;
    }): Promise<void> {
      await markImportFailed(db, input.tenantId, input.storeId, {
        kind: input.kind as StoreErrorKind,
        message: input.message,
      });
    },

    /** The run imported everything: last import now, store connected, error cleared (or the orders it skipped). */
    async finishOrderImport(input: {
      tenantId: string;
      storeId: string;
      orders: number;
      problems?: string[];
    }): Promise<void> {
      await markImportSucceeded(db, input.tenantId, input.storeId, { orders: input.orders, at: new Date() });
      if (input.problems && input.problems.length > 0)
        await noteImportError(db, input.tenantId, input.storeId, {
          kind: 'order',
          message: input.problems.join('\n'),
        });
    },
  };
}
