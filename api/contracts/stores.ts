import { IMPORT_INTERVAL, STORE_NAME_MAX, StoreCode } from '@domain/platform/stores';
import { z } from 'zod';
import { ErrorAnswer } from './common';
import { rule } from './rules';

/** Settings → store integration: a store as the console shows it, its changes, and connecting one. */

export const StoreErrorView = z.object({ kind: z.string(), message: z.string(), at: z.string() });

export const StoreView = z.object({
  id: z.string(),
  platform: z.string(),
  name: z.string(),
  shop_id: z.number(),
  region: z.string(),
  status: z.enum(['connected', 'error', 'disconnected']),
  /** The warehouse its orders go to (null: the account's default). */
  warehouse: z.object({ id: z.string(), code: z.string(), name: z.string() }).nullable(),
  import_interval_minutes: z.number().int(),
  last_import_at: z.string().nullable(),
  last_import_orders: z.number().int().nullable(),
  /** Every order updated before this instant is imported. */
  import_checkpoint: z.string().nullable(),
  last_error: StoreErrorView.nullable(),
  connected_at: z.string(),
  disconnected_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  /** The store's import schedule, as Temporal has it (null: not reachable now, or not made yet). */
  schedule: z
    .object({
      paused: z.boolean(),
      importing: z.boolean(),
      next_import_at: z.string().nullable(),
    })
    .nullable(),
});
export type StoreView = z.infer<typeof StoreView>;

const interval = rule(StoreCode.intervalInvalid, 'store.interval_invalid', {
  min: IMPORT_INTERVAL.min,
  max: IMPORT_INTERVAL.max,
});
const name = rule(StoreCode.nameInvalid, 'store.name_invalid', { max: STORE_NAME_MAX });

export const StoreChangesBody = z.strictObject({
  name: z.string({ error: name }).trim().min(1, name).max(STORE_NAME_MAX, name).optional(),
  import_interval_minutes: z
    .number({ error: interval })
    .int(interval)
    .min(IMPORT_INTERVAL.min, interval)
    .max(IMPORT_INTERVAL.max, interval)
    .optional(),
  /** null: the account's default warehouse. */
  warehouse_id: z.string().max(64).nullable().optional(),
});
export type StoreChangesBody = z.infer<typeof StoreChangesBody>;

// ---- connecting a store ----

export const StorePlatformParams = z.strictObject({ platform: z.string().max(40) });

export const AuthorizeAnswer = z.object({ url: z.string(), expires_at: z.string() });
export type AuthorizeAnswer = z.infer<typeof AuthorizeAnswer>;

export const CallbackQuery = z.object({
  code: z.string().max(256).optional(),
  shop_id: z.string().max(32).optional(),
  state: z.string().max(2048).optional(),
});
export type CallbackQuery = z.infer<typeof CallbackQuery>;

/** The callback's answer (spec §3 "Callback result"): `error` 0, the store in `api_id`. */
export const CallbackAnswer = z.object({
  code: z.literal(0),
  msg: z.string(),
  error: z.literal(0),
  api_id: z.string(),
  data: z.object({ store: StoreView, reconnected: z.boolean() }),
});
export type CallbackAnswer = z.infer<typeof CallbackAnswer>;

/** A refused callback: `error` 1 and no store; a refusal of the session check has the usual shape. */
export const CallbackRefusal = ErrorAnswer.extend({
  error: z.literal(1).optional(),
  api_id: z.null().optional(),
});
export type CallbackRefusal = z.infer<typeof CallbackRefusal>;
