import type { Country, Platform } from '@domain/lookups';
import { useQuery } from '@tanstack/react-query';
import { apiData } from './client';

/** Reference lists the management screens pick from (GET /api/lookup/*); they never change while the page is open. */

export type { Country, Platform };

export const lookupKeys = {
  all: ['lookups'] as const,
  lists: () => [...lookupKeys.all, 'list'] as const,
  list: (name: 'platforms' | 'countries') => [...lookupKeys.lists(), name] as const,
  detail: (name: string) => [...lookupKeys.all, 'detail', name] as const,
};

export function usePlatforms() {
  return useQuery({
    queryKey: lookupKeys.list('platforms'),
    queryFn: () => apiData<Platform[]>('/api/lookup/platforms'),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function useCountries() {
  return useQuery({
    queryKey: lookupKeys.list('countries'),
    queryFn: () => apiData<Country[]>('/api/lookup/countries'),
    staleTime: Number.POSITIVE_INFINITY,
  });
}
