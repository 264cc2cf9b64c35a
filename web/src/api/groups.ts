import type { Group, GroupBody as GroupBodyContract, PermissionCatalogue } from '@api/contracts/team';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { type Answer, api, apiData } from './client';
import { GROUPS_ROOT, USERS_ROOT } from './query-roots';
import { sessionKeys } from './session';

/** Settings → group permissions: the owner's user groups and the permission keys of spec §6 they carry. */

export type { Group, PermissionCatalogue };
export type GroupBody = z.input<typeof GroupBodyContract>;

const GROUPS_ENDPOINT = '/api/setting/groups';

export const groupKeys = {
  all: GROUPS_ROOT,
  lists: () => [...groupKeys.all, 'list'] as const,
  list: () => [...groupKeys.lists(), {}] as const,
  detail: (id: string) => [...groupKeys.all, 'detail', id] as const,
  catalogue: () => [...groupKeys.all, 'permission-keys'] as const,
};

export function useGroups(enabled = true) {
  return useQuery({
    queryKey: groupKeys.list(),
    queryFn: () => apiData<Group[]>(GROUPS_ENDPOINT),
    enabled,
  });
}

export function useGroup(id: string | null) {
  return useQuery({
    queryKey: groupKeys.detail(id ?? ''),
    queryFn: () => apiData<Group>(`${GROUPS_ENDPOINT}/${encodeURIComponent(id ?? '')}`),
    enabled: id !== null,
  });
}

/** The checklist's areas and keys, as the server knows them. */
export function usePermissionCatalogue() {
  return useQuery({
    queryKey: groupKeys.catalogue(),
    queryFn: () => apiData<PermissionCatalogue>('/api/setting/permission-keys'),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** A group's change reaches its members' permissions and the users grid's group column. */
function useInvalidateGroups() {
  const queryClient = useQueryClient();
  return (id?: string) => {
    queryClient.invalidateQueries({ queryKey: groupKeys.lists() });
    if (id) queryClient.invalidateQueries({ queryKey: groupKeys.detail(id) });
    queryClient.invalidateQueries({ queryKey: USERS_ROOT });
    queryClient.invalidateQueries({ queryKey: [...sessionKeys.all, 'permissions'] });
  };
}

export function useCreateGroup() {
  const invalidate = useInvalidateGroups();
  return useMutation({
    mutationFn: (body: GroupBody) => api<Answer<Group>>(GROUPS_ENDPOINT, { method: 'POST', body }),
    onSuccess: (answer) => invalidate(answer.data.id),
  });
}

export function useUpdateGroup() {
  const invalidate = useInvalidateGroups();
  return useMutation({
    mutationFn: ({ id, changes }: { id: string; changes: Partial<GroupBody> }) =>
      api<Answer<Group>>(`${GROUPS_ENDPOINT}/${encodeURIComponent(id)}`, { method: 'PUT', body: changes }),
    onSuccess: (_answer, { id }) => invalidate(id),
  });
}

export function useDeleteGroup() {
  const invalidate = useInvalidateGroups();
  return useMutation({
    mutationFn: (id: string) =>
      api<Answer<{ id: string }>>(`${GROUPS_ENDPOINT}/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: (_answer, id) => invalidate(id),
  });
}
