import type { ListingDetail, ParsedListingBody } from '@api/contracts/listings';
import type { ListingState } from '@domain/listings/listing';
import { checkContent, type ListingContent, type ListingImage, refuseListing } from '@domain/listings/rules';
import { isUuid } from '@domain/platform/ids';
import { refusedTogether } from '@domain/shared/errors';
import type { Database } from '@infra/db';
import { withTenant } from '@infra/db/tenant';
import { type Kysely, sql } from 'kysely';
import type { Actor } from '../support/actor';
import type { Answered } from '../support/answer';
import { checkListingCategory } from './categories';
import { listingDetail, storesOf } from './details';
import { checkUploadedImages } from './images';
import { changeListing, loadListing } from './listing';
import { type ListingDeps, listingIdOf, personContext } from './support';

/**
 * Saves the editor's listing (`POST /api/listing/{groupId}`; spec §5): a groupId nobody has makes a new draft. The
 * content's own rules come first (the domain's, every problem at once), then what it names must be the account's:
 * its stores (of the listing's platform), master codes and uploaded images. A master code already listed elsewhere
 * is added only once the person confirmed it; a published listing whose channel copy changed since Kedai last wrote
 * it (download records the channel's copy in channel_skus) is edited only after a sync or a skip; a Shopee tier change
 * unlinks the SKU rows' master codes once confirmed. A save made against an older revision is refused (409, 725).
 */
export async function saveListing(
  deps: ListingDeps,
  actor: Actor,
  input: { groupId: string; body: ParsedListingBody },
): Promise<Answered<ListingDetail>> {
  const { tenantId } = actor;
  const listingId = listingIdOf(input.groupId);
  const { body } = input;
  const codes = await masterCodesOf(
    deps.db,
    tenantId,
    body.skus.map((sku) => sku.master_code_id ?? null),
  );
  const content = contentOf(body, codes.types);
  checkContent(content);
  await checkStores(deps.db, tenantId, content);
  await checkListingCategory(deps.db, tenantId, content);
  await checkUploadedImages(
    deps.db,
    tenantId,
    [...content.images, ...content.variantGallery].flatMap((image) => ('id' in image ? [image.id] : [])),
  );
  const { state } = await loadListing(deps.store, tenantId, listingId);
  if (!body.confirm_listed_master_codes) {
    const listed = await listedElsewhere(deps.db, tenantId, listingId, newMasterCodes(state, content));
    if (listed.length > 0)
      throw refuseListing('MASTER_CODE_LISTED', {
        code: listed.map((id) => codes.names.get(id) ?? id).join(', '),
      });
  }
  const channelChangedAt = await channelChanges(deps.db, tenantId, listingId);
  await changeListing(
    deps.store,
    listingId,
    {
      type: 'SaveListing',
      listingId,
      content,
      confirm: { unlinkMasterCodes: body.confirm_unlink_master_codes, skipSync: body.skip_sync },
      channelChangedAt,
    },
    {
      ...personContext(actor, 'save'),
      ...(body.revision !== undefined ? { expectedRevision: body.revision } : {}),
    },
  );
  const saved = await listingDetail(deps, tenantId, listingId);
  return [saved, state.status === 'none' ? 'listing.created' : 'listing.saved'];
}

const money = (price: string) => Number(price).toFixed(2);
const image = (value: { id: string } | { url: string }): ListingImage =>
  'id' in value ? { id: value.id.toLowerCase() } : { url: value.url };

/** The body in the domain's words; master codes typed from the account's records. */
export function contentOf(body: ParsedListingBody, types: Map<string, 'standard' | 'combo'>): ListingContent {
  return {
    platform: body.platform,
    storeIds: [...new Set(body.store_ids.map((id) => id.toLowerCase()))],
    productName: body.product_name.trim(),
    brand: body.brand.trim(),
    ...(body.brand_id ? { brandId: body.brand_id } : {}),
    ...(body.attributes.length > 0
      ? {
          attributes: body.attributes.map((attribute) => ({
            attributeId: attribute.attribute_id,
            values: attribute.values.map((value) => ({
              valueId: value.value_id,
              name: value.name.trim(),
              unit: value.unit,
            })),
          })),
        }
      : {}),
    model: body.model.trim(),
    categoryId: body.category_id.trim(),
    description: body.description,
    condition: body.condition,
    packageLength: body.package_length,
    packageWidth: body.package_width,
    packageHeight: body.package_height,
    packageWeight: body.package_weight,
    logistics: [...new Set(body.logistics)],
    images: body.images.map(image),
    variantGallery: body.variant_gallery.map(image),
    gtin: body.gtin,
    tiers: body.tiers.map((tier) => ({
      name: tier.name.trim(),
      options: tier.options.map((option) => option.trim()),
    })),
    skus: body.skus.map((sku) => {
      const id = sku.master_code_id?.toLowerCase();
      return {
        sellerSku: sku.seller_sku.trim(),
        price: money(sku.price),
        stock: sku.stock,
        tierIndex: sku.tier_index,
        masterCode: id ? { id, type: types.get(id) ?? 'standard' } : null,
        promo: sku.promo
          ? { price: money(sku.promo.price), start: sku.promo.start, end: sku.promo.end }
          : null,
      };
    }),
  };
}

