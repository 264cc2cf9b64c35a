/**
 * The rules of a listing's content (spec §5 "Listings", §9): what the editor, the bulk edit, the bulk upload and the
 * listing's decider all check before anything is saved. Pure (the shared refusal and text limits only), so the
 * publish workflow's bundle may take it too. Each problem is a code of the closed set below and the parameters its
 * message needs; a save earns every problem of its content at once, each by the field it is about.
 */
import { type ErrorTable, type FieldRefusal, refusedTogether, refuser } from '../shared/errors';
import { TEXT_LIMITS } from '../shared/limits';

/**
 * The spec gives no figure for these (§9 "gallery and variant gallery maxima, maximum variants, title length: not
 * shown"): they are Shopee's own, the first channel, so a listing Kedai accepts is one Shopee accepts.
 */
export const LISTING_LIMITS = {
  /** Stores a listing goes to at once (§9). */
  stores: 20,
  /** Shopee's variant combinations (§9). */
  combinations: 50,
  tiers: 2,
  title: 120,
  description: 3000,
  gallery: 9,
  tierName: 14,
  optionName: 20,
  brand: 60,
  model: 60,
  gtin: 14,
  price: 99_999_999,
  stock: 999_999,
  dimension: 10_000,
  weight: 1_000,
  /** A category's attributes, values of one attribute, and one value's length (Shopee's multi-select maximum). */
  attributes: 100,
  attributeValues: 30,
  attributeValue: 200,
} as const;

/** A listing's GTIN when the item has none (§5). */
export const NO_GTIN = '00';

export const LISTING_ERRORS = [
  'NO_STORE',
  'TOO_MANY_STORES',
  'NO_IMAGE',
  'NO_CATEGORY',
  'NO_LOGISTICS',
  'DUPLICATE_IMAGE',
  'TOO_MANY_IMAGES',
  'VARIANT_GALLERY_PARTIAL',
  'TOO_MANY_COMBINATIONS',
  'TITLE_REQUIRED',
  'TITLE_TOO_LONG',
  'TOO_MANY_TIERS',
  'TIER_INVALID',
  'SKU_ROWS_MISMATCH',
  'SELLER_SKU_REPEATED',
  'SELLER_SKU_REQUIRED',
  'PRICE_INVALID',
  'PROMO_INVALID',
  'TEXT_TOO_LONG',
  /** A save that changes a listing's tiers while SKU rows are linked to master codes: confirm to unlink them. */
  'TIERS_UNLINK_MASTER_CODES',
  /** A published listing whose channel copy changed after Kedai last synced it: sync first, or skip. */
  'SYNC_BEFORE_EDIT',
  'MASTER_CODE_LISTED',
  'MASTER_CODE_NOT_FOUND',
  'STORE_NOT_FOUND',
  'PLATFORM_NOT_ALLOWED',
  'IMAGE_INVALID',
  'IMAGE_TOO_LARGE',
  'IMAGE_NOT_FOUND',
  'LISTING_NOT_FOUND',
  'LISTING_DELETED',
  'PUBLISH_IN_PROGRESS',
  'NOT_PUBLISHED',
  'ALREADY_PUBLISHED',
  'CHANGED_MEANWHILE',
  /** The category is not a last-level one of the store's tree (only those take items). */
  'CATEGORY_NOT_LEAF',
  /** A mandatory attribute of the category without a value. */
  'ATTRIBUTE_REQUIRED',
  /** The category needs a brand of its list. */
  'BRAND_REQUIRED',
  /** The store's categories could not be read from the marketplace just now. */
  'CATEGORIES_UNAVAILABLE',
] as const;
export type ListingErrorCode = (typeof LISTING_ERRORS)[number];

