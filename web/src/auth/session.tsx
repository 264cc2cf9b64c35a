import type { PackageModule } from '@domain/access/packages';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  api,
  cachedPermissions,
  cachePermissions,
  clearSession,
  getToken,
  onSessionChange,
  requestToken,
  setToken,
} from '@web/api/client';
import {
  fetchPermissions,
  fetchUserInfo,
  type PermissionMap,
  sessionKeys,
  type UserInfo,
} from '@web/api/session';
import { changeLanguage, i18next } from '@web/i18n';
import { isLanguage } from '@web/i18n/languages';
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  useSyncExternalStore,
} from 'react';

/**
 * The auth state of spec §3/§4: status (empty → loading → success | error), the token (localStorage `token`) and
 * the user read from `GET /api/user/info`, plus the permission map (`GET /api/info/permission`, kept in
 * sessionStorage `permission`). A failed sign-in removes the stored token; signing out clears everything.
 */

export type AuthStatus = 'empty' | 'loading' | 'success' | 'error';

export interface Session {
  status: AuthStatus;
  token: string | null;
  user: UserInfo | null;
  /** True while the signed-in user's info or permissions are still on their way. */
  loading: boolean;
  /** Why the user's info could not be read (other than a 401, which signs out). */
  failure: Error | null;
  permissions: PermissionMap;
  can(key: string): boolean;
  /** Whether the account's package includes a module (spec §6 package flags). */
  hasModule(module: PackageModule): boolean;
  isOwner: boolean;
  isAdmin: boolean;
  /** An owner or sub-user of a seller account. */
  isSeller: boolean;
  signIn(login: string, password: string, admin?: boolean): Promise<void>;
  signOut(): Promise<void>;
}

const SessionContext = createContext<Session | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const token = useSyncExternalStore(onSessionChange, getToken);
  const [pending, setPending] = useState<'loading' | 'error' | null>(null);

  const user = useQuery({
    queryKey: sessionKeys.user(token),
    queryFn: fetchUserInfo,
    enabled: token !== null,
    staleTime: 5 * 60_000,
    retry: false,
  });
  const permissions = useQuery({
    queryKey: sessionKeys.permissions(token),
    queryFn: async () => {
      const map = await fetchPermissions();
      cachePermissions(map);
      return map;
    },
    enabled: token !== null,
    initialData: () => cachedPermissions() ?? undefined,
    // What sessionStorage kept shows at once and is refreshed behind it.
    initialDataUpdatedAt: 0,
    staleTime: 5 * 60_000,
    retry: false,
  });

  // The language saved with the user (the header menu's user settings) is the console's once they are known.
  const savedLanguage = token ? user.data?.language : undefined;
  useEffect(() => {
    if (isLanguage(savedLanguage) && savedLanguage !== i18next.language) void changeLanguage(savedLanguage);
  }, [savedLanguage]);

  const signIn = useCallback(
    async (login: string, password: string, admin = false) => {
      setPending('loading');
      try {
        const answer = await requestToken(login, password, admin);
        clearSession();
        // Nothing cached for the previous user (after a 401, another account may sign in on this tab) may show.
        queryClient.clear();
        setToken(answer.access_token);
        setPending(null);
      } catch (error) {
        clearSession();
        setPending('error');
        throw error;
      }
    },
    [queryClient],
  );

  const signOut = useCallback(async () => {
    if (getToken()) await api('/api/logout', { method: 'POST' }).catch(() => undefined);
    clearSession();
    queryClient.clear();
    setPending(null);
  }, [queryClient]);

  const value = useMemo<Session>(() => {
    const info = token ? (user.data ?? null) : null;
    const map = token ? (permissions.data ?? {}) : {};
    const isAdmin = info?.kind === 'admin' || info?.kind === 'subadmin';
    const isOwner = info?.kind === 'owner';
    return {
      status: pending ?? (token ? 'success' : 'empty'),
      token,
      user: info,
      loading: token !== null && (user.isPending || (permissions.isPending && !permissions.data)),
      failure: token ? user.error : null,
      permissions: map,
      can: (key: string) => isOwner || map[key] === true,
      hasModule: (module: PackageModule) => info?.tenant?.package.modules.includes(module) === true,
      isOwner,
      isAdmin,
      isSeller: info?.kind === 'owner' || info?.kind === 'subuser',
      signIn,
      signOut,
    };
  }, [
    token,
    user.data,
    user.error,
    user.isPending,
    permissions.data,
    permissions.isPending,
    pending,
    signIn,
    signOut,
  ]);

  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession() outside <SessionProvider>');
  return session;
}
