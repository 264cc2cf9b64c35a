import type { PermissionMap, UsageAnswer, UserInfo } from '@api/contracts/session';
import { apiData } from './client';

/** The session calls of spec §7 and the header's usage panel, with their query keys. */

export type { PermissionMap, UserInfo };
export type UserKind = UserInfo['kind'];
export type UsageInfo = UsageAnswer;
export type Usage = UsageAnswer['subUsers'];

export const sessionKeys = {
  all: ['session'] as const,
  user: (token: string | null) => [...sessionKeys.all, 'user', token] as const,
  permissions: (token: string | null) => [...sessionKeys.all, 'permissions', token] as const,
  usage: (token: string | null) => [...sessionKeys.all, 'usage', token] as const,
};

export const fetchUserInfo = () => apiData<UserInfo>('/api/user/info');
export const fetchPermissions = () => apiData<PermissionMap>('/api/info/permission');
export const fetchUsage = () => apiData<UsageInfo>('/api/info/usage');
