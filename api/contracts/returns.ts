import { ReturnCode } from '@domain/returns/codes';
import { ITEM_CONDITIONS, RETURN_ACTIONS, RETURN_LIMITS } from '@domain/returns/return';
import { TEXT_LIMITS } from '@domain/shared/limits';
import { z } from 'zod';
import { DateFilter, gridQuery, setFilter } from './grid';
import { idempotencyKeyField } from './idempotency';
import { rule } from './rules';

/**
 * Returns of marketplace orders (api/orders/returns.ts; the console's web/src/api/returns.ts by z.infer). Zod only.
 * Result codes: domain/returns/codes.ts.
 */

const money = (code: number, key: string) =>
  z
    .union([z.string(), z.number()], { error: rule(code, key) })
    .transform((value) => (typeof value === 'number' ? value.toFixed(2) : value.trim()))
    .pipe(
      z
        .string()
        .min(1, rule(code, key))
        .regex(/^\d{1,10}(\.\d{1,2})?$/, rule(ReturnCode.amountInvalid, 'returns.amount_invalid')),
    );

const orderRequired = rule(ReturnCode.returnLineInvalid, 'returns.order_required');
const lineInvalid = rule(ReturnCode.returnLineInvalid, 'returns.line_invalid');
const quantityInvalid = rule(ReturnCode.returnLineInvalid, 'returns.quantity_invalid_plain');
const itemsRequired = rule(ReturnCode.returnItemsRequired, 'returns.items_required');
const refundReasonRequired = rule(ReturnCode.refundReasonRequired, 'returns.refund_reason_required');
const reasonTooLong = rule(ReturnCode.returnTextTooLong, 'returns.reason_too_long', {
  max: RETURN_LIMITS.reason,
});
const imageNotFound = rule(ReturnCode.imageNotFound, 'returns.image_not_found');

export const ReturnBody = z.strictObject({
  order_id: z.string({ error: orderRequired }).min(1, orderRequired).max(100, orderRequired),
  lines: z
    .array(
      z.strictObject({
        line_id: z.string({ error: lineInvalid }).min(1, lineInvalid).max(200, lineInvalid),
        quantity: z
          .number({ error: quantityInvalid })
          .int(quantityInvalid)
          .min(1, quantityInvalid)
          .max(100_000, quantityInvalid),
        condition: z.enum(ITEM_CONDITIONS, {
          error: rule(ReturnCode.returnActionInvalid, 'returns.condition_invalid'),
        }),
      }),
      { error: itemsRequired },
    )
    .min(1, itemsRequired)
    .max(RETURN_LIMITS.lines, itemsRequired),
  refund_to_buyer: money(ReturnCode.refundRequired, 'returns.refund_required'),
  include_shipping: z.boolean({
    error: rule(ReturnCode.includeShippingRequired, 'returns.include_shipping_required'),
  }),
  refund_reason: z
    .string({ error: refundReasonRequired })
    .trim()
    .min(1, refundReasonRequired)
    .max(
      RETURN_LIMITS.refundReason,
      rule(ReturnCode.returnTextTooLong, 'returns.refund_reason_too_long', {
        max: RETURN_LIMITS.refundReason,
      }),
    ),
  action: z.enum(RETURN_ACTIONS, { error: rule(ReturnCode.returnActionInvalid, 'returns.action_invalid') }),
  reason: z
    .string({ error: reasonTooLong })
    .trim()
    .max(RETURN_LIMITS.reason, reasonTooLong)
    .optional()
    .default(''),
  reversal_item_price: money(ReturnCode.amountInvalid, 'returns.amount_invalid').nullish(),
  images: z
    .array(z.uuid({ error: imageNotFound }), { error: imageNotFound })
    .max(
      RETURN_LIMITS.images,
      rule(ReturnCode.imageNotFound, 'returns.too_many_images', { max: RETURN_LIMITS.images }),
    )
    .optional()
    .default([]),
  /** The same as an `Idempotency-Key` header (which wins when both are given and agree). */
  idempotency_key: idempotencyKeyField(
    rule(ReturnCode.idempotencyKeyInvalid, 'returns.idempotency_key_invalid'),
  ).optional(),
});

const Named = z.object({ id: z.string(), code: z.string(), name: z.string() });

/** What a return and the order looked up show of each order line. */
const LineFields = {
  line_id: z.string(),
  sku: z.string(),
  seller_sku: z.string(),
  name: z.string(),
  variation: z.string().nullable(),
  quantity: z.number().int(),
  unit_price: z.string(),
};

/** What a return records of the refund, as the list and the detail show it. */
const RefundFields = {
  action: z.enum(RETURN_ACTIONS),
  reason: z.string(),
  refund_to_buyer: z.string(),
  include_shipping: z.boolean(),
  refund_reason: z.string(),
  reversal_item_price: z.string(),
  currency: z.string(),
};

/** The return and its order, as the list and the detail show them. */
const ReturnOf = {
  id: z.string(),
  order_id: z.string(),
  order_number: z.string(),
  tracking_number: z.string().nullable(),
  platform: z.string(),
};
const CreatedBy = z.object({ id: z.string(), name: z.string() }).nullable();

export const ReturnDetail = z.object({
  ...ReturnOf,
  warehouse: Named.nullable(),
  ...RefundFields,
  completed: z.boolean(),
  lines: z.array(
    z.object({
      ...LineFields,
      condition: z.enum(ITEM_CONDITIONS),
      master_code: Named.nullable(),
      restocked: z.number().int(),
    }),
  ),
  images: z.array(z.object({ id: z.string(), content_type: z.string(), bytes: z.number().int() })),
  created_by: CreatedBy,
  created_at: z.string().nullable(),
});

export const OrderLookup = z.object({
  order_id: z.string(),
  order_number: z.string(),
  tracking_number: z.string().nullable(),
  status: z.string(),
  platform: z.string(),
  currency: z.string(),
  total_amount: z.string(),
  shipping_fee: z.string().nullable(),
  returnable: z.boolean(),
  return_id: z.string().nullable(),
  lines: z.array(
    z.object({
      ...LineFields,
      mapped: z.boolean(),
      combo: z.boolean(),
    }),
  ),
});

export const LIST_SORT = ['created_at', 'order_number', 'refund_to_buyer', 'total_quantity'] as const;
export const ReturnsQuery = gridQuery(LIST_SORT, {
  action: setFilter(RETURN_ACTIONS),
  completed: setFilter(['true', 'false']),
  created_at: DateFilter,
}).extend({ order_id: z.string().max(100).optional() });

export const ReturnRow = z.object({
  ...ReturnOf,
  ...RefundFields,
  line_count: z.number().int(),
  total_quantity: z.number().int(),
  restocked_quantity: z.number().int(),
  image_count: z.number().int(),
  completed: z.boolean(),
  created_by: CreatedBy,
  created_at: z.string(),
});

export type ReturnBody = z.infer<typeof ReturnBody>;
export type ReturnDetail = z.infer<typeof ReturnDetail>;
export type OrderLookup = z.infer<typeof OrderLookup>;
export type ReturnsQuery = z.infer<typeof ReturnsQuery>;
export type ReturnRow = z.infer<typeof ReturnRow>;

export const LookupQuery = z.strictObject({
  /** An order number or a tracking number. */
  q: z.string().trim().max(TEXT_LIMITS.reference).optional(),
  order_id: z.string().max(100).optional(),
});
export type LookupQuery = z.infer<typeof LookupQuery>;
