import { LISTING_LIMITS, ListingCode, NO_GTIN } from '@domain/listings/rules';
import { z } from 'zod';
import { ErrorAnswer } from './common';
import { DateFilter, gridQuery, TextFilter } from './grid';
import { rule } from './rules';

/**
 * The requests and answers of the listing routes (api/listings/; spec §7 listing calls): the listing list, one
 * listing, its save (`POST /api/listing/{groupId}`), publish, sync and unlist, the SKU existence check, images, and the
 * bulk edit. Field names are the spec's (§3). The contract checks shapes only, generously: the listing's rules (§5,
 * with their messages of §8) are the domain's, so a 21st store or a 51st combination answers with its own message.
 */

const textInvalid = (field: string) => rule(ListingCode.text, 'listing.text_invalid', { field });
const text = (field: string, max: number) =>
  z.string({ error: textInvalid(field) }).max(max * 4, textInvalid(field));
const priceInvalid = rule(ListingCode.price, 'listing.price_format');
const Price = z
  .string({ error: priceInvalid })
  .trim()
  .regex(/^\d{1,8}(\.\d{1,2})?$/, priceInvalid);
const numberInvalid = (field: string) => rule(ListingCode.text, 'listing.number_invalid', { field });
const measure = (field: string, max: number) =>
  z
    .number({ error: numberInvalid(field) })
    .min(0, numberInvalid(field))
    .max(max, numberInvalid(field))
    .default(0);
const imageInvalid = rule(ListingCode.image, 'listing.image_reference_invalid');
export const ListingImage = z.union(
  [
    z.strictObject({ id: z.string().max(64) }),
    z.strictObject({
      url: z
        .string()
        .max(2048)
        .regex(/^https:\/\/[^\s]+$/i, imageInvalid),
    }),
  ],
  { error: imageInvalid },
);
export type ListingImage = z.infer<typeof ListingImage>;
/** An image as a listing holds it: one imported from a channel keeps the channel's address, whatever its scheme. */
const ListingImageAnswer = z.union([z.object({ id: z.string() }), z.object({ url: z.string() })]);

const Instant = z
  .string()
  .max(40)
  .refine((value) => !Number.isNaN(Date.parse(value)), rule(ListingCode.price, 'listing.promo_invalid_date'));

export const SkuRowBody = z.strictObject({
  seller_sku: text('seller_sku', 64),
  price: Price,
  stock: z
    .number({ error: numberInvalid('stock') })
    .int(numberInvalid('stock'))
    .min(0, numberInvalid('stock'))
    .max(LISTING_LIMITS.stock, numberInvalid('stock')),
  /** One index per tier into its options ([] for a listing without variants). */
  tier_index: z
    .array(z.number().int().min(0).max(LISTING_LIMITS.combinations))
    .max(LISTING_LIMITS.tiers + 1)
    .default([]),
  /** The master code the row sells (standard or combo); null: none. */
  master_code_id: z.string().max(64).nullish(),
  promo: z.strictObject({ price: Price, start: Instant, end: Instant }).nullish(),
});
export type SkuRowBody = z.infer<typeof SkuRowBody>;

export const TierBody = z.strictObject({
  name: text('tier', LISTING_LIMITS.tierName),
  options: z.array(text('option', LISTING_LIMITS.optionName)).max(LISTING_LIMITS.combinations * 2),
});

export const ListingAttributeBody = z.strictObject({
  attribute_id: z.string().max(25).regex(/^\d+$/, textInvalid('attribute_id')),
  values: z
    .array(
      z.strictObject({
        value_id: z.string().max(25).regex(/^\d*$/, textInvalid('value_id')).default(''),
        name: text('attribute', LISTING_LIMITS.attributeValue).default(''),
        unit: text('unit', 20).default(''),
      }),
    )
    .max(LISTING_LIMITS.attributeValues),
});

