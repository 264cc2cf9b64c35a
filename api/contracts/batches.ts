import {
  AUTO_BATCH_INTERVALS,
  AUTO_BATCH_NAME_MAX,
  CONDITION_STORES_MAX,
  TIME_PATTERN,
  windowValid,
} from '@domain/batches/auto-batch';
import {
  BATCH_SOURCES,
  BATCH_SPLITS,
  BATCH_STATUSES,
  BATCH_TYPES,
  DIGITS_MAX,
  DIGITS_MIN,
  MAX_ORDERS_LIMIT,
  NAME_MAX,
  PREFIX_MAX,
} from '@domain/batches/batch';
import { BatchCode } from '@domain/batches/codes';
import { PICK_LIST_FILTERS } from '@domain/batches/pick-list';
import { SEPARATION_BYS } from '@domain/batches/separation';
import { PLATFORMS } from '@domain/orders/marketplace-order';
import { ORDER_STATUSES } from '@domain/orders/order';
import { z } from 'zod';
import { isCalendarDay } from './common';
import { DateFilter, gridQuery, setFilter, TextFilter } from './grid';
import { IDEMPOTENCY_KEY_MAX, idempotencyKeyField } from './idempotency';
import { rule } from './rules';

/** Batches, their pick lists and the auto batch configurations (api/orders/batches.ts, batches-settings.ts). */

/** A batch's or a configuration's name. */
export const Name = (max: number) =>
  z
    .string({ error: rule(BatchCode.textInvalid, 'batch.name_invalid') })
    .trim()
    .max(max, rule(BatchCode.textInvalid, 'batch.name_too_long', { max }));

const ordersRequired = rule(BatchCode.ordersRequired, 'batch.orders_required');
export const OrderIds = z
  .array(z.string({ error: ordersRequired }).trim().min(1, ordersRequired).max(100, ordersRequired), {
    error: ordersRequired,
  })
  .min(1, ordersRequired)
  .max(1000, rule(BatchCode.tooManyOrders, 'batch.too_many_orders', { max: 1000 }));

const IdempotencyKey = idempotencyKeyField(
  rule(BatchCode.keyInvalid, 'batch.idempotency_key_invalid', { max: IDEMPOTENCY_KEY_MAX }),
).optional();

const digitsInvalid = rule(BatchCode.digitsInvalid, 'batch.digits_invalid', {
  min: DIGITS_MIN,
  max: DIGITS_MAX,
});
const maxOrdersInvalid = rule(BatchCode.maxOrdersInvalid, 'batch.max_orders_invalid', {
  max: MAX_ORDERS_LIMIT,
});
const dateInvalid = rule(BatchCode.dateInvalid, 'batch.date_invalid');
const prefixInvalid = rule(BatchCode.textInvalid, 'batch.prefix_invalid', { max: PREFIX_MAX });

const whole = (min: number, max: number, error: string) =>
  z.number({ error }).int(error).min(min, error).max(max, error);
const Digits = whole(DIGITS_MIN, DIGITS_MAX, digitsInvalid);
const MaxOrders = whole(1, MAX_ORDERS_LIMIT, maxOrdersInvalid);
/** A prefix is printed on labels and pick lists: letters, digits, dash, slash or underscore. */
const Prefix = z
  .string({ error: prefixInvalid })
  .trim()
  .max(PREFIX_MAX, prefixInvalid)
  .regex(/^[\p{L}\p{N}_/-]*$/u, prefixInvalid);
const Day = z
  .string({ error: dateInvalid })
  .regex(/^\d{4}-\d{2}-\d{2}$/, dateInvalid)
  .refine(isCalendarDay, dateInvalid);
const PickerId = z.string().max(64).nullable();
const BatchTypeField = z.enum(BATCH_TYPES, { error: rule(400, 'batch.type_invalid') });
const SplitField = z.enum(BATCH_SPLITS, { error: rule(400, 'batch.split_invalid') });

export const UserAnswer = z.object({ id: z.string(), name: z.string().nullable() });
export type UserAnswer = z.infer<typeof UserAnswer>;

// ---- the batch list ----

const BATCH_SORTS = [
  'number',
  'label',
  'name',
  'date',
  'status',
  'type',
  'total_orders',
  'created_at',
] as const;
export const BatchListQuery = gridQuery(BATCH_SORTS, {
  label: TextFilter,
  name: TextFilter,
  group: TextFilter,
  status: setFilter(BATCH_STATUSES),
  type: setFilter(BATCH_TYPES),
  created_at: DateFilter,
}).extend({
  status: z.enum(BATCH_STATUSES).optional(),
  picker_id: z.string().max(64).optional(),
});
export type BatchListQuery = z.infer<typeof BatchListQuery>;

