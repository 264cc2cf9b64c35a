import { randomUUID } from 'node:crypto';
import { mapSellerSkus } from '@commands/orders/import';
import { type ChannelSkusLinked, channelLinksStreamId } from '@domain/channels/link-events';
import type { Database } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import type { ChannelItemStatus } from '@integrations/channel/port';
import { type Kysely, sql } from 'kysely';

/**
 * The channel SKUs of connected stores (`channel_skus`: item × model) and their links to master codes. A link is
 * never chosen here: it is what the order import's rule gives the SKU (`mapSellerSkus`: the seller's mapping of the
 * store's SKU, then seller SKU, then code), so a channel SKU and the order lines of that SKU always agree. Whatever
 * changes an input of that rule (a download, a publish, a mapping, a master code's code or seller SKU) relinks the
 * channel SKUs it touches through `relinkChannelSkus`, which tells the log which SKUs became linked
 * (`ChannelSkusLinked`, domain/channels/links.ts): the stock push then tells the store their quantities.
 */

export interface LinkDeps {
  db: Kysely<Database>;
  store: EventStore;
}

/** The most values one `IN (…)` carries. */
const CHUNK = 1_000;

const chunks = <T>(values: readonly T[]): T[][] => {
  const out: T[][] = [];
  for (let at = 0; at < values.length; at += CHUNK) out.push(values.slice(at, at + CHUNK));
  return out;
};

export interface ChannelSkuModel {
  /** Absent for an item without variants. */
  modelId?: string;
  sellerSku: string;
  modelName?: string;
  /** Decimal string in the store's currency. */
  price: string;
  /** The quantity the channel shows. */
  stock: number;
  status?: ChannelItemStatus;
}

export interface ChannelItemRecord {
  tenantId: string;
  storeId: string;
  itemId: string;
  itemName: string;
  /** The Kedai listing the item was published from, if any. */
  listingId?: string;
  models: ChannelSkuModel[];
}

/**
 * Records one channel item's SKUs as the channel now has them (after a download reads it, or a publish creates or
 * updates it) and links each to its master code. The item's rows become exactly `models`: a model no longer there
 * is removed. Idempotent. Answers how many SKUs the item has and how many are linked.
 *
 * For the listing publish saga and the download; the stock push reads the rows.
 */
export async function recordChannelSkus(
  deps: LinkDeps,
  input: ChannelItemRecord,
): Promise<{ skus: number; linked: number }> {
  const { db } = deps;
  const { tenantId, storeId, itemId } = input;
  const rows = input.models.map((model) => ({
    tenant_id: tenantId,
    store_id: storeId,
    item_id: itemId,
    model_id: model.modelId ?? '',
    seller_sku: model.sellerSku.trim(),
    item_name: input.itemName,
    model_name: model.modelName ?? '',
    price: model.price,
    channel_stock: model.stock,
    status: model.status ?? 'normal',
    ...(input.listingId !== undefined ? { listing_id: input.listingId } : {}),
    updated_at: new Date(),
  }));
  const modelIds = rows.map((row) => row.model_id);
  let removed = db
    .deleteFrom('channel_skus')
    .where('tenant_id', '=', tenantId)
    .where('store_id', '=', storeId)
    .where('item_id', '=', itemId);
  if (modelIds.length > 0) removed = removed.where('model_id', 'not in', modelIds);
  await removed.execute();
  if (rows.length > 0) {
    await db
      .insertInto('channel_skus')
      .values(rows)
      .onConflict((conflict) =>
        conflict.columns(['tenant_id', 'store_id', 'item_id', 'model_id']).doUpdateSet((eb) => ({
          seller_sku: eb.ref('excluded.seller_sku'),
          item_name: eb.ref('excluded.item_name'),
          model_name: eb.ref('excluded.model_name'),
          price: eb.ref('excluded.price'),
          channel_stock: eb.ref('excluded.channel_stock'),
          status: eb.ref('excluded.status'),
          ...(input.listingId !== undefined ? { listing_id: eb.ref('excluded.listing_id') } : {}),
          updated_at: eb.ref('excluded.updated_at'),
        })),
      )
      .execute();
  }
  await relinkChannelSkus(deps, tenantId, { storeId, sellerSkus: rows.map((row) => row.seller_sku) });
  const counted = await db
    .selectFrom('channel_skus')
    .select((eb) => [eb.fn.countAll<string>().as('skus'), eb.fn.count<string>('master_code_id').as('linked')])
    .where('tenant_id', '=', tenantId)
    .where('store_id', '=', storeId)
    .where('item_id', '=', itemId)
    .executeTakeFirstOrThrow();
  return { skus: Number(counted.skus), linked: Number(counted.linked) };
}