/** The editor's listing: what `POST /api/listing/{groupId}` saves (a groupId nobody has yet creates the listing). */
export const ListingBody = z.strictObject({
  platform: z
    .enum(['shopee'], { error: rule(ListingCode.platform, 'listing.platform_not_allowed') })
    .default('shopee'),
  /** The stores the listing goes to (api_user_id in the spec): 1 to 20. */
  store_ids: z.array(z.string().max(64)).max(200).default([]),
  product_name: text('product_name', LISTING_LIMITS.title),
  brand: text('brand', LISTING_LIMITS.brand).default(''),
  /** The brand's id in the category's list (GET /api/listings/category); absent: the brand by name only. */
  brand_id: z.string().max(25).regex(/^\d*$/, textInvalid('brand_id')).optional(),
  model: text('model', LISTING_LIMITS.model).default(''),
  category_id: text('category_id', 25).default(''),
  /** The category's attributes: each by id, with one of its values by id or one's own (value_id ''). */
  attributes: z.array(ListingAttributeBody).max(LISTING_LIMITS.attributes).default([]),
  description: text('description', LISTING_LIMITS.description).default(''),
  condition: z.enum(['new', 'used']).default('new'),
  package_length: measure('package_length', LISTING_LIMITS.dimension),
  package_width: measure('package_width', LISTING_LIMITS.dimension),
  package_height: measure('package_height', LISTING_LIMITS.dimension),
  package_weight: measure('package_weight', LISTING_LIMITS.weight),
  logistics: z.array(z.string().max(64)).max(50).default([]),
  images: z.array(ListingImage).max(100).default([]),
  variant_gallery: z.array(ListingImage).max(200).default([]),
  /** '00' for an item without a GTIN (§5). */
  gtin: z
    .string()
    .trim()
    .regex(/^\d{0,14}$/, rule(ListingCode.text, 'listing.gtin_invalid'))
    .transform((gtin) => gtin || NO_GTIN)
    .default(NO_GTIN),
  tiers: z.array(TierBody).max(10).default([]),
  skus: z.array(SkuRowBody).max(1000),
  /** Yes to "Changing Shopee variant tiers removes the master code link". */
  confirm_unlink_master_codes: z.boolean().default(false),
  /** Yes to "Sync before edit, or skip to edit": skip. */
  skip_sync: z.boolean().default(false),
  /** Yes to adding a master code already listed elsewhere. */
  confirm_listed_master_codes: z.boolean().default(false),
  /** The listing's revision the person edited: a listing changed since refuses the save (409, code 725). */
  revision: z.number().int().min(-1).optional(),
});
export type ListingBody = z.input<typeof ListingBody>;
export type ParsedListingBody = z.infer<typeof ListingBody>;

export const GroupParams = z.strictObject({ groupId: z.string().max(100) });

export const PUBLICATION_ACTIONS = ['publish', 'sync', 'unlist'] as const;

export const StorePublication = z.object({
  store_id: z.string(),
  store_name: z.string().nullable(),
  item_id: z.string().nullable(),
  listed: z.boolean(),
  /** The run in progress: publish in progress, syncing or unlisting; null: none. */
  running: z.enum(PUBLICATION_ACTIONS).nullable(),
  step: z.string().nullable(),
  synced_at: z.string().nullable(),
  error: z.string().nullable(),
  /** An item a failed publish left on the channel: marked for the seller to remove or sync. */
  item_left: z.string().nullable(),
  /** What the listing's state allows on this store now. */
  actions: z.array(z.enum(PUBLICATION_ACTIONS)),
});
export type StorePublication = z.infer<typeof StorePublication>;

const SkuRowAnswer = z.object({
  seller_sku: z.string(),
  price: z.string(),
  stock: z.number().int(),
  tier_index: z.array(z.number().int()),
  variant_info: z.array(z.object({ name: z.string(), value: z.string() })),
  master_code: z
    .object({ id: z.string(), code: z.string().nullable(), type: z.enum(['standard', 'combo']) })
    .nullable(),
  promo: z.object({ price: z.string(), start: z.string(), end: z.string() }).nullable(),
  is_promo: z.boolean(),
});

export const ListingDetail = z.object({
  id: z.string(),
  revision: z.number().int(),
  status: z.enum(['draft', 'published', 'deleted']),
  platform: z.string(),
  store_ids: z.array(z.string()),
  product_name: z.string(),
  brand: z.string(),
  brand_id: z.string().nullable(),
  model: z.string(),
  category_id: z.string(),
  attributes: z.array(
    z.object({
      attribute_id: z.string(),
      values: z.array(z.object({ value_id: z.string(), name: z.string(), unit: z.string() })),
    }),
  ),
  description: z.string(),
  condition: z.enum(['new', 'used']),
  package_length: z.number(),
  package_width: z.number(),
  package_height: z.number(),
  package_weight: z.number(),
  logistics: z.array(z.string()),
  images: z.array(ListingImageAnswer),
  variant_gallery: z.array(ListingImageAnswer),
  gtin: z.string(),
  tiers: z.array(z.object({ name: z.string(), options: z.array(z.string()) })),
  skus: z.array(SkuRowAnswer),
  stores: z.array(StorePublication),
});
export type ListingDetail = z.infer<typeof ListingDetail>;

