import { BOARD_ACTIONS, ORDER_FILTERS, ORDER_TABS } from '@domain/orders/board';
import { OrderCode } from '@domain/orders/codes';
import {
  COUNTRY_CODE_LENGTH,
  OrderAddress,
  PLATFORMS,
  SELLER_CANCEL_REASONS,
} from '@domain/orders/marketplace-order';
import {
  MAX_SERIALS,
  MOVES,
  type MoveAction,
  ORDER_STATUSES,
  PRINT_DOCUMENTS,
  PRINT_ORIGINS,
  PROCESS_STEPS,
  STOCK_STAGES,
} from '@domain/orders/order';
import { TEXT_LIMITS } from '@domain/shared/limits';
import { z } from 'zod';
import { isCalendarDay } from './common';
import { DateFilter, gridQuery, setFilter, TextFilter } from './grid';
import { idempotencyKeyField } from './idempotency';
import { rule } from './rules';

/**
 * The order board's requests and answers (api/orders/*.ts routes; the console's web/src/api/orders.ts by z.infer).
 * Zod only. Result codes: domain/orders/codes.ts.
 */

// ---- ids, text, keys ----

export const MAX_ORDERS = 500;
const ordersRequired = rule(OrderCode.ordersRequired, 'orders.orders_required', { max: MAX_ORDERS });
const idInvalid = rule(OrderCode.orderNotFound, 'orders.order_not_found');
export const OrderId = z.string({ error: idInvalid }).trim().min(1, idInvalid).max(100, idInvalid);
export const OrderIds = z
  .array(OrderId, { error: ordersRequired })
  .min(1, ordersRequired)
  .max(MAX_ORDERS, ordersRequired);

/** One message for every field (a rule's parameters are its first naming's): the answer's errors[] names the field. */
const tooLong = rule(OrderCode.textInvalid, 'orders.too_long');
export const text = (max: number, field: string) =>
  z
    .string({ error: rule(OrderCode.textInvalid, 'orders.text_invalid', { field }) })
    .trim()
    .max(max, tooLong);

const keyInvalid = rule(OrderCode.keyInvalid, 'orders.idempotency_key_invalid', { max: 100 });
export const IdempotencyKey = idempotencyKeyField(keyInvalid);

export const IdParams = z.strictObject({ id: z.string().max(100) });

// ---- the board's lists ----

export const ORDER_SORTS = [
  'order_number',
  'paid_at',
  'ordered_at',
  'total_amount',
  'status',
  'item_count',
  'tracking_number',
  'buyer_name',
  'scanned_at',
  'updated_at',
] as const;

/** A day (`2026-01-31`) or an instant; a day names the whole of it (UTC unless the instant says otherwise). */
const DateParam = z
  .string()
  .max(40)
  .regex(/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})?)?$/)
  .refine(
    (text) =>
      isCalendarDay(text.slice(0, 10)) &&
      !Number.isNaN(Date.parse(text.length === 10 ? `${text}T00:00:00Z` : text)),
  );

export const OrderListQuery = gridQuery(ORDER_SORTS, {
  order_number: TextFilter,
  tracking_number: TextFilter,
  buyer_name: TextFilter,
  status: setFilter(ORDER_STATUSES),
  ordered_at: DateFilter,
  paid_at: DateFilter,
}).extend({
  tab: z.enum(ORDER_TABS).default('all'),
  filter: z.enum(ORDER_FILTERS).optional(),
  store_id: z.string().max(100).optional(),
  platform: z.enum(PLATFORMS).optional(),
  payment: z.enum(['cod', 'paid', 'unpaid']).optional(),
  batch_id: z.string().max(100).optional(),
  ordered_from: DateParam.optional(),
  ordered_to: DateParam.optional(),
  paid_from: DateParam.optional(),
  paid_to: DateParam.optional(),
});
export type OrderListQuery = z.infer<typeof OrderListQuery>;

