import {
  ORDER_HOLD_RELEASE_EVERY_MS,
  ORDER_HOLD_RELEASE_SCHEDULE,
  ORDER_HOLD_RELEASE_WORKFLOW,
} from '@workflows/order-hold-release-protocol';
import type { WorkflowDeps } from '@workflows/updates';
import { ensureIntervalSchedule } from '../support/schedules';

/**
 * The schedule that releases held orders (commands/orders/monthly-limit.ts) when a new month starts or a larger
 * package lets them in: one for the installation, made (or brought in line) when the worker starts.
 */
export function ensureHoldReleaseSchedule(workflows: WorkflowDeps): Promise<void> {
  return ensureIntervalSchedule(workflows, {
    id: ORDER_HOLD_RELEASE_SCHEDULE,
    workflowType: ORDER_HOLD_RELEASE_WORKFLOW,
    everyMs: ORDER_HOLD_RELEASE_EVERY_MS,
  });
}