// ---- list ----

/** The list's status filter (spec §4), each a rule over the listing and its stores (projections/listings.queries.ts). */
export const LISTING_STATUS_FILTER = [
  'all',
  'draft',
  'active',
  'inactive',
  'deleted',
  'banned',
  'new',
  'sold out',
  'used',
  'pending',
  'error',
] as const;
export type ListingStatusFilter = (typeof LISTING_STATUS_FILTER)[number];

export const LISTING_SORT_COLUMNS = [
  'product_name',
  'parent_sku',
  'total_stock',
  'min_price',
  'status',
  'updated_at',
  'created_at',
] as const;

export const ListingListQuery = gridQuery(LISTING_SORT_COLUMNS, {
  product_name: TextFilter,
  parent_sku: TextFilter,
  brand: TextFilter,
  updated_at: DateFilter,
}).extend({
  status: z.enum(LISTING_STATUS_FILTER).default('all'),
});
export type ListingListQuery = z.infer<typeof ListingListQuery>;

export const ListingListRow = z.object({
  id: z.string(),
  product_name: z.string(),
  brand: z.string(),
  parent_sku: z.string(),
  image: z.string().nullable(),
  platform: z.string(),
  store_count: z.number().int(),
  sku_count: z.number().int(),
  total_stock: z.number().int(),
  min_price: z.string(),
  max_price: z.string(),
  status: z.enum(['draft', 'published', 'deleted']),
  listed: z.boolean(),
  running: z.boolean(),
  failed: z.boolean(),
  revision: z.number().int(),
  /** Each SKU row: what the bulk edit changes. */
  skus: z.array(
    z.object({ seller_sku: z.string(), variant: z.string(), price: z.string(), stock: z.number().int() }),
  ),
  stores: z.array(
    StorePublication.pick({
      store_id: true,
      store_name: true,
      running: true,
      step: true,
      error: true,
      listed: true,
      item_id: true,
    }),
  ),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ListingListRow = z.infer<typeof ListingListRow>;

// ---- actions ----

/** Publish, sync or unlist: on the stores named (default: every store the action applies to). */
export const PublicationBody = z.strictObject({ store_ids: z.array(z.string().max(64)).max(200).optional() });

export const ExistSkuBody = z.strictObject({
  skus: z.array(z.string().max(256)).min(1).max(1000),
  /** The listing being edited: its own SKU rows are not "in another variant". */
  group_id: z.string().max(100).optional(),
  /** A store: only its SKUs count as "in the store"; without it, every store's. */
  api_user_id: z.string().max(64).optional(),
});

export const ExistSkuAnswer = z.object({
  /** SKUs a store already sells (downloaded or published). */
  exist_in_store: z.array(z.string()),
  /** SKUs another listing's variants already use. */
  exist_in_variant: z.array(z.string()),
  /** The request names a SKU twice. */
  have_duplicate: z.boolean(),
});
export type ExistSkuAnswer = z.infer<typeof ExistSkuAnswer>;

/** The bulk edit: several listings' names, prices and stock; one save per listing. */
export const BulkEditBody = z.strictObject({
  listings: z
    .array(
      z.strictObject({
        id: z.string().max(100),
        revision: z.number().int().min(-1),
        product_name: text('product_name', LISTING_LIMITS.title).optional(),
        skus: z
          .array(
            z.strictObject({
              seller_sku: z.string().max(256),
              price: Price.optional(),
              stock: SkuRowBody.shape.stock.optional(),
            }),
          )
          .max(LISTING_LIMITS.combinations)
          .default([]),
      }),
    )
    .min(1)
    .max(200),
});
export type BulkEditBody = z.input<typeof BulkEditBody>;

export const BulkEditAnswer = z.object({
  saved: z.number().int(),
  failed: z.array(z.object({ id: z.string(), code: z.number().int(), msg: z.string() })),
});

/** Import to listings: a draft from an item a store sells, with the logistics the listing is to use. */
export const ImportListingBody = z.strictObject({
  store_id: z.string().max(64),
  item_id: z.string().max(40),
  logistics: z.array(z.string().max(64)).max(50).default([]),
});

export const StoreOption = z.object({
  id: z.string(),
  name: z.string(),
  platform: z.string(),
  status: z.string(),
});
export const MasterCodeOption = z.object({
  id: z.string(),
  code: z.string(),
  name: z.string(),
  type: z.enum(['standard', 'combo']),
  /** Already linked to a channel SKU or another listing: adding it asks for confirmation (§5). */
  listed: z.boolean(),
});

// ---- bulk upload and copy ----

/** A row of the bulk upload file refused, with the result code and message of its problem. */
export const ListingUploadRow = z.object({
  row: z.number().int(),
  column: z.string().nullable(),
  code: z.number().int(),
  message: z.string(),
});
export type ListingUploadRow = z.infer<typeof ListingUploadRow>;

/** The bulk upload's answer: the drafts saved (one per handle), those already saved by the same file, the rows refused. */
export const ListingUploadResult = z.object({
  upload_id: z.string(),
  saved: z.number().int(),
  existing: z.number().int(),
  listings: z.array(
    z.object({
      handle: z.string(),
      id: z.string(),
      /** The file's line of the listing's first row. */
      row: z.number().int(),
      skus: z.number().int(),
      created: z.boolean(),
    }),
  ),
  refused: z.array(ListingUploadRow),
});
export type ListingUploadResult = z.infer<typeof ListingUploadResult>;

/** The 400 of a file none of whose listings could be saved: every refused row with its code. */
export const ListingUploadRefusal = ErrorAnswer.extend({ rows: z.array(ListingUploadRow).optional() });

export const ListingTemplateQuery = z.strictObject({ format: z.enum(['csv', 'xlsx']).default('csv') });

/** Copy listings (`/products/copy-listings`): each listing becomes a new draft, for other stores when named. */
export const CopyListingsBody = z.strictObject({
  listing_ids: z
    .array(z.string().max(100))
    .min(1, rule(ListingCode.notFound, 'listing.none_selected'))
    .max(200),
  /** The stores of the copies (1 to 20); none: each copy keeps its listing's stores. */
  store_ids: z.array(z.string().max(64)).max(200).optional(),
});
export type CopyListingsBody = z.input<typeof CopyListingsBody>;

export const CopyListingsAnswer = z.object({
  copied: z.array(z.object({ source_id: z.string(), id: z.string() })),
  failed: z.array(z.object({ id: z.string(), code: z.number().int(), msg: z.string() })),
});
export type CopyListingsAnswer = z.infer<typeof CopyListingsAnswer>;

// ---- categories ----

export const CategoryQuery = z.strictObject({ store_id: z.string().max(64) });
export const CategoryChoiceQuery = z.strictObject({
  store_id: z.string().max(64),
  category_id: z.string().max(25),
});

/** A category of the store's channel; only a leaf (`leaf`) takes a listing. */
export const CategoryOption = z.object({
  id: z.string(),
  parent_id: z.string().nullable(),
  name: z.string(),
  leaf: z.boolean(),
});
export type CategoryOption = z.infer<typeof CategoryOption>;

export const CategoryAttribute = z.object({
  id: z.string(),
  name: z.string(),
  mandatory: z.boolean(),
  /** select / combo (one of the values or one's own) / text / multi_select / multi_combo. */
  input: z.enum(['select', 'combo', 'text', 'multi_select', 'multi_combo']),
  values: z.array(z.object({ id: z.string(), name: z.string() })),
  units: z.array(z.string()),
  max_values: z.number().int().nullable(),
});
export type CategoryAttribute = z.infer<typeof CategoryAttribute>;

/** A leaf category with its attributes and brands, for the editor's fields. */
export const CategoryChoice = z.object({
  category: CategoryOption,
  attributes: z.array(CategoryAttribute),
  brand_mandatory: z.boolean(),
  brands: z.array(z.object({ id: z.string(), name: z.string() })),
});
export type CategoryChoice = z.infer<typeof CategoryChoice>;
