import {
  addAddOnDealMainItemRequest,
  addAddOnDealRequest,
  addAddOnDealSubItemRequest,
  addOnDealIdRequest,
  SHOPEE_LIMITS,
  SHOPEE_PATHS,
} from '../../schemas';
import { stampSeconds } from '../generator';
import type { SandboxAddOnDeal, SandboxShop } from '../state';
import type { SandboxWorld } from '../world';
import { parse, Refusal, type RouteTable, wrongParameters } from './common';

/**
 * add_on_deal/add_add_on_deal, add_add_on_deal_main_item, add_add_on_deal_sub_item, end_add_on_deal and
 * delete_add_on_deal: a deal starts at least an hour ahead; items are refused one by one (fail_error) when unknown
 * or already in; only an ongoing deal is ended, only an upcoming one deleted.
 */

export function addOnDealsOf(shop: SandboxShop): SandboxAddOnDeal[] {
  shop.add_on_deals ??= [];
  return shop.add_on_deals;
}

const noItem = { fail_error: 'add_on.add_on_no_item', fail_message: "This item doesn't existed" };

export function addOnDealRoutes(world: SandboxWorld): RouteTable {
  const dealOf = (shop: SandboxShop | undefined, id: number) => {
    const deal = addOnDealsOf(shop!).find((one) => one.add_on_deal_id === id && one.status !== 'deleted');
    if (!deal) throw new Refusal(400, 'add_on.add_on_deal_not_exists', 'The add on deal not existed');
    return deal;
  };
  return [
    [
      SHOPEE_PATHS.addAddOnDeal,
      {
        method: 'POST',
        level: 'shop',
        placement: 'response',
        handle({ body, shop, now }) {
          const request = parse(addAddOnDealRequest, body);
          if (request.start_time < stampSeconds(now) + SHOPEE_LIMITS.discountLeadSeconds)
            throw new Refusal(
              400,
              'add_on.add_on_deal_start_time_error',
              'The start time should be 1 hour later than current time',
            );
          if (request.end_time <= request.start_time)
            throw wrongParameters('end_time must be after start_time.');
          const deal: SandboxAddOnDeal = {
            add_on_deal_id: world.newListingId(),
            add_on_deal_name: request.add_on_deal_name,
            start_time: request.start_time,
            end_time: request.end_time,
            promotion_type: request.promotion_type,
            ...(request.purchase_min_spend !== undefined
              ? { purchase_min_spend: request.purchase_min_spend }
              : {}),
            ...(request.per_gift_num !== undefined ? { per_gift_num: request.per_gift_num } : {}),
            status: 'active',
            main_items: [],
            sub_items: [],
          };
          addOnDealsOf(shop!).push(deal);
          world.changed();
          return { add_on_deal_id: deal.add_on_deal_id };
        },
      },
    ],
    [
      SHOPEE_PATHS.addAddOnDealMainItem,
      {
        method: 'POST',
        level: 'shop',
        placement: 'response',
        handle({ body, shop }) {
          const request = parse(addAddOnDealMainItemRequest, body);
          const deal = dealOf(shop, request.add_on_deal_id);
          const main_item_list = request.main_item_list.map((entry) => {
            if (!world.item(shop!, entry.item_id)) return { item_id: entry.item_id, ...noItem };
            if (!deal.main_items.includes(entry.item_id)) deal.main_items.push(entry.item_id);
            return { item_id: entry.item_id, status: entry.status };
          });
          world.changed();
          return { add_on_deal_id: deal.add_on_deal_id, main_item_list };
        },
      },
    ],
    [
      SHOPEE_PATHS.addAddOnDealSubItem,
      {
        method: 'POST',
        level: 'shop',
        placement: 'response',
        handle({ body, shop }) {
          const request = parse(addAddOnDealSubItemRequest, body);
          const deal = dealOf(shop, request.add_on_deal_id);
          const sub_item_list = request.sub_item_list.map((entry) => {
            const modelId = entry.model_id ?? 0;
            if (!world.findModel(shop!, entry.item_id, modelId))
              return { item_id: entry.item_id, model_id: modelId, ...noItem };
            if (deal.sub_items.some((sub) => sub.item_id === entry.item_id && sub.model_id === modelId))
              return {
                item_id: entry.item_id,
                model_id: modelId,
                fail_error: 'add_on.add_on_duplicate_item',
                fail_message: 'The item is already existed in sub item',
              };
            deal.sub_items.push({
              item_id: entry.item_id,
              model_id: modelId,
              ...(entry.sub_item_input_price !== undefined ? { price: entry.sub_item_input_price } : {}),
              ...(entry.sub_item_limit !== undefined ? { limit: entry.sub_item_limit } : {}),
            });
            return { item_id: entry.item_id, model_id: modelId, status: entry.status ?? 1 };
          });
          world.changed();
          return { add_on_deal_id: deal.add_on_deal_id, sub_item_list };
        },
      },
    ],
    [
      SHOPEE_PATHS.endAddOnDeal,
      {
        method: 'POST',
        level: 'shop',
        placement: 'response',
        handle({ body, shop, now }) {
          const deal = dealOf(shop, parse(addOnDealIdRequest, body).add_on_deal_id);
          const seconds = stampSeconds(now);
          if (deal.status !== 'active' || seconds < deal.start_time || seconds >= deal.end_time)
            throw new Refusal(400, 'add_on.add_on_end_error', 'Only the ongoing promotion can be ended');
          deal.status = 'ended';
          deal.end_time = seconds;
          world.changed();
          return { add_on_deal_id: deal.add_on_deal_id };
        },
      },
    ],
    [
      SHOPEE_PATHS.deleteAddOnDeal,
      {
        method: 'POST',
        level: 'shop',
        placement: 'response',
        handle({ body, shop, now }) {
          const deal = dealOf(shop, parse(addOnDealIdRequest, body).add_on_deal_id);
          if (deal.status !== 'active' || stampSeconds(now) >= deal.start_time)
            throw new Refusal(400, 'add_on.add_on_delete_error', 'Only upcoming add on deal can be deleted');
          deal.status = 'deleted';
          world.changed();
          return { add_on_deal_id: deal.add_on_deal_id };
        },
      },
    ],
  ];
}
