import {
  STOCK_RECONCILE_EVERY_MS,
  STOCK_RECONCILE_SCHEDULE,
  STOCK_RECONCILE_WORKFLOW,
} from '@workflows/stock-push-protocol';
import type { WorkflowDeps } from '@workflows/updates';
import { ensureIntervalSchedule } from '../support/schedules';

/** The stock reconciliation's schedule (workflows/stock-reconcile.workflow.ts), hourly. */
export function ensureStockReconcileSchedule(workflows: WorkflowDeps): Promise<void> {
  return ensureIntervalSchedule(workflows, {
    id: STOCK_RECONCILE_SCHEDULE,
    workflowType: STOCK_RECONCILE_WORKFLOW,
    everyMs: STOCK_RECONCILE_EVERY_MS,
  });
}
