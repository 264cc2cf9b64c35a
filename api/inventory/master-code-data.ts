import { randomUUID } from 'node:crypto';
import type { SellerSession } from '@api/auth/session';
import { ApiError, invalid, notFound } from '@api/errors';
import { InventoryCode, MASTER_CODE_STATUSES, MASTER_CODE_TYPES } from '@domain/inventory/codes';

export { MASTER_CODE_STATUSES, MASTER_CODE_TYPES };

import { einvoiceClassifications } from '@domain/lookups';
import type { Database, InventoryCurrency } from '@infra/db';
import type { Kysely, Transaction } from 'kysely';
import { z } from 'zod';
import {
  decimal,
  iso,
  isUuid,
  lockTenant,
  logActivity,
  packageLimit,
  QUANTITY_MAX,
  referenceId,
  requiredText,
  text,
  violation,
  wholeNumber,
} from './common';

/**
 * A master code (spec §3): the seller's own item, the unit stock is kept in. Its fields, the per-currency price list,
 * and — for a combo — the components it is made of. The shapes here are shared by the master code, combo and location
 * routes; so are creation (within the package's master-code limit) and reading one master code in full.
 */

/** Price list currencies (spec §9). */
export const PRICE_CURRENCIES = [
  'MYR',
  'SGD',
  'HKD',
  'TWD',
  'PHP',
] as const satisfies readonly InventoryCurrency[];
export const CODE_MAX = 64;
export const NAME_MAX = 255;

const CLASSIFICATION_CODES: ReadonlySet<string> = new Set(einvoiceClassifications().map((row) => row.code));

// ---- request shapes ----

/** Printable ASCII only: the code is printed as a Code 128 barcode. */
export const MasterCodeCode = requiredText(
  CODE_MAX,
  InventoryCode.codeRequired,
  'inventory.master_code.code_required',
).regex(/^[\x20-\x7e]+$/, invalid(InventoryCode.codeRequired, 'inventory.master_code.code_invalid'));

const money = (key: string) =>
  decimal({
    scale: 2,
    integerDigits: 12,
    positive: false,
    message: invalid(InventoryCode.amountInvalid, key),
  });

const classificationInvalid = invalid(
  InventoryCode.classificationInvalid,
  'inventory.master_code.classification_invalid',
);
const imageUrlInvalid = invalid(InventoryCode.imageUrlInvalid, 'inventory.master_code.image_url_invalid');
const statusInvalid = invalid(InventoryCode.statusInvalid, 'inventory.master_code.status_invalid');
const currencyRepeated = invalid(InventoryCode.currencyRepeated, 'inventory.master_code.currency_repeated');

const isWebAddress = (value: string) => {
  if (!URL.canParse(value)) return false;
  const protocol = new URL(value).protocol;
  return protocol === 'https:' || protocol === 'http:';
};

export const PriceEntry = z.strictObject({
  currency: z.enum(PRICE_CURRENCIES, {
    error: invalid(InventoryCode.currencyInvalid, 'inventory.master_code.currency_invalid'),
  }),
  unit_price: decimal({
    scale: 2,
    integerDigits: 12,
    positive: true,
    message: invalid(InventoryCode.amountInvalid, 'inventory.master_code.list_price_invalid'),
  }),
});

