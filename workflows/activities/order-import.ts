import { announceHeldOrders } from '@commands/announcements/order-limit';
import { importMarketplaceOrder } from '@commands/orders/import';
import { releaseHeldOrders } from '@commands/orders/monthly-limit';
import { refusalOf } from '@domain/shared/errors';
import type { Database } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import type { ChannelOf } from '@integrations/channel';
import { SHOPEE_LIMITS } from '@integrations/shopee';
import { findStore, type Store, storeSettings } from '@integrations/stores';
import {
  advanceCheckpoint,
  markImportFailed,
  markImportSucceeded,
  noteImportError,
  type StoreErrorKind,
} from '@integrations/stores/registry';
import { classifyStoreError } from '@integrations/stores/shopee';
import { ApplicationFailure } from '@temporalio/common';
import type { Kysely } from 'kysely';
import { type ImportTotals, noTotals, STORE_GONE } from '../order-import-protocol';

/**
 * The order import's activities (workflows/order-import.workflow.ts). `importOrderPage` is the work: one page of
 * the orders the store's channel updated in a window (`listOrders` of the channel port: for Shopee, 100 orders of
 * get_order_list with their details and tracking numbers, in Kedai's words), each imported by
 * `importMarketplaceOrder` with the command id `<import key>:<order number>@<update time>`: a retried page, an
 * overlapping window or a later run imports an order's version once. An order the channel could not translate is
 * skipped and named. A failed attempt (a ChannelError) notes its error on the store at once and is thrown for
 * Temporal to retry (or not: a refused authorisation, a bad request) as its kind says. The others keep the store's
 * books: where the next run starts, the last import, and the error that persisted.
 */

export interface OrderImportDeps {
  db: Kysely<Database>;
  store: EventStore;
  /** The store's channel adapter (integrations/channel: channelFor). */
  channelOf: ChannelOf;
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

/**
 * One page of a store's orders into Kedai through its channel (the activity's work, also what the bench measures).
 * Throws StoreGone when the store no longer exists or was disconnected.
 */
export async function importChannelOrderPage(deps: OrderImportDeps, input: PageInput): Promise<PageResult> {
  const store = await findStore(deps.db, input.tenantId, input.storeId);
  if (!store || store.status === 'disconnected') throw new StoreGone('the store is disconnected');
  const page = await (await deps.channelOf(store)).listOrders(
    { from: input.timeFrom, until: input.timeTo },
    input.cursor || undefined,
  );
  const warehouseId = page.items.length > 0 ? await warehouseOf(deps.db, store) : '';

  const totals = noTotals();
  const problems: string[] = [];
  const name = (problem: string) => {
    totals.skipped++;
    if (problems.length < MAX_PROBLEMS) problems.push(problem);
  };
  // An order the channel sent that cannot be one of Kedai's (no items, say) stops nothing else: it is named.
  for (const skipped of page.skipped) {
    totals.orders++;
    name(`order ${skipped.orderNumber}: ${skipped.reason}`);
  }
  await eachLimited(page.items, IMPORT_CONCURRENCY, async (order) => {
    totals.orders++;
    try {
      const { outcome } = await importMarketplaceOrder(
        { db: deps.db, store: deps.store },
        {
          tenantId: store.tenantId,
          storeId: store.id,
          warehouseId,
          order,
          // The order's version as the channel stamps it (Unix seconds, as the import always keyed it).
          commandId: `${input.key}:${order.orderNumber}@${Date.parse(order.updatedAt) / 1000}`,
        },
      );
      totals[outcome]++;
    } catch (error) {
      // Nor does one the order refuses (a change it cannot take).
      const refused = refusalOf(error);
      if (!refused) throw error;
      name(`order ${order.orderNumber}: ${refused.code}`);
    }
  });
  // Orders held over the monthly limit go in as soon as a new month (or package) allows, ahead of the schedule;
  // those still held, the account is told of.
  const now = new Date();
  await releaseHeldOrders(deps, store.tenantId, now);
  await announceHeldOrders(deps.db, store.tenantId, now);
  return { more: page.next !== undefined, nextCursor: page.next ?? '', totals, problems };
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
        return await importChannelOrderPage(deps, input);
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
