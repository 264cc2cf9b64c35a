import { randomUUID } from 'node:crypto';
import type { ChannelSkuKey, LinkAnswer, LinkChannelSkuBody } from '@api/contracts/channel-skus';
import { applyToWaitingOrders, saveSkuMapping } from '@commands/orders/map-line';
import { refuseChannelLink } from '@domain/channels/links';
import { isUuid } from '@domain/platform/ids';
import type { Database } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import { channelSkuOf } from '@projections/channel-skus.queries';
import type { Kysely } from 'kysely';
import type { Actor } from '../support/actor';
import { relinkChannelSkus } from './channel-skus';

/**
 * Linking a channel SKU to a master code by hand, or unlinking it. Both go through the seller's mapping of the
 * store's SKU (`order_sku_mappings`, what the order import and "map line" use), so the store's orders of that SKU
 * follow: linking maps its waiting "item not found" orders too. A SKU linked because its seller SKU matches a
 * master code's seller SKU or code has no mapping to remove: that master code must change.
 */

type Deps = { db: Kysely<Database>; store: EventStore };

async function channelSku(db: Kysely<Database>, tenantId: string, key: ChannelSkuKey) {
  const found = isUuid(key.store_id) ? await channelSkuOf(db, tenantId, key) : undefined;
  if (!found) throw refuseChannelLink('CHANNEL_SKU_NOT_FOUND');
  if (found.seller_sku === '') throw refuseChannelLink('SELLER_SKU_MISSING');
  return found;
}

const contextOf = (actor: Actor) => ({
  tenantId: actor.tenantId,
  userId: actor.userId,
  commandId: `channel-link:${randomUUID()}`,
  occurredAt: new Date().toISOString(),
});

export async function linkChannelSku(
  deps: Deps,
  actor: Actor,
  input: LinkChannelSkuBody,
): Promise<LinkAnswer> {
  const sku = await channelSku(deps.db, actor.tenantId, input);
  const code = isUuid(input.master_code_id)
    ? await deps.db
        .selectFrom('master_codes')
        .select(['id', 'type'])
        .where('tenant_id', '=', actor.tenantId)
        .where('id', '=', input.master_code_id.toLowerCase())
        .executeTakeFirst()
    : undefined;
  if (!code) throw refuseChannelLink('MASTER_CODE_NOT_FOUND');
  const context = contextOf(actor);
  const mapping = { storeId: input.store_id, sku: sku.seller_sku, masterCodeId: code.id };
  await saveSkuMapping(deps, context, mapping);
  const ordersMapped = await applyToWaitingOrders(deps, context, {
    ...mapping,
    combo: code.type === 'combo',
  });
  return { sku: (await channelSkuOf(deps.db, actor.tenantId, input))!, orders_mapped: ordersMapped };
}

/** Removes the seller's mapping of the SKU; what links it then is the SKU's own match, if it has one. */
export async function unlinkChannelSku(deps: Deps, actor: Actor, input: ChannelSkuKey): Promise<LinkAnswer> {
  const sku = await channelSku(deps.db, actor.tenantId, input);
  if (sku.master_code && sku.linked_by === 'sku')
    throw refuseChannelLink('LINKED_BY_SKU', { code: sku.master_code.code });
  await deps.db
    .deleteFrom('order_sku_mappings')
    .where('tenant_id', '=', actor.tenantId)
    .where('store_id', '=', input.store_id)
    .where('sku', '=', sku.seller_sku)
    .execute();
  await relinkChannelSkus(deps, actor.tenantId, { storeId: input.store_id, sellerSkus: [sku.seller_sku] });
  return { sku: (await channelSkuOf(deps.db, actor.tenantId, input))!, orders_mapped: 0 };
}
