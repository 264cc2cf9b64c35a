import {
  InventoryCode,
  MASTER_CODE_STATUSES,
  MASTER_CODE_TYPES,
  QUANTITY_MAX,
} from '@domain/inventory/codes';
import { einvoiceClassifications } from '@domain/lookups';
import { TEXT_LIMITS } from '@domain/shared/limits';
import { z } from 'zod';
import { DateFilter, gridQuery, setFilter, TextFilter } from './grid';
import {
  decimal,
  nonEmpty,
  nothingToChange,
  referenceId,
  requiredText,
  stamps,
  text,
  wholeNumber,
} from './inventory-fields';
import { rule } from './rules';

export { MASTER_CODE_STATUSES, MASTER_CODE_TYPES };

/** A master code (spec §3): the seller's own item, the unit stock is kept in; a combo is made of others. */

/** Price list currencies (spec §9). */
export const PRICE_CURRENCIES = ['MYR', 'SGD', 'HKD', 'TWD', 'PHP'] as const;

const CLASSIFICATION_CODES: ReadonlySet<string> = new Set(einvoiceClassifications().map((row) => row.code));

// ---- request shapes ----

/** Printable ASCII only: the code is printed as a Code 128 barcode. */
export const MasterCodeCode = requiredText(
  TEXT_LIMITS.code,
  InventoryCode.codeRequired,
  'inventory.master_code.code_required',
).regex(/^[\x20-\x7e]+$/, rule(InventoryCode.codeRequired, 'inventory.master_code.code_invalid'));

const money = (key: string, scale = 2, integerDigits = 12, positive = false) =>
  decimal({ scale, integerDigits, positive, message: rule(InventoryCode.amountInvalid, key) });

const classificationInvalid = rule(
  InventoryCode.classificationInvalid,
  'inventory.master_code.classification_invalid',
);
const imageUrlInvalid = rule(InventoryCode.imageUrlInvalid, 'inventory.master_code.image_url_invalid');
const statusInvalid = rule(InventoryCode.statusInvalid, 'inventory.master_code.status_invalid');
const currencyRepeated = rule(InventoryCode.currencyRepeated, 'inventory.master_code.currency_repeated');

const isWebAddress = (value: string) => {
  if (!URL.canParse(value)) return false;
  const protocol = new URL(value).protocol;
  return protocol === 'https:' || protocol === 'http:';
};

export const PriceEntry = z.strictObject({
  currency: z.enum(PRICE_CURRENCIES, {
    error: rule(InventoryCode.currencyInvalid, 'inventory.master_code.currency_invalid'),
  }),
  unit_price: money('inventory.master_code.list_price_invalid', 2, 12, true),
});

/** The whole price list: one entry per currency at most. */
export const PriceList = z
  .array(PriceEntry, {
    error: rule(InventoryCode.currencyInvalid, 'inventory.master_code.prices_invalid'),
  })
  .max(PRICE_CURRENCIES.length, currencyRepeated)
  .superRefine((entries, ctx) => {
    const seen = new Set<string>();
    entries.forEach((entry, index) => {
      if (seen.has(entry.currency)) {
        ctx.addIssue({ code: 'custom', path: [index, 'currency'], message: currencyRepeated });
      }
      seen.add(entry.currency);
    });
  });

/** The fields a master code has besides its code, type and initial quantity; none has a default here. */
const fields = {
  name: requiredText(TEXT_LIMITS.name, InventoryCode.nameRequired, 'inventory.master_code.name_required'),
  category_id: referenceId.nullable(),
  image_url: z
    .string({ error: imageUrlInvalid })
    .trim()
    .max(TEXT_LIMITS.url, imageUrlInvalid)
    .refine(isWebAddress, imageUrlInvalid)
    .nullable(),
  /** An image uploaded to the app (POST /api/inventory/master-code/images); a master code has it or a URL. */
  image_id: referenceId.nullable(),
  unit_price: money('inventory.master_code.unit_price_invalid'),
  cost: money('inventory.master_code.cost_invalid'),
  weight_kg: money('inventory.master_code.weight_invalid', 3, 7),
  seller_sku: text(TEXT_LIMITS.code),
  upc: z
    .string({ error: rule(InventoryCode.upcInvalid, 'inventory.master_code.upc_invalid') })
    .trim()
    .regex(/^\d{0,14}$/, rule(InventoryCode.upcInvalid, 'inventory.master_code.upc_invalid')),
  brand_id: referenceId.nullable(),
  einvoice_classification: z
    .string({ error: classificationInvalid })
    .max(3, classificationInvalid)
    .refine((code) => CLASSIFICATION_CODES.has(code), classificationInvalid)
    .nullable(),
  remark: text(TEXT_LIMITS.note),
  status: z.enum(MASTER_CODE_STATUSES, { error: statusInvalid }),
  soft_threshold: wholeNumber(
    0,
    QUANTITY_MAX,
    rule(InventoryCode.quantityInvalid, 'inventory.master_code.soft_threshold_invalid'),
  ),
  pos_app_name: text(TEXT_LIMITS.name),
  unit_id: referenceId.nullable(),
  prices: PriceList,
};

const comboHasNoStock = rule(InventoryCode.comboHasNoStock, 'inventory.combo.no_initial_quantity');

