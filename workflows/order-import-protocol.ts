/**
 * What the order import workflow (order-import.workflow.ts), its activities (activities/order-import.ts) and the API
 * (api/stores/) share: the workflow's name, its input and result, and the store's schedule id. No node imports:
 * the workflow bundle takes it too.
 */

export const ORDER_IMPORT_WORKFLOW = 'orderImportWorkflow';

/**
 * The store's import key: the id of its Temporal schedule (each run is `<key>-<time>`), and the prefix of the
 * command ids the import gives each order, so an order's version is imported under one id whichever run does it.
 */
export const orderImportKey = (tenantId: string, storeId: string) => `order-import-${tenantId}-${storeId}`;

/** Shopee's get_order_list window: at most 15 days. */
export const IMPORT_WINDOW_SECONDS = 15 * 24 * 60 * 60;

export interface OrderImportRetry {
  initialIntervalMs: number;
  maximumIntervalMs: number;
  maximumAttempts: number;
}

export interface ImportTotals {
  /** Orders read from the marketplace (an order read twice counts twice). */
  orders: number;
  created: number;
  updated: number;
  unchanged: number;
  /** Orders that could not be imported (their error is on the store). */
  skipped: number;
}

/** Where a run is, carried over a continue-as-new: the window being read and the page cursor within it. */
export interface ImportProgress {
  /** Unix seconds: the window being read starts here; the run reads up to `until`. */
  from: number;
  until: number;
  cursor: string;
  totals: ImportTotals;
  /** Orders skipped so far, as "<order_sn>: <why>" (the first few): named on the store when the run ends. */
  problems: string[];
}

export interface OrderImportInput {
  tenantId: string;
  storeId: string;
  /** The activities' retries (default: activities/order-import.ts DEFAULT_RETRY). */
  retry?: OrderImportRetry;
  /** Set by the workflow itself when it continues as new. */
  progress?: ImportProgress;
}

export interface OrderImportResult {
  status: 'imported' | 'failed' | 'skipped';
  totals: ImportTotals;
  /** Why nothing was read (skipped): the store is gone or disconnected. */
  reason?: 'missing' | 'disconnected';
  error?: { kind: string; message: string };
}

/** The failure type of an activity that found the store disconnected (or gone): the run ends quietly. */
export const STORE_GONE = 'STORE_GONE';

export const noTotals = (): ImportTotals => ({ orders: 0, created: 0, updated: 0, unchanged: 0, skipped: 0 });
