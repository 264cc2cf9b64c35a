import { type ErrorTable, refuser } from '../shared/errors';
import { OrderCode } from './codes';

/**
 * The marketplace's "no" to arranging, picking up or cancelling one of its orders (integrations/stores): not a rule
 * of the order, but a refusal the board answers like one. `detail` is the marketplace's words, or the kind of
 * failure (worded by `orders.shipping_errors.<kind>`).
 */
export const MARKETPLACE_ERRORS = ['ARRANGE_FAILED', 'PICKUP_FAILED', 'CANCEL_FAILED'] as const;
export type MarketplaceErrorCode = (typeof MARKETPLACE_ERRORS)[number];

export const marketplaceErrors = {
  ARRANGE_FAILED: { status: 409, code: OrderCode.arrangeFailed, key: 'orders.arrange_failed' },
  PICKUP_FAILED: { status: 409, code: OrderCode.pickupFailed, key: 'orders.pickup_failed_because' },
  CANCEL_FAILED: { status: 409, code: OrderCode.cancelFailed, key: 'orders.cancel_failed' },
} satisfies ErrorTable<MarketplaceErrorCode>;

export const refuseByMarketplace = refuser(marketplaceErrors);
