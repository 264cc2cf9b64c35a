import type { AuthorizeAnswer, CallbackAnswer, StoreView } from '@api/contracts/stores';
import { IMPORT_INTERVAL } from '@domain/platform/stores';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type Answer, ApiFailure, api, apiData } from './client';

/**
 * Settings → store integration (api/stores): the account's marketplace stores, connecting one through the
 * marketplace's authorisation, and what can be done to a store (order check interval, import now, disconnect).
 */

export type Store = StoreView;
export type StoreStatus = Store['status'];

/** The callback's answer (spec §3 "Callback result"): the store connected, or `error` 1 and why. */
export type CallbackResult =
  | Pick<CallbackAnswer, 'error' | 'code' | 'msg' | 'api_id'>
  | { error: 1; code: number; msg: string; api_id: null };

/** How often a store's orders may be checked, in minutes. */
export const INTERVAL = IMPORT_INTERVAL;

export const storeKeys = {
  all: ['stores'] as const,
  lists: () => [...storeKeys.all, 'list'] as const,
  list: () => [...storeKeys.lists(), {}] as const,
  detail: (id: string) => [...storeKeys.all, 'detail', id] as const,
};

/** A store whose import is running, or about to (just connected or triggered), is watched closely. */
const busy = (store: Store) =>
  store.status !== 'disconnected' && (store.schedule?.importing || store.last_import_at === null);

/** Until when the list is asked for often after "Import now" (the run starts a moment after the answer). */
let watchUntil = 0;
const WATCH_MS = 60_000;

/** The stores; while one imports, asked again every few seconds so its last import shows when it ends. */
export function useStores() {
  return useQuery({
    queryKey: storeKeys.list(),
    queryFn: () => apiData<Store[]>('/api/setting/stores'),
    refetchInterval: (query) => (Date.now() < watchUntil || query.state.data?.some(busy) ? 2_000 : 30_000),
  });
}

/** Asks for the marketplace's authorisation link and sends the browser there. */
export function useConnectStore() {
  return useMutation({
    mutationFn: (platform: string) =>
      apiData<AuthorizeAnswer>(`/api/setting/store/add/${encodeURIComponent(platform)}/authorize`, {
        method: 'POST',
      }),
    onSuccess: ({ url }) => {
      window.location.assign(url);
    },
  });
}

function useStoreAction<Vars>(request: (vars: Vars) => Promise<Answer<Store>>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSuccess: () => client.invalidateQueries({ queryKey: storeKeys.all }),
  });
}

const one = (id: string) => `/api/setting/stores/${encodeURIComponent(id)}`;

export const useUpdateInterval = () =>
  useStoreAction(({ id, minutes }: { id: string; minutes: number }) =>
    api<Answer<Store>>(one(id), { method: 'PUT', body: { import_interval_minutes: minutes } }),
  );

export const useImportNow = () =>
  useStoreAction((id: string) => {
    watchUntil = Date.now() + WATCH_MS;
    return api<Answer<Store>>(`${one(id)}/import`, { method: 'POST' });
  });

export const useDisconnectStore = () =>
  useStoreAction((id: string) => api<Answer<Store>>(`${one(id)}/disconnect`, { method: 'POST' }));

/**
 * The callback call with the query the marketplace sent back. One call per query however often the screen mounts
 * (an authorisation code is good once): a second mount gets the first call's answer.
 */
const callbacks = new Map<string, Promise<CallbackResult>>();

export function finishConnecting(
  platform: string,
  query: string,
  step: 'add/create' | 'edit/update' = 'add/create',
): Promise<CallbackResult> {
  const [verb, action] = step.split('/');
  const key = `${step}:${platform}?${query}`;
  let pending = callbacks.get(key);
  if (!pending) {
    pending = api<CallbackResult>(
      `/api/setting/store/${verb}/${encodeURIComponent(platform)}/${action}${query ? `?${query}` : ''}`,
    ).catch((error: unknown) => {
      // Signed out on the way: the login brings the user back here, to call again.
      if (error instanceof ApiFailure && error.status === 401) callbacks.delete(key);
      else if (error instanceof ApiFailure)
        return { error: 1 as const, code: error.code, msg: error.msg, api_id: null };
      throw error;
    });
    callbacks.set(key, pending);
  }
  return pending;
}
