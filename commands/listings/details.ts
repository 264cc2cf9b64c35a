import type { ListingDetail, StorePublication } from '@api/contracts/listings';
import { type OpenListing, storeActions } from '@domain/listings/listing';
import { refuseListing, variantInfoOf } from '@domain/listings/rules';
import { isUuid } from '@domain/platform/ids';
import type { Database } from '@infra/db';
import { withTenant } from '@infra/db/tenant';
import type { Kysely } from 'kysely';
import { loadListing } from './listing';
import { type ListingDeps, listingIdOf } from './support';

/** The account's stores by id, with their names and platforms. */
export async function storesOf(db: Kysely<Database>, tenantId: string, ids: readonly string[]) {
  const valid = [...new Set(ids.filter(isUuid).map((id) => id.toLowerCase()))];
  if (valid.length === 0)
    return new Map<string, { id: string; name: string; platform: string; status: string }>();
  const rows = await withTenant(db, tenantId, (trx) =>
    trx
      .selectFrom('stores')
      .select(['id', 'name', 'platform', 'status'])
      .where('tenant_id', '=', tenantId)
      .where('id', 'in', valid)
      .execute(),
  );
  return new Map(rows.map((row) => [row.id, row]));
}

/** Each store's publication as the console shows it. */
export function publicationsOf(state: OpenListing, names: Map<string, { name: string }>): StorePublication[] {
  const ids = [...new Set([...state.content.storeIds, ...Object.keys(state.stores)])];
  return ids.map((storeId) => {
    const store = state.stores[storeId];
    return {
      store_id: storeId,
      store_name: names.get(storeId)?.name ?? null,
      item_id: store?.itemId ?? null,
      listed: store?.listed ?? false,
      running: store?.running?.action ?? null,
      step: store?.step ?? null,
      synced_at: store?.syncedAt ?? null,
      error: store?.error ?? null,
      item_left: store?.itemLeft ?? null,
      actions: storeActions(state, storeId),
    };
  });
}

/** A listing of the account's, whole (GET /api/listing/{id}); another account's id is missing. */
export async function listingDetail(
  deps: Pick<ListingDeps, 'db' | 'store'>,
  tenantId: string,
  groupId: string,
): Promise<ListingDetail> {
  const listingId = listingIdOf(groupId);
  const { state, revision } = await loadListing(deps.store, tenantId, listingId);
  if (state.status === 'none') throw refuseListing('LISTING_NOT_FOUND');
  const { content } = state;
  const stores = await storesOf(deps.db, tenantId, [...content.storeIds, ...Object.keys(state.stores)]);
  const codeIds = content.skus.flatMap((sku) => (sku.masterCode ? [sku.masterCode.id] : []));
  const codes = new Map<string, string>();
  if (codeIds.length > 0) {
    const rows = await withTenant(deps.db, tenantId, (trx) =>
      trx
        .selectFrom('master_codes')
        .select(['id', 'code'])
        .where('tenant_id', '=', tenantId)
        .where('id', 'in', codeIds)
        .execute(),
    );
    for (const row of rows) codes.set(row.id, row.code);
  }
  return {
    id: listingId,
    revision,
    status: state.status,
    platform: content.platform,
    store_ids: content.storeIds,
    product_name: content.productName,
    brand: content.brand,
    brand_id: content.brandId ?? null,
    model: content.model,
    category_id: content.categoryId,
    attributes: (content.attributes ?? []).map((attribute) => ({
      attribute_id: attribute.attributeId,
      values: attribute.values.map((value) => ({
        value_id: value.valueId,
        name: value.name,
        unit: value.unit,
      })),
    })),
    description: content.description,
    condition: content.condition,
    package_length: content.packageLength,
    package_width: content.packageWidth,
    package_height: content.packageHeight,
    package_weight: content.packageWeight,
    logistics: content.logistics,
    images: content.images,
    variant_gallery: content.variantGallery,
    gtin: content.gtin,
    tiers: content.tiers,
    skus: content.skus.map((sku) => ({
      seller_sku: sku.sellerSku,
      price: sku.price,
      stock: sku.stock,
      tier_index: sku.tierIndex,
      variant_info: variantInfoOf(content.tiers, sku.tierIndex),
      master_code: sku.masterCode
        ? { id: sku.masterCode.id, code: codes.get(sku.masterCode.id) ?? null, type: sku.masterCode.type }
        : null,
      promo: sku.promo,
      is_promo: sku.promo !== null,
    })),
    stores: publicationsOf(state, stores),
  };
}
