import type { WholesalePricing, WholesaleTiersBody } from '@api/contracts/inventory-wholesale';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type Answer, api, apiData } from './client';

/**
 * Inventory → wholesale pricing (spec §2 /inventory/wholesale-pricing): each master code's tiers of a minimum
 * quantity and a unit price. The grid reads its pages itself (components/data-grid); the tier editor reads one
 * master code's tiers and replaces them as a whole.
 */

export type { WholesalePricing };
export type WholesaleTierInput = WholesaleTiersBody['tiers'][number];
export { WHOLESALE_LIMITS } from '@domain/inventory/wholesale';

export const WHOLESALE_PRICING_ENDPOINT = '/api/inventory/wholesale-pricing';
const one = (id: string) => `${WHOLESALE_PRICING_ENDPOINT}/${encodeURIComponent(id)}`;

export const wholesaleKeys = {
  all: ['wholesale-pricing'] as const,
  detail: (id: string) => [...wholesaleKeys.all, 'detail', id] as const,
};

export function useWholesalePricing(id: string) {
  return useQuery({ queryKey: wholesaleKeys.detail(id), queryFn: () => apiData<WholesalePricing>(one(id)) });
}

/** Replaces a master code's whole list of tiers (an empty list removes them). */
export function useSaveWholesaleTiers() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, tiers }: { id: string; tiers: WholesaleTierInput[] }) =>
      api<Answer<WholesalePricing>>(one(id), { method: 'PUT', body: { tiers } }),
    onSuccess: (answer) => queryClient.setQueryData(wholesaleKeys.detail(answer.data.id), answer.data),
  });
}
