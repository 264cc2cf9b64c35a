import { PurchaseCode, QUANTITY_MAX } from '@domain/purchases/codes';
import { GOODS_RECEIPT_ACTIONS } from '@domain/purchases/goods-receipt';
import { PURCHASE_ACTIONS, PURCHASE_STATUSES } from '@domain/purchases/purchase';
import {
  CONTACT_NUMBER,
  CURRENCY,
  EMAIL,
  SUPPLIER_LIMITS,
  SUPPLIER_STATUSES,
} from '@domain/purchases/supplier';
import { TEXT_LIMITS } from '@domain/shared/limits';
import { z } from 'zod';
import { isCalendarDay } from './common';
import { DateFilter, gridQuery, setFilter, TextFilter } from './grid';
import { rule } from './rules';

/**
 * Every request and answer of purchasing (api/purchases/index.ts lists the routes): suppliers, purchase orders,
 * goods receive notes, average costs and the pickers. Refusals answer with the catalogue's codes 520–549
 * (domain/purchases/codes.ts).
 */

// ---- fields ----

export const tooLong = (max: number) => rule(PurchaseCode.textInvalid, 'purchases.too_long', { max });

export const text = (max: number) =>
  z
    .string({ error: rule(PurchaseCode.textInvalid, 'purchases.text_invalid') })
    .trim()
    .max(max, tooLong(max));

const idInvalid = rule(400, 'purchases.id_invalid');
/** An id in a body; one that is not a uuid is looked up all the same and found missing (404). */
export const RefId = z.string({ error: idInvalid }).trim().min(1, idInvalid).max(64, idInvalid);

const quantityInvalid = rule(PurchaseCode.quantityInvalid, 'purchases.quantity_invalid', {
  max: QUANTITY_MAX,
});

/** A whole number of pieces within [least, QUANTITY_MAX]. */
export const Pieces = (least: number) =>
  z
    .number({ error: quantityInvalid })
    .int(quantityInvalid)
    .min(least, quantityInvalid)
    .max(QUANTITY_MAX, quantityInvalid);

/**
 * An amount as a JSON number or a numeric string, never negative, at most four decimals and fourteen digits before
 * the point; answered as four-place text ("12.5000").
 */
export const Money = (message: string) =>
  z
    .union([z.number({ error: message }), z.string({ error: message }).max(40, message)], { error: message })
    .transform((value, ctx) => {
      const textValue = typeof value === 'number' ? String(value) : value.trim();
      if (!/^\d{1,14}(\.\d{1,4})?$/.test(textValue)) {
        ctx.addIssue({ code: 'custom', message, input: value });
        return z.NEVER;
      }
      const [whole = '0', fraction = ''] = textValue.split('.');
      return `${BigInt(whole)}.${fraction.padEnd(4, '0')}`;
    });

const dateInvalid = rule(PurchaseCode.dateInvalid, 'purchases.date_invalid');
/** A calendar day, yyyy-mm-dd. */
export const Day = z
  .string({ error: dateInvalid })
  .regex(/^\d{4}-\d{2}-\d{2}$/, dateInvalid)
  .refine(isCalendarDay, dateInvalid);

const ReasonText = text(TEXT_LIMITS.reason).default('');
/** Answer fields of one type, in the order named. */
const fields = <K extends string, T extends z.ZodType>(type: () => T, ...keys: K[]) =>
  Object.fromEntries(keys.map((key) => [key, type()])) as Record<K, T>;
const string = () => z.string();
const int = () => z.number().int();
const nullableString = () => z.string().nullable();
const flagInvalid = rule(400, 'purchases.flag_invalid');
const itemsRequired = rule(PurchaseCode.itemsRequired, 'purchases.items_required');
/** A body's items: 1 to 500. */
const itemsOf = <T extends z.ZodType>(item: T) =>
  z.array(item, { error: itemsRequired }).min(1, itemsRequired).max(500, itemsRequired);

