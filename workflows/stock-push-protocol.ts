import { defineQuery, defineSignal } from '@temporalio/workflow';
import type { PushTrigger } from '../domain/channels/push-log';

/**
 * What the stock push workflow (stock-push.workflow.ts), its activities (activities/stock-push.ts), the reactor and
 * the API share. No node imports: the workflow bundle takes it too.
 */

export const STOCK_PUSH_WORKFLOW = 'stockPushWorkflow';
export const STOCK_RECONCILE_WORKFLOW = 'stockReconcileWorkflow';
/** One schedule for the installation: each run reconciles every connected store. */
export const STOCK_RECONCILE_SCHEDULE = 'stock-reconcile';
export const STOCK_RECONCILE_EVERY_MS = 60 * 60 * 1000;

/** One workflow per store: every figure for the store's SKUs goes to it. */
export const stockPushWorkflowId = (tenantId: string, storeId: string) => `stock-push-${tenantId}-${storeId}`;

/** A SKU's key within its store. */
export const skuKey = (figure: { itemId: string; modelId: string }) => `${figure.itemId}/${figure.modelId}`;

/** The quantity a channel SKU should show, and how new that knowledge is. */
export interface StockFigure {
  itemId: string;
  /** '' for an item without variants. */
  modelId: string;
  sellerSku: string;
  masterCodeId: string | null;
  quantity: number;
  /**
   * The log position (commit, as a decimal string) the figure was computed at or after: a figure never replaces a
   * newer one, so a late or replayed signal cannot push a stale number after a fresh one.
   */
  version: string;
  trigger: PushTrigger;
  /** Push even when the channel was last told this very quantity (manual sync, drift found). */
  force?: boolean;
}

export const stockFiguresSignal = defineSignal<[StockFigure[]]>('stockPush.figures');

/** What the push log screen shows as waiting: figures not yet taken by the channel. */
export interface PushQueueState {
  waiting: number;
  retrying: { itemId: string; modelId: string; sellerSku: string; quantity: number; attempt: number }[];
}
export const pushQueueQuery = defineQuery<PushQueueState>('stockPush.queue');

export interface StockPushInput {
  tenantId: string;
  storeId: string;
  /** Tests shorten these; production uses the defaults of the workflow. */
  timing?: PushTiming;
  /** Carried over a continue-as-new. */
  carried?: { pending: PendingFigure[]; answered: Record<string, Answered> };
}

/** A SKU's figure the channel answered: the quantity it took, or null when it was given up on. */
export interface Answered {
  version: string;
  quantity: number | null;
}

export interface PushTiming {
  /** How long a burst gathers before a call. */
  coalesceMs: number;
  /** The first retry's wait; it doubles up to maxBackoffMs. */
  backoffMs: number;
  maxBackoffMs: number;
  /** Tries before a retryable refusal is given up on (logged as failed; the reconciliation corrects it later). */
  maxAttempts: number;
}

export interface PendingFigure extends StockFigure {
  attempt: number;
  /** Workflow time (ms) before which it is not tried again. */
  notBefore: number;
}

/** One SKU's result of a push call. */
export interface PushLineResult {
  itemId: string;
  modelId: string;
  ok: boolean;
  retryable: boolean;
  retryAfterMs?: number;
}

export interface PushBatchInput {
  tenantId: string;
  storeId: string;
  /** Unique per call within the workflow: the log event's id derives from it, so a retried activity logs once. */
  callId: string;
  figures: PendingFigure[];
  /** The try after which a retryable refusal is given up. */
  maxAttempts: number;
}

export type PushBatchResult = { lines: PushLineResult[] } | { storeGone: true };
