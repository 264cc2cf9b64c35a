import { randomUUID } from 'node:crypto';
import { handleStockCommand } from '@commands/inventory/stock';
import type { Database } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import type { Kysely } from 'kysely';

/** What the stock push tests share: a connected store and channel SKUs linked to master codes, and stock moves. */

export async function seedStore(
  db: Kysely<Database>,
  tenantId: string,
  opts: { id?: string; name?: string; shopId?: number; warehouseId?: string | null } = {},
): Promise<string> {
  const id = opts.id ?? randomUUID();
  await db
    .insertInto('stores')
    .values({
      id,
      tenant_id: tenantId,
      platform: 'shopee',
      name: opts.name ?? `Shop ${id.slice(0, 6)}`,
      shop_id: opts.shopId ?? Math.floor(Math.random() * 1e9),
      region: 'MY',
      status: 'connected',
      warehouse_id: opts.warehouseId ?? null,
      connected_at: new Date(),
    })
    .execute();
  return id;
}

export async function linkSku(
  db: Kysely<Database>,
  tenantId: string,
  storeId: string,
  sku: { itemId: string; modelId?: string; sellerSku: string; masterCodeId: string },
): Promise<void> {
  await db
    .insertInto('channel_skus')
    .values({
      tenant_id: tenantId,
      store_id: storeId,
      item_id: sku.itemId,
      model_id: sku.modelId ?? '',
      seller_sku: sku.sellerSku,
      item_name: sku.sellerSku,
      master_code_id: sku.masterCodeId,
    })
    .execute();
}

/** Sets the quantity on hand of a master code in a warehouse (a stock count), as the adjustment screen does. */
export function setStock(
  store: EventStore,
  tenantId: string,
  target: { masterCodeId: string; warehouseId: string },
  quantity: number,
  reason = 'Stock count',
) {
  return handleStockCommand(
    store,
    { type: 'AdjustStock', mode: 'set', quantity, refuseNegative: false, reason, ...target },
    { tenantId, commandId: randomUUID(), occurredAt: new Date().toISOString() },
  );
}

/** Reserves stock as an accepted order does. */
export function reserveStock(
  store: EventStore,
  tenantId: string,
  target: { masterCodeId: string; warehouseId: string },
  quantity: number,
) {
  return handleStockCommand(
    store,
    { type: 'ReserveStock', quantity, reason: 'Order accepted', ...target },
    { tenantId, commandId: randomUUID(), occurredAt: new Date().toISOString() },
  );
}
