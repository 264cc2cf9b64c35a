import {
  addDiscountItemRequest,
  addDiscountRequest,
  discountIdRequest,
  SHOPEE_LIMITS,
  SHOPEE_PATHS,
} from '../../schemas';
import { stampSeconds } from '../generator';
import type { SandboxDiscount, SandboxShop } from '../state';
import type { SandboxWorld } from '../world';
import { parse, Refusal, type RouteTable, wrongParameters } from './common';

/**
 * discount/add_discount, add_discount_item, end_discount and delete_discount, with Shopee's rules: a discount
 * starts at least an hour ahead and lasts an hour to 180 days; a promotion price is below the model's price;
 * only an ongoing discount, an hour after its start, is ended; only an upcoming one is deleted.
 */

const notFound = () =>
  new Refusal(400, 'common.error_not_found', 'The information you queried is not found.');

export function discountsOf(shop: SandboxShop): SandboxDiscount[] {
  shop.discounts ??= [];
  return shop.discounts;
}

export function discountRoutes(world: SandboxWorld): RouteTable {
  const discountOf = (shop: SandboxShop | undefined, discountId: number) => {
    const discount = discountsOf(shop!).find(
      (candidate) => candidate.discount_id === discountId && candidate.status !== 'deleted',
    );
    if (!discount) throw notFound();
    return discount;
  };
  const changed = (discount: SandboxDiscount, now: number) => {
    world.changed();
    return { discount_id: discount.discount_id, modify_time: stampSeconds(now) };
  };

  return [
    [
      SHOPEE_PATHS.addDiscount,
      {
        method: 'POST',
        level: 'shop',
        placement: 'response',
        handle({ body, shop, now }) {
          const request = parse(addDiscountRequest, body);
          const seconds = stampSeconds(now);
          if (request.start_time < seconds + SHOPEE_LIMITS.discountLeadSeconds)
            throw new Refusal(
              400,
              'discount.discount_start_time_smaller_than_now',
              'Discount start time is less than the current time.',
            );
          if (
            request.end_time < request.start_time + SHOPEE_LIMITS.discountLeadSeconds ||
            request.end_time - request.start_time >= SHOPEE_LIMITS.discountMaxSeconds
          )
            throw wrongParameters(
              'The end time must be 1 hour later than start time, and the discount period less than 180 days.',
            );
          const discount: SandboxDiscount = {
            discount_id: world.newListingId(),
            discount_name: request.discount_name,
            start_time: request.start_time,
            end_time: request.end_time,
            status: 'active',
            items: [],
          };
          discountsOf(shop!).push(discount);
          world.changed();
          return { discount_id: discount.discount_id };
        },
      },
    ],
    [
      SHOPEE_PATHS.addDiscountItem,
      {
        method: 'POST',
        level: 'shop',
        placement: 'response',
        handle({ body, shop }) {
          const request = parse(addDiscountItemRequest, body);
          const discount = discountOf(shop, request.discount_id);
          const error_list: {
            item_id: number;
            model_id: number;
            fail_message: string;
            fail_error: string;
          }[] = [];
          let count = 0;
          for (const entry of request.item_list) {
            const prices =
              entry.model_list ??
              (entry.item_promotion_price !== undefined
                ? [{ model_id: 0, model_promotion_price: entry.item_promotion_price }]
                : []);
            if (prices.length === 0) {
              error_list.push({
                item_id: entry.item_id,
                model_id: 0,
                fail_message: 'Please input the discount price.',
                fail_error: 'discount.discount_need_promotion_price',
              });
              continue;
            }
            let added = false;
            for (const model of prices) {
              const found = world.findModel(shop!, entry.item_id, model.model_id);
              if (!found) {
                error_list.push({
                  item_id: entry.item_id,
                  model_id: model.model_id,
                  fail_message: 'The Item id you provided is not found, please check your item id.',
                  fail_error: 'discount.item_id_not_exist',
                });
                continue;
              }
              if (model.model_promotion_price >= found.holder.price) {
                error_list.push({
                  item_id: entry.item_id,
                  model_id: model.model_id,
                  fail_message: 'Discount price is greater than original price.',
                  fail_error: 'discount.promotion_price_higher_input_price',
                });
                continue;
              }
              discount.items = discount.items.filter(
                (item) => item.item_id !== entry.item_id || item.model_id !== model.model_id,
              );
              const promotionStock =
                'model_promotion_stock' in model ? model.model_promotion_stock : entry.item_promotion_stock;
              discount.items.push({
                item_id: entry.item_id,
                model_id: model.model_id,
                promotion_price: model.model_promotion_price,
                purchase_limit: entry.purchase_limit,
                ...(promotionStock !== undefined ? { promotion_stock: promotionStock } : {}),
              });
              added = true;
            }
            if (added) count++;
          }
          world.changed();
          return { discount_id: discount.discount_id, count, error_list };
        },
      },
    ],
    [
      SHOPEE_PATHS.endDiscount,
      {
        method: 'POST',
        level: 'shop',
        placement: 'response',
        handle({ body, shop, now }) {
          const request = parse(discountIdRequest, body);
          const discount = discountOf(shop, request.discount_id);
          const seconds = stampSeconds(now);
          if (discount.status !== 'active' || seconds < discount.start_time || seconds >= discount.end_time)
            throw new Refusal(400, 'discount.discount_is_ongoing', 'Only the ongoing discount can be ended.');
          if (seconds < discount.start_time + SHOPEE_LIMITS.discountLeadSeconds)
            throw new Refusal(
              400,
              'discount.end_discount_time_error',
              'Only can end the discount after 1 hour of start time.',
            );
          discount.status = 'ended';
          discount.end_time = seconds;
          return changed(discount, now);
        },
      },
    ],
    [
      SHOPEE_PATHS.deleteDiscount,
      {
        method: 'POST',
        level: 'shop',
        placement: 'response',
        handle({ body, shop, now }) {
          const request = parse(discountIdRequest, body);
          const discount = discountOf(shop, request.discount_id);
          if (discount.status !== 'active' || stampSeconds(now) >= discount.start_time)
            throw new Refusal(
              400,
              'discount.discount_not_upcoming',
              'Only the upcoming discount can be deleted.',
            );
          discount.status = 'deleted';
          return changed(discount, now);
        },
      },
    ],
  ];
}
