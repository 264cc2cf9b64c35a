import { randomUUID } from 'node:crypto';
import type { ListingDetail } from '@api/contracts/listings';
import { LISTING_LIMITS, type ListingContent, NO_GTIN, refuseListing } from '@domain/listings/rules';
import type { Database } from '@infra/db';
import { withTenant } from '@infra/db/tenant';
import { type ChannelItem, channelFor } from '@integrations/channel';
import { findStore } from '@integrations/stores';
import type { Kysely } from 'kysely';
import type { Actor } from '../support/actor';
import type { Answered } from '../support/answer';
import { listingDetail } from './details';
import { handleListingCommand } from './listing';
import { type ListingDeps, personContext } from './support';

/**
 * "Import to listings" (spec §2): a draft listing made from an item a store already sells, read in full from the
 * channel (base info, tiers, models), each SKU row linked to the master code its channel SKU is linked to (the
 * download's `channel_skus`). The channel does not say which logistics the item uses in a way the listing keeps,
 * so the person names them. The draft is a new listing of that store; its channel SKUs name it from then on.
 */
export async function importListing(
  deps: ListingDeps,
  actor: Actor,
  input: { storeId: string; itemId: string; logistics: string[] },
): Promise<Answered<ListingDetail>> {
  const { tenantId } = actor;
  const store = await findStore(deps.db, tenantId, input.storeId.toLowerCase()).catch(() => undefined);
  if (!store) throw refuseListing('STORE_NOT_FOUND');
  const channel = channelFor(deps.db, store);
  const [item] = await channel.getItems([input.itemId]);
  if (!item) throw refuseListing('LISTING_NOT_FOUND');
  const links = await linksOf(deps.db, tenantId, store.id, item.itemId);
  const listingId = randomUUID();
  await handleListingCommand(
    deps.store,
    listingId,
    {
      type: 'SaveListing',
      listingId,
      content: contentOfItem(item, store.id, input.logistics, links),
      confirm: { unlinkMasterCodes: false, skipSync: true },
      channelChangedAt: {},
    },
    personContext(actor, 'import'),
  );
  await withTenant(deps.db, tenantId, (trx) =>
    trx
      .updateTable('channel_skus')
      .set({ listing_id: listingId })
      .where('tenant_id', '=', tenantId)
      .where('store_id', '=', store.id)
      .where('item_id', '=', item.itemId)
      .execute(),
  );
  return [await listingDetail(deps, tenantId, listingId), 'listing.imported'];
}

type Links = Map<string, { id: string; type: 'standard' | 'combo' }>;

/** The master code each of the item's channel SKUs is linked to, by model id ('' for the item itself). */
async function linksOf(
  db: Kysely<Database>,
  tenantId: string,
  storeId: string,
  itemId: string,
): Promise<Links> {
  const rows = await withTenant(db, tenantId, (trx) =>
    trx
      .selectFrom('channel_skus as c')
      .innerJoin('master_codes as m', (join) =>
        join.onRef('m.id', '=', 'c.master_code_id').onRef('m.tenant_id', '=', 'c.tenant_id'),
      )
      .select(['c.model_id', 'm.id', 'm.type'])
      .where('c.tenant_id', '=', tenantId)
      .where('c.store_id', '=', storeId)
      .where('c.item_id', '=', itemId)
      .execute(),
  );
  return new Map(rows.map((row) => [row.model_id, { id: row.id, type: row.type }]));
}

/** The channel's item in the listing's words. */
export function contentOfItem(
  item: ChannelItem,
  storeId: string,
  logistics: string[],
  links: Links,
): ListingContent {
  const money = (price: string) => Number(price).toFixed(2);
  const skus =
    item.tiers.length === 0
      ? [
          {
            sellerSku: item.sellerSku,
            price: money(item.price),
            stock: item.stock,
            tierIndex: [],
            masterCode: links.get('') ?? null,
            promo: null,
          },
        ]
      : item.models.map((model) => ({
          sellerSku: model.sellerSku,
          price: money(model.price),
          stock: model.stock,
          tierIndex: model.tierIndex,
          masterCode: links.get(model.modelId ?? '') ?? null,
          promo: null,
        }));
  return {
    platform: 'shopee',
    storeIds: [storeId],
    productName: item.name.slice(0, LISTING_LIMITS.title),
    brand: (item.brand ?? '').slice(0, LISTING_LIMITS.brand),
    model: '',
    categoryId: item.categoryId,
    description: item.description.slice(0, LISTING_LIMITS.description),
    condition: 'new',
    packageLength: item.dimensionsCm?.length ?? 0,
    packageWidth: item.dimensionsCm?.width ?? 0,
    packageHeight: item.dimensionsCm?.height ?? 0,
    packageWeight: item.weightKg ?? 0,
    logistics: [...new Set(logistics)],
    images: item.images.slice(0, LISTING_LIMITS.gallery).map((url) => ({ url })),
    variantGallery: [],
    gtin: NO_GTIN,
    tiers: item.tiers,
    skus,
  };
}
