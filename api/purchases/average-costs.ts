import { GridPage, Ok, ok, refusals } from '@api/answers';
import { seller } from '@api/auth/session';
import { IdParams } from '@api/contracts/ids';
import { AverageCostAnswer, AverageCostQuery } from '@api/contracts/purchases';
import { purchasingInputErrors } from '@domain/purchases/codes';
import { refuser } from '@domain/shared/errors';
import { averageCostList, averageCostOfCode } from '@projections/average-cost.queries';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type PurchaseDeps, tags, viewing } from './common';

/**
 * The moving average cost of each master code across the account (projections/average-cost.ts): blended from every
 * goods receive note's net unit costs. Live view `averageCosts`.
 */

const refuse = refuser(purchasingInputErrors);

export const averageCostRoutes: FastifyPluginAsyncZod<PurchaseDeps> = async (app, { db }) => {
  app.get(
    '/api/purchases/average-costs',
    {
      config: viewing,
      schema: {
        tags,
        summary:
          'The moving average cost of every master code received at a cost (ag-grid Infinite Row Model)',
        querystring: AverageCostQuery,
        response: { 200: Ok(GridPage(AverageCostAnswer)), ...refusals },
      },
    },
    async (request) => ok(request, await averageCostList(db, seller(request).tenantId, request.query)),
  );

  app.get(
    '/api/purchases/average-costs/:id',
    {
      config: viewing,
      schema: {
        tags,
        summary: "One master code's moving average cost (0.0000 and 0 units before any receipt at a cost)",
        params: IdParams,
        response: { 200: Ok(AverageCostAnswer), ...refusals },
      },
    },
    async (request) => {
      const cost = await averageCostOfCode(db, seller(request).tenantId, request.params.id);
      if (!cost) throw refuse('MASTER_CODE_NOT_FOUND', { code: request.params.id });
      return ok(request, cost);
    },
  );
};