export const BatchAnswer = z.object({
  id: z.string(),
  number: z.number().int(),
  label: z.string(),
  name: z.string(),
  type: z.enum(BATCH_TYPES),
  status: z.enum(BATCH_STATUSES),
  picker: UserAnswer.nullable(),
  date: z.string(),
  max_orders: z.number().int(),
  split: z.enum(BATCH_SPLITS),
  group: z.string().nullable(),
  source: z.enum(BATCH_SOURCES),
  config_id: z.string().nullable(),
  total_orders: z.number().int(),
  scanned_orders: z.number().int(),
  created_by: UserAnswer.nullable(),
  created_at: z.string(),
  closed_at: z.string().nullable(),
});
export type BatchAnswer = z.infer<typeof BatchAnswer>;

// ---- one batch ----

export const BatchOrderAnswer = z.object({
  id: z.string(),
  order_number: z.string().nullable(),
  tracking_number: z.string().nullable(),
  status: z.string().nullable(),
  store_id: z.string().nullable(),
  platform: z.string().nullable(),
  shipping_provider: z.string().nullable(),
  payment_method: z.string().nullable(),
  item_count: z.number().int(),
  line_count: z.number().int(),
  scanned_at: z.string().nullable(),
  scanned_by: UserAnswer.nullable(),
  /** The order's scan check, while one is open or done. */
  check: z
    .object({
      status: z.enum(['open', 'completed', 'idle']),
      picker: UserAnswer.nullable(),
      scanned_units: z.number().int(),
      required_units: z.number().int(),
    })
    .nullable(),
});
export type BatchOrderAnswer = z.infer<typeof BatchOrderAnswer>;

export const TimelineAnswer = z.object({
  type: z.string(),
  at: z.string(),
  user: UserAnswer.nullable(),
  data: z.record(z.string(), z.unknown()),
});

export const BatchDetail = BatchAnswer.extend({
  orders: z.array(BatchOrderAnswer),
  timeline: z.array(TimelineAnswer),
});
export type BatchDetail = z.infer<typeof BatchDetail>;

// ---- orders waiting for a batch ----

const WAITING_SORTS = [
  'order_number',
  'paid_at',
  'ordered_at',
  'shipping_provider',
  'payment_method',
] as const;
export const WaitingQuery = gridQuery(WAITING_SORTS, {
  order_number: TextFilter,
  tracking_number: TextFilter,
  shipping_provider: TextFilter,
  payment_method: TextFilter,
  status: setFilter(['new', 'unscan'] as const),
  platform: TextFilter,
  paid_at: DateFilter,
}).extend({
  /** Orders a batch of this type takes: pre-orders for a pre-order batch, the others for a normal one. */
  type: z.enum(BATCH_TYPES).optional(),
  store_id: z.string().max(64).optional(),
});
export type WaitingQuery = z.infer<typeof WaitingQuery>;

export const WaitingRow = z.object({
  id: z.string(),
  order_number: z.string(),
  tracking_number: z.string().nullable(),
  status: z.enum(ORDER_STATUSES),
  store_id: z.string(),
  platform: z.string(),
  shipping_provider: z.string().nullable(),
  payment_method: z.string(),
  pre_order: z.boolean(),
  item_count: z.number().int(),
  line_count: z.number().int(),
  ordered_at: z.string(),
  paid_at: z.string().nullable(),
});
export type WaitingRow = z.infer<typeof WaitingRow>;

export const PickerAnswer = z.object({ id: z.string(), name: z.string(), email: z.string() });
export type PickerAnswer = z.infer<typeof PickerAnswer>;

// ---- making and changing batches ----

export const CreateBatchesBody = z.strictObject({
  order_ids: OrderIds,
  name: Name(NAME_MAX).optional(),
  prefix: Prefix.optional(),
  digits: Digits.optional(),
  type: BatchTypeField.optional(),
  picker_id: PickerId.optional(),
  max_orders: MaxOrders.optional(),
  split: SplitField.optional(),
  date: Day.optional(),
  idempotency_key: IdempotencyKey,
});
export type CreateBatchesBody = z.infer<typeof CreateBatchesBody>;
export const CreatedBatches = z.object({ batches: z.array(BatchDetail) });
export type CreatedBatches = z.infer<typeof CreatedBatches>;
export const BatchOrdersBody = z.strictObject({
  order_ids: OrderIds,
  idempotency_key: IdempotencyKey,
});
export type BatchOrdersBody = z.infer<typeof BatchOrdersBody>;
export const PickerBody = z.strictObject({ picker_id: PickerId, idempotency_key: IdempotencyKey });
export type PickerBody = z.infer<typeof PickerBody>;
export const ActionBody = z.strictObject({ idempotency_key: IdempotencyKey }).optional();
export type ActionBody = z.infer<typeof ActionBody>;

// ---- batch separation ----

const separationByInvalid = rule(400, 'batch.separation.by_invalid');
export const SeparateBody = z
  .strictObject({
    /** How to separate: by store, carrier, payment method, single or multiple items, or the chosen orders. */
    by: z.enum(SEPARATION_BYS, { error: separationByInvalid }),
    /** The orders to move to a batch of their own (by `orders` only). */
    order_ids: OrderIds.optional(),
    idempotency_key: IdempotencyKey,
  })
  .superRefine((body, ctx) => {
    if (body.by === 'orders' && !body.order_ids) {
      ctx.addIssue({ code: 'custom', path: ['order_ids'], message: ordersRequired });
    }
  });