/** The most characters of an idempotency key. */
export const IDEMPOTENCY_KEY_MAX = 100;
const keyInvalid = rule(PurchaseCode.keyInvalid, 'purchases.idempotency_key_invalid', {
  max: IDEMPOTENCY_KEY_MAX,
});
/** A body's `idempotency_key`: 1 to 100 printable ASCII characters. */
export const IdempotencyKey = z
  .string({ error: keyInvalid })
  .min(1, keyInvalid)
  .max(IDEMPOTENCY_KEY_MAX, keyInvalid)
  .regex(/^[\x21-\x7e]+$/, keyInvalid);

export const EmptyBody = z.strictObject({}).default({});
export const ReasonBody = z.strictObject({ reason: ReasonText });
export type ReasonBody = z.infer<typeof ReasonBody>;

// ---- suppliers ----

const contactRequired = rule(PurchaseCode.supplierContactInvalid, 'purchases.supplier.contact_required');
const contactInvalid = rule(PurchaseCode.supplierContactInvalid, 'purchases.supplier.contact_invalid');
const emailInvalid = rule(PurchaseCode.supplierEmailInvalid, 'purchases.supplier.email_invalid');
const currencyInvalid = rule(PurchaseCode.choiceInvalid, 'purchases.supplier.currency_invalid');

/** A supplier's required text field, refused with its own code and message when missing. */
const required = (field: keyof typeof SUPPLIER_LIMITS, code: number) => {
  const missing = rule(code, `purchases.supplier.${field}_required`);
  const max = SUPPLIER_LIMITS[field];
  return z.string({ error: missing }).trim().min(1, missing).max(max, tooLong(max));
};

const supplierFields = {
  code: text(SUPPLIER_LIMITS.code),
  name: required('name', PurchaseCode.supplierNameRequired),
  company: required('company', PurchaseCode.supplierCompanyRequired),
  contact_number: z
    .string({ error: contactRequired })
    .trim()
    .min(1, contactRequired)
    .regex(CONTACT_NUMBER, contactInvalid),
  email: z
    .string({ error: emailInvalid })
    .trim()
    .max(SUPPLIER_LIMITS.email, emailInvalid)
    .refine((value) => value === '' || EMAIL.test(value), emailInvalid),
  address: required('address', PurchaseCode.supplierAddressRequired),
  city: required('city', PurchaseCode.supplierCityRequired),
  postal_code: required('postal_code', PurchaseCode.supplierPostalCodeRequired),
  state: required('state', PurchaseCode.supplierStateRequired),
  country: required('country', PurchaseCode.supplierCountryRequired),
  currency: z
    .string({ error: currencyInvalid })
    .trim()
    .transform((value) => value.toUpperCase())
    .refine((value) => value === '' || CURRENCY.test(value), currencyInvalid),
  vat_number: text(SUPPLIER_LIMITS.vat_number),
  status: z.enum(SUPPLIER_STATUSES, {
    error: rule(PurchaseCode.choiceInvalid, 'purchases.supplier.status_invalid'),
  }),
};

export const NewSupplier = z.strictObject({
  ...supplierFields,
  code: supplierFields.code.default(''),
  email: supplierFields.email.default(''),
  currency: supplierFields.currency.default(''),
  vat_number: supplierFields.vat_number.default(''),
  status: supplierFields.status.default('active'),
});
export type NewSupplier = z.infer<typeof NewSupplier>;

export const SupplierChanges = z
  .strictObject(supplierFields)
  .partial()
  .refine(
    (changes) => Object.keys(changes).length > 0,
    rule(PurchaseCode.textInvalid, 'purchases.nothing_to_change'),
  );
export type SupplierChanges = z.infer<typeof SupplierChanges>;

export const Supplier = z.object({
  id: z.string(),
  ...fields(string, 'code', 'name', 'company', 'contact_number', 'email', 'address', 'city', 'postal_code'),
  ...fields(string, 'state', 'country', 'currency', 'vat_number'),
  status: z.enum(SUPPLIER_STATUSES),
  ...fields(string, 'created_at', 'updated_at'),
});
export type Supplier = z.infer<typeof Supplier>;

