import type {
  NewSubUser as NewSubUserContract,
  SubUserChanges as SubUserChangesContract,
  TeamUser,
} from '@api/contracts/team';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { type Answer, api, apiData } from './client';
import { GROUPS_ROOT, USERS_ROOT } from './query-roots';
import { sessionKeys } from './session';

/** Settings → users: the owner's sub-users (spec §3, §6), listed by the users grid and changed from its form. */

export type { TeamUser };
export type NewSubUser = z.input<typeof NewSubUserContract>;
export type SubUserChanges = z.input<typeof SubUserChangesContract>;

/** The users grid reads its pages itself (components/data-grid); this is its endpoint. */
export const USERS_ENDPOINT = '/api/setting/users';

export const userKeys = {
  all: USERS_ROOT,
  lists: () => [...userKeys.all, 'list'] as const,
  list: (query: Record<string, unknown>) => [...userKeys.lists(), query] as const,
  detail: (id: string) => [...userKeys.all, 'detail', id] as const,
};

export function useUser(id: string | null) {
  return useQuery({
    queryKey: userKeys.detail(id ?? ''),
    queryFn: () => apiData<TeamUser>(`${USERS_ENDPOINT}/${encodeURIComponent(id ?? '')}`),
    enabled: id !== null,
  });
}

/** After any change: the lists, that user, the usage panel's sub-user count and the groups' member counts. */
function useInvalidateUsers() {
  const queryClient = useQueryClient();
  return (id?: string) => {
    queryClient.invalidateQueries({ queryKey: userKeys.lists() });
    if (id) queryClient.invalidateQueries({ queryKey: userKeys.detail(id) });
    queryClient.invalidateQueries({ queryKey: [...sessionKeys.all, 'usage'] });
    queryClient.invalidateQueries({ queryKey: GROUPS_ROOT });
  };
}

export function useCreateUser() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: (body: NewSubUser) => api<Answer<TeamUser>>(USERS_ENDPOINT, { method: 'POST', body }),
    onSuccess: (answer) => invalidate(answer.data.id),
  });
}

export function useUpdateUser() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: ({ id, changes }: { id: string; changes: SubUserChanges }) =>
      api<Answer<TeamUser>>(`${USERS_ENDPOINT}/${encodeURIComponent(id)}`, { method: 'PUT', body: changes }),
    onSuccess: (_answer, { id }) => invalidate(id),
  });
}

export function useDeleteUser() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: (id: string) =>
      api<Answer<{ id: string }>>(`${USERS_ENDPOINT}/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: (_answer, id) => invalidate(id),
  });
}
