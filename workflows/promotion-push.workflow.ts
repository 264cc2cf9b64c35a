import { condition, defineSignal, proxyActivities, setHandler } from '@temporalio/workflow';
import type { createPromotionActivities } from './activities/promotions';
import {
  PRICE_PUSH_SIGNAL,
  type PricePushInput,
  type PricePushRequest,
  type PromotionPushInput,
  PUSH_MAX_ATTEMPTS,
} from './promotion-push-protocol';

type PromotionActivities = ReturnType<typeof createPromotionActivities>;

// The channel's busy and throttled answers are retried with backoff; each try is recorded by the activity, and the
// last one (PUSH_MAX_ATTEMPTS) records the failure for good instead of throwing.
const { pushPromotion, endPromotion, pushPrices } = proxyActivities<PromotionActivities>({
  startToCloseTimeout: '2 minutes',
  retry: {
    initialInterval: '1 second',
    backoffCoefficient: 2,
    maximumInterval: '1 minute',
    maximumAttempts: PUSH_MAX_ATTEMPTS,
  },
});

/**
 * A promotion told to its channel: created (then, should it have been stopped while the channel was creating it,
 * ended there too), or ended once stopped. Its id is the promotion and the action, so it runs once per promotion
 * and action; a worker restarted mid-way replays the activities' outcomes, and an activity cut short finds the
 * channel's id already recorded and creates nothing twice.
 */
export async function promotionPushWorkflow(input: PromotionPushInput): Promise<string> {
  const target = { tenantId: input.tenantId, promotionId: input.promotionId };
  if (input.action === 'create') {
    const created = await pushPromotion(target);
    if (created !== 'pushed') return created;
  }
  return endPromotion(target);
}

export const pricePushSignal = defineSignal<[PricePushRequest]>(PRICE_PUSH_SIGNAL);

/**
 * A store's price pushes, one at a time in the order asked (signal-with-start on the store's id): each reads the
 * rule and the master codes' prices when its turn comes, so the channel never gets an older figure after a newer
 * one. A request already pushed (the same push id sent twice) is pushed once. Ends when its queue is empty.
 */
export async function pricePushWorkflow(input: PricePushInput): Promise<number> {
  const queue: PricePushRequest[] = [];
  const seen = new Set<string>();
  setHandler(pricePushSignal, (request) => {
    if (seen.has(request.pushId)) return;
    seen.add(request.pushId);
    queue.push(request);
  });
  let pushed = 0;
  for (;;) {
    // The signal that started the workflow is delivered before its first step; this also waits out a late one.
    await condition(() => queue.length > 0, '1 second');
    const request = queue.shift();
    if (!request) return pushed;
    await pushPrices({ ...input, request });
    pushed += 1;
  }
}
