import { GridPage, ok } from '@api/answers';
import { PlatformSummary, TenantUsage, TenantUsageQuery } from '@api/contracts/admin-reports';
import { router } from '@api/route';
import type { Db } from '@infra/db';
import { platformSummary, tenantUsage } from '@projections/platform/admin-reports.queries';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** The provider's reports (shell.md /admin-reports/): the platform's use across every account, admins only. */
export const adminReportRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const admin = router(app, { tags: ['admin reports'], access: 'admin' });

  admin.get(
    '/api/admin/reports/summary',
    {
      summary: 'Accounts, sign-ups, stores, users and this month’s orders across the platform',
      answer: PlatformSummary,
    },
    async (request) => ok(request, await platformSummary(db)),
  );

  admin.get(
    '/api/admin/reports/tenants',
    {
      summary:
        'Each account’s use: users, stores, master codes, this month’s orders (ag-grid Infinite Row Model)',
      query: TenantUsageQuery,
      answer: GridPage(TenantUsage),
    },
    async (request) => ok(request, await tenantUsage(db, request.query)),
  );
};
