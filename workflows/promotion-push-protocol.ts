/**
 * What the promotions' and prices' pushes to a channel (promotion-push.workflow.ts), their activities and their
 * starters share. No node imports: the workflow bundle takes it too.
 */

export const PROMOTION_PUSH_WORKFLOW = 'promotionPushWorkflow';
export const PRICE_PUSH_WORKFLOW = 'pricePushWorkflow';

/** Create the promotion on its channel, or end it there once stopped. */
export type PromotionPushAction = 'create' | 'end';

export interface PromotionPushInput {
  tenantId: string;
  promotionId: string;
  action: PromotionPushAction;
}

/** One per promotion and action: starting it twice (a reactor's replay, a restart) runs it once. */
export const promotionPushWorkflowId = (input: PromotionPushInput) =>
  `promotion-${input.action}-${input.tenantId}-${input.promotionId}`;

/** A price push asked for: its id (the log groups its tries by it) and who asked. */
export interface PricePushRequest {
  pushId: string;
  userId: string | null;
}

export interface PricePushInput {
  tenantId: string;
  storeId: string;
}

/** One per store: a push asked for while one runs joins its queue (signal-with-start) rather than racing it. */
export const pricePushWorkflowId = (input: PricePushInput) => `price-push-${input.tenantId}-${input.storeId}`;
export const PRICE_PUSH_SIGNAL = 'pushPrices';

/** How many tries a push gets (with backoff) before it is recorded as failed for good. */
export const PUSH_MAX_ATTEMPTS = 8;
