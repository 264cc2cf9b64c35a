import { type ErrorTable, refuser } from '../shared/errors';
import { PushCode } from './codes';

/**
 * # Push rules: what quantity each channel SKU shows
 *
 * The rules sellers know from BigSeller and Ginee, per store and optionally per master code in a store (the SKU's
 * rule replaces the store's whole, it does not blend with it):
 *
 * - the pool: the available quantity (on hand less reserved, in process and holds) summed over the warehouses that
 *   feed the store (`multiple-warehouse-linking`; by default the store's warehouse, else the default warehouse);
 *   a combo's pool is the fewest whole combos its components make: min over components of floor(pool / quantity);
 * - buffer: units kept back from every marketplace (taken off the pool first);
 * - percent of what is left, rounded down, plus a fixed amount (may be negative: "show 2 fewer");
 * - minimum: a quantity below it shows 0 (a store does not sell the last few units it might not have);
 * - maximum: shown at most (absent: no cap);
 * - main store lock: while the pool is below the account's threshold, only the main store shows stock, every
 *   other store 0 — the last units sell where the seller chose.
 *
 * A channel never shows a negative quantity. Pure: the caller brings the figures.
 */

export interface PushRule {
  /** 0–100: the share of the pool (after the buffer) the store shows. */
  percent: number;
  /** Units added after the percentage (negative: taken off). */
  fixed: number;
  /** Units kept back before the percentage. */
  buffer: number;
  /** Below this the store shows 0. */
  minimum: number;
  /** The store shows at most this; null: no cap. */
  maximum: number | null;
}

/** Show everything available: a store without a rule. */
export const DEFAULT_PUSH_RULE: PushRule = { percent: 100, fixed: 0, buffer: 0, minimum: 0, maximum: null };

/** The account's main store lock: below `threshold` units available only `mainStoreId` shows stock. */
export interface MainStoreLock {
  mainStoreId: string;
  threshold: number;
}

export const PUSH_LIMITS = { amount: 1_000_000_000, percent: 100 } as const;

/** The rule that applies to a master code in a store: its own, else the store's, else show everything. */
export function ruleFor(
  storeRule: PushRule | null | undefined,
  skuRule: PushRule | null | undefined,
): PushRule {
  return skuRule ?? storeRule ?? DEFAULT_PUSH_RULE;
}

/** A standard master code's pool: what is available in the warehouses feeding the store, never below 0. */
export function poolOf(availableByWarehouse: readonly number[]): number {
  return Math.max(
    0,
    availableByWarehouse.reduce((sum, quantity) => sum + quantity, 0),
  );
}

/** How many whole combos the components' pools make (a combo without components makes none). */
export function comboPool(components: readonly { pool: number; quantity: number }[]): number {
  if (components.length === 0) return 0;
  let fewest = Number.POSITIVE_INFINITY;
  for (const { pool, quantity } of components) {
    fewest = Math.min(fewest, quantity > 0 ? Math.floor(Math.max(0, pool) / quantity) : 0);
  }
  return fewest;
}

/** The quantity a store shows of a SKU whose pool is `pool`, by `rule` and the account's lock. */
export function quantityToShow(
  pool: number,
  rule: PushRule,
  store: { storeId: string; lock?: MainStoreLock | null },
): number {
  const available = Math.max(0, Math.floor(pool));
  const lock = store.lock;
  if (lock && available < lock.threshold && lock.mainStoreId !== store.storeId) return 0;
  const afterBuffer = Math.max(0, available - rule.buffer);
  // Integer arithmetic first: 0.1 × 30 in floating point would round 3 down to 2.
  let quantity = Math.floor((afterBuffer * Math.round(rule.percent * 100)) / 10_000) + rule.fixed;
  if (rule.maximum !== null) quantity = Math.min(quantity, rule.maximum);
  quantity = Math.min(quantity, afterBuffer);
  if (quantity < rule.minimum) return 0;
  return Math.max(0, quantity);
}

// ---- refusals ----

export const PUSH_RULE_ERRORS = [
  'PERCENT_INVALID',
  'AMOUNT_INVALID',
  'RANGE_INVALID',
  'STORE_NOT_FOUND',
  'MASTER_CODE_NOT_FOUND',
  'WAREHOUSE_NOT_FOUND',
  'WAREHOUSES_REQUIRED',
  'NOTHING_TO_SYNC',
] as const;
export type PushRuleErrorCode = (typeof PUSH_RULE_ERRORS)[number];

export const pushRuleErrors = {
  PERCENT_INVALID: { status: 400, code: PushCode.percentInvalid, key: 'push.rule.percent_invalid' },
  AMOUNT_INVALID: { status: 400, code: PushCode.amountInvalid, key: 'push.rule.amount_invalid' },
  RANGE_INVALID: { status: 400, code: PushCode.rangeInvalid, key: 'push.rule.range_invalid' },
  STORE_NOT_FOUND: { status: 404, code: PushCode.storeNotFound, key: 'push.store_not_found' },
  MASTER_CODE_NOT_FOUND: {
    status: 404,
    code: PushCode.masterCodeNotFound,
    key: 'push.master_code_not_found',
  },
  WAREHOUSE_NOT_FOUND: { status: 404, code: PushCode.warehouseNotFound, key: 'push.warehouse_not_found' },
  WAREHOUSES_REQUIRED: { status: 400, code: PushCode.warehousesRequired, key: 'push.warehouses_required' },
  NOTHING_TO_SYNC: { status: 409, code: PushCode.nothingToSync, key: 'push.nothing_to_sync' },
} satisfies ErrorTable<PushRuleErrorCode>;

export const refusePush = refuser(pushRuleErrors);

/** A rule whose maximum is below its minimum shows nothing ever: refused rather than saved. */
export function checkPushRule(rule: PushRule): void {
  if (rule.maximum !== null && rule.maximum < rule.minimum) throw refusePush('RANGE_INVALID');
}