/** The fields of a new master code, with their defaults (shared with a new combo's). */
export const newMasterCodeShape = {
  code: MasterCodeCode,
  type: z
    .enum(MASTER_CODE_TYPES, {
      error: rule(InventoryCode.typeInvalid, 'inventory.master_code.type_invalid'),
    })
    .default('standard'),
  name: fields.name,
  category_id: fields.category_id.default(null),
  image_url: fields.image_url.default(null),
  image_id: fields.image_id.default(null),
  unit_price: fields.unit_price.default('0.00'),
  cost: fields.cost.default('0.00'),
  weight_kg: fields.weight_kg.default('0.000'),
  seller_sku: fields.seller_sku.default(''),
  upc: fields.upc.default(''),
  brand_id: fields.brand_id.default(null),
  einvoice_classification: fields.einvoice_classification.default(null),
  remark: fields.remark.default(''),
  status: fields.status.default('active'),
  soft_threshold: fields.soft_threshold.default(0),
  /** Turned into the first stock received by the stock side; a combo has none. */
  initial_quantity: wholeNumber(
    0,
    QUANTITY_MAX,
    rule(InventoryCode.quantityInvalid, 'inventory.master_code.initial_quantity_invalid'),
  ).default(0),
  pos_app_name: fields.pos_app_name.default(''),
  unit_id: fields.unit_id.default(null),
  prices: fields.prices.default([]),
};

export const NewMasterCode = z.strictObject(newMasterCodeShape).superRefine((body, ctx) => {
  if (body.type === 'combo' && body.initial_quantity > 0) {
    ctx.addIssue({ code: 'custom', path: ['initial_quantity'], message: comboHasNoStock });
  }
});
export type NewMasterCode = z.infer<typeof NewMasterCode>;

/** The type is fixed at creation (stock and combos depend on it): a `type` equal to the current one is accepted. */
export const MasterCodeChanges = z
  .strictObject({
    code: MasterCodeCode,
    type: z.enum(MASTER_CODE_TYPES, {
      error: rule(InventoryCode.typeInvalid, 'inventory.master_code.type_invalid'),
    }),
    ...fields,
  })
  .partial()
  .refine(nonEmpty, nothingToChange);
export type MasterCodeChanges = z.infer<typeof MasterCodeChanges>;

// ---- answer shapes ----

const Named = z.object({ id: z.string(), name: z.string() });

export const MasterCode = z.object({
  id: z.string(),
  code: z.string(),
  name: z.string(),
  type: z.enum(MASTER_CODE_TYPES),
  status: z.enum(MASTER_CODE_STATUSES),
  category: Named.nullable(),
  brand: Named.nullable(),
  unit: Named.nullable(),
  image_url: z.string().nullable(),
  /** The image uploaded to the app, served at /api/inventory/master-code/images/{image_id}. */
  image_id: z.string().nullable(),
  unit_price: z.string(),
  cost: z.string(),
  weight_kg: z.string(),
  seller_sku: z.string(),
  upc: z.string(),
  einvoice_classification: z.string().nullable(),
  remark: z.string(),
  soft_threshold: z.number().int(),
  initial_quantity: z.number().int(),
  pos_app_name: z.string(),
  /** Linked to at least one listing (listings arrive later; until then false). */
  bound: z.boolean(),
  ...stamps,
});
export type MasterCode = z.infer<typeof MasterCode>;

export const ComboItem = z.object({
  component_id: z.string(),
  code: z.string(),
  name: z.string(),
  status: z.enum(MASTER_CODE_STATUSES),
  quantity: z.number().int(),
});
export type ComboItem = z.infer<typeof ComboItem>;

export const PlaceRef = z.object({
  id: z.string(),
  kind: z.enum(['warehouse', 'branch']),
  code: z.string(),
  name: z.string(),
});

export const MasterCodeLocation = z.object({
  warehouse: PlaceRef,
  rack: z.object({ id: z.string(), name: z.string(), status: z.enum(['occupied', 'available']) }).nullable(),
  note: z.string(),
  updated_at: z.string(),
});
export type MasterCodeLocation = z.infer<typeof MasterCodeLocation>;

export const MasterCodeDetail = MasterCode.extend({
  prices: z.array(z.object({ currency: z.enum(PRICE_CURRENCIES), unit_price: z.string() })),
  /** A combo's components, in the order given; empty for a standard master code. */
  items: z.array(ComboItem),
  locations: z.array(MasterCodeLocation),
});
export type MasterCodeDetail = z.infer<typeof MasterCodeDetail>;

export type PriceList = z.infer<typeof PriceList>;

/** The master code grid (ag-grid Infinite Row Model). */
export const MASTER_CODE_SORT_COLUMNS = [
  'code',
  'name',
  'type',
  'status',
  'category',
  'brand',
  'seller_sku',
  'upc',
  'unit_price',
  'created_at',
  'updated_at',
] as const;
export type MasterCodeSortColumn = (typeof MASTER_CODE_SORT_COLUMNS)[number];

export const MasterCodeGridQuery = gridQuery(MASTER_CODE_SORT_COLUMNS, {
  code: TextFilter,
  name: TextFilter,
  category: TextFilter,
  brand: TextFilter,
  seller_sku: TextFilter,
  upc: TextFilter,
  type: setFilter(MASTER_CODE_TYPES),
  status: setFilter(MASTER_CODE_STATUSES),
  /** Spec §4: bound or unbound to listings (linked to a channel SKU of a connected store, or not). */
  bound: setFilter(['bound', 'unbound']),
  updated_at: DateFilter,
});
export type MasterCodeGridQuery = z.infer<typeof MasterCodeGridQuery>;
