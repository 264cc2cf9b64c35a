import type {
  DashboardQuery,
  DashboardTasks,
  PeriodFigures,
  RankedProduct,
  SalesDashboard,
  TrendDay,
  TrendPeriod,
} from '@api/contracts/dashboard';
import { LIVE_VIEWS } from '@domain/shared/live-views';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiData, withQuery } from './client';

export { TREND_PERIODS } from '@api/contracts/dashboard';
export type { DashboardTasks, PeriodFigures, RankedProduct, SalesDashboard, TrendDay, TrendPeriod };

/**
 * The sales dashboard (api/dashboard/): the sales of its periods, the chart and the ranking, and what waits for the
 * seller. The live views that move them: the daily sales, and the read models behind what waits.
 */

export const DASHBOARD_KEY = 'dashboard-app-access';
export const SALES_DAILY_VIEW = LIVE_VIEWS.salesDaily;
export const TASK_VIEWS = [
  LIVE_VIEWS.orderCounts,
  LIVE_VIEWS.stock,
  LIVE_VIEWS.orderReturns,
  LIVE_VIEWS.transferRequests,
  LIVE_VIEWS.goodsIssues,
  LIVE_VIEWS.purchases,
] as const;

/** The filters as the screen holds them (the period always set). */
export type DashboardFilters = Pick<DashboardQuery, 'store_id' | 'platform'> & { period: TrendPeriod };

export const dashboardKeys = {
  all: ['dashboard'] as const,
  sales: (filters: DashboardFilters) => [...dashboardKeys.all, 'sales', filters] as const,
  tasks: (filters: Omit<DashboardFilters, 'period'>) => [...dashboardKeys.all, 'tasks', filters] as const,
};

export function useSalesDashboard(filters: DashboardFilters) {
  return useQuery({
    queryKey: dashboardKeys.sales(filters),
    queryFn: () => apiData<SalesDashboard>(withQuery('/api/dashboard/sales', filters)),
    // A new filter keeps the figures on screen until its own arrive.
    placeholderData: keepPreviousData,
  });
}

export function useDashboardTasks(filters: DashboardFilters) {
  return useQuery({
    queryKey: dashboardKeys.tasks({ store_id: filters.store_id, platform: filters.platform }),
    queryFn: () =>
      apiData<DashboardTasks>(
        withQuery('/api/dashboard/tasks', { store_id: filters.store_id, platform: filters.platform }),
      ),
    placeholderData: keepPreviousData,
  });
}
