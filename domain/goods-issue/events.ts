import { z } from 'zod';
import { MAX_LAYERS, MIN_LAYERS } from '../approvals/layers';
import {
  GIN_MAX_LINES,
  GIN_MAX_QUANTITY,
  GIN_REASON_MAX,
  GIN_REFERENCE_MAX,
  GIN_REMARK_MAX,
} from './decider';

/**
 * The goods issue note's events, described once: their schemas (what the event store accepts) and, inferred from
 * them, the types the decider (decider.ts) records and folds.
 */

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
} as const;

export type GinEventType = keyof typeof goodsIssueEvents;
export type GinEventData = { [Type in GinEventType]: z.infer<(typeof goodsIssueEvents)[Type]> };
export type GinEvent = { [Type in GinEventType]: { type: Type; data: GinEventData[Type] } }[GinEventType];
export const GIN_EVENT_TYPES = Object.keys(goodsIssueEvents) as GinEventType[];
