import { apiData } from './client';

/** The session calls of spec §7 and the header's usage panel, with their query keys. */

export type UserKind = 'owner' | 'subuser' | 'admin' | 'subadmin';

export interface UserInfo {
  id: string;
  kind: UserKind;
  username: string | null;
  email: string;
  first_name: string;
  last_name: string;
  phone?: string;
  country?: string | null;
  language: string;
  group: { id: string; name: string } | null;
  tenant: { id: string; name: string; country: string; package: { id: string; name: string } } | null;
}

export interface Usage {
  used: number;
  limit: number | null;
}

export interface UsageInfo {
  package: { id: string; name: string };
  monthlyOrders: Usage;
  masterCodes: Usage;
  marketplaces: Usage;
  subUsers: Usage;
  branches: Usage;
  dropshipping: boolean;
  supplier: boolean;
  dealerLevel: string | null;
  ewalletBalance: string;
}

export type PermissionMap = Record<string, boolean>;

export const sessionKeys = {
  all: ['session'] as const,
  user: (token: string | null) => [...sessionKeys.all, 'user', token] as const,
  permissions: (token: string | null) => [...sessionKeys.all, 'permissions', token] as const,
  usage: (token: string | null) => [...sessionKeys.all, 'usage', token] as const,
};

export const fetchUserInfo = () => apiData<UserInfo>('/api/user/info');
export const fetchPermissions = () => apiData<PermissionMap>('/api/info/permission');
export const fetchUsage = () => apiData<UsageInfo>('/api/info/usage');
