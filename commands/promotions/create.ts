import { randomUUID } from 'node:crypto';
import type { ChannelSkuRow, DiscountBody, GiftBody, PromotionDetail } from '@api/contracts/promotions';
import {
  type ChannelSkuRef,
  type DiscountItemInput,
  type GiftItem,
  type PromotionCommand,
  promoPriceOf,
  refusePromotion,
  skuKey,
} from '@domain/promotions/promotion';
import { type FieldRefusal, refusedTogether } from '@domain/shared/errors';
import { channelSkusOfStore, type PromotionStore } from '@projections/promotions.queries';
import type { Actor } from '../support/actor';
import type { Answered } from '../support/answer';
import { eventIdFor } from '../support/ids';
import { type PromotionDeps, promotionDetailOf, promotions, storeOrRefuse } from './support';

/**
 * A new discount or gift-with-purchase promotion of a store: the store and every SKU named checked against the
 * account (the store's channel SKUs), each discount SKU's price, original price and available stock read from
 * them, then the §5 rules (domain/promotions/promotion.ts). Recorded with its id derived from the idempotency key
 * (a retried create makes one promotion); the reactor on its creation starts its push to the channel
 * (workflow-reactor.ts), so the answer never waits on Temporal. A refusal records nothing.
 */

type Fields = Extract<PromotionCommand, { type: 'CreatePromotion' }>['fields'];

/** The store's SKUs the body names, by `itemId:modelId`; an unknown one refused, naming its field. */
async function skusNamed(
  deps: PromotionDeps,
  tenantId: string,
  store: PromotionStore,
  named: { field: string; ref: ChannelSkuRef }[],
) {
  const rows = await channelSkusOfStore(deps.db, tenantId, store, { refs: named.map((entry) => entry.ref) });
  const found = new Map(rows.map((row) => [skuKey({ itemId: row.item_id, modelId: row.model_id }), row]));
  const problems: FieldRefusal[] = named
    .filter((entry) => !found.has(skuKey(entry.ref)))
    .map((entry) => ({
      field: entry.field,
      error: refusePromotion('PROMOTION_SKU_NOT_FOUND', {
        sku: entry.ref.modelId ? `${entry.ref.itemId}/${entry.ref.modelId}` : entry.ref.itemId,
      }),
    }));
  const refused = refusedTogether(problems);
  if (refused) throw refused;
  return (ref: ChannelSkuRef) => found.get(skuKey(ref)) as ChannelSkuRow;
}

const refOf = (body: { item_id: string; model_id: string }): ChannelSkuRef => ({
  itemId: body.item_id,
  modelId: body.model_id,
});

async function record(
  deps: PromotionDeps,
  actor: Actor,
  key: string | undefined,
  fields: Fields,
  store: PromotionStore,
): Promise<{ replayed: boolean; answer: Answered<PromotionDetail> }> {
  const promotionId = key ? eventIdFor(`promotion:${actor.tenantId}:${key}`) : randomUUID();
  const now = new Date().toISOString();
  const result = await promotions.handle(
    deps.store,
    promotionId,
    { type: 'CreatePromotion', promotionId, userId: actor.userId, now, fields },
    {
      tenantId: actor.tenantId,
      userId: actor.userId,
      commandId: `promotion-create:${promotionId}`,
      occurredAt: now,
    },
  );
  const detail = promotionDetailOf(promotionId, result.state, store, new Date());
  return { replayed: result.replayed, answer: [detail, 'promotions.created'] };
}

export async function createDiscountPromotion(
  deps: PromotionDeps,
  actor: Actor,
  input: { key: string | undefined; body: DiscountBody },
) {
  const { body } = input;
  const store = await storeOrRefuse(deps.db, actor.tenantId, body.store_id);
  const skuOf = await skusNamed(
    deps,
    actor.tenantId,
    store,
    body.items.map((item, index) => ({ field: `items/${index}/item_id`, ref: refOf(item) })),
  );
  const problems: FieldRefusal[] = [];
  const items = body.items.map((item, index): DiscountItemInput => {
    const sku = skuOf(refOf(item));
    // A price given wins; else the discount gives it; neither: no price, which the range rule refuses.
    const promoPrice =
      item.promo_price ?? (item.discount === undefined ? '0' : promoPriceOf(sku.price, item.discount));
    if (
      item.promo_price === undefined &&
      item.discount !== undefined &&
      (item.discount < 1 || item.discount > 99)
    )
      problems.push({
        field: `items/${index}/discount`,
        error: refusePromotion('PROMOTION_DISCOUNT_OUT_OF_RANGE', {
          line: index + 1,
          sku: sku.seller_sku,
          min: 1,
          max: 99,
        }),
      });
    return {
      ...refOf(item),
      sellerSku: sku.seller_sku,
      originalPrice: sku.price,
      promoPrice,
      purchaseLimit: item.purchase_limit,
      promoStock: item.promo_stock,
      available: sku.available,
    };
  });
  const refused = refusedTogether(problems);
  if (refused) throw refused;
  return record(
    deps,
    actor,
    input.key,
    {
      kind: 'discount',
      storeId: store.id,
      name: body.name,
      startAt: body.start_at,
      endAt: body.end_at,
      discount: { items },
      gift: null,
    },
    store,
  );
}

export async function createGiftPromotion(
  deps: PromotionDeps,
  actor: Actor,
  input: { key: string | undefined; body: GiftBody },
) {
  const { body } = input;
  const store = await storeOrRefuse(deps.db, actor.tenantId, body.store_id);
  const mainSkus = body.sku_selection === 'selected' ? body.main_skus : [];
  const named = [
    ...mainSkus.map((sku, index) => ({ field: `main_skus/${index}/item_id`, ref: refOf(sku) })),
    ...body.gifts.map((sku, index) => ({ field: `gifts/${index}/item_id`, ref: refOf(sku) })),
    ...body.replacements.map((sku, index) => ({ field: `replacements/${index}/item_id`, ref: refOf(sku) })),
  ];
  const skuOf = await skusNamed(deps, actor.tenantId, store, named);
  const giftItem = (item: GiftBody['gifts'][number]): GiftItem => ({
    ...refOf(item),
    sellerSku: skuOf(refOf(item)).seller_sku,
    quantity: item.quantity,
  });
  return record(
    deps,
    actor,
    input.key,
    {
      kind: 'gift',
      storeId: store.id,
      name: body.name,
      startAt: body.start_at,
      endAt: body.end_at,
      discount: null,
      gift: {
        giftType: body.gift_type,
        spendingType: body.spending_type,
        minSpend: body.min_spend,
        stackable: body.stackable,
        orderLimit: body.order_limit,
        giftsPerOrder: body.gifts_per_order,
        skuSelection: body.sku_selection,
        mainSkus: mainSkus.map((sku) => ({ ...refOf(sku), sellerSku: skuOf(refOf(sku)).seller_sku })),
        gifts: body.gifts.map(giftItem),
        replacements: body.replacements.map(giftItem),
      },
    },
    store,
  );
}
