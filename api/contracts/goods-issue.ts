import { MAX_LAYERS } from '@domain/approvals/layers';
import { GinCode } from '@domain/goods-issue/codes';
import {
  GIN_MAX_LINES,
  GIN_MAX_QUANTITY,
  GIN_REASON_MAX,
  GIN_REFERENCE_MAX,
  GIN_REMARK_MAX,
} from '@domain/goods-issue/decider';
import { z } from 'zod';
import { gridQuery, setFilter, TextFilter } from './grid';
import { rule } from './rules';

/** The requests and answers of the goods issue note routes (api/goods-issue/) and of the approval settings. */

// ---- bodies ----

const text = (code: number, key: string, max: number, tooLong: string) =>
  z
    .string({ error: rule(code, key) })
    .trim()
    .max(max, rule(code, tooLong, { max }));
/** A text that must be given: `key` when it is missing or blank. */
const required = (code: number, key: string, max: number, tooLong: string) =>
  text(code, key, max, tooLong).min(1, rule(code, key));
/** A whole number from 1 to `max`, else `message`. */
const count = (max: number, message: string) =>
  z.number({ error: message }).int(message).min(1, message).max(max, message);
/** An id in a body: 1 to 64 characters. */
const id = (message: string, tooLong = message) =>
  z.string({ error: message }).min(1, message).max(64, tooLong);

const GoodsIssueLineBody = z.strictObject({
  master_code_id: id(rule(GinCode.masterCodeNotFound, 'goods_issue.master_code_required')),
  quantity: count(GIN_MAX_QUANTITY, rule(GinCode.quantityInvalid, 'goods_issue.quantity_invalid')),
});

const linesRequired = rule(GinCode.linesInvalid, 'goods_issue.lines_required');

export const GoodsIssueBody = z.strictObject({
  warehouse_id: id(
    rule(GinCode.warehouseNotFound, 'goods_issue.warehouse_required'),
    rule(GinCode.warehouseNotFound, 'goods_issue.warehouse_not_found'),
  ),
  reference: required(
    GinCode.referenceInvalid,
    'goods_issue.reference_required',
    GIN_REFERENCE_MAX,
    'goods_issue.reference_too_long',
  ),
  reason: required(
    GinCode.reasonInvalid,
    'goods_issue.reason_required',
    GIN_REASON_MAX,
    'goods_issue.reason_too_long',
  ),
  remark: text(GinCode.textInvalid, 'goods_issue.text_invalid', GIN_REMARK_MAX, 'goods_issue.remark_too_long')
    .optional()
    .default(''),
  lines: z
    .array(GoodsIssueLineBody, { error: linesRequired })
    .min(1, linesRequired)
    .max(GIN_MAX_LINES, rule(GinCode.linesInvalid, 'goods_issue.too_many_lines', { max: GIN_MAX_LINES })),
});
export type GoodsIssueBody = z.infer<typeof GoodsIssueBody>;

const Layer = count(3, rule(GinCode.layerOutOfOrder, 'goods_issue.layer_required'));

export const ApproveGoodsIssueBody = z.strictObject({ layer: Layer });
export type ApproveGoodsIssueBody = z.infer<typeof ApproveGoodsIssueBody>;

export const RejectGoodsIssueBody = z.strictObject({
  layer: Layer,
  reason: required(
    GinCode.rejectReasonRequired,
    'goods_issue.reject_reason_required',
    GIN_REASON_MAX,
    'goods_issue.reject_reason_too_long',
  ),
});
export type RejectGoodsIssueBody = z.infer<typeof RejectGoodsIssueBody>;

export const CancelGoodsIssueBody = z
  .strictObject({
    reason: text(
      GinCode.textInvalid,
      'goods_issue.text_invalid',
      GIN_REASON_MAX,
      'goods_issue.cancel_reason_too_long',
    )
      .optional()
      .default(''),
  })
  .nullish();
export type CancelGoodsIssueBody = z.infer<typeof CancelGoodsIssueBody>;

// ---- approval settings ----

export const REMINDER_MAX_MINUTES = 10_080;
const settingsInvalid = (key: string) => rule(GinCode.settingsInvalid, key);

export const ApprovalSettingsBody = z.strictObject({
  layers: count(MAX_LAYERS, settingsInvalid('goods_issue.settings.layers_invalid')),
  reminder_minutes: count(REMINDER_MAX_MINUTES, settingsInvalid('goods_issue.settings.reminder_invalid')),
  allow_same_approver: z.boolean({ error: settingsInvalid('goods_issue.settings.same_approver_invalid') }),
});
export type ApprovalSettingsBody = z.infer<typeof ApprovalSettingsBody>;