/** The result codes of the listings (issue 15 allocates 700–729). */
export const ListingCode = {
  noStore: 700,
  tooManyStores: 701,
  noImage: 702,
  noCategory: 703,
  noLogistics: 704,
  duplicateImage: 705,
  variantGalleryPartial: 706,
  tooManyCombinations: 707,
  title: 708,
  tiers: 709,
  skuRows: 710,
  sellerSku: 711,
  price: 712,
  text: 713,
  tiersUnlink: 714,
  syncBeforeEdit: 715,
  masterCodeListed: 716,
  masterCodeNotFound: 717,
  storeNotFound: 718,
  platform: 719,
  image: 720,
  imageNotFound: 721,
  notFound: 722,
  wrongState: 723,
  publishInProgress: 724,
  changedMeanwhile: 725,
  /** A bulk upload file that cannot be read (a BOM, not UTF-8, not CSV or XLSX…). */
  upload: 726,
  idempotencyKey: 727,
  /** A bulk upload row whose cells cannot make a listing (no handle, a column that differs from its first row). */
  uploadRows: 728,
  // The listings range (700–729) is full: the listings' further codes go on at 790–799.
  /** A category that is not a last-level one of the store's channel, or a mandatory attribute or brand missing. */
  category: 790,
  /** The store's channel could not be read for its categories. */
  categoriesUnavailable: 791,
} as const;

export const listingErrors: ErrorTable<ListingErrorCode> = {
  NO_STORE: { status: 400, code: ListingCode.noStore, key: 'listing.no_store' },
  TOO_MANY_STORES: { status: 400, code: ListingCode.tooManyStores, key: 'listing.too_many_stores' },
  NO_IMAGE: { status: 400, code: ListingCode.noImage, key: 'listing.no_image' },
  NO_CATEGORY: { status: 400, code: ListingCode.noCategory, key: 'listing.no_category' },
  NO_LOGISTICS: { status: 400, code: ListingCode.noLogistics, key: 'listing.no_logistics' },
  DUPLICATE_IMAGE: { status: 400, code: ListingCode.duplicateImage, key: 'listing.duplicate_image' },
  TOO_MANY_IMAGES: { status: 400, code: ListingCode.duplicateImage, key: 'listing.too_many_images' },
  VARIANT_GALLERY_PARTIAL: {
    status: 400,
    code: ListingCode.variantGalleryPartial,
    key: 'listing.variant_gallery_partial',
  },
  TOO_MANY_COMBINATIONS: {
    status: 400,
    code: ListingCode.tooManyCombinations,
    key: 'listing.too_many_combinations',
  },
  TITLE_REQUIRED: { status: 400, code: ListingCode.title, key: 'listing.title_required' },
  TITLE_TOO_LONG: { status: 400, code: ListingCode.title, key: 'listing.title_too_long' },
  TOO_MANY_TIERS: { status: 400, code: ListingCode.tiers, key: 'listing.too_many_tiers' },
  TIER_INVALID: { status: 400, code: ListingCode.tiers, key: 'listing.tier_invalid' },
  SKU_ROWS_MISMATCH: { status: 400, code: ListingCode.skuRows, key: 'listing.sku_rows_mismatch' },
  SELLER_SKU_REPEATED: { status: 400, code: ListingCode.sellerSku, key: 'listing.seller_sku_repeated' },
  SELLER_SKU_REQUIRED: { status: 400, code: ListingCode.sellerSku, key: 'listing.seller_sku_required' },
  PRICE_INVALID: { status: 400, code: ListingCode.price, key: 'listing.price_invalid' },
  PROMO_INVALID: { status: 400, code: ListingCode.price, key: 'listing.promo_invalid' },
  TEXT_TOO_LONG: { status: 400, code: ListingCode.text, key: 'listing.text_too_long' },
  TIERS_UNLINK_MASTER_CODES: {
    status: 409,
    code: ListingCode.tiersUnlink,
    key: 'listing.tiers_unlink_master_codes',
  },
  SYNC_BEFORE_EDIT: { status: 409, code: ListingCode.syncBeforeEdit, key: 'listing.sync_before_edit' },
  MASTER_CODE_LISTED: { status: 409, code: ListingCode.masterCodeListed, key: 'listing.master_code_listed' },
  MASTER_CODE_NOT_FOUND: {
    status: 400,
    code: ListingCode.masterCodeNotFound,
    key: 'listing.master_code_not_found',
  },
  STORE_NOT_FOUND: { status: 400, code: ListingCode.storeNotFound, key: 'listing.store_not_found' },
  PLATFORM_NOT_ALLOWED: { status: 400, code: ListingCode.platform, key: 'listing.platform_not_allowed' },
  IMAGE_INVALID: { status: 415, code: ListingCode.image, key: 'listing.image_upload_failed' },
  IMAGE_TOO_LARGE: { status: 413, code: ListingCode.image, key: 'listing.image_too_large' },
  IMAGE_NOT_FOUND: { status: 400, code: ListingCode.imageNotFound, key: 'listing.image_not_found' },
  LISTING_NOT_FOUND: { status: 404, code: ListingCode.notFound, key: 'listing.not_found' },
  LISTING_DELETED: { status: 409, code: ListingCode.wrongState, key: 'listing.deleted' },
  PUBLISH_IN_PROGRESS: {
    status: 409,
    code: ListingCode.publishInProgress,
    key: 'listing.publish_in_progress',
  },
  NOT_PUBLISHED: { status: 409, code: ListingCode.wrongState, key: 'listing.not_published' },
  ALREADY_PUBLISHED: { status: 409, code: ListingCode.wrongState, key: 'listing.already_published' },
  CHANGED_MEANWHILE: { status: 409, code: ListingCode.changedMeanwhile, key: 'listing.changed_meanwhile' },
  CATEGORY_NOT_LEAF: { status: 400, code: ListingCode.category, key: 'listing.category_not_leaf' },
  ATTRIBUTE_REQUIRED: { status: 400, code: ListingCode.category, key: 'listing.attribute_required' },
  BRAND_REQUIRED: { status: 400, code: ListingCode.category, key: 'listing.brand_required' },
  CATEGORIES_UNAVAILABLE: {
    status: 409,
    code: ListingCode.categoriesUnavailable,
    key: 'listing.categories_unavailable',
  },
};

