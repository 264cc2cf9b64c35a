import type { ErrorTable } from '../shared/errors';
import { TEXT_LIMITS } from '../shared/limits';
import type { BatchSplit, BatchType } from './batch';
import { BatchCode } from './codes';

/**
 * An auto batch configuration (spec §3 "Auto batch", §4, §9): active or not, every 1 or 2 hours between a start and
 * an end time of day (in the account's time zone), at most so many orders per batch, split by logistics or payment
 * method or not, and an extra condition (only some stores or platforms). While active, a schedule runs its workflow
 * at each time of the window and batches the orders waiting then; and when the orders waiting for it reach the
 * maximum, a batch is made at once (spec §4: "Auto batch creates a new batch when the order count reaches the
 * maximum or the scheduled time is reached"). Two configurations that would batch the same orders the same way are
 * one too many: "Duplicate config" (spec §5).
 */

export const AUTO_BATCH_INTERVALS = [1, 2] as const;
export type AutoBatchInterval = (typeof AUTO_BATCH_INTERVALS)[number];

export const AUTO_BATCH_NAME_MAX = TEXT_LIMITS.name;
export const CONDITION_STORES_MAX = 20;

export interface AutoBatchCondition {
  /** Only orders of these stores (none: every store). */
  storeIds: string[];
  /** Only orders of these platforms (none: every platform). */
  platforms: string[];
}

export interface AutoBatchConfig {
  name: string;
  active: boolean;
  intervalHours: AutoBatchInterval;
  /** `HH:MM`, 24-hour, in `timezone`. */
  startTime: string;
  endTime: string;
  maxOrders: number;
  split: BatchSplit;
  type: BatchType;
  condition: AutoBatchCondition;
  prefix: string;
  digits: number;
  timezone: string;
}

export const TIME_PATTERN = /^([01]\d|2[0-3]):([0-5]\d)$/;

export const minutesOf = (time: string): number => {
  const match = TIME_PATTERN.exec(time);
  if (!match) return Number.NaN;
  return Number(match[1]) * 60 + Number(match[2]);
};

/** The window is a span of one day: it starts before it ends. */
export const windowValid = (startTime: string, endTime: string) => {
  const start = minutesOf(startTime);
  const end = minutesOf(endTime);
  return Number.isFinite(start) && Number.isFinite(end) && start < end;
};

/**
 * The times of day the schedule fires: the start, then every interval, up to and including the end
 * (09:00–18:00 every 2 hours: 09:00, 11:00, 13:00, 15:00, 17:00).
 */
export function scheduleTimes(config: Pick<AutoBatchConfig, 'intervalHours' | 'startTime' | 'endTime'>) {
  const start = minutesOf(config.startTime);
  const end = minutesOf(config.endTime);
  const times: { hour: number; minute: number }[] = [];
  if (!(start < end)) return times;
  for (let at = start; at <= end; at += config.intervalHours * 60) {
    times.push({ hour: Math.floor(at / 60), minute: at % 60 });
  }
  return times;
}

/**
 * What makes two configurations the same: what they batch and how — not their name, nor whether they are active.
 * Store ids and platforms count as sets.
 */
export function autoBatchFingerprint(
  config: Pick<
    AutoBatchConfig,
    'intervalHours' | 'startTime' | 'endTime' | 'maxOrders' | 'split' | 'type' | 'condition'
  >,
): string {
  const set = (values: readonly string[]) => [...new Set(values.map((v) => v.trim().toLowerCase()))].sort();
  return JSON.stringify([
    config.intervalHours,
    config.startTime,
    config.endTime,
    config.maxOrders,
    config.split,
    config.type,
    set(config.condition.storeIds),
    set(config.condition.platforms),
  ]);
}

/** Where an account's day is, by its country (Malaysia first); anything else keeps Malaysia's. */
export const COUNTRY_ZONES: Record<string, string> = {
  MY: 'Asia/Kuala_Lumpur',
  SG: 'Asia/Singapore',
  TH: 'Asia/Bangkok',
  PH: 'Asia/Manila',
  ID: 'Asia/Jakarta',
  VN: 'Asia/Ho_Chi_Minh',
  TW: 'Asia/Taipei',
  CN: 'Asia/Shanghai',
  IN: 'Asia/Kolkata',
  HK: 'Asia/Hong_Kong',
};
export const timezoneOfCountry = (country: string | null | undefined) =>
  COUNTRY_ZONES[(country ?? '').toUpperCase()] ?? 'Asia/Kuala_Lumpur';

/** The calendar day of an instant in a time zone, `yyyy-mm-dd`. */
export function dayIn(timezone: string, at: Date): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: timezone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(at);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

// ---- refusals ----

/** What saving or running a configuration refuses. */
export const AUTO_BATCH_ERRORS = [
  'CONFIG_NOT_FOUND',
  /** Another configuration batches the same orders the same way ("Duplicate config"). */
  'DUPLICATE_CONFIG',
  'CONFIG_INACTIVE',
  /** The extra condition names a store the account does not have. */
  'CONDITION_INVALID',
  /** The schedules cannot be saved now: the workflows are away. */
  'WORKFLOWS_UNAVAILABLE',
] as const;
export type AutoBatchErrorCode = (typeof AUTO_BATCH_ERRORS)[number];

export const autoBatchErrors = {
  CONFIG_NOT_FOUND: { status: 404, code: 404, key: 'common.no_record_found' },
  DUPLICATE_CONFIG: { status: 409, code: BatchCode.duplicateConfig, key: 'batch.duplicate_config' },
  CONFIG_INACTIVE: { status: 409, code: 409, key: 'batch.config_inactive' },
  CONDITION_INVALID: { status: 400, code: BatchCode.conditionInvalid, key: 'batch.condition_invalid' },
  WORKFLOWS_UNAVAILABLE: { status: 503, code: 503, key: 'common.workflows_unavailable' },
} satisfies ErrorTable<AutoBatchErrorCode>;
