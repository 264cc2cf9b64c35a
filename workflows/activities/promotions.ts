import {
  type ChannelPushDeps,
  endPromotionOnChannel,
  pushPromotionToChannel,
  pushStorePrices,
} from '@commands/promotions/channel-push';
import { Context } from '@temporalio/activity';
import type { PricePushRequest } from '../promotion-push-protocol';
import { PUSH_MAX_ATTEMPTS } from '../promotion-push-protocol';

/**
 * The promotions' and prices' pushes to the channels (workflows/promotion-push.workflow.ts): each try knows its
 * number from Temporal, so the last one records the failure for good rather than asking for another.
 */
export function createPromotionActivities(deps: ChannelPushDeps) {
  const attempt = () => {
    const { attempt } = Context.current().info;
    return { attempt, last: attempt >= PUSH_MAX_ATTEMPTS };
  };
  return {
    pushPromotion: (input: { tenantId: string; promotionId: string }) =>
      pushPromotionToChannel(deps, { ...input, ...attempt() }),
    endPromotion: (input: { tenantId: string; promotionId: string }) =>
      endPromotionOnChannel(deps, { ...input, ...attempt() }),
    pushPrices: (input: { tenantId: string; storeId: string; request: PricePushRequest }) =>
      pushStorePrices(deps, { ...input, ...attempt() }),
  };
}
