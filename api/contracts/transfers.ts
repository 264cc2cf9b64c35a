import {
  MAX_LINES,
  MAX_QUANTITY,
  REFERENCE_MAX,
  REMARK_MAX,
  REQUEST_ACTIONS,
  REQUEST_STATUSES,
  TRANSFER_ACTIONS,
  TRANSFER_STATUSES,
  TransferCode,
} from '@domain/transfers/rules';
import { z } from 'zod';
import { DateFilter, gridQuery, setFilter, TextFilter } from './grid';
import { IDEMPOTENCY_KEY_MAX, idempotencyKeyField } from './idempotency';
import { rule } from './rules';

/**
 * Every request and answer of the transfer stock routes (api/transfers/): transfer requests, transfers, their
 * lists and the pickers of their forms. Zod only: the routes, the OpenAPI document, the console and the tests
 * read the same shapes.
 */

// ---- bodies ----

const quantityInvalid = rule(TransferCode.quantityInvalid, 'transfer.quantity_invalid', {
  max: MAX_QUANTITY,
});
const idInvalid = rule(400, 'transfer.id_invalid');

/** An id in a body; one that is not a uuid is looked up all the same and found missing (404). */
export const RefId = z.string({ error: idInvalid }).trim().min(1, idInvalid).max(64, idInvalid);

const text = (max: number, field: string) =>
  z
    .string({ error: rule(TransferCode.textInvalid, 'transfer.text_invalid', { field }) })
    .trim()
    .max(max, rule(TransferCode.textInvalid, 'transfer.too_long', { field, max }));

export const TransferLineBody = z.strictObject({
  master_code_id: RefId,
  quantity: z
    .number({ error: quantityInvalid })
    .int(quantityInvalid)
    .min(1, quantityInvalid)
    .max(MAX_QUANTITY, quantityInvalid),
});
export type TransferLineBody = z.infer<typeof TransferLineBody>;

const linesRequired = rule(TransferCode.linesRequired, 'transfer.lines_required', { max: MAX_LINES });

export const IdempotencyKey = idempotencyKeyField(
  rule(TransferCode.keyInvalid, 'transfer.idempotency_key_invalid', { max: IDEMPOTENCY_KEY_MAX }),
);

/** A request or a transfer: from, to, reference, remark and lines (the same fields for both, spec §3). */
export const TransferDocumentBody = z
  .strictObject({
    from_warehouse_id: RefId,
    to_warehouse_id: RefId,
    reference: text(REFERENCE_MAX, 'reference').optional(),
    remark: text(REMARK_MAX, 'remark').optional(),
    lines: z
      .array(TransferLineBody, { error: linesRequired })
      .min(1, linesRequired)
      .max(MAX_LINES, linesRequired),
    idempotency_key: IdempotencyKey.optional(),
  })
  .superRefine((body, ctx) => {
    if (body.from_warehouse_id.toLowerCase() === body.to_warehouse_id.toLowerCase()) {
      ctx.addIssue({
        code: 'custom',
        path: ['to_warehouse_id'],
        message: rule(TransferCode.sameBranch, 'transfer.same_branch'),
      });
    }
    const seen = new Set<string>();
    body.lines.forEach((line, index) => {
      const id = line.master_code_id.toLowerCase();
      if (seen.has(id)) {
        ctx.addIssue({
          code: 'custom',
          path: ['lines', index, 'master_code_id'],
          message: rule(TransferCode.masterCodeRepeated, 'transfer.master_code_repeated', {
            index: index + 1,
          }),
        });
      }
      seen.add(id);
    });
  });
export type TransferDocumentBody = z.infer<typeof TransferDocumentBody>;

const reasonRequired = rule(TransferCode.rejectReasonRequired, 'transfer.reject_reason_required');
const reasonTooLong = rule(TransferCode.textInvalid, 'transfer.too_long', {
  field: 'reason',
  max: REMARK_MAX,
});

export const RejectRequestBody = z.strictObject({
  reason: z.string({ error: reasonRequired }).trim().min(1, reasonRequired).max(REMARK_MAX, reasonTooLong),
  idempotency_key: IdempotencyKey.optional(),
});
export type RejectRequestBody = z.infer<typeof RejectRequestBody>;

/** An action without fields of its own: approve, cancel a request; confirm, ship, return the rest. */
export const TransferActionBody = z.strictObject({ idempotency_key: IdempotencyKey.optional() }).optional();
export type TransferActionBody = z.infer<typeof TransferActionBody>;

