import type {
  ChannelSkuRow,
  DiscountBody,
  GiftBody,
  PricePushAnswer,
  PriceRuleBody,
  PricingAnswer,
  PromotionDetail,
  PromotionListRow,
  PromotionStoresAnswer,
} from '@api/contracts/promotions';
import { PERMISSION_AREAS } from '@domain/access/permissions';
import { LIVE_VIEWS } from '@domain/shared/live-views';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type Answer, api, apiData, withQuery } from './client';

/**
 * Promotions and price control (api/promotions): the stores and their channel SKUs for the pickers, the discount
 * and gift-with-purchase promotions (grid endpoints, create, stop), and each store's price rule with its preview,
 * push and log. Shapes are the contract's (api/contracts/promotions.ts).
 */

export const PROMOTIONS_ENDPOINT = '/api/promotions';
export const PROMOTIONS_VIEW = LIVE_VIEWS.promotions;
export const LISTING_KEYS = PERMISSION_AREAS.listings;
export const MANAGE_KEY = 'listings-manage';
export const CONTROL_KEY = 'marketplace_control';

export type { ChannelSkuRow, DiscountBody, GiftBody, PriceRuleBody, PricingAnswer, PromotionDetail };
export type PromotionRow = PromotionListRow;
export type PromotionStore = PromotionStoresAnswer[number];

export const promotionKeys = {
  all: ['promotions'] as const,
  stores: () => [...promotionKeys.all, 'stores'] as const,
  skus: (storeId: string) => [...promotionKeys.all, 'skus', storeId] as const,
  pricing: (storeId: string) => [...promotionKeys.all, 'pricing', storeId] as const,
};

export const listEndpoint = (kind: 'discount' | 'gift', status: string) =>
  withQuery(PROMOTIONS_ENDPOINT, {
    kind,
    filterModel: status ? JSON.stringify({ status: { filterType: 'set', values: [status] } }) : undefined,
  });
export const priceLogEndpoint = (storeId: string) =>
  `${PROMOTIONS_ENDPOINT}/pricing/${encodeURIComponent(storeId)}/log`;

export function usePromotionStores() {
  return useQuery({
    queryKey: promotionKeys.stores(),
    queryFn: () => apiData<PromotionStore[]>(`${PROMOTIONS_ENDPOINT}/stores`),
  });
}

export function useChannelSkus(storeId: string) {
  return useQuery({
    queryKey: promotionKeys.skus(storeId),
    queryFn: () => apiData<ChannelSkuRow[]>(withQuery(`${PROMOTIONS_ENDPOINT}/skus`, { store_id: storeId })),
    enabled: storeId !== '',
  });
}

/** Creates a discount or a gift promotion; the grid follows the live view and reloads itself. */
export function useCreatePromotion() {
  return useMutation({
    mutationFn: (input: { kind: 'discount'; body: DiscountBody } | { kind: 'gift'; body: GiftBody }) =>
      api<Answer<PromotionDetail>>(
        `${PROMOTIONS_ENDPOINT}/${input.kind === 'discount' ? 'discounts' : 'gifts'}`,
        {
          method: 'POST',
          body: input.body,
        },
      ),
  });
}

export function useStopPromotion() {
  return useMutation({
    mutationFn: (id: string) =>
      api<Answer<PromotionDetail>>(`${PROMOTIONS_ENDPOINT}/${encodeURIComponent(id)}/stop`, {
        method: 'POST',
      }),
  });
}

export function usePricing(storeId: string) {
  return useQuery({
    queryKey: promotionKeys.pricing(storeId),
    queryFn: () => apiData<PricingAnswer>(`${PROMOTIONS_ENDPOINT}/pricing/${encodeURIComponent(storeId)}`),
    enabled: storeId !== '',
  });
}

export function useSavePriceRule(storeId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PriceRuleBody) =>
      api<Answer<PricingAnswer>>(`${PROMOTIONS_ENDPOINT}/pricing/${encodeURIComponent(storeId)}`, {
        method: 'PUT',
        body,
      }),
    onSuccess: (answer) => queryClient.setQueryData(promotionKeys.pricing(storeId), answer.data),
  });
}

export function usePushPrices(storeId: string) {
  return useMutation({
    mutationFn: () =>
      api<Answer<PricePushAnswer>>(`${PROMOTIONS_ENDPOINT}/pricing/${encodeURIComponent(storeId)}/push`, {
        method: 'POST',
      }),
  });
}
