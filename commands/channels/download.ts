import { applyToWaitingOrders, WAITING } from '@commands/orders/map-line';
import { refuseChannelLink } from '@domain/channels/links';
import { isUuid } from '@domain/platform/ids';
import type { Database } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import type { ChannelItem, ChannelPort } from '@integrations/channel/port';
import { findStore, type Store } from '@integrations/stores';
import {
  type DownloadCounts,
  ITEM_DOWNLOAD_WORKFLOW,
  itemDownloadWorkflowId,
} from '@workflows/item-download-protocol';
import { type WorkflowDeps, workflowsUnavailable } from '@workflows/updates';
import { type Kysely, sql } from 'kysely';
import type { Actor } from '../support/actor';
import { type ChannelSkuModel, type LinkDeps, recordChannelSkus } from './channel-skus';

/**
 * Downloading a connected store's items into Kedai (spec §2 "download status view", §3 "Download status"): the
 * request that starts the store's download workflow (workflows/item-download.workflow.ts), and the steps its
 * activities take — one page of the channel's items recorded as channel SKUs, then the counts, the SKUs the
 * channel no longer has dropped, and the store's waiting orders of newly linked SKUs mapped.
 */

/** Items the port reads in full per call. */
const ITEMS_PER_CALL = 50;

/** The SKUs of an item as the channel has it: one per model, or the item itself when it has none. */
export function skusOfItem(item: ChannelItem): ChannelSkuModel[] {
  if (item.models.length === 0) {
    return [{ sellerSku: item.sellerSku, price: item.price, stock: item.stock, status: item.status }];
  }
  return item.models.map((model) => {
    const options = model.tierIndex.map((index, tier) => item.tiers[tier]?.options[index] ?? '');
    return {
      ...(model.modelId !== undefined ? { modelId: model.modelId } : {}),
      sellerSku: model.sellerSku,
      modelName: options.filter(Boolean).join(', '),
      price: model.price,
      stock: model.stock,
      status: item.status,
    };
  });
}

/** The store of a download, or why there is none to download from. */
export async function downloadableStore(db: Kysely<Database>, tenantId: string, storeId: string) {
  const store = isUuid(storeId) ? await findStore(db, tenantId, storeId) : undefined;
  if (!store) throw refuseChannelLink('STORE_NOT_FOUND');
  if (store.status === 'disconnected') throw refuseChannelLink('STORE_DISCONNECTED');
  return store;
}

/** One page of the store's item list, read in full and recorded; the next page's cursor, if any. */
export async function downloadItemPage(
  deps: LinkDeps,
  channel: ChannelPort,
  input: { tenantId: string; storeId: string; cursor: string },
): Promise<{ next?: string; items: number }> {
  const page = await channel.listItems(input.cursor === '' ? undefined : input.cursor);
  const ids = [...new Set(page.items.map((entry) => entry.itemId))];
  let items = 0;
  for (let at = 0; at < ids.length; at += ITEMS_PER_CALL) {
    for (const item of await channel.getItems(ids.slice(at, at + ITEMS_PER_CALL))) {
      await recordChannelSkus(deps, {
        tenantId: input.tenantId,
        storeId: input.storeId,
        itemId: item.itemId,
        itemName: item.name,
        models: skusOfItem(item),
      });
      items++;
    }
  }
  return { ...(page.next !== undefined ? { next: page.next } : {}), items };
}

const downloads = (db: Kysely<Database>, tenantId: string, storeId: string) =>
  db.updateTable('channel_downloads').where('tenant_id', '=', tenantId).where('store_id', '=', storeId);

/** The workflow runs: downloading from now (Unix ms, what `finishDownload` keeps rows from). */
export async function beginDownload(
  db: Kysely<Database>,
  tenantId: string,
  storeId: string,
): Promise<{ startedAt: number }> {
  const startedAt = new Date();
  await db
    .insertInto('channel_downloads')
    .values({ tenant_id: tenantId, store_id: storeId, status: 'downloading', started_at: startedAt })
    .onConflict((conflict) =>
      conflict.columns(['tenant_id', 'store_id']).doUpdateSet({
        status: 'downloading',
        started_at: startedAt,
        last_error: null,
        updated_at: startedAt,
      }),
    )
    .execute();
  return { startedAt: startedAt.getTime() };
}

export async function failDownload(db: Kysely<Database>, tenantId: string, storeId: string, message: string) {
  const now = new Date();
  await downloads(db, tenantId, storeId)
    .set({ status: 'error', last_error: message, finished_at: now, updated_at: now })
    .execute();
}

/** What the store's channel SKUs are now: items, SKUs, and how many are linked. */
export async function storeCounts(
  db: Kysely<Database>,
  tenantId: string,
  storeId: string,
): Promise<DownloadCounts> {
  const row = await db
    .selectFrom('channel_skus')
    .select((eb) => [
      sql<string>`count(DISTINCT item_id)`.as('items'),
      eb.fn.countAll<string>().as('skus'),
      eb.fn.count<string>('master_code_id').as('linked'),
    ])
    .where('tenant_id', '=', tenantId)
    .where('store_id', '=', storeId)
    .executeTakeFirstOrThrow();
  const skus = Number(row.skus);
  const linked = Number(row.linked);
  return { items: Number(row.items), skus, linked, unlinked: skus - linked };
}

