import { PushCode } from '@domain/channels/codes';
import { PUSH_FIELDS, PUSH_ORIGINS, PUSH_OUTCOMES } from '@domain/channels/push-log';
import { z } from 'zod';
import { GridPage } from './common';
import { DateFilter, gridQuery, setFilter } from './grid';
import { rule } from './rules';

/**
 * The stock push (domain/channels/stock-push.ts): the stores' push rules and the per-master-code rules that
 * replace them (spec routes /inventory/stock-allocation-store and /inventory/stock-allocation-marketplace), which
 * warehouses feed each store, the main store lock, the push log (/logistic/sync-qty-log) and a manual sync
 * (/inventory/manual-sync-status).
 */

const MAX = 1_000_000_000;
const percentInvalid = rule(PushCode.percentInvalid, 'push.rule.percent_invalid');
const amountInvalid = rule(PushCode.amountInvalid, 'push.rule.amount_invalid');
const Units = z
  .number({ error: amountInvalid })
  .int(amountInvalid)
  .min(0, amountInvalid)
  .max(MAX, amountInvalid);
const Id = z.string().min(1).max(64);

/** A push rule as the console edits it. */
export const PushRuleBody = z.strictObject({
  percent: z
    .number({ error: percentInvalid })
    .min(0, percentInvalid)
    .max(100, percentInvalid)
    // Hundredths at most: what the column keeps.
    .refine((value) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6, percentInvalid),
  fixed: z
    .number({ error: amountInvalid })
    .int(amountInvalid)
    .min(-MAX, amountInvalid)
    .max(MAX, amountInvalid),
  buffer: Units,
  minimum: Units,
  maximum: Units.nullable(),
});
export type PushRuleBody = z.infer<typeof PushRuleBody>;

export const PushRuleAnswer = PushRuleBody;

/** A store on the allocation screen: its rule (null: shows everything), what feeds it, whether it is the main one. */
export const StoreAllocation = z.object({
  store_id: z.string(),
  name: z.string(),
  platform: z.string(),
  status: z.string(),
  rule: PushRuleAnswer.nullable(),
  warehouses: z.array(z.object({ id: z.string(), name: z.string() })),
  /** No warehouse links of its own: fed by its warehouse, else the default one. */
  default_warehouses: z.boolean(),
  is_main: z.boolean(),
});
export type StoreAllocation = z.infer<typeof StoreAllocation>;

export const MainStoreLockBody = z.strictObject({
  main_store_id: Id.nullable(),
  lock_below: Units,
});
export type MainStoreLockBody = z.infer<typeof MainStoreLockBody>;

export const StoreAllocations = z.object({
  stores: z.array(StoreAllocation),
  lock: MainStoreLockBody,
});
export type StoreAllocations = z.infer<typeof StoreAllocations>;

export const StoreParams = z.strictObject({ storeId: Id });
export const StoreRuleBody = z.strictObject({ rule: PushRuleBody.nullable() });
export type StoreRuleBody = z.infer<typeof StoreRuleBody>;

const warehousesRequired = rule(PushCode.warehousesRequired, 'push.warehouses_required');
/** An empty list goes back to the default (the store's warehouse, else the default one). */
export const StoreWarehousesBody = z.strictObject({
  warehouse_ids: z.array(Id, { error: warehousesRequired }).max(50, warehousesRequired),
});
export type StoreWarehousesBody = z.infer<typeof StoreWarehousesBody>;

// ---- per master code ----

export const SkuRuleQuery = gridQuery(['code', 'store'], {}).extend({ store_id: Id.optional() });
export type SkuRuleQuery = z.infer<typeof SkuRuleQuery>;

export const SkuRuleRow = z.object({
  store_id: z.string(),
  store_name: z.string(),
  master_code_id: z.string(),
  code: z.string(),
  name: z.string(),
  rule: PushRuleAnswer,
  updated_at: z.string(),
});
export type SkuRuleRow = z.infer<typeof SkuRuleRow>;
export const SkuRulePage = GridPage(SkuRuleRow);
export type SkuRulePage = z.infer<typeof SkuRulePage>;

export const SkuRuleKey = z.strictObject({ store_id: Id, master_code_id: Id });
export type SkuRuleKey = z.infer<typeof SkuRuleKey>;
export const SkuRuleBody = SkuRuleKey.extend({ rule: PushRuleBody });
export type SkuRuleBody = z.infer<typeof SkuRuleBody>;