const receiptQuantity = rule(TransferCode.quantityInvalid, 'transfer.receipt_quantity_invalid', {
  max: MAX_QUANTITY,
});
const receiptRequired = rule(TransferCode.receiptInvalid, 'transfer.nothing_to_receive');
export const ReceiveTransferBody = z.strictObject({
  lines: z
    .array(
      z.strictObject({
        master_code_id: RefId,
        quantity: z
          .number({ error: receiptQuantity })
          .int(receiptQuantity)
          .min(0, receiptQuantity)
          .max(MAX_QUANTITY, receiptQuantity),
      }),
      { error: receiptRequired },
    )
    .min(1, receiptRequired)
    .max(MAX_LINES, receiptRequired),
  idempotency_key: IdempotencyKey.optional(),
});
export type ReceiveTransferBody = z.infer<typeof ReceiveTransferBody>;

export const CancelTransferBody = z
  .strictObject({
    reason: z
      .string({ error: rule(TransferCode.textInvalid, 'transfer.text_invalid', { field: 'reason' }) })
      .trim()
      .max(REMARK_MAX, reasonTooLong)
      .optional(),
    idempotency_key: IdempotencyKey.optional(),
  })
  .optional();
export type CancelTransferBody = z.infer<typeof CancelTransferBody>;

// ---- answers: the documents ----

export const PlaceAnswer = z.object({
  id: z.string(),
  code: z.string().nullable(),
  name: z.string().nullable(),
  kind: z.enum(['warehouse', 'branch']).nullable(),
});
export type PlaceAnswer = z.infer<typeof PlaceAnswer>;

export const MasterCodeAnswer = z.object({
  id: z.string(),
  code: z.string().nullable(),
  name: z.string().nullable(),
});
export type MasterCodeAnswer = z.infer<typeof MasterCodeAnswer>;
export const UserAnswer = z.object({ id: z.string(), name: z.string().nullable() });
export type UserAnswer = z.infer<typeof UserAnswer>;

export const TimelineAnswer = z.object({
  /** The event: TransferRequestCreated, TransferShipped, TransferStepRecorded… */
  type: z.string(),
  at: z.string(),
  user: UserAnswer.nullable(),
  /** The event's data as recorded (ids of master codes and places: named in the document's lines and places). */
  data: z.record(z.string(), z.unknown()),
});
export type TimelineAnswer = z.infer<typeof TimelineAnswer>;

const Stamp = z.object({ by: UserAnswer.nullable(), at: z.string().nullable() });
export type Stamp = z.infer<typeof Stamp>;

export const RequestDetail = z.object({
  id: z.string(),
  reference: z.string(),
  status: z.enum(REQUEST_STATUSES),
  from_warehouse: PlaceAnswer,
  to_warehouse: PlaceAnswer,
  remark: z.string(),
  reject_reason: z.string().nullable(),
  transfer_id: z.string().nullable(),
  lines: z.array(z.object({ master_code: MasterCodeAnswer, quantity: z.number().int() })),
  created: Stamp,
  approved: Stamp,
  rejected: Stamp,
  cancelled: Stamp,
  timeline: z.array(TimelineAnswer),
  /** The actions the request's status allows now (the domain's `allowedRequestActions`): the console's buttons. */
  actions: z.array(z.enum(REQUEST_ACTIONS)),
});
export type RequestDetail = z.infer<typeof RequestDetail>;

/** An approved request, and the transfer its approval made. */
export const ApprovedRequest = RequestDetail.extend({ transfer_id: z.string() });
export type ApprovedRequest = z.infer<typeof ApprovedRequest>;

export const TransferDetail = z.object({
  id: z.string(),
  reference: z.string(),
  request_id: z.string().nullable(),
  status: z.enum(TRANSFER_STATUSES),
  confirmed: z.boolean(),
  from_warehouse: PlaceAnswer,
  to_warehouse: PlaceAnswer,
  remark: z.string(),
  cancel_reason: z.string().nullable(),
  lines: z.array(
    z.object({
      master_code: MasterCodeAnswer,
      quantity: z.number().int(),
      shipped: z.number().int(),
      received: z.number().int(),
      returned: z.number().int(),
      in_transit: z.number().int(),
    }),
  ),
  created: Stamp,
  confirmed_stamp: Stamp,
  shipped: Stamp,
  received: Stamp,
  cancelled: Stamp,
  completed: Stamp,
  timeline: z.array(TimelineAnswer),
  /** The actions the transfer's state allows now (the domain's `allowedActions`): the console's buttons. */
  actions: z.array(z.enum(TRANSFER_ACTIONS)),
});
export type TransferDetail = z.infer<typeof TransferDetail>;