export const CountsQuery = z.strictObject({
  store_id: z.string().max(100).optional(),
  platform: z.enum(PLATFORMS).optional(),
});
export type CountsQuery = z.infer<typeof CountsQuery>;

const Person = z.object({ id: z.string(), name: z.string().nullable() });

export const OrderListRow = z.object({
  id: z.string(),
  order_number: z.string(),
  store_id: z.string(),
  store_name: z.string().nullable(),
  platform: z.string(),
  status: z.enum(ORDER_STATUSES),
  marketplace_status: z.string(),
  payment_method: z.string(),
  cod: z.boolean(),
  currency: z.string(),
  total_amount: z.string(),
  ordered_at: z.string(),
  paid_at: z.string().nullable(),
  tracking_number: z.string().nullable(),
  shipping_provider: z.string().nullable(),
  buyer_username: z.string().nullable(),
  buyer_name: z.string(),
  warehouse_id: z.string(),
  batch_id: z.string().nullable(),
  item_count: z.number().int(),
  line_count: z.number().int(),
  item_not_found: z.boolean(),
  out_of_stock: z.boolean(),
  pre_order: z.boolean(),
  /** Held over the package's monthly order limit: imported, not yet in the warehouse's work. */
  on_hold: z.boolean(),
  printed: z.array(z.enum(PRINT_DOCUMENTS)),
  preview: z.boolean(),
  split_from: z.string().nullable(),
  scanned_at: z.string().nullable(),
  scanned_by: Person.nullable(),
  shipped_at: z.string().nullable(),
  cancelled_at: z.string().nullable(),
  updated_at: z.string(),
  /** The order this one replaces (spec §4 "replacement"). */
  replacement_of: z.string().nullable(),
  /** The picker it is assigned to (none: "waiting assign"). */
  picker: Person.nullable(),
  /** The step the marketplace refused ("process failed"), with its reason in the reader's language. */
  process_failure: z
    .object({ step: z.enum(PROCESS_STEPS), code: z.number().int(), reason: z.string() })
    .nullable(),
});
export type OrderListRow = z.infer<typeof OrderListRow>;

export const OrderCounts = z.object({
  /** Per tab of spec §2. */
  tabs: z.record(z.enum(ORDER_TABS), z.number().int()),
  /** Per status. */
  statuses: z.record(z.enum(ORDER_STATUSES), z.number().int()),
});
export type OrderCounts = z.infer<typeof OrderCounts>;

export const StoreOption = z.object({
  store_id: z.string(),
  name: z.string().nullable(),
  platform: z.string(),
  orders: z.number().int(),
});

// ---- one order ----

const MasterCode = z.object({
  id: z.string(),
  code: z.string().nullable(),
  name: z.string().nullable(),
  type: z.enum(['standard', 'combo']).nullable(),
});

export const OrderLineAnswer = z.object({
  line_id: z.string(),
  sku: z.string(),
  seller_sku: z.string(),
  name: z.string(),
  variation: z.string().nullable(),
  quantity: z.number().int(),
  unit_price: z.string(),
  master_code: MasterCode.nullable(),
  /** Spec §4 "item not found": the seller SKU maps to no master code. */
  item_not_found: z.boolean(),
  /** The reservation found too little stock. */
  out_of_stock: z.boolean(),
  removed: z.boolean(),
  /** Given free (a promotion's gift, or added by hand). */
  gift: z.boolean(),
  bin_number: z.string().nullable(),
  serial_numbers: z.array(z.string()),
  /** The racks the line's item is kept on in the order's warehouse (a combo's: its components'). */
  rack_locations: z.array(z.string()),
});

