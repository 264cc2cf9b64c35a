import { ok } from '@api/answers';
import { seller } from '@api/auth/session';
import { GridPage } from '@api/contracts/common';
import { IdParams } from '@api/contracts/ids';
import { AverageCostAnswer, AverageCostQuery } from '@api/contracts/purchases';
import { router } from '@api/route';
import { averageCostList, averageCostOfCode } from '@projections/average-cost.queries';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type PurchaseDeps, tags, viewing } from './common';

/**
 * The moving average cost of each master code across the account (projections/average-cost.ts): blended from every
 * goods receive note's net unit costs and each new master code's opening stock at its cost. Live view `averageCosts`.
 */
export const averageCostRoutes: FastifyPluginAsyncZod<PurchaseDeps> = async (app, { db }) => {
  const route = router(app, { tags, access: viewing });
  route.get(
    '/api/purchases/average-costs',
    {
      summary: 'The moving average cost of every master code received at a cost (ag-grid Infinite Row Model)',
      query: AverageCostQuery,
      answer: GridPage(AverageCostAnswer),
    },
    async (request) => ok(request, await averageCostList(db, seller(request).tenantId, request.query)),
  );
  route.get(
    '/api/purchases/average-costs/:id',
    {
      summary: "One master code's moving average cost (0.0000 and 0 units before any receipt at a cost)",
      params: IdParams,
      answer: AverageCostAnswer,
    },
    async (request) => ok(request, await averageCostOfCode(db, seller(request).tenantId, request.params.id)),
  );
};
