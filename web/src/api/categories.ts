import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type Answer, api, apiData } from './client';

/**
 * The category managers (spec §3, §5, §8): one tree per platform, the seller's own web store being the platform
 * `webstore`. Add, rename, move and delete answer with the catalogue's codes; search needs 2 characters (§9).
 */

export const WEBSTORE_PLATFORM = 'webstore';
/** Minimum category search length (spec §9). */
export const CATEGORY_SEARCH_MIN_LENGTH = 2;

export interface CategoryNode {
  id: string;
  name: string;
  parent_id: string | null;
  children: CategoryNode[];
}

export interface Category {
  id: string;
  name: string;
  parent_id: string | null;
}

export interface CategoryMatch extends Category {
  /** Names from the root down to the match. */
  path: string[];
}

const base = (platform: string) => `/api/category/${encodeURIComponent(platform)}`;

export const categoryKeys = {
  all: ['categories'] as const,
  lists: () => [...categoryKeys.all, 'list'] as const,
  list: (platform: string) => [...categoryKeys.lists(), platform] as const,
  searches: (platform: string) => [...categoryKeys.all, 'search', platform] as const,
  search: (platform: string, text: string) => [...categoryKeys.searches(platform), text] as const,
  detail: (platform: string, id: string) => [...categoryKeys.all, 'detail', platform, id] as const,
};

export function useCategoryTree(platform: string) {
  return useQuery({
    queryKey: categoryKeys.list(platform),
    queryFn: () => apiData<CategoryNode[]>(base(platform)),
  });
}

export function useCategorySearch(platform: string, text: string) {
  const q = text.trim();
  return useQuery({
    queryKey: categoryKeys.search(platform, q),
    queryFn: () => apiData<CategoryMatch[]>(`${base(platform)}/search`, { query: { q } }),
    enabled: q.length >= CATEGORY_SEARCH_MIN_LENGTH,
  });
}

function useInvalidateTree(platform: string) {
  const queryClient = useQueryClient();
  return () => {
    queryClient.invalidateQueries({ queryKey: categoryKeys.list(platform) });
    queryClient.invalidateQueries({ queryKey: categoryKeys.searches(platform) });
  };
}

export function useAddCategory(platform: string) {
  const invalidate = useInvalidateTree(platform);
  return useMutation({
    mutationFn: (body: { name: string; parent_id: string | null }) =>
      api<Answer<Category>>(`${base(platform)}/add`, { method: 'POST', body }),
    onSuccess: invalidate,
  });
}

export function useUpdateCategory(platform: string) {
  const invalidate = useInvalidateTree(platform);
  return useMutation({
    mutationFn: (body: { id: string; name: string; parent_id: string | null }) =>
      api<Answer<Category>>(`${base(platform)}/update`, { method: 'POST', body }),
    onSuccess: invalidate,
  });
}

export function useDeleteCategory(platform: string) {
  const invalidate = useInvalidateTree(platform);
  return useMutation({
    mutationFn: (id: string) =>
      api<Answer<{ id: string; deleted: number }>>(`${base(platform)}/delete`, {
        method: 'POST',
        body: { id },
      }),
    onSuccess: invalidate,
  });
}