export const refuseListing = refuser(listingErrors);

// ---- content ----

/** An image: one uploaded to the app's image store (by id) or one elsewhere (by https URL). */
export type ListingImage = { id: string } | { url: string };

export interface Tier {
  name: string;
  options: string[];
}

/** The master code a SKU row sells: its stock is the master code's (a combo's, through its components). */
export interface MasterCodeLink {
  id: string;
  type: 'standard' | 'combo';
}

export interface SkuRow {
  sellerSku: string;
  /** A decimal in the store's currency ("12.90"). */
  price: string;
  stock: number;
  /** One index per tier into its options ([] without tiers). */
  tierIndex: number[];
  masterCode: MasterCodeLink | null;
  /** Promo fields of spec §3's SKU row; null: no promotion. */
  promo: { price: string; start: string; end: string } | null;
}

/**
 * A value of a category attribute: one of the attribute's own (its channel id) or the seller's own text (id ''),
 * with its unit where the attribute has units ('' otherwise).
 */
export interface AttributeValue {
  valueId: string;
  name: string;
  unit: string;
}

export interface ListingAttribute {
  attributeId: string;
  values: AttributeValue[];
}

export interface ListingContent {
  platform: string;
  storeIds: string[];
  productName: string;
  brand: string;
  /** The channel's id of the brand picked from the category's list; absent: the brand by its name only. */
  brandId?: string;
  /** The category's attributes; absent in a listing saved before categories were picked from the channel. */
  attributes?: ListingAttribute[];
  model: string;
  categoryId: string;
  description: string;
  condition: 'new' | 'used';
  /** Centimetres and kilograms; 0 when not given (§9). */
  packageLength: number;
  packageWidth: number;
  packageHeight: number;
  packageWeight: number;
  logistics: string[];
  images: ListingImage[];
  /** One image per option of the first tier, or none (§5). */
  variantGallery: ListingImage[];
  gtin: string;
  tiers: Tier[];
  skus: SkuRow[];
}

