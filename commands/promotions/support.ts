import type { PromotionDetail } from '@api/contracts/promotions';
import {
  canStop,
  PROMOTION_CATEGORY,
  type PromotionState,
  promotionDecider,
  promotionStreamId,
  refusePromotion,
} from '@domain/promotions/promotion';
import type { Database } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import { type PromotionStore, promotionRowOf, promotionStore } from '@projections/promotions.queries';
import {
  PROMOTION_PUSH_WORKFLOW,
  type PromotionPushInput,
  promotionPushWorkflowId,
} from '@workflows/promotion-push-protocol';
import { startOnce, type WorkflowDeps } from '@workflows/updates';
import type { Kysely } from 'kysely';
import { documentCommands } from '../support/document';

/** What the promotion use cases share: their deps, the promotion and the store by id, the detail, the push. */

export interface PromotionDeps {
  db: Kysely<Database>;
  store: EventStore;
  workflows: WorkflowDeps;
}

export const promotions = documentCommands(promotionStreamId, promotionDecider);
export { PROMOTION_CATEGORY };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The tenant's promotion, or not found (an id that is not one, another tenant's, or none: the same answer). */
export async function promotionOrRefuse(store: EventStore, tenantId: string, promotionId: string) {
  if (!UUID.test(promotionId)) throw refusePromotion('PROMOTION_NOT_FOUND');
  const loaded = await promotions.load(store, tenantId, promotionId);
  if (!loaded.state.exists) throw refusePromotion('PROMOTION_NOT_FOUND');
  return loaded;
}

/** The tenant's store, or the refusal naming the store field. */
export async function storeOrRefuse(db: Kysely<Database>, tenantId: string, storeId: string) {
  const store = await promotionStore(db, tenantId, storeId);
  if (!store) throw refusePromotion('PROMOTION_STORE_NOT_FOUND');
  return store;
}

/** The promotion as the detail screen shows it, at `now`. */
export function promotionDetailOf(
  id: string,
  state: PromotionState,
  store: Pick<PromotionStore, 'name' | 'platform'> | null,
  now: Date,
): PromotionDetail {
  const sku = (item: { itemId: string; modelId: string; sellerSku: string }) => ({
    item_id: item.itemId,
    model_id: item.modelId,
    seller_sku: item.sellerSku,
  });
  const giftItem = (item: { itemId: string; modelId: string; sellerSku: string; quantity: number }) => ({
    ...sku(item),
    quantity: item.quantity,
  });
  const { gift } = state;
  return {
    ...promotionRowOf(id, state, { name: store?.name ?? '', platform: store?.platform ?? '' }, now),
    discount: state.discount && {
      items: state.discount.items.map((item) => ({
        ...sku(item),
        original_price: item.originalPrice,
        promo_price: item.promoPrice,
        discount: item.discountPercent,
        purchase_limit: item.purchaseLimit,
        promo_stock: item.promoStock,
      })),
    },
    gift: gift && {
      gift_type: gift.giftType,
      spending_type: gift.spendingType,
      min_spend: gift.minSpend,
      stackable: gift.stackable,
      order_limit: gift.orderLimit,
      gifts_per_order: gift.giftsPerOrder,
      sku_selection: gift.skuSelection,
      main_skus: gift.mainSkus.map(sku),
      gifts: gift.gifts.map(giftItem),
      replacements: gift.replacements.map(giftItem),
    },
    stopped_at: state.stopped?.at ?? null,
    channel_end: state.channelEnd,
    actions: { stop: canStop(state, now) },
  };
}

/** The promotion's detail now, read from its stream. */
export async function promotionDetail(
  deps: Pick<PromotionDeps, 'db' | 'store'>,
  tenantId: string,
  id: string,
) {
  const { state } = await promotionOrRefuse(deps.store, tenantId, id);
  const store = await promotionStore(deps.db, tenantId, state.storeId);
  return promotionDetailOf(id, state, store, new Date());
}

/**
 * Starts the promotion's push to its channel (create, or end once stopped); the workflow's id is the business key,
 * so a second start (the reactor after the route, a replay) runs nothing twice.
 */
export function startPromotionPush(workflows: WorkflowDeps, input: PromotionPushInput) {
  return startOnce(workflows, PROMOTION_PUSH_WORKFLOW, promotionPushWorkflowId(input), input);
}
