import { z } from 'zod';
import { MAX_LAYERS, MIN_LAYERS } from '../approvals/layers';
import {
  GIN_MAX_LINES,
  GIN_MAX_QUANTITY,
  GIN_REASON_MAX,
  GIN_REFERENCE_MAX,
  GIN_REMARK_MAX,
  type GinEventData,
  type GinEventType,
} from './decider';

/** The schemas of the goods issue note's events (decider.ts): what the event store accepts. */

const Id = z.string().min(1).max(100);
const At = z.iso.datetime({ offset: true });
const Layer = z.number().int().min(MIN_LAYERS).max(MAX_LAYERS);
const Line = z.strictObject({ masterCodeId: Id, quantity: z.number().int().min(1).max(GIN_MAX_QUANTITY) });
const StockLine = z.strictObject({
  masterCodeId: Id,
  quantity: z.number().int().min(1).max(GIN_MAX_QUANTITY),
  onHand: z.number().int(),
});
const Fields = {
  warehouseId: Id,
  reference: z.string().min(1).max(GIN_REFERENCE_MAX),
  reason: z.string().min(1).max(GIN_REASON_MAX),
  remark: z.string().max(GIN_REMARK_MAX),
  lines: z.array(Line).min(1).max(GIN_MAX_LINES),
};
const Settings = z.strictObject({
  layers: Layer,
  reminderSeconds: z.number().int().min(1),
  allowSameApprover: z.boolean(),
});

export const GinCreated = z.strictObject({ ...Fields, ginId: Id, createdBy: Id, at: At });
export const GinEdited = z.strictObject({ ...Fields, userId: Id, at: At });
export const GinSubmitted = z.strictObject({ userId: Id, at: At, settings: Settings });
export const GinLayerApproved = z.strictObject({ layer: Layer, userId: Id, at: At, final: z.boolean() });
export const GinRejected = z.strictObject({
  layer: Layer,
  userId: Id,
  at: At,
  reason: z.string().min(1).max(GIN_REASON_MAX),
});
export const GinCancelled = z.strictObject({ userId: Id, at: At, reason: z.string().max(GIN_REASON_MAX) });
export const GinApprovalReminded = z.strictObject({
  layer: Layer,
  reminder: z.number().int().min(1),
  recipients: z.array(Id).max(1000),
  at: At,
});
export const GinIssueFailed = z.strictObject({
  attempt: z.number().int().min(1),
  at: At,
  lines: z.array(StockLine).min(1).max(GIN_MAX_LINES),
});
export const GinIssueRetried = z.strictObject({ attempt: z.number().int().min(2), userId: Id, at: At });
export const GinCompleted = z.strictObject({
  attempt: z.number().int().min(1),
  at: At,
  lines: z.array(StockLine).min(1).max(GIN_MAX_LINES),
});

export const goodsIssueEvents = {
  GinCreated,
  GinEdited,
  GinSubmitted,
  GinLayerApproved,
  GinRejected,
  GinCancelled,
  GinApprovalReminded,
  GinIssueFailed,
  GinIssueRetried,
  GinCompleted,
} as const satisfies Record<GinEventType, z.ZodType>;

// The schemas and the decider's event types describe the same data.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Schemas = { [Type in GinEventType]: z.infer<(typeof goodsIssueEvents)[Type]> };
export const schemasMatchEvents: {
  [Type in GinEventType]: Same<Schemas[Type], GinEventData[Type]>;
} = {
  GinCreated: true,
  GinEdited: true,
  GinSubmitted: true,
  GinLayerApproved: true,
  GinRejected: true,
  GinCancelled: true,
  GinApprovalReminded: true,
  GinIssueFailed: true,
  GinIssueRetried: true,
  GinCompleted: true,
};