export const OrderDetail = OrderListRow.extend({
  marketplace_updated_at: z.string().nullable(),
  shipping_fee: z.string().nullable(),
  buyer_remark: z.string().nullable(),
  seller_remark: z.string().nullable(),
  fulfilment_type: z.string().nullable(),
  /** The marketplace's packages the order ships in; the first is its package number. */
  package_numbers: z.array(z.string()),
  /** The buyer's first and last name (the full one split where the marketplace gives one). */
  first_name: z.string(),
  last_name: z.string(),
  address: OrderAddress,
  stock_stage: z.enum(STOCK_STAGES),
  lines: z.array(OrderLineAnswer),
  actions: z.array(z.enum(BOARD_ACTIONS)),
  /** The replacement orders made for this one, and the order this one replaces. */
  replacements: z.array(z.object({ id: z.string(), order_number: z.string() })),
  replaces: z.object({ id: z.string(), order_number: z.string().nullable() }).nullable(),
  timeline: z.array(
    z.object({
      type: z.string(),
      at: z.string(),
      user: Person.nullable(),
      data: z.record(z.string(), z.unknown()),
    }),
  ),
});
export type OrderDetail = z.infer<typeof OrderDetail>;

// ---- actions (spec §4) ----

const SIMPLE_ACTIONS = [
  'scan',
  'ship',
  'set_preview',
  'clear_preview',
  'cancel_shipment',
  'retry_process',
  ...(Object.keys(MOVES) as MoveAction[]),
] as ['scan', 'ship', 'set_preview', 'clear_preview', 'cancel_shipment', 'retry_process', ...MoveAction[]];

const trackingRequired = rule(OrderCode.trackingRequired, 'orders.tracking_required');
const pickupDetails = rule(OrderCode.pickupDetailsRequired, 'orders.pickup_details_required');
const shipmentsRequired = rule(OrderCode.ordersRequired, 'orders.orders_required', { max: MAX_ORDERS });
const key = { idempotency_key: IdempotencyKey.optional() };
const documentInvalid = rule(OrderCode.textInvalid, 'orders.document_invalid', {
  documents: PRINT_DOCUMENTS.join(', '),
});
const pickerInvalid = rule(OrderCode.pickerNotFound, 'orders.picker_not_found');
const originInvalid = rule(OrderCode.textInvalid, 'orders.origin_invalid', {
  origins: PRINT_ORIGINS.join(', '),
});

export const ActionBody = z.discriminatedUnion('action', [
  z.strictObject({ action: z.enum(SIMPLE_ACTIONS), order_ids: OrderIds, ...key }),
  z.strictObject({
    action: z.literal('mark_printed'),
    order_ids: OrderIds,
    document: z.enum(PRINT_DOCUMENTS, { error: documentInvalid }),
    origin: z.enum(PRINT_ORIGINS, { error: originInvalid }).default('unscan'),
    ...key,
  }),
  z.strictObject({
    action: z.literal('cancel'),
    order_ids: OrderIds,
    reason: text(TEXT_LIMITS.reason, 'reason').optional(),
    /** What a connected marketplace is told (its orders are cancelled there too). */
    marketplace_reason: z
      .enum(SELLER_CANCEL_REASONS, {
        error: rule(OrderCode.textInvalid, 'orders.marketplace_reason_invalid', {
          reasons: SELLER_CANCEL_REASONS.join(', '),
        }),
      })
      .default('out_of_stock'),
    ...key,
  }),
  z.strictObject({
    action: z.literal('arrange_shipment'),
    shipments: z
      .array(
        z.strictObject({
          order_id: OrderId,
          // None for an order of a connected marketplace store: the marketplace gives it (drop-off). Typed for
          // such an order, the parcel goes with the seller's own carrier; for any other order it is required.
          tracking_number: z
            .string({ error: trackingRequired })
            .trim()
            .max(TEXT_LIMITS.reference, tooLong)
            .default(''),
          shipping_provider: text(TEXT_LIMITS.name, 'shipping_provider').default(''),
        }),
        { error: shipmentsRequired },
      )
      .min(1, shipmentsRequired)
      .max(MAX_ORDERS, shipmentsRequired),
    ...key,
  }),
  z.strictObject({
    action: z.literal('request_pickup'),
    order_ids: OrderIds,
    provider: z.string({ error: pickupDetails }).trim().min(1, pickupDetails).max(TEXT_LIMITS.name, tooLong),
    pickup_address: z
      .string({ error: pickupDetails })
      .trim()
      .min(1, pickupDetails)
      .max(TEXT_LIMITS.address, tooLong),
    /** Of the marketplace's pickup addresses (GET /api/orders/shipping); none: the shop's default. */
    pickup_address_id: z.number({ error: pickupDetails }).int(pickupDetails).optional(),
    pickup_day: z.enum(['today', 'after_1_day', 'after_2_days']).default('today'),
    pickup_time: z.enum(['none', 'earliest', 'latest']).default('none'),
    ...key,
  }),
  z.strictObject({
    action: z.literal('assign'),
    order_ids: OrderIds,
    /** A user of the account who picks and packs the orders; null takes them back ("waiting assign"). */
    picker_id: z
      .string({ error: pickerInvalid })
      .trim()
      .min(1, pickerInvalid)
      .max(100, pickerInvalid)
      .nullable(),
    ...key,
  }),
]);
export type ActionBody = z.infer<typeof ActionBody>;

