/**
 * The sales dashboard (issue 16 item 1; spec shell.md "Sales dashboard", §6 "Dashboard app access"): the sales of
 * the dashboard's periods with the chart and the ranking, and what waits for the seller. Both take one store or one
 * marketplace as a filter; a store of another account simply has no sales. Shapes: api/contracts/dashboard.ts.
 */
import { ok } from '@api/answers';
import { seller } from '@api/auth/session';
import { DashboardQuery, DashboardTasks, SalesDashboard } from '@api/contracts/dashboard';
import { router } from '@api/route';
import type { Db } from '@infra/db';
import { dashboardTasks, salesDashboard } from '@projections/dashboard.queries';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

export const dashboardRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const route = router(app, { tags: ['dashboard'], access: { permission: 'dashboard-app-access' } });

  route.get(
    '/api/dashboard/sales',
    {
      summary:
        'Sales of today, this and last week and month, the last 7 and 30 days; the chart; the product ranking',
      query: DashboardQuery,
      answer: SalesDashboard,
    },
    async (request) =>
      ok(request, await salesDashboard(db, seller(request).tenantId, request.query, new Date())),
  );

  route.get(
    '/api/dashboard/tasks',
    {
      summary: 'Unpaid orders, low stock, returns of the last 30 days and documents waiting for approval',
      query: DashboardQuery,
      answer: DashboardTasks,
    },
    async (request) =>
      ok(request, await dashboardTasks(db, seller(request).tenantId, request.query, new Date())),
  );
};