export const SupplierOption = Supplier.pick({
  id: true,
  code: true,
  name: true,
  company: true,
  currency: true,
});
export type SupplierOption = z.infer<typeof SupplierOption>;

const SUPPLIER_SORT_COLUMNS = [
  'code',
  'name',
  'company',
  'contact_number',
  'email',
  'city',
  'state',
] as const;
export const SupplierQuery = gridQuery(
  [...SUPPLIER_SORT_COLUMNS, 'country', 'currency', 'status', 'created_at'],
  {
    code: TextFilter,
    name: TextFilter,
    company: TextFilter,
    contact_number: TextFilter,
    city: TextFilter,
    country: TextFilter,
    status: setFilter(SUPPLIER_STATUSES),
  },
);
export type SupplierQuery = z.infer<typeof SupplierQuery>;

export const SupplierUploadResult = z.object(fields(int, 'created', 'updated'));
export type SupplierUploadResult = z.infer<typeof SupplierUploadResult>;

// ---- purchase orders ----

const unitCostInvalid = rule(PurchaseCode.unitCostInvalid, 'purchases.unit_cost_invalid');

export const NewPurchase = z.strictObject({
  reference: text(TEXT_LIMITS.reference).default(''),
  /** The order's date (yyyy-mm-dd); today (UTC) when left out. */
  date: Day.optional(),
  supplier_id: RefId,
  warehouse_id: RefId,
  items: itemsOf(
    z.strictObject({ master_code_id: RefId, quantity: Pieces(1), unit_cost: Money(unitCostInvalid) }),
  ),
  discount: Money(rule(PurchaseCode.discountInvalid, 'purchases.discount_invalid')).default('0.0000'),
  estimated_arrival: Day.nullable().default(null),
  note: text(TEXT_LIMITS.note).default(''),
  /** Place the order at once (ordered, or pending approval); otherwise it is saved as a draft (pending). */
  place: z.boolean({ error: flagInvalid }).default(false),
  idempotency_key: IdempotencyKey.optional(),
});
export type NewPurchase = z.infer<typeof NewPurchase>;

export const ReturnBody = z.strictObject({
  reason: ReasonText,
  items: itemsOf(z.strictObject({ master_code_id: RefId, quantity: Pieces(1) })),
});
export type ReturnBody = z.infer<typeof ReturnBody>;

export const PurchaseSettings = z.object({
  purchase_approval: z.boolean(),
  goods_receipt_approval: z.boolean(),
  updated_at: z.string().nullable(),
});
export type PurchaseSettings = z.infer<typeof PurchaseSettings>;

export const PurchaseSettingsBody = z.strictObject({
  purchase_approval: z.boolean({ error: flagInvalid }),
  goods_receipt_approval: z.boolean({ error: flagInvalid }),
});
export type PurchaseSettingsBody = z.infer<typeof PurchaseSettingsBody>;

export const PurchaseListRow = z.object({
  ...fields(string, 'id', 'po_number', 'reference', 'date', 'supplier_id'),
  supplier_name: z.string().nullable(),
  warehouse_id: z.string(),
  warehouse_name: z.string().nullable(),
  status: z.enum(PURCHASE_STATUSES),
  ...fields(int, 'item_count', 'quantity', 'received'),
  ...fields(string, 'subtotal', 'discount', 'total'),
  estimated_arrival: z.string().nullable(),
  open_receipts: z.number().int(),
  ...fields(string, 'created_at', 'updated_at'),
});
export type PurchaseListRow = z.infer<typeof PurchaseListRow>;