export const ActionResult = z.object({
  order_id: z.string(),
  ok: z.boolean(),
  /** 0, or the refusal's result code. */
  code: z.number().int(),
  msg: z.string(),
  /** Nothing new was recorded: a retry with the same key, or the order was already so. */
  unchanged: z.boolean(),
});
export const ActionAnswer = z.object({
  action: z.enum(BOARD_ACTIONS),
  succeeded: z.number().int(),
  failed: z.number().int(),
  results: z.array(ActionResult),
});
export type ActionAnswer = z.infer<typeof ActionAnswer>;

// ---- shipments the marketplace arranges ----

export const ShippingQuery = z.strictObject({
  order_ids: z
    .string()
    .transform((value) => value.split(',').filter(Boolean))
    .pipe(z.array(OrderId).min(1).max(MAX_ORDERS)),
});

export const ShippingAnswer = z.object({
  orders: z.array(z.object({ order_id: z.string(), marketplace: z.boolean() })),
  /** The pickup addresses the first marketplace order's shop offers ([] when none is the marketplace's). */
  pickup_addresses: z.array(z.object({ id: z.number().int(), address: z.string(), is_default: z.boolean() })),
});
export type ShippingAnswer = z.infer<typeof ShippingAnswer>;

// ---- changes to one order ----

const quantityInvalid = rule(OrderCode.quantityInvalid, 'orders.quantity_invalid_any');

export const SplitBody = z.strictObject({
  lines: z
    .array(
      z.strictObject({
        line_id: z.string().trim().min(1).max(100),
        quantity: z
          .number({ error: quantityInvalid })
          .int(quantityInvalid)
          .min(0, quantityInvalid)
          .max(100_000, quantityInvalid),
      }),
    )
    .max(500),
  idempotency_key: IdempotencyKey.optional(),
});
export type SplitBody = z.infer<typeof SplitBody>;

const replacementNothing = rule(OrderCode.replacementNothing, 'orders.replacement_nothing');
const replacementQuantity = rule(OrderCode.quantityInvalid, 'orders.quantity_invalid_any');

/** A replacement order (spec §4): the original's lines to send again, each with how many (0: not this one). */
export const ReplacementBody = z.strictObject({
  lines: z
    .array(
      z.strictObject({
        line_id: z.string({ error: replacementNothing }).trim().min(1, replacementNothing).max(200),
        quantity: z
          .number({ error: replacementQuantity })
          .int(replacementQuantity)
          .min(0, replacementQuantity)
          .max(100_000, replacementQuantity),
      }),
      { error: replacementNothing },
    )
    .min(1, replacementNothing)
    .max(500, replacementNothing),
  idempotency_key: IdempotencyKey.optional(),
});
export type ReplacementBody = z.infer<typeof ReplacementBody>;

const addressInvalid = (field: string) =>
  rule(OrderCode.addressInvalid, 'orders.address_field_required', { field });