/** The whole price list: one entry per currency at most. */
export const PriceList = z
  .array(PriceEntry, {
    error: invalid(InventoryCode.currencyInvalid, 'inventory.master_code.prices_invalid'),
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
  name: requiredText(NAME_MAX, InventoryCode.nameRequired, 'inventory.master_code.name_required'),
  category_id: referenceId.nullable(),
  image_url: z
    .string({ error: imageUrlInvalid })
    .trim()
    .max(2048, imageUrlInvalid)
    .refine(isWebAddress, imageUrlInvalid)
    .nullable(),
  unit_price: money('inventory.master_code.unit_price_invalid'),
  cost: money('inventory.master_code.cost_invalid'),
  weight_kg: decimal({
    scale: 3,
    integerDigits: 7,
    positive: false,
    message: invalid(InventoryCode.amountInvalid, 'inventory.master_code.weight_invalid'),
  }),
  seller_sku: text(CODE_MAX),
  upc: z
    .string({ error: invalid(InventoryCode.upcInvalid, 'inventory.master_code.upc_invalid') })
    .trim()
    .regex(/^\d{0,14}$/, invalid(InventoryCode.upcInvalid, 'inventory.master_code.upc_invalid')),
  brand_id: referenceId.nullable(),
  einvoice_classification: z
    .string({ error: classificationInvalid })
    .max(3, classificationInvalid)
    .refine((code) => CLASSIFICATION_CODES.has(code), classificationInvalid)
    .nullable(),
  remark: text(1000),
  status: z.enum(MASTER_CODE_STATUSES, { error: statusInvalid }),
  soft_threshold: wholeNumber(
    0,
    QUANTITY_MAX,
    invalid(InventoryCode.quantityInvalid, 'inventory.master_code.soft_threshold_invalid'),
  ),
  pos_app_name: text(NAME_MAX),
  unit_id: referenceId.nullable(),
  prices: PriceList,
};

const comboHasNoStock = invalid(InventoryCode.comboHasNoStock, 'inventory.combo.no_initial_quantity');

/** The fields of a new master code, with their defaults (shared with a new combo's). */
export const newMasterCodeShape = {
  code: MasterCodeCode,
  type: z
    .enum(MASTER_CODE_TYPES, {
      error: invalid(InventoryCode.typeInvalid, 'inventory.master_code.type_invalid'),
    })
    .default('standard'),
  name: fields.name,
  category_id: fields.category_id.default(null),
  image_url: fields.image_url.default(null),
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
    invalid(InventoryCode.quantityInvalid, 'inventory.master_code.initial_quantity_invalid'),
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

/**
 * An edit: any of the fields, the code too while no listing is bound to it. The type is fixed at creation (stock and
 * combos depend on it) and the initial quantity is history once given; a `type` equal to the current one is accepted.
 * A price list, when given, replaces the whole list.
 */
export const MasterCodeChanges = z
  .strictObject({
    code: MasterCodeCode,
    type: z.enum(MASTER_CODE_TYPES, {
      error: invalid(InventoryCode.typeInvalid, 'inventory.master_code.type_invalid'),
    }),
    ...fields,
  })
  .partial()
  .refine(
    (changes) => Object.keys(changes).length > 0,
    invalid(InventoryCode.nothingToChange, 'inventory.nothing_to_change'),
  );
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
  created_at: z.string(),
  updated_at: z.string(),
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

export const MasterCodeLocation = z.object({
  warehouse: z.object({
    id: z.string(),
    kind: z.enum(['warehouse', 'branch']),
    code: z.string(),
    name: z.string(),
  }),
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

// ---- reading ----

type Db = Kysely<Database> | Transaction<Database>;

export const selectMasterCodes = (db: Db, tenantId: string) =>
  db
    .selectFrom('master_codes as m')
    .leftJoin('inventory_categories as c', 'c.id', 'm.category_id')
    .leftJoin('brands as b', 'b.id', 'm.brand_id')
    .leftJoin('units as u', 'u.id', 'm.unit_id')
    .select([
      'm.id',
      'm.code',
      'm.name',
      'm.type',
      'm.status',
      'm.category_id',
      'c.name as category_name',
      'm.brand_id',
      'b.name as brand_name',
      'm.unit_id',
      'u.name as unit_name',
      'm.image_url',
      'm.unit_price',
      'm.cost',
      'm.weight_kg',
      'm.seller_sku',
      'm.upc',
      'm.einvoice_classification',
      'm.remark',
      'm.soft_threshold',
      'm.initial_quantity',
      'm.pos_app_name',
      'm.bound',
      'm.created_at',
      'm.updated_at',
    ])
    .where('m.tenant_id', '=', tenantId);

export type MasterCodeRow = Awaited<
  ReturnType<ReturnType<typeof selectMasterCodes>['executeTakeFirstOrThrow']>
>;

const named = (id: string | null, name: string | null) => (id && name !== null ? { id, name } : null);

export function masterCode(row: MasterCodeRow): MasterCode {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    type: row.type,
    status: row.status,
    category: named(row.category_id, row.category_name),
    brand: named(row.brand_id, row.brand_name),
    unit: named(row.unit_id, row.unit_name),
    image_url: row.image_url,
    unit_price: row.unit_price,
    cost: row.cost,
    weight_kg: row.weight_kg,
    seller_sku: row.seller_sku,
    upc: row.upc,
    einvoice_classification: row.einvoice_classification,
    remark: row.remark,
    soft_threshold: row.soft_threshold,
    initial_quantity: row.initial_quantity,
    pos_app_name: row.pos_app_name,
    bound: row.bound,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

/** A combo's components, in order. */
export async function comboItems(db: Db, tenantId: string, comboId: string): Promise<ComboItem[]> {
  return db
    .selectFrom('combo_items as i')
    .innerJoin('master_codes as m', 'm.id', 'i.component_id')
    .select(['i.component_id', 'm.code', 'm.name', 'm.status', 'i.quantity'])
    .where('i.tenant_id', '=', tenantId)
    .where('i.combo_id', '=', comboId)
    .orderBy('i.position')
    .execute();
}

export async function masterCodeLocations(
  db: Db,
  tenantId: string,
  masterCodeId: string,
): Promise<MasterCodeLocation[]> {
  const rows = await db
    .selectFrom('master_code_locations as l')
    .innerJoin('warehouses as w', 'w.id', 'l.warehouse_id')
    .leftJoin('racks as r', 'r.id', 'l.rack_id')
    .select([
      'w.id as warehouse_id',
      'w.kind',
      'w.code',
      'w.name',
      'r.id as rack_id',
      'r.name as rack_name',
      'r.status as rack_status',
      'l.note',
      'l.updated_at',
    ])
    .where('l.tenant_id', '=', tenantId)
    .where('l.master_code_id', '=', masterCodeId)
    .orderBy('w.is_default', 'desc')
    .orderBy((eb) => eb.fn('lower', ['w.name']))
    .orderBy('w.id')
    .execute();
  return rows.map((row) => ({
    warehouse: { id: row.warehouse_id, kind: row.kind, code: row.code, name: row.name },
    rack:
      row.rack_id && row.rack_name !== null && row.rack_status !== null
        ? { id: row.rack_id, name: row.rack_name, status: row.rack_status }
        : null,
    note: row.note,
    updated_at: iso(row.updated_at),
  }));
}

/** The master code row of this tenant, or undefined (an id that is not a uuid names nothing). */
export async function findMasterCodeRow(db: Db, tenantId: string, id: string) {
  return isUuid(id) ? selectMasterCodes(db, tenantId).where('m.id', '=', id).executeTakeFirst() : undefined;
}

/** One master code with its price list, combo items and rack locations; another tenant's answers as missing. */
export async function findMasterCode(db: Db, tenantId: string, id: string): Promise<MasterCodeDetail> {
  const row = await findMasterCodeRow(db, tenantId, id);
  if (!row) throw notFound();
  const [prices, items, locations] = await Promise.all([
    db
      .selectFrom('master_code_prices')
      .select(['currency', 'unit_price'])
      .where('tenant_id', '=', tenantId)
      .where('master_code_id', '=', row.id)
      .execute(),
    row.type === 'combo' ? comboItems(db, tenantId, row.id) : Promise.resolve([]),
    masterCodeLocations(db, tenantId, row.id),
  ]);
  prices.sort((a, b) => PRICE_CURRENCIES.indexOf(a.currency) - PRICE_CURRENCIES.indexOf(b.currency));
  return { ...masterCode(row), prices, items, locations };
}

// ---- writing ----

const referenceTables = {
  category_id: { table: 'inventory_categories', code: InventoryCode.categoryNotFound, key: 'category' },
  brand_id: { table: 'brands', code: InventoryCode.brandNotFound, key: 'brand' },
  unit_id: { table: 'units', code: InventoryCode.unitNotFound, key: 'unit' },
} as const;
type ReferenceField = keyof typeof referenceTables;

const referenceMissing = (field: ReferenceField) =>
  new ApiError(
    400,
    referenceTables[field].code,
    `inventory.master_code.${referenceTables[field].key}_not_found`,
  );

/** Each category, brand and unit the body names must be the tenant's own; another tenant's is simply missing. */
export async function requireReferences(
  db: Db,
  tenantId: string,
  body: Partial<Record<ReferenceField, string | null>>,
): Promise<void> {
  for (const field of Object.keys(referenceTables) as ReferenceField[]) {
    const id = body[field];
    if (id === undefined || id === null) continue;
    const found = isUuid(id)
      ? await db
          .selectFrom(referenceTables[field].table)
          .select('id')
          .where('id', '=', id)
          .where('tenant_id', '=', tenantId)
          .executeTakeFirst()
      : undefined;
    if (!found) throw referenceMissing(field);
  }
}

/** Turns a unique or foreign-key violation into the refusal it means; anything else is passed on. */
export function masterCodeRefusal(error: unknown, code: string | undefined): unknown {
  if (violation(error, '23505', 'master_codes_code_idx')) {
    return new ApiError(409, InventoryCode.codeTaken, 'inventory.master_code.code_taken', {
      code: code ?? '',
    });
  }
  // A category, brand or unit deleted between the check and the write.
  if (violation(error, '23503')) {
    const constraint = String((error as { constraint?: unknown }).constraint ?? '');
    if (constraint.includes('category')) return referenceMissing('category_id');
    if (constraint.includes('brand')) return referenceMissing('brand_id');
    if (constraint.includes('unit')) return referenceMissing('unit_id');
  }
  return error;
}

export async function replacePrices(
  trx: Db,
  tenantId: string,
  masterCodeId: string,
  prices: z.infer<typeof PriceList>,
): Promise<void> {
  await trx
    .deleteFrom('master_code_prices')
    .where('tenant_id', '=', tenantId)
    .where('master_code_id', '=', masterCodeId)
    .execute();
  if (prices.length > 0) {
    await trx
      .insertInto('master_code_prices')
      .values(
        prices.map((price) => ({
          tenant_id: tenantId,
          master_code_id: masterCodeId,
          currency: price.currency,
          unit_price: price.unit_price,
        })),
      )
      .execute();
  }
}

/**
 * Creates a master code within the package's master-code limit (every master code counts, active or not), then lets
 * the caller add to it in the same transaction (a combo's items). Answers the new id.
 */
export async function createMasterCode(
  db: Kysely<Database>,
  session: SellerSession,
  body: NewMasterCode,
  inSameTransaction?: (trx: Transaction<Database>, id: string) => Promise<Record<string, unknown>>,
): Promise<string> {
  const { tenantId } = session;
  const id = randomUUID();
  try {
    await db.transaction().execute(async (trx) => {
      // One creation at a time per account, so two requests cannot both take the last free slot.
      await lockTenant(trx, tenantId);
      const pkg = await packageLimit(trx, tenantId, 'masterCodes');
      if (pkg.limit !== null) {
        const count = await trx
          .selectFrom('master_codes')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('tenant_id', '=', tenantId)
          .executeTakeFirstOrThrow();
        if (Number(count.n) >= pkg.limit) {
          throw new ApiError(403, InventoryCode.masterCodeLimit, 'inventory.master_code.limit_reached', {
            package: pkg.name,
            limit: pkg.limit,
          });
        }
      }
      await requireReferences(trx, tenantId, body);
      const { prices, ...row } = body;
      await trx
        .insertInto('master_codes')
        .values({ id, tenant_id: tenantId, ...row })
        .execute();
      await replacePrices(trx, tenantId, id, prices);
      const extra = inSameTransaction ? await inSameTransaction(trx, id) : {};
      await logActivity(trx, {
        tenantId,
        userId: session.userId,
        action: 'master_code.created',
        subjectType: 'master_code',
        subjectId: id,
        detail: { ...row, prices, ...extra },
      });
    });
  } catch (error) {
    throw masterCodeRefusal(error, body.code);
  }
  return id;
}
