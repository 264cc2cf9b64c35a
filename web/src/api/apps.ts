import type { AppWithKey, FeedApp, NewApp } from '@api/contracts/feed';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type Answer, api, apiData } from './client';

/** Settings → apps: the integrator feed's apps, their event types, and their API keys (shown once). */

export type { AppWithKey, FeedApp, NewApp };

const APPS_ENDPOINT = '/api/setting/apps';

export const appKeys = {
  all: ['apps'] as const,
  list: () => [...appKeys.all, 'list'] as const,
  eventTypes: () => [...appKeys.all, 'event-types'] as const,
};

export function useApps() {
  return useQuery({ queryKey: appKeys.list(), queryFn: () => apiData<FeedApp[]>(APPS_ENDPOINT) });
}

/** The event types the signed-in user may give an app. */
export function useAppEventTypes() {
  return useQuery({
    queryKey: appKeys.eventTypes(),
    queryFn: () => apiData<string[]>(`${APPS_ENDPOINT}/event-types`),
  });
}

function useAppMutation<Input>(call: (input: Input) => Promise<Answer<FeedApp | AppWithKey>>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: appKeys.list() }),
  });
}

export const useCreateApp = () =>
  useAppMutation((body: NewApp) => api<Answer<AppWithKey>>(APPS_ENDPOINT, { method: 'POST', body }));

export const useRotateAppKey = () =>
  useAppMutation((id: string) =>
    api<Answer<AppWithKey>>(`${APPS_ENDPOINT}/${encodeURIComponent(id)}/rotate`, { method: 'POST' }),
  );

export const useRevokeApp = () =>
  useAppMutation((id: string) =>
    api<Answer<FeedApp>>(`${APPS_ENDPOINT}/${encodeURIComponent(id)}/revoke`, { method: 'POST' }),
  );