export const ApprovalSettingsAnswer = z.object({
  layers: z.number(),
  reminder_minutes: z.number(),
  allow_same_approver: z.boolean(),
  updated_at: z.string().nullable(),
});
export type ApprovalSettingsAnswer = z.infer<typeof ApprovalSettingsAnswer>;

// ---- the list ----

export const GIN_SORT_COLUMNS = [
  'reference',
  'status',
  'warehouse',
  'total_quantity',
  'created_at',
  'updated_at',
] as const;

const StatusList = z
  .string()
  .max(20)
  .regex(/^[1-5](,[1-5])*$/)
  .transform((text) => [...new Set(text.split(',').map(Number))]);

export const GoodsIssueListQuery = gridQuery(GIN_SORT_COLUMNS, {
  reference: TextFilter,
  reason: TextFilter,
  status: setFilter(['1', '2', '3', '4', '5']),
}).extend({
  /** Comma list of statuses 1–5. */
  status: StatusList.optional(),
  warehouse_id: z.string().max(64).optional(),
  waiting_for_me: z.enum(['true', 'false']).optional(),
});
export type GoodsIssueListQuery = z.infer<typeof GoodsIssueListQuery>;

const Named = z.object({ id: z.string(), name: z.string() });
const Coded = z.object({ id: z.string(), code: z.string(), name: z.string() });
const at = z.string().nullable();

export const GoodsIssueListRow = z.object({
  id: z.string(),
  reference: z.string(),
  reason: z.string(),
  status: z.number(),
  warehouse: Coded,
  layers: z.number().nullable(),
  current_layer: z.number().nullable(),
  line_count: z.number(),
  total_quantity: z.number(),
  issue_failed: z.boolean(),
  created_by: Named,
  created_at: z.string(),
  updated_at: z.string(),
  waiting_for_me: z.boolean(),
});
export type GoodsIssueListRow = z.infer<typeof GoodsIssueListRow>;

// ---- one note ----

const StockLine = z.object({ master_code: Coded, quantity: z.number(), on_hand: z.number() });
export type GoodsIssueStockLine = z.infer<typeof StockLine>;

export const ApprovalStep = z.object({
  layer: z.number(),
  state: z.enum(['approved', 'rejected', 'waiting', 'not_reached']),
  by: Named.nullable(),
  at,
  reason: z.string().nullable(),
});
export type ApprovalStep = z.infer<typeof ApprovalStep>;

export const GoodsIssueTimelineItem = z.object({
  type: z.string(),
  at: z.string(),
  by: Named.nullable(),
  layer: z.number().nullable(),
  reason: z.string().nullable(),
  /** Who a reminder mailed. */
  recipients: z.array(z.string()),
  /** The lines issued, or short of stock. */
  lines: z.array(StockLine),
});
export type GoodsIssueTimelineItem = z.infer<typeof GoodsIssueTimelineItem>;

/** What the caller may do now: approve/reject name the layer they would act at. */
const GoodsIssueActions = z.object({
  edit: z.boolean(),
  submit: z.boolean(),
  approve: z.number().nullable(),
  reject: z.number().nullable(),
  cancel: z.boolean(),
  retry: z.boolean(),
});

const issued = z.object({ at: z.string(), lines: z.array(StockLine) }).nullable();

export const GoodsIssueDetail = z.object({
  id: z.string(),
  reference: z.string(),
  reason: z.string(),
  remark: z.string(),
  status: z.number(),
  warehouse: Coded,
  lines: z.array(z.object({ master_code: Coded, quantity: z.number() })),
  total_quantity: z.number(),
  created_by: Named,
  created_at: z.string(),
  updated_at: z.string(),
  submitted_at: at,
  approval: ApprovalSettingsAnswer.omit({ updated_at: true })
    .extend({ current_layer: z.number().nullable(), steps: z.array(ApprovalStep) })
    .nullable(),
  cancellation: z.object({ by: Named, at: z.string(), reason: z.string() }).nullable(),
  issue: z.object({ attempt: z.number(), failure: issued, issued }),
  timeline: z.array(GoodsIssueTimelineItem),
  actions: GoodsIssueActions,
});
export type GoodsIssueDetail = z.infer<typeof GoodsIssueDetail>;