/**
 * Every page is in: SKUs this download did not see (deleted on the channel) go, the counts are kept, and the
 * store's waiting orders whose "item not found" SKU is now linked are mapped.
 */
export async function finishDownload(
  deps: { db: Kysely<Database>; store: EventStore },
  input: { tenantId: string; storeId: string; startedAt: number },
): Promise<{ counts: DownloadCounts; ordersMapped: number }> {
  const { db } = deps;
  const { tenantId, storeId } = input;
  await db
    .deleteFrom('channel_skus')
    .where('tenant_id', '=', tenantId)
    .where('store_id', '=', storeId)
    .where('updated_at', '<', new Date(input.startedAt))
    .execute();
  const ordersMapped = await mapWaitingOrders(deps, tenantId, storeId);
  const counts = await storeCounts(db, tenantId, storeId);
  const now = new Date();
  await downloads(db, tenantId, storeId)
    .set({ status: 'completed', ...counts, last_error: null, finished_at: now, updated_at: now })
    .execute();
  return { counts, ordersMapped };
}

/**
 * Maps the store's waiting orders whose unmapped line's SKU is a linked channel SKU, with that link (which is what
 * the order import's rule gives the SKU now); each order line once, under an id of the SKU and its master code.
 */
export async function mapWaitingOrders(
  deps: { db: Kysely<Database>; store: EventStore },
  tenantId: string,
  storeId: string,
): Promise<number> {
  const links = await deps.db
    .selectFrom('channel_skus as s')
    .innerJoin('master_codes as c', (join) =>
      join.onRef('c.id', '=', 's.master_code_id').onRef('c.tenant_id', '=', 's.tenant_id'),
    )
    .select(['s.seller_sku', 'c.id', 'c.type'])
    .distinct()
    .where('s.tenant_id', '=', tenantId)
    .where('s.store_id', '=', storeId)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('order_lines as l')
          .innerJoin('orders as o', (join) =>
            join.onRef('o.id', '=', 'l.order_id').onRef('o.tenant_id', '=', 'l.tenant_id'),
          )
          .select('l.line_id')
          .whereRef('l.tenant_id', '=', 's.tenant_id')
          .whereRef('o.store_id', '=', 's.store_id')
          .where('o.status', 'in', WAITING)
          .where('l.master_code_id', 'is', null)
          .where('l.removed', '=', false)
          .where((eb) =>
            eb.or([
              eb('l.seller_sku', '=', eb.ref('s.seller_sku')),
              eb.and([eb('l.seller_sku', '=', ''), eb('l.sku', '=', eb.ref('s.seller_sku'))]),
            ]),
          ),
      ),
    )
    .execute();
  let mapped = 0;
  for (const link of links) {
    const commandId = `channel-link:${storeId}:${link.seller_sku}:${link.id}`;
    mapped += await applyToWaitingOrders(
      deps,
      { tenantId, commandId, occurredAt: new Date().toISOString() },
      { storeId, sku: link.seller_sku, masterCodeId: link.id, combo: link.type === 'combo' },
    );
  }
  return mapped;
}

/**
 * Starts the download of each chosen store (at most 20, each the account's and connected): `pending` until its
 * workflow begins. A store whose download is already running joins it (one workflow id per store).
 */
export async function requestDownloads(
  deps: { db: Kysely<Database>; workflows: WorkflowDeps },
  actor: Actor,
  storeIds: readonly string[],
): Promise<void> {
  const stores: Store[] = [];
  for (const id of storeIds) stores.push(await downloadableStore(deps.db, actor.tenantId, id));
  for (const store of stores) {
    const now = new Date();
    await deps.db
      .insertInto('channel_downloads')
      .values({
        tenant_id: store.tenantId,
        store_id: store.id,
        status: 'pending',
        requested_by: actor.userId,
        requested_at: now,
      })
      .onConflict((conflict) =>
        conflict
          .columns(['tenant_id', 'store_id'])
          .doUpdateSet({ status: 'pending', requested_by: actor.userId, requested_at: now, updated_at: now })
          // A download already on its way stays as it is: the request joins it.
          .where('channel_downloads.status', 'not in', ['pending', 'downloading']),
      )
      .execute();
    try {
      await deps.workflows.client.workflow.start(ITEM_DOWNLOAD_WORKFLOW, {
        taskQueue: deps.workflows.taskQueue,
        workflowId: itemDownloadWorkflowId(store.tenantId, store.id),
        args: [{ tenantId: store.tenantId, storeId: store.id }],
        workflowIdConflictPolicy: 'USE_EXISTING',
      });
    } catch (error) {
      const grpc = error as { code?: number };
      if (grpc.code !== 4 && grpc.code !== 14) throw error;
      await failDownload(deps.db, store.tenantId, store.id, 'The background processes did not answer.');
      throw workflowsUnavailable();
    }
  }
}
