import { ok } from '@api/answers';
import { seller } from '@api/auth/session';
import { MasterCodeOption, MasterCodeOptionQuery, PlaceOption } from '@api/contracts/purchases';
import { router } from '@api/route';
import { masterCodeOptions, placeOptions } from '@projections/purchases.queries';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type PurchaseDeps, tags, viewing } from './common';

/**
 * The pickers of the purchase screens, for users who hold the purchases keys without the inventory ones: the places
 * an order can be delivered to, and the standard master codes an order can buy (a combo has no stock of its own).
 */
export const purchaseOptionRoutes: FastifyPluginAsyncZod<PurchaseDeps> = async (app, { db }) => {
  const route = router(app, { tags, access: viewing });
  route.get(
    '/api/purchases/options/warehouses',
    {
      summary: 'The warehouses and branches an order can be delivered to (the default warehouse first)',
      answer: z.array(PlaceOption),
    },
    async (request) => ok(request, await placeOptions(db, seller(request).tenantId)),
  );
  route.get(
    '/api/purchases/options/master-codes',
    {
      summary: 'Standard master codes matching the search (code, name, seller SKU), at most `limit`',
      query: MasterCodeOptionQuery,
      answer: z.array(MasterCodeOption),
    },
    async (request) => ok(request, await masterCodeOptions(db, seller(request).tenantId, request.query)),
  );
};
