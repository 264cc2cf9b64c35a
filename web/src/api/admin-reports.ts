import type { PlatformSummary, TenantUsage } from '@api/contracts/admin-reports';
import { useQuery } from '@tanstack/react-query';
import { apiData } from './client';

/** The provider's reports (/admin-reports/): the platform's figures, and each account's use in a grid. */

export type { PlatformSummary, TenantUsage };

/** The accounts grid reads its pages itself (components/data-grid); this is its endpoint. */
export const TENANT_USAGE_ENDPOINT = '/api/admin/reports/tenants';

export const adminReportKeys = {
  all: ['admin-reports'] as const,
  summary: () => [...adminReportKeys.all, 'summary'] as const,
};

export function usePlatformSummary() {
  return useQuery({
    queryKey: adminReportKeys.summary(),
    queryFn: () => apiData<PlatformSummary>('/api/admin/reports/summary'),
  });
}