// ---- the push log ----

const logRangeInvalid = rule(PushCode.logRangeInvalid, 'push.log.range_invalid');

export const PUSH_LOG_SORTS = ['pushed_at', 'seller_sku', 'quantity', 'price', 'attempt'] as const;
export const PushLogQuery = gridQuery(PUSH_LOG_SORTS, {
  outcome: setFilter(PUSH_OUTCOMES),
  origin: setFilter(PUSH_ORIGINS),
  pushed_at: DateFilter,
})
  .extend({
    store_id: Id.optional(),
    /** Stock pushes or price pushes only; absent: both. */
    field: z.enum(PUSH_FIELDS).optional(),
    /** A seller SKU, or part of one. */
    sku: z.string().max(200).optional(),
    master_code_id: Id.optional(),
    from: z.iso.datetime({ offset: true, error: logRangeInvalid }).optional(),
    to: z.iso.datetime({ offset: true, error: logRangeInvalid }).optional(),
    /** Only the calls the channel refused. */
    failed_only: z.stringbool().optional(),
    /** Only SKUs whose latest try was refused and will be tried again. */
    waiting_only: z.stringbool().optional(),
  })
  .refine((query) => !query.from || !query.to || query.from <= query.to, {
    message: logRangeInvalid,
    path: ['to'],
  });
export type PushLogQuery = z.infer<typeof PushLogQuery>;

export const PushLogRow = z.object({
  id: z.string(),
  store_id: z.string(),
  store_name: z.string().nullable(),
  platform: z.string(),
  field: z.enum(PUSH_FIELDS),
  item_id: z.string(),
  model_id: z.string(),
  seller_sku: z.string(),
  master_code_id: z.string().nullable(),
  master_code: z.string().nullable(),
  quantity: z.number().int().nullable(),
  price: z.string().nullable(),
  origin: z.enum(PUSH_ORIGINS),
  trigger_event_id: z.string().nullable(),
  trigger_type: z.string().nullable(),
  reason: z.string(),
  attempt: z.number().int(),
  outcome: z.enum(PUSH_OUTCOMES),
  answer: z.string(),
  pushed_at: z.string(),
});
export type PushLogRow = z.infer<typeof PushLogRow>;
export const PushLogPage = GridPage(PushLogRow);
export type PushLogPage = z.infer<typeof PushLogPage>;

/** What a store's push has still to tell its channel (its workflow's queue, not the log). */
export const PushQueueQuery = z.strictObject({ store_id: Id });
export type PushQueueQuery = z.infer<typeof PushQueueQuery>;
export const PushQueueAnswer = z.object({
  /** Figures waiting for a call or in one now. */
  waiting: z.number().int(),
  /** SKUs the channel refused for now, waiting out their backoff; `attempt` is the try they wait for. */
  retrying: z.array(
    z.object({
      item_id: z.string(),
      model_id: z.string(),
      seller_sku: z.string(),
      quantity: z.number().int(),
      attempt: z.number().int(),
    }),
  ),
});
export type PushQueueAnswer = z.infer<typeof PushQueueAnswer>;

// ---- manual sync ----

export const ManualSyncBody = z.strictObject({
  store_id: Id,
  /** One master code's SKUs; absent: every linked SKU of the store. */
  master_code_id: Id.optional(),
});
export type ManualSyncBody = z.infer<typeof ManualSyncBody>;
export const ManualSyncAnswer = z.object({ skus: z.number().int() });
export type ManualSyncAnswer = z.infer<typeof ManualSyncAnswer>;

/** Each store's push at a glance: the last call, and what failed or waits in the last day. */
export const SyncStatusRow = z.object({
  store_id: z.string(),
  name: z.string(),
  platform: z.string(),
  status: z.string(),
  linked_skus: z.number().int(),
  last_push_at: z.string().nullable(),
  pushed_today: z.number().int(),
  failed_today: z.number().int(),
  waiting: z.number().int(),
});
export type SyncStatusRow = z.infer<typeof SyncStatusRow>;
export const SyncStatusAnswer = z.object({ stores: z.array(SyncStatusRow) });
export type SyncStatusAnswer = z.infer<typeof SyncStatusAnswer>;