/** Which channel SKUs to relink: of one store or all, with these seller SKUs, and/or linked to this master code. */
export interface RelinkScope {
  storeId?: string;
  sellerSkus?: readonly string[];
  masterCodeId?: string;
}

/**
 * Sets the link of the channel SKUs in `scope` to what the order import's rule gives them now; answers how many
 * links changed. Called after anything that changes an input of the rule. The SKUs that became linked (to a master
 * code, or to another) are appended as `ChannelSkusLinked`, one event per store.
 */
export async function relinkChannelSkus(
  deps: LinkDeps,
  tenantId: string,
  scope: RelinkScope,
): Promise<number> {
  const { db } = deps;
  const skus = [...new Set((scope.sellerSkus ?? []).map((sku) => sku.trim()).filter(Boolean))];
  if (skus.length === 0 && scope.masterCodeId === undefined) return 0;
  const found: { store_id: string; seller_sku: string }[] = [];
  // By seller SKU, chunk by chunk; and those linked to the master code (whatever their SKU).
  const parts: { skus?: string[]; masterCodeId?: string }[] = chunks(skus).map((part) => ({ skus: part }));
  if (scope.masterCodeId !== undefined) parts.push({ masterCodeId: scope.masterCodeId });
  for (const part of parts) {
    let query = db
      .selectFrom('channel_skus')
      .select(['store_id', 'seller_sku'])
      .distinct()
      .where('tenant_id', '=', tenantId);
    if (scope.storeId !== undefined) query = query.where('store_id', '=', scope.storeId);
    if (part.skus) query = query.where('seller_sku', 'in', part.skus);
    if (part.masterCodeId) query = query.where('master_code_id', '=', part.masterCodeId);
    found.push(...(await query.execute()));
  }
  const byStore = new Map<string, Set<string>>();
  for (const row of found) {
    const set = byStore.get(row.store_id) ?? new Set<string>();
    set.add(row.seller_sku);
    byStore.set(row.store_id, set);
  }
  let changed = 0;
  for (const [storeId, storeSkus] of byStore) {
    const linked: ChannelSkusLinked['links'] = [];
    const wanted = [...storeSkus];
    const mapped = await mapSellerSkus(db, tenantId, storeId, wanted);
    const byTarget = new Map<string | null, string[]>();
    for (const sku of wanted) {
      const target = mapped.get(sku.trim())?.id ?? null;
      byTarget.set(target, [...(byTarget.get(target) ?? []), sku]);
    }
    for (const [target, targetSkus] of byTarget) {
      for (const part of chunks(targetSkus)) {
        const result = await db
          .updateTable('channel_skus')
          .set({ master_code_id: target })
          .where('tenant_id', '=', tenantId)
          .where('store_id', '=', storeId)
          .where('seller_sku', 'in', part)
          .where(sql<boolean>`master_code_id IS DISTINCT FROM ${target}::uuid`)
          .returning(['item_id', 'model_id'])
          .execute();
        changed += result.length;
        if (target !== null)
          for (const row of result)
            linked.push({ itemId: row.item_id, modelId: row.model_id, masterCodeId: target });
      }
    }
    if (linked.length > 0) await announceLinks(deps.store, tenantId, storeId, linked);
  }
  return changed;
}

/**
 * Appends the store's newly linked SKUs to the log (a relink that changed nothing appends nothing); a publish
 * announces the SKUs it wrote, whose channel stock is the listing's until the push corrects it.
 */
export async function announceLinks(
  store: EventStore,
  tenantId: string,
  storeId: string,
  links: ChannelSkusLinked['links'],
): Promise<void> {
  const data: ChannelSkusLinked = { storeId, links };
  const id = randomUUID();
  await store.append(
    channelLinksStreamId(tenantId, storeId),
    [
      {
        id,
        type: 'ChannelSkusLinked',
        data,
        metadata: { tenantId, commandId: id, correlationId: id, occurredAt: new Date().toISOString() },
      },
    ],
    { expectedRevision: 'any' },
  );
}