const PURCHASE_SORT_COLUMNS = [
  'po_number',
  'reference',
  'date',
  'supplier_name',
  'warehouse_name',
  'status',
] as const;
export const PurchaseListQuery = gridQuery(
  [
    ...PURCHASE_SORT_COLUMNS,
    'item_count',
    'quantity',
    'received',
    'total',
    'estimated_arrival',
    'created_at',
  ],
  {
    po_number: TextFilter,
    reference: TextFilter,
    supplier_name: TextFilter,
    warehouse_name: TextFilter,
    status: setFilter(PURCHASE_STATUSES),
    date: DateFilter,
    created_at: DateFilter,
  },
).extend({
  supplier_id: z.string().max(64).optional(),
  /** One status only (the console's status picker; the grid's own filter takes several). */
  status: z.enum(PURCHASE_STATUSES).optional(),
});
export type PurchaseListQuery = z.infer<typeof PurchaseListQuery>;

const Named = z.object({ id: z.string(), ...fields(nullableString, 'code', 'name') });
const PersonRef = z.object({ id: z.string(), name: z.string().nullable() });
const Person = PersonRef.nullable();

export const TimelineItem = z.object({
  type: z.string(),
  at: z.string(),
  user: Person,
  data: z.unknown(),
});
export type TimelineItem = z.infer<typeof TimelineItem>;

/**
 * An order's line. net_unit_cost: the unit cost less the line's share of the discount; returned_on_receipt: refused at
 * the door, still owed; returned: sent back after receipt; receivable: what a new note may still take (outstanding
 * less what open notes reserve); average_cost: the code's moving average, null before any receipt at a cost.
 */
const PurchaseLine = z.object({
  master_code: Named,
  quantity: z.number().int(),
  ...fields(string, 'unit_cost', 'line_total', 'net_unit_cost'),
  ...fields(int, 'received', 'damaged', 'returned_on_receipt', 'returned', 'outstanding', 'receivable'),
  average_cost: z.string().nullable(),
});

export const PurchaseDetail = z.object({
  ...fields(string, 'id', 'po_number', 'reference', 'date'),
  status: z.enum(PURCHASE_STATUSES),
  supplier: Named.extend({ company: z.string().nullable() }),
  warehouse: Named,
  ...fields(string, 'discount', 'subtotal', 'total'),
  estimated_arrival: z.string().nullable(),
  note: z.string(),
  reject_reason: z.string().nullable(),
  created_by: Person,
  lines: z.array(PurchaseLine),
  open_receipts: z.array(z.object({ id: z.string(), grn_number: z.string() })),
  goods_receipts: z.array(
    z.object({ id: z.string(), grn_number: z.string(), status: z.number().int(), created_at: z.string() }),
  ),
  /** What the caller may do now (domain/purchases/purchase.ts allowedActions). */
  actions: z.array(z.enum(PURCHASE_ACTIONS)),
  timeline: z.array(TimelineItem),
});
export type PurchaseDetail = z.infer<typeof PurchaseDetail>;

/** existing: orders already made by an earlier upload of the same file. */
export const PurchaseUploadResult = z.object({
  /** The upload in the history (api/contracts/sheet-uploads.ts). */
  upload_id: z.string(),
  ...fields(int, 'created', 'existing'),
  purchases: z.array(z.object(fields(string, 'id', 'po_number', 'reference'))),
});
export type PurchaseUploadResult = z.infer<typeof PurchaseUploadResult>;

// ---- goods receive notes ----

/**
 * A note's item. received: arrived and counted against the order (damaged included); damaged: received, then
 * written off; returned: refused at the door, never in stock, still owed by the supplier.
 */
const ReceiptItem = z.strictObject({
  master_code_id: RefId,
  ...fields(() => Pieces(0).default(0), 'received', 'damaged', 'returned'),
});

export const NewGoodsReceipt = z.strictObject({
  reference: text(TEXT_LIMITS.reference).default(''),
  note: text(TEXT_LIMITS.note).default(''),
  items: itemsOf(ReceiptItem),
  /** Complete the note at once when it needs no approval (the stock moves now). */
  receive_now: z.boolean({ error: flagInvalid }).default(false),
  idempotency_key: IdempotencyKey.optional(),
});
export type NewGoodsReceipt = z.infer<typeof NewGoodsReceipt>;

const GRN_STATUS_VALUES = ['1', '2', '3', '4', '5', '6'] as const;