export type SeparateBody = z.infer<typeof SeparateBody>;

// ---- pick lists ----

export const PickListQuery = z.strictObject({
  filter: z.enum(PICK_LIST_FILTERS, { error: rule(400, 'batch.pick_filter_invalid') }).default('item'),
});
export type PickListQuery = z.infer<typeof PickListQuery>;

const PickRowAnswer = z.object({
  key: z.string(),
  master_code_id: z.string().nullable(),
  code: z.string().nullable(),
  seller_sku: z.string(),
  name: z.string(),
  quantity: z.number().int(),
  order_count: z.number().int(),
  order_numbers: z.array(z.string()),
  locations: z.array(z.string()),
  order_number: z.string().nullable(),
  tracking_number: z.string().nullable(),
  /** Free gifts, in rows of their own. */
  gift: z.boolean(),
  bin_numbers: z.array(z.string()),
  serial_numbers: z.array(z.string()),
});

export const PickListAnswer = z.object({
  batch: BatchAnswer.pick({ id: true, label: true, name: true, date: true }).extend({
    picker: z.string().nullable(),
  }),
  filter: z.enum(PICK_LIST_FILTERS),
  rows: z.array(PickRowAnswer),
  total_quantity: z.number().int(),
  order_count: z.number().int(),
});
export type PickListAnswer = z.infer<typeof PickListAnswer>;

// ---- auto batch configurations ----

const intervalInvalid = rule(BatchCode.intervalInvalid, 'batch.interval_invalid');
const timeInvalid = rule(BatchCode.timeInvalid, 'batch.time_invalid');
const conditionInvalid = rule(BatchCode.conditionInvalid, 'batch.condition_invalid');
const Time = z.string({ error: timeInvalid }).regex(TIME_PATTERN, timeInvalid);
/** A list of an extra condition: none by default. */
const conditionList = <T extends z.ZodType>(item: T, max: number) =>
  z.array(item, { error: conditionInvalid }).max(max, conditionInvalid).default([]);

export const AutoBatchConfigBody = z
  .strictObject({
    name: Name(AUTO_BATCH_NAME_MAX).optional(),
    active: z.boolean({ error: rule(400, 'batch.active_invalid') }),
    interval_hours: z.union(
      AUTO_BATCH_INTERVALS.map((hours) => z.literal(hours)),
      { error: intervalInvalid },
    ),
    start_time: Time,
    end_time: Time,
    max_orders: MaxOrders,
    split: SplitField.default('none'),
    type: BatchTypeField.default('normal'),
    condition: z
      .strictObject(
        {
          store_ids: conditionList(
            z.string({ error: conditionInvalid }).max(64, conditionInvalid),
            CONDITION_STORES_MAX,
          ),
          platforms: conditionList(z.enum(PLATFORMS, { error: conditionInvalid }), PLATFORMS.length),
        },
        { error: conditionInvalid },
      )
      .default({ store_ids: [], platforms: [] }),
    prefix: Prefix.optional(),
    digits: Digits.optional(),
    idempotency_key: IdempotencyKey,
  })
  .superRefine((body, ctx) => {
    if (!windowValid(body.start_time, body.end_time)) {
      ctx.addIssue({ code: 'custom', path: ['end_time'], message: timeInvalid });
    }
  });
export type AutoBatchConfigBody = z.infer<typeof AutoBatchConfigBody>;

export const AutoBatchConfigAnswer = z.object({
  id: z.string(),
  name: z.string(),
  active: z.boolean(),
  interval_hours: z.number().int(),
  start_time: z.string(),
  end_time: z.string(),
  max_orders: z.number().int(),
  split: z.enum(BATCH_SPLITS),
  type: z.enum(BATCH_TYPES),
  condition: z.object({ store_ids: z.array(z.string()), platforms: z.array(z.string()) }),
  prefix: z.string(),
  digits: z.number().int(),
  timezone: z.string(),
  /** The times of day its schedule runs, `HH:MM`. */
  times: z.array(z.string()),
  /** Orders waiting for it now (in its largest group when it splits). */
  waiting_orders: z.number().int(),
  last_run_at: z.string().nullable(),
  last_batch_count: z.number().int().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type AutoBatchConfigAnswer = z.infer<typeof AutoBatchConfigAnswer>;

export const DeletedConfig = z.object({ id: z.string() });
export type DeletedConfig = z.infer<typeof DeletedConfig>;

export const AutoBatchRunAnswer = z.object({
  batches: z.array(z.object({ id: z.string(), label: z.string(), orders: z.number() })),
});
export type AutoBatchRunAnswer = z.infer<typeof AutoBatchRunAnswer>;
