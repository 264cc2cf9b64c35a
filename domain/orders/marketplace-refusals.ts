import { type ErrorTable, refuser } from '../shared/errors';
import { OrderCode } from './codes';

/**
 * The marketplace's "no" to arranging, picking up or cancelling one of its orders (or its shipment) (integrations/stores): not a rule
 * of the order, but a refusal the board answers like one.
 */
export const MARKETPLACE_ERRORS = [
  /** The marketplace said no, in its own words (`detail`). */
  'ARRANGE_FAILED',
  'PICKUP_FAILED',
  'CANCEL_FAILED',
  /** The marketplace could not do it now, for a reason of a known `kind` (worded by the message). */
  'ARRANGE_NOT_POSSIBLE',
  'PICKUP_NOT_POSSIBLE',
  /** Cancelling the arranged shipment: the marketplace failed (its words), or still holds it (its `status`). */
  'CANCEL_SHIPMENT_FAILED',
  'SHIPMENT_KEPT',
] as const;
export type MarketplaceErrorCode = (typeof MARKETPLACE_ERRORS)[number];

export const marketplaceErrors = {
  ARRANGE_FAILED: { status: 409, code: OrderCode.arrangeFailed, key: 'orders.arrange_failed' },
  PICKUP_FAILED: { status: 409, code: OrderCode.pickupFailed, key: 'orders.pickup_failed_because' },
  CANCEL_FAILED: { status: 409, code: OrderCode.cancelFailed, key: 'orders.cancel_failed' },
  ARRANGE_NOT_POSSIBLE: { status: 409, code: OrderCode.arrangeFailed, key: 'orders.arrange_failed_kind' },
  PICKUP_NOT_POSSIBLE: {
    status: 409,
    code: OrderCode.pickupFailed,
    key: 'orders.pickup_failed_because_kind',
  },
  CANCEL_SHIPMENT_FAILED: {
    status: 409,
    code: OrderCode.cancelShipmentFailed,
    key: 'orders.cancel_shipment_failed',
  },
  SHIPMENT_KEPT: { status: 409, code: OrderCode.cancelShipmentFailed, key: 'orders.shipment_kept' },
} satisfies ErrorTable<MarketplaceErrorCode>;

export const refuseByMarketplace = refuser(marketplaceErrors);