// ---- the lists ----

const placeFilters = {
  /** One place: the source, the destination, or either end. */
  from_warehouse_id: z.string().max(64).optional(),
  to_warehouse_id: z.string().max(64).optional(),
  warehouse_id: z.string().max(64).optional(),
};

export const REQUEST_SORTS = [
  'reference',
  'from',
  'to',
  'status',
  'total_quantity',
  'created_at',
  'updated_at',
] as const;
export const RequestListQuery = gridQuery(REQUEST_SORTS, {
  reference: TextFilter,
  remark: TextFilter,
  from: TextFilter,
  to: TextFilter,
  status: setFilter(REQUEST_STATUSES),
  created_at: DateFilter,
}).extend({ ...placeFilters, status: z.enum(REQUEST_STATUSES).optional() });
export type RequestListQuery = z.infer<typeof RequestListQuery>;

export const TRANSFER_SORTS = [
  'reference',
  'from',
  'to',
  'status',
  'total_quantity',
  'received_quantity',
  'created_at',
  'shipped_at',
  'received_at',
  'updated_at',
] as const;
export const TransferListQuery = gridQuery(TRANSFER_SORTS, {
  reference: TextFilter,
  remark: TextFilter,
  from: TextFilter,
  to: TextFilter,
  status: setFilter(TRANSFER_STATUSES),
  created_at: DateFilter,
  shipped_at: DateFilter,
}).extend({ ...placeFilters, status: z.enum(TRANSFER_STATUSES).optional() });
export type TransferListQuery = z.infer<typeof TransferListQuery>;

export const RequestListRow = z.object({
  id: z.string(),
  reference: z.string(),
  status: z.enum(REQUEST_STATUSES),
  from_warehouse: PlaceAnswer,
  to_warehouse: PlaceAnswer,
  remark: z.string(),
  reject_reason: z.string().nullable(),
  line_count: z.number().int(),
  total_quantity: z.number().int(),
  transfer_id: z.string().nullable(),
  created_by: UserAnswer.nullable(),
  created_at: z.string(),
  approved_at: z.string().nullable(),
  rejected_at: z.string().nullable(),
  cancelled_at: z.string().nullable(),
  updated_at: z.string(),
});
export type RequestListRow = z.infer<typeof RequestListRow>;

export const TransferListRow = z.object({
  id: z.string(),
  reference: z.string(),
  request_id: z.string().nullable(),
  status: z.enum(TRANSFER_STATUSES),
  confirmed: z.boolean(),
  from_warehouse: PlaceAnswer,
  to_warehouse: PlaceAnswer,
  remark: z.string(),
  cancel_reason: z.string().nullable(),
  line_count: z.number().int(),
  total_quantity: z.number().int(),
  shipped_quantity: z.number().int(),
  received_quantity: z.number().int(),
  returned_quantity: z.number().int(),
  in_transit_quantity: z.number().int(),
  created_by: UserAnswer.nullable(),
  created_at: z.string(),
  shipped_by: UserAnswer.nullable(),
  shipped_at: z.string().nullable(),
  received_by: UserAnswer.nullable(),
  received_at: z.string().nullable(),
  cancelled_by: UserAnswer.nullable(),
  cancelled_at: z.string().nullable(),
  completed_at: z.string().nullable(),
  updated_at: z.string(),
});
export type TransferListRow = z.infer<typeof TransferListRow>;

// ---- the pickers ----

export const PickerPlace = z.object({
  id: z.string(),
  code: z.string(),
  name: z.string(),
  kind: z.enum(['warehouse', 'branch']),
});
export type PickerPlace = z.infer<typeof PickerPlace>;

export const PickerMasterCode = z.object({
  id: z.string(),
  code: z.string(),
  name: z.string(),
  status: z.enum(['active', 'inactive']),
});
export type PickerMasterCode = z.infer<typeof PickerMasterCode>;

export const PickerSearchQuery = z.strictObject({
  search: z.string().max(100).optional(),
  limit: z.coerce.number().int().min(1).max(50).default(20),
});
export type PickerSearchQuery = z.infer<typeof PickerSearchQuery>;