const required = (field: string, max: number) =>
  z
    .string({ error: addressInvalid(field) })
    .trim()
    .min(1, addressInvalid(field))
    .max(max, tooLong);

export const AddressBody = z.strictObject({
  name: required('name', TEXT_LIMITS.name),
  phone: required('phone', TEXT_LIMITS.phone),
  full_address: required('full_address', TEXT_LIMITS.address),
  city: required('city', TEXT_LIMITS.name),
  state: text(TEXT_LIMITS.name, 'state').default(''),
  postal_code: required('postal_code', TEXT_LIMITS.code),
  country: z
    .string({ error: addressInvalid('country') })
    .trim()
    .regex(new RegExp(`^[A-Za-z]{${COUNTRY_CODE_LENGTH}}$`), addressInvalid('country'))
    .transform((code) => code.toUpperCase()),
  district: text(TEXT_LIMITS.name, 'district').optional(),
  barangay: text(TEXT_LIMITS.name, 'barangay').optional(),
  email: z
    .email(rule(OrderCode.addressInvalid, 'orders.email_invalid'))
    .max(TEXT_LIMITS.email, tooLong)
    .optional()
    .or(z.literal('')),
  idempotency_key: IdempotencyKey.optional(),
});
export type AddressBody = z.infer<typeof AddressBody>;

const masterCodeMissing = rule(OrderCode.masterCodeNotFound, 'orders.master_code_not_found');
const MasterCodeId = z
  .string({ error: masterCodeMissing })
  .trim()
  .min(1, masterCodeMissing)
  .max(64, masterCodeMissing);
export const MapBody = z.strictObject({
  master_code_id: MasterCodeId,
  idempotency_key: IdempotencyKey.optional(),
});
export type MapBody = z.infer<typeof MapBody>;
export const RemoveBody = z.strictObject({
  /** Spec §4: remove and mark as out of stock, or remove and mark as stockable. */
  mark: z.enum(['out_of_stock', 'stockable']),
  idempotency_key: IdempotencyKey.optional(),
});
export type RemoveBody = z.infer<typeof RemoveBody>;
export const LineParams = z.strictObject({ id: z.string().max(100), lineId: z.string().max(200) });

const serialInvalid = rule(OrderCode.textInvalid, 'orders.serial_invalid', { max: TEXT_LIMITS.code });
/** A line's bin and serial numbers as the packer records them (each replaces what was recorded). */
export const PackingBody = z.strictObject({
  bin_number: text(TEXT_LIMITS.code, 'bin_number').default(''),
  serial_numbers: z
    .array(
      z.string({ error: serialInvalid }).trim().min(1, serialInvalid).max(TEXT_LIMITS.code, serialInvalid),
      {
        error: serialInvalid,
      },
    )
    .max(MAX_SERIALS, rule(OrderCode.serialsTooMany, 'orders.serials_too_many_any', { max: MAX_SERIALS }))
    .default([]),
  idempotency_key: IdempotencyKey.optional(),
});
export type PackingBody = z.infer<typeof PackingBody>;

const giftQuantity = rule(OrderCode.quantityInvalid, 'orders.gift_quantity_invalid');
/** A free gift added by hand: a master code and how many. */
export const GiftBody = z.strictObject({
  master_code_id: MasterCodeId,
  quantity: z
    .number({ error: giftQuantity })
    .int(giftQuantity)
    .min(1, giftQuantity)
    .max(100_000, giftQuantity),
  idempotency_key: IdempotencyKey.optional(),
});
export type GiftBody = z.infer<typeof GiftBody>;

export const PickerQuery = z.strictObject({
  search: z.string().max(100).optional(),
  limit: z.coerce.number().int().min(1).max(50).default(20),
});
export const PickerRow = z.object({
  id: z.string(),
  code: z.string(),
  name: z.string(),
  type: z.enum(['standard', 'combo']),
  seller_sku: z.string(),
});