/** The platforms a listing may be published to today: those with a channel adapter. */
export const LISTING_PLATFORMS = ['shopee'] as const;

const imageKey = (image: ListingImage) =>
  'id' in image ? `id:${image.id.toLowerCase()}` : `url:${image.url}`;

export const combinationsOf = (tiers: readonly Tier[]) =>
  tiers.reduce((count, tier) => count * Math.max(tier.options.length, 1), 1);

/** What each variant is called ("Red / L"), from its tier options. */
export const variantInfoOf = (tiers: readonly Tier[], tierIndex: readonly number[]) =>
  tiers.map((tier, index) => ({ name: tier.name, value: tier.options[tierIndex[index] ?? -1] ?? '' }));

const sameTiers = (a: readonly Tier[], b: readonly Tier[]) => JSON.stringify(a) === JSON.stringify(b);
export const tiersChanged = (before: readonly Tier[], after: readonly Tier[]) => !sameTiers(before, after);

const PRICE = /^\d{1,8}(\.\d{1,2})?$/;
const validPrice = (price: string) =>
  PRICE.test(price) && Number(price) > 0 && Number(price) <= LISTING_LIMITS.price;

function field(
  name: string,
  code: ListingErrorCode,
  params: Record<string, string | number> = {},
): FieldRefusal {
  return { field: name, error: refuseListing(code, params) };
}

/** Every problem of a listing's content, each by its field (none: the content may be saved). */
export function contentProblems(content: ListingContent): FieldRefusal[] {
  const found: FieldRefusal[] = [];
  const max = LISTING_LIMITS;
  if (content.storeIds.length === 0) found.push(field('store_ids', 'NO_STORE'));
  if (content.storeIds.length > max.stores)
    found.push(field('store_ids', 'TOO_MANY_STORES', { max: max.stores }));
  const name = content.productName.trim();
  if (name.length === 0) found.push(field('product_name', 'TITLE_REQUIRED'));
  if (name.length > max.title) found.push(field('product_name', 'TITLE_TOO_LONG', { max: max.title }));
  for (const [key, limit] of [
    ['brand', max.brand],
    ['model', max.model],
    ['description', max.description],
  ] as const) {
    if (content[key].length > limit) found.push(field(key, 'TEXT_TOO_LONG', { field: key, max: limit }));
  }
  if (!content.categoryId.trim()) found.push(field('category_id', 'NO_CATEGORY'));
  if (content.logistics.length === 0) found.push(field('logistics', 'NO_LOGISTICS'));
  if (content.images.length === 0) found.push(field('images', 'NO_IMAGE'));
  if (content.images.length > max.gallery)
    found.push(field('images', 'TOO_MANY_IMAGES', { max: max.gallery }));
  const keys = content.images.map(imageKey);
  if (new Set(keys).size !== keys.length) found.push(field('images', 'DUPLICATE_IMAGE'));
  found.push(...tierProblems(content));
  return found;
}

