import {
  MAX_LINES,
  MAX_QUANTITY,
  REASON_MAX,
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

/** The requests and answers of the transfer stock routes (api/transfers/): requests, transfers, lists, pickers. */

// ---- bodies ----

const idInvalid = rule(400, 'transfer.id_invalid');
/** An id in a body; one that is not a uuid is looked up all the same and found missing (404). */
const RefId = z.string({ error: idInvalid }).trim().min(1, idInvalid).max(64, idInvalid);

/** A key per field: a rule's parameters are those of its first naming. */
const text = (max: number, field: 'reference' | 'remark') =>
  z
    .string({ error: rule(TransferCode.textInvalid, 'transfer.text_invalid', { field }) })
    .trim()
    .max(max, rule(TransferCode.textInvalid, `transfer.${field}_too_long`));

/** A line: a master code and a whole number of pieces from `min`, else `message`. */
const line = (min: number, message: string) =>
  z.strictObject({
    master_code_id: RefId,
    quantity: z.number({ error: message }).int(message).min(min, message).max(MAX_QUANTITY, message),
  });

/** 1 to MAX_LINES lines, else `message`. */
const lines = (item: ReturnType<typeof line>, message: string) =>
  z.array(item, { error: message }).min(1, message).max(MAX_LINES, message);

/** Every write's optional idempotency key (the header's, when both are given, must agree). */
const withKey = {
  idempotency_key: idempotencyKeyField(
    rule(TransferCode.keyInvalid, 'transfer.idempotency_key_invalid', { max: IDEMPOTENCY_KEY_MAX }),
  ).optional(),
};

const quantityInvalid = rule(TransferCode.quantityInvalid, 'transfer.quantity_invalid', {
  max: MAX_QUANTITY,
});
const linesRequired = rule(TransferCode.linesRequired, 'transfer.lines_required', { max: MAX_LINES });

/** Each master code once: every repeat named by its line. */
function noRepeatedMasterCode(body: { lines: { master_code_id: string }[] }, ctx: z.RefinementCtx) {
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
}

const documentLines = lines(line(1, quantityInvalid), linesRequired);

/** A request or a transfer: from, to, reference, remark and lines (the same fields for both, spec §3). */
export const TransferDocumentBody = z
  .strictObject({
    from_warehouse_id: RefId,
    to_warehouse_id: RefId,
    reference: text(REFERENCE_MAX, 'reference').optional(),
    remark: text(REMARK_MAX, 'remark').optional(),
    lines: documentLines,
    ...withKey,
  })
  .superRefine(noRepeatedMasterCode);
export type TransferDocumentBody = z.infer<typeof TransferDocumentBody>;

const revisionInvalid = rule(400, 'transfer.revision_invalid');

/**
 * A pending transfer edited: its lines, destination and remark (left out: unchanged) replace the ones it had, made
 * against the `revision` its detail answered — changed since, the edit is refused (409, code 519).
 */
export const EditTransferBody = z
  .strictObject({
    revision: z.number({ error: revisionInvalid }).int(revisionInvalid).min(0, revisionInvalid),
    to_warehouse_id: RefId,
    remark: text(REMARK_MAX, 'remark').optional(),
    lines: documentLines,
    ...withKey,
  })
  .superRefine(noRepeatedMasterCode);
export type EditTransferBody = z.infer<typeof EditTransferBody>;

/** Lines to check against what a place has on hand, before a document is made or edited. */
export const ShortfallCheckBody = z
  .strictObject({ from_warehouse_id: RefId, lines: documentLines })
  .superRefine(noRepeatedMasterCode);
export type ShortfallCheckBody = z.infer<typeof ShortfallCheckBody>;

const reasonRequired = rule(TransferCode.rejectReasonRequired, 'transfer.reject_reason_required');
const reasonTooLong = rule(TransferCode.textInvalid, 'transfer.reason_too_long');

export const RejectRequestBody = z.strictObject({
  reason: z.string({ error: reasonRequired }).trim().min(1, reasonRequired).max(REASON_MAX, reasonTooLong),
  ...withKey,
});
export type RejectRequestBody = z.infer<typeof RejectRequestBody>;

/** An action without fields of its own: approve, cancel a request; confirm, ship, return the rest. */
export const TransferActionBody = z.strictObject(withKey).optional();
export type TransferActionBody = z.infer<typeof TransferActionBody>;

const receiptQuantity = rule(TransferCode.quantityInvalid, 'transfer.receipt_quantity_invalid', {
  max: MAX_QUANTITY,
});
export const ReceiveTransferBody = z.strictObject({
  lines: lines(line(0, receiptQuantity), rule(TransferCode.receiptInvalid, 'transfer.nothing_to_receive')),
  ...withKey,
});
export type ReceiveTransferBody = z.infer<typeof ReceiveTransferBody>;

export const CancelTransferBody = z
  .strictObject({
    reason: z
      .string({ error: rule(TransferCode.textInvalid, 'transfer.text_invalid', { field: 'reason' }) })
      .trim()
      .max(REASON_MAX, reasonTooLong)
      .optional(),
    ...withKey,
  })
  .optional();
export type CancelTransferBody = z.infer<typeof CancelTransferBody>;

// ---- answers: the documents ----

/** A master code or a place a document names (code and name null when it is gone). */
export const MasterCodeAnswer = z.object({
  id: z.string(),
  code: z.string().nullable(),
  name: z.string().nullable(),
});
export type MasterCodeAnswer = z.infer<typeof MasterCodeAnswer>;
const PlaceKind = z.enum(['warehouse', 'branch']);
export const PlaceAnswer = MasterCodeAnswer.extend({ kind: PlaceKind.nullable() });
export type PlaceAnswer = z.infer<typeof PlaceAnswer>;
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

/** A line asking for more than the source has on hand: shipping it would be refused (409, code 513). */
export const ShortfallAnswer = z.object({
  master_code: MasterCodeAnswer,
  quantity: z.number().int(),
  on_hand: z.number().int(),
});
export type ShortfallAnswer = z.infer<typeof ShortfallAnswer>;

const Stamp = z.object({ by: UserAnswer.nullable(), at: z.string().nullable() });
export type Stamp = z.infer<typeof Stamp>;

const int = z.number().int();
const at = z.string().nullable();
const by = UserAnswer.nullable();

/** What a request's list row and detail both show. */
const requestHead = {
  id: z.string(),
  reference: z.string(),
  status: z.enum(REQUEST_STATUSES),
  from_warehouse: PlaceAnswer,
  to_warehouse: PlaceAnswer,
  remark: z.string(),
  reject_reason: z.string().nullable(),
};

/** What a transfer's list row and detail both show. */
const transferHead = {
  id: z.string(),
  reference: z.string(),
  request_id: z.string().nullable(),
  status: z.enum(TRANSFER_STATUSES),
  confirmed: z.boolean(),
  from_warehouse: PlaceAnswer,
  to_warehouse: PlaceAnswer,
  remark: z.string(),
  cancel_reason: z.string().nullable(),
};

export const RequestDetail = z.object({
  ...requestHead,
  transfer_id: z.string().nullable(),
  lines: z.array(z.object({ master_code: MasterCodeAnswer, quantity: int })),
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
  ...transferHead,
  lines: z.array(
    z.object({
      master_code: MasterCodeAnswer,
      quantity: int,
      shipped: int,
      received: int,
      returned: int,
      in_transit: int,
    }),
  ),
  created: Stamp,
  confirmed_stamp: Stamp,
  shipped: Stamp,
  received: Stamp,
  cancelled: Stamp,
  completed: Stamp,
  timeline: z.array(TimelineAnswer),
  /** Every master code and place the timeline names, those an edit replaced included. */
  mentioned: z.object({ master_codes: z.array(MasterCodeAnswer), places: z.array(PlaceAnswer) }),
  /** The actions the transfer's state allows now (the domain's `allowedActions`): the console's buttons. */
  actions: z.array(z.enum(TRANSFER_ACTIONS)),
  /** The revision read: an edit sends it back, and is refused if the transfer changed since. */
  revision: int,
  /** While pending: each line asking for more than the source has on hand now (warned, not refused). */
  shortfalls: z.array(ShortfallAnswer),
});
export type TransferDetail = z.infer<typeof TransferDetail>;

// ---- the lists ----

const textFilters = { reference: TextFilter, remark: TextFilter, from: TextFilter, to: TextFilter };
/** One place: the source, the destination, or either end. */
const placeId = z.string().max(64).optional();
const placeFilters = { from_warehouse_id: placeId, to_warehouse_id: placeId, warehouse_id: placeId };

export const RequestListQuery = gridQuery(
  ['reference', 'from', 'to', 'status', 'total_quantity', 'created_at', 'updated_at'],
  { ...textFilters, status: setFilter(REQUEST_STATUSES), created_at: DateFilter },
).extend({ ...placeFilters, status: z.enum(REQUEST_STATUSES).optional() });
export type RequestListQuery = z.infer<typeof RequestListQuery>;

export const TransferListQuery = gridQuery(
  [
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
  ],
  { ...textFilters, status: setFilter(TRANSFER_STATUSES), created_at: DateFilter, shipped_at: DateFilter },
).extend({ ...placeFilters, status: z.enum(TRANSFER_STATUSES).optional() });
export type TransferListQuery = z.infer<typeof TransferListQuery>;

export const RequestListRow = z.object({
  ...requestHead,
  line_count: int,
  total_quantity: int,
  transfer_id: z.string().nullable(),
  created_by: by,
  created_at: z.string(),
  approved_at: at,
  rejected_at: at,
  cancelled_at: at,
  updated_at: z.string(),
});
export type RequestListRow = z.infer<typeof RequestListRow>;

export const TransferListRow = z.object({
  ...transferHead,
  line_count: int,
  total_quantity: int,
  shipped_quantity: int,
  received_quantity: int,
  returned_quantity: int,
  in_transit_quantity: int,
  created_by: by,
  created_at: z.string(),
  shipped_by: by,
  shipped_at: at,
  received_by: by,
  received_at: at,
  cancelled_by: by,
  cancelled_at: at,
  completed_at: at,
  updated_at: z.string(),
});
export type TransferListRow = z.infer<typeof TransferListRow>;

// ---- the pickers ----

const picked = { id: z.string(), code: z.string(), name: z.string() };
export const PickerPlace = z.object({ ...picked, kind: PlaceKind });
export type PickerPlace = z.infer<typeof PickerPlace>;
export const PickerMasterCode = z.object({ ...picked, status: z.enum(['active', 'inactive']) });
export type PickerMasterCode = z.infer<typeof PickerMasterCode>;

export const PickerSearchQuery = z.strictObject({
  search: z.string().max(100).optional(),
  limit: z.coerce.number().int().min(1).max(50).default(20),
});
export type PickerSearchQuery = z.infer<typeof PickerSearchQuery>;