/** The master codes the rows name, with their types and codes; one the account does not have is refused by its row. */
async function masterCodesOf(db: Kysely<Database>, tenantId: string, ids: readonly (string | null)[]) {
  const wanted = [...new Set(ids.flatMap((id) => (id ? [id.toLowerCase()] : [])))];
  const valid = wanted.filter(isUuid);
  const rows =
    valid.length === 0
      ? []
      : await withTenant(db, tenantId, (trx) =>
          trx
            .selectFrom('master_codes')
            .select(['id', 'code', 'type'])
            .where('tenant_id', '=', tenantId)
            .where('id', 'in', valid)
            .execute(),
        );
  const types = new Map(rows.map((row) => [row.id, row.type]));
  const missing = ids.flatMap((id, index) =>
    id && !types.has(id.toLowerCase())
      ? [
          {
            field: `skus/${index}/master_code_id`,
            error: refuseListing('MASTER_CODE_NOT_FOUND', { row: index + 1 }),
          },
        ]
      : [],
  );
  const refused = refusedTogether(missing);
  if (refused) throw refused;
  return { types, names: new Map(rows.map((row) => [row.id, row.code])) };
}

/** Every store must be the account's and of the listing's platform ("Action not allowed for the listed marketplaces"). */
async function checkStores(db: Kysely<Database>, tenantId: string, content: ListingContent) {
  const stores = await storesOf(db, tenantId, content.storeIds);
  for (const id of content.storeIds) {
    const store = stores.get(id);
    if (!store) throw refuseListing('STORE_NOT_FOUND');
    if (store.platform !== content.platform)
      throw refuseListing('PLATFORM_NOT_ALLOWED', { store: store.name });
  }
}

/** The master codes this save adds to the listing. */
function newMasterCodes(state: ListingState, content: ListingContent): string[] {
  const before = new Set(
    state.status === 'none'
      ? []
      : state.content.skus.flatMap((sku) => (sku.masterCode ? [sku.masterCode.id] : [])),
  );
  return [
    ...new Set(
      content.skus.flatMap((sku) =>
        sku.masterCode && !before.has(sku.masterCode.id) ? [sku.masterCode.id] : [],
      ),
    ),
  ];
}

/** Which of `ids` a store's SKU or another listing already sells. */
async function listedElsewhere(
  db: Kysely<Database>,
  tenantId: string,
  listingId: string,
  ids: readonly string[],
) {
  if (ids.length === 0) return [];
  return withTenant(db, tenantId, async (trx) => {
    const rows = await sql<{ id: string }>`
      SELECT master_code_id::text AS id FROM channel_skus
       WHERE tenant_id = ${tenantId} AND master_code_id = ANY(${[...ids]}::uuid[])
         AND (listing_id IS NULL OR listing_id <> ${listingId})
      UNION
      SELECT sku->'masterCode'->>'id' AS id
        FROM listings l, jsonb_array_elements(l.state->'content'->'skus') sku
       WHERE l.tenant_id = ${tenantId} AND l.id <> ${listingId} AND l.status <> 'deleted'
         AND sku->'masterCode'->>'id' = ANY(${[...ids]}::text[])`.execute(trx);
    return rows.rows.map((row) => row.id);
  });
}

/** When each store's channel copy of the listing last changed, as channel_skus holds it. */
async function channelChanges(db: Kysely<Database>, tenantId: string, listingId: string) {
  const rows = await withTenant(db, tenantId, (trx) =>
    trx
      .selectFrom('channel_skus')
      .select(['store_id', sql<Date>`max(updated_at)`.as('changed')])
      .where('tenant_id', '=', tenantId)
      .where('listing_id', '=', listingId)
      .groupBy('store_id')
      .execute(),
  );
  return Object.fromEntries(rows.map((row) => [row.store_id, new Date(row.changed).toISOString()]));
}
