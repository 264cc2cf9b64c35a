import type { ActivityEntry, SignInEntry } from '@api/contracts/activity';
import type { CompanyBody, PrintSettingsAnswer } from '@api/contracts/printing';
import type { LanguageChange, PasswordChange, PasswordChanged, ProfileChanges } from '@api/contracts/profile';
import type { UserInfo } from '@api/contracts/session';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { type Answer, api, apiData } from './client';
import { printKeys } from './printing';
import { sessionKeys } from './session';

/**
 * The header menu's user settings (own profile, password, language), Settings → company, and the account's audit
 * grids (`/user-activities-logs`, `/login_access/list`), which read their pages themselves through these endpoints.
 */

export type { ActivityEntry, SignInEntry };
export const ACTIVITY_ENDPOINT = '/api/user-activities-logs';
export const SIGN_INS_ENDPOINT = '/api/login_access/list';
const COMPANY_ENDPOINT = '/api/setting/company';

/** After a change to oneself: the header's name and the saved language come from the user info. */
function useRefreshUser() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: [...sessionKeys.all, 'user'] });
}

export function useChangeProfile() {
  const refresh = useRefreshUser();
  return useMutation({
    mutationFn: (body: z.input<typeof ProfileChanges>) =>
      api<Answer<UserInfo>>('/api/user/profile', { method: 'PUT', body }),
    onSuccess: refresh,
  });
}

export function useChangePassword() {
  return useMutation({
    mutationFn: (body: z.input<typeof PasswordChange>) =>
      api<Answer<PasswordChanged>>('/api/user/password', { method: 'POST', body }),
  });
}

export function useChangeLanguage() {
  const refresh = useRefreshUser();
  return useMutation({
    mutationFn: (body: z.input<typeof LanguageChange>) =>
      api<Answer<UserInfo>>('/api/user/language', { method: 'PUT', body }),
    onSuccess: refresh,
  });
}

export function useCompany() {
  return useQuery({
    queryKey: printKeys.settings,
    queryFn: () => apiData<PrintSettingsAnswer>(COMPANY_ENDPOINT),
  });
}

export function useSaveCompany() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CompanyBody) =>
      api<Answer<PrintSettingsAnswer>>(COMPANY_ENDPOINT, { method: 'PUT', body }),
    onSuccess: (answer) => queryClient.setQueryData(printKeys.settings, answer.data),
  });
}
