import { announceHeldOrders } from '@commands/announcements/order-limit';
import { accountsWithHeldOrders, releaseHeldOrders } from '@commands/orders/monthly-limit';
import type { OrderHoldReleaseResult } from '../order-hold-release-protocol';
import type { ActivityDeps } from './index';

/**
 * The held orders' release round (workflows/order-hold-release.workflow.ts): account by account, the orders the
 * limit lets in now, and the month's notice to an account whose orders stay held (uploads are held by the API, which
 * may not write announcements: this round tells those accounts).
 */
export function createOrderHoldActivities(deps: Pick<ActivityDeps, 'db' | 'store'>) {
  return {
    async releaseHeldOrdersEverywhere(): Promise<OrderHoldReleaseResult> {
      const accounts = await accountsWithHeldOrders(deps.db);
      let released = 0;
      for (const tenantId of accounts) {
        const now = new Date();
        released += (await releaseHeldOrders(deps, tenantId, now)).length;
        await announceHeldOrders(deps.db, tenantId, now);
      }
      return { accounts: accounts.length, released };
    },
  };
}
