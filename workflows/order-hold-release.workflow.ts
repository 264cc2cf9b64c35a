import { proxyActivities } from '@temporalio/workflow';
import type { createOrderHoldActivities } from './activities/order-hold';
import type { OrderHoldReleaseResult } from './order-hold-release-protocol';

type OrderHoldActivities = ReturnType<typeof createOrderHoldActivities>;

const { releaseHeldOrdersEverywhere } = proxyActivities<OrderHoldActivities>({
  startToCloseTimeout: '10 minutes',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

/**
 * One round of the monthly order limit's release (commands/orders/monthly-limit.ts), run by the schedule
 * `order-hold-release`: every account with held orders lets in those its limit allows now. The activity may be
 * retried, or the round cut short and run again: a release already recorded is not recorded twice.
 */
export async function orderHoldReleaseWorkflow(): Promise<OrderHoldReleaseResult> {
  return releaseHeldOrdersEverywhere();
}
