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

/**
 * Every request and answer of the goods issue note routes (api/goods-issue/) and of the approval settings. Zod
 * only: the routes, the OpenAPI document, the console and the tests read the same shapes.
 */

// ---- bodies ----

const text = (code: number, key: string, max: number, tooLong: string) =>
  z
    .string({ error: rule(code, key) })
    .trim()
    .max(max, rule(code, tooLong, { max }));

const masterCodeRequired = rule(GinCode.masterCodeNotFound, 'goods_issue.master_code_required');
const quantityInvalid = rule(GinCode.quantityInvalid, 'goods_issue.quantity_invalid');

export const GoodsIssueLineBody = z.strictObject({
  master_code_id: z
    .string({ error: masterCodeRequired })
    .min(1, masterCodeRequired)
    .max(64, masterCodeRequired),
  quantity: z
    .number({ error: quantityInvalid })
    .int(quantityInvalid)
    .min(1, quantityInvalid)
    .max(GIN_MAX_QUANTITY, quantityInvalid),
});

const warehouseRequired = rule(GinCode.warehouseNotFound, 'goods_issue.warehouse_required');
const linesRequired = rule(GinCode.linesInvalid, 'goods_issue.lines_required');

export const GoodsIssueBody = z.strictObject({
  warehouse_id: z
    .string({ error: warehouseRequired })
    .min(1, warehouseRequired)
    .max(64, rule(GinCode.warehouseNotFound, 'goods_issue.warehouse_not_found')),
  reference: text(
    GinCode.referenceInvalid,
    'goods_issue.reference_required',
    GIN_REFERENCE_MAX,
    'goods_issue.reference_too_long',
  ).min(1, rule(GinCode.referenceInvalid, 'goods_issue.reference_required')),
  reason: text(
    GinCode.reasonInvalid,
    'goods_issue.reason_required',
    GIN_REASON_MAX,
    'goods_issue.reason_too_long',
  ).min(1, rule(GinCode.reasonInvalid, 'goods_issue.reason_required')),
  remark: text(GinCode.textInvalid, 'goods_issue.text_invalid', GIN_REMARK_MAX, 'goods_issue.remark_too_long')
    .optional()
    .default(''),
  lines: z
    .array(GoodsIssueLineBody, { error: linesRequired })
    .min(1, linesRequired)
    .max(GIN_MAX_LINES, rule(GinCode.linesInvalid, 'goods_issue.too_many_lines', { max: GIN_MAX_LINES })),
});
export type GoodsIssueBody = z.infer<typeof GoodsIssueBody>;

const layerRequired = rule(GinCode.layerOutOfOrder, 'goods_issue.layer_required');
const Layer = z
  .number({ error: layerRequired })
  .int(layerRequired)
  .min(1, layerRequired)
  .max(3, layerRequired);

export const ApproveGoodsIssueBody = z.strictObject({ layer: Layer });
export type ApproveGoodsIssueBody = z.infer<typeof ApproveGoodsIssueBody>;

export const RejectGoodsIssueBody = z.strictObject({
  layer: Layer,
  reason: text(
    GinCode.rejectReasonRequired,
    'goods_issue.reject_reason_required',
    GIN_REASON_MAX,
    'goods_issue.reject_reason_too_long',
  ).min(1, rule(GinCode.rejectReasonRequired, 'goods_issue.reject_reason_required')),
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
const layersInvalid = settingsInvalid('goods_issue.settings.layers_invalid');
const reminderInvalid = settingsInvalid('goods_issue.settings.reminder_invalid');

export const ApprovalSettingsBody = z.strictObject({
  layers: z
    .number({ error: layersInvalid })
    .int(layersInvalid)
    .min(1, layersInvalid)
    .max(MAX_LAYERS, layersInvalid),
  reminder_minutes: z
    .number({ error: reminderInvalid })
    .int(reminderInvalid)
    .min(1, reminderInvalid)
    .max(REMINDER_MAX_MINUTES, reminderInvalid),
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

export const GoodsIssueListRow = z.object({
  id: z.string(),
  reference: z.string(),
  reason: z.string(),
  status: z.number(),
  warehouse: z.object({ id: z.string(), code: z.string(), name: z.string() }),
  layers: z.number().nullable(),
  current_layer: z.number().nullable(),
  line_count: z.number(),
  total_quantity: z.number(),
  issue_failed: z.boolean(),
  created_by: z.object({ id: z.string(), name: z.string() }),
  created_at: z.string(),
  updated_at: z.string(),
  waiting_for_me: z.boolean(),
});
export type GoodsIssueListRow = z.infer<typeof GoodsIssueListRow>;

// ---- one note ----

const Named = z.object({ id: z.string(), name: z.string() });
const Coded = z.object({ id: z.string(), code: z.string(), name: z.string() });
const StockLine = z.object({ master_code: Coded, quantity: z.number(), on_hand: z.number() });
export type GoodsIssueStockLine = z.infer<typeof StockLine>;

export const ApprovalStep = z.object({
  layer: z.number(),
  state: z.enum(['approved', 'rejected', 'waiting', 'not_reached']),
  by: Named.nullable(),
  at: z.string().nullable(),
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
export const GoodsIssueActions = z.object({
  edit: z.boolean(),
  submit: z.boolean(),
  approve: z.number().nullable(),
  reject: z.number().nullable(),
  cancel: z.boolean(),
  retry: z.boolean(),
});
export type GoodsIssueActions = z.infer<typeof GoodsIssueActions>;

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
  submitted_at: z.string().nullable(),
  approval: z
    .object({
      layers: z.number(),
      reminder_minutes: z.number(),
      allow_same_approver: z.boolean(),
      current_layer: z.number().nullable(),
      steps: z.array(ApprovalStep),
    })
    .nullable(),
  cancellation: z.object({ by: Named, at: z.string(), reason: z.string() }).nullable(),
  issue: z.object({
    attempt: z.number(),
    failure: z.object({ at: z.string(), lines: z.array(StockLine) }).nullable(),
    issued: z.object({ at: z.string(), lines: z.array(StockLine) }).nullable(),
  }),
  timeline: z.array(GoodsIssueTimelineItem),
  actions: GoodsIssueActions,
});
export type GoodsIssueDetail = z.infer<typeof GoodsIssueDetail>;
