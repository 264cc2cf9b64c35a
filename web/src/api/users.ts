import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type Answer, api, apiData } from './client';
import { GROUPS_ROOT, USERS_ROOT } from './query-roots';
import { sessionKeys } from './session';

/** Settings → users: the owner's sub-users (spec §3, §6), listed by the users grid and changed from its form. */

export type UserStatus = 'pending' | 'active' | 'inactive';

export interface TeamUser {
  id: string;
  kind: 'owner' | 'subuser';
  username: string | null;
  email: string;
  first_name: string;
  last_name: string;
  phone: string;
  status: UserStatus;
  group: { id: string; name: string } | null;
  /** False for the owner: listed beside the sub-users, managed elsewhere. */
  editable: boolean;
  last_sign_in_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface SubUserFields {
  username: string;
  email: string;
  first_name: string;
  last_name: string;
  phone: string;
  group_id: string;
  status: 'active' | 'inactive';
}

export type NewSubUser = SubUserFields & { password: string; confirm_password: string };
export type SubUserChanges = Partial<NewSubUser>;

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