function tierProblems(content: ListingContent): FieldRefusal[] {
  const found: FieldRefusal[] = [];
  const max = LISTING_LIMITS;
  const { tiers, skus } = content;
  if (tiers.length > max.tiers) return [field('tiers', 'TOO_MANY_TIERS', { max: max.tiers })];
  for (const tier of tiers) {
    const options = tier.options.map((option) => option.trim());
    const bad =
      !tier.name.trim() ||
      tier.name.length > max.tierName ||
      options.length === 0 ||
      options.some((option) => !option || option.length > max.optionName) ||
      new Set(options).size !== options.length;
    if (bad) {
      found.push(field('tiers', 'TIER_INVALID', { length: max.tierName, max: max.optionName }));
      return found;
    }
  }
  const combinations = combinationsOf(tiers);
  if (tiers.length > 0 && combinations > max.combinations) {
    found.push(field('tiers', 'TOO_MANY_COMBINATIONS', { max: max.combinations, count: combinations }));
    return found;
  }
  const first = tiers[0];
  const gallery = content.variantGallery.length;
  if (gallery > 0 && (!first || gallery !== first.options.length))
    found.push(field('variant_gallery', 'VARIANT_GALLERY_PARTIAL'));
  // Every combination once, nothing else: the SKU rows are the tiers' cartesian product (one row without tiers).
  const seen = new Set<string>();
  const matches =
    skus.length === combinations &&
    skus.every((sku) => {
      const key = sku.tierIndex.join('.');
      const fits =
        sku.tierIndex.length === tiers.length &&
        sku.tierIndex.every(
          (index, tier) => Number.isInteger(index) && index >= 0 && index < tiers[tier]!.options.length,
        );
      if (!fits || seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  if (!matches) found.push(field('skus', 'SKU_ROWS_MISMATCH', { count: combinations }));
  const skuKeys = new Set<string>();
  skus.forEach((sku, index) => {
    const row = index + 1;
    const seller = sku.sellerSku.trim();
    if (!seller) found.push(field(`skus/${index}/seller_sku`, 'SELLER_SKU_REQUIRED', { row }));
    else if (seller.length > TEXT_LIMITS.code)
      found.push(
        field(`skus/${index}/seller_sku`, 'TEXT_TOO_LONG', { field: 'seller_sku', max: TEXT_LIMITS.code }),
      );
    else if (skuKeys.has(seller.toLowerCase()))
      found.push(field(`skus/${index}/seller_sku`, 'SELLER_SKU_REPEATED', { sku: seller }));
    skuKeys.add(seller.toLowerCase());
    if (!validPrice(sku.price) || !Number.isInteger(sku.stock) || sku.stock < 0 || sku.stock > max.stock)
      found.push(field(`skus/${index}/price`, 'PRICE_INVALID', { row, max: max.stock }));
    if (sku.promo) {
      const { price, start, end } = sku.promo;
      const okPromo =
        validPrice(price) &&
        Number(price) < Number(sku.price) &&
        Date.parse(end) - Date.parse(start) >= 60 * 60 * 1000;
      if (!okPromo) found.push(field(`skus/${index}/promo`, 'PROMO_INVALID', { row }));
    }
  });
  return found;
}

/** Throws every problem of the content as one refusal. */
export function checkContent(content: ListingContent): void {
  const refused = refusedTogether(contentProblems(content));
  if (refused) throw refused;
}

// ---- the channel's category ----

/** What a store's channel says of the listing's category: a leaf or not, what it requires. */
export interface CategoryRules {
  storeName: string;
  leaf: boolean;
  mandatory: { attributeId: string; name: string }[];
  brandMandatory: boolean;
}

/**
 * The listing against a store's category tree (the channel's, read by the save): a last-level category, a value for
 * each mandatory attribute, a brand where the category needs one ("No Brand", id 0, is none).
 */
export function categoryProblems(content: ListingContent, rules: CategoryRules): FieldRefusal[] {
  if (!content.categoryId.trim()) return [];
  if (!rules.leaf) return [field('category_id', 'CATEGORY_NOT_LEAF', { store: rules.storeName })];
  const given = new Map((content.attributes ?? []).map((attribute) => [attribute.attributeId, attribute]));
  const found = rules.mandatory
    .filter(
      (attribute) =>
        !(given.get(attribute.attributeId)?.values ?? []).some((value) => value.valueId || value.name.trim()),
    )
    .map((attribute) =>
      field(`attributes/${attribute.attributeId}`, 'ATTRIBUTE_REQUIRED', { attribute: attribute.name }),
    );
  if (rules.brandMandatory && (!content.brandId || content.brandId === '0'))
    found.push(field('brand', 'BRAND_REQUIRED'));
  return found;
}