export const GoodsReceiptListRow = z.object({
  ...fields(string, 'id', 'grn_number', 'purchase_id', 'po_number'),
  ...fields(nullableString, 'supplier_name', 'warehouse_name'),
  status: z.number().int(),
  ...fields(string, 'status_name', 'reference'),
  ...fields(int, 'line_count', 'received', 'damaged', 'returned'),
  approval_required: z.boolean(),
  created_by: PersonRef,
  approved_by: Person,
  ...fields(string, 'created_at', 'updated_at'),
});
export type GoodsReceiptListRow = z.infer<typeof GoodsReceiptListRow>;

const GOODS_RECEIPT_SORT_COLUMNS = [
  'grn_number',
  'po_number',
  'supplier_name',
  'warehouse_name',
  'status',
] as const;
export const GoodsReceiptListQuery = gridQuery(
  [...GOODS_RECEIPT_SORT_COLUMNS, 'received', 'damaged', 'returned', 'created_at', 'updated_at'],
  {
    grn_number: TextFilter,
    po_number: TextFilter,
    supplier_name: TextFilter,
    warehouse_name: TextFilter,
    status: setFilter(GRN_STATUS_VALUES),
    created_at: DateFilter,
  },
).extend({
  purchase_id: z.string().max(64).optional(),
  /** One status only (1–6), the console's status picker. */
  status: z.coerce.number().int().min(1).max(6).optional(),
});
export type GoodsReceiptListQuery = z.infer<typeof GoodsReceiptListQuery>;

export const GoodsReceiptDetail = z.object({
  ...fields(string, 'id', 'grn_number'),
  purchase: z.object({ id: z.string(), po_number: z.string() }),
  supplier: Named,
  warehouse: Named,
  /** 1 Pending, 2 Complete, 3 Cancel, 4 Waiting Approve, 5 Waiting Receive, 6 Reject. */
  status: z.number().int().min(1).max(6),
  ...fields(string, 'status_name', 'reference', 'note'),
  reason: z.string().nullable(),
  approval_required: z.boolean(),
  created_by: Person,
  approved_by: Person,
  lines: z.array(
    z.object({
      master_code: Named,
      ...fields(int, 'received', 'damaged', 'returned'),
      /** Net of the order's discount share; null until the note completes. */
      unit_cost: z.string().nullable(),
    }),
  ),
  /** What the caller may do now (domain/purchases/goods-receipt.ts allowedActions). */
  actions: z.array(z.enum(GOODS_RECEIPT_ACTIONS)),
  timeline: z.array(TimelineItem),
});
export type GoodsReceiptDetail = z.infer<typeof GoodsReceiptDetail>;

// ---- average costs ----

export const AverageCostAnswer = z.object({
  master_code_id: z.string(),
  ...fields(nullableString, 'code', 'name'),
  average_cost: z.string(),
  ...fields(int, 'on_hand', 'receipts'),
  last_receipt_at: z.string().nullable(),
});
export type AverageCostAnswer = z.infer<typeof AverageCostAnswer>;

export const AverageCostQuery = gridQuery(
  ['code', 'name', 'average_cost', 'on_hand', 'receipts', 'last_receipt_at'] as const,
  {},
);
export type AverageCostQuery = z.infer<typeof AverageCostQuery>;

// ---- pickers ----

export const PlaceOption = z.object({
  ...fields(string, 'id', 'code', 'name'),
  kind: z.enum(['warehouse', 'branch']),
});
export type PlaceOption = z.infer<typeof PlaceOption>;

export const MasterCodeOption = z.object(fields(string, 'id', 'code', 'name', 'cost'));
export type MasterCodeOption = z.infer<typeof MasterCodeOption>;

export const MasterCodeOptionQuery = z.strictObject({
  search: z.string().trim().max(100).default(''),
  limit: z.coerce.number().int().min(1).max(50).default(20),
});
export type MasterCodeOptionQuery = z.infer<typeof MasterCodeOptionQuery>;
