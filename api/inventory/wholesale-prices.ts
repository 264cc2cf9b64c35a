/**
 * Wholesale pricing per master code (spec §2 /inventory/wholesale-pricing): the master codes with their tiers for
 * ag-grid, one master code's tiers, and replacing them. Who: inventory-master-code writes (the tiers are part of the
 * master code's pricing); the POS's pos-wholesale-price key reads them too, as the POS prices a sale from them.
 */
import { GridPage, ok } from '@api/answers';
import { seller } from '@api/auth/session';
import { IdParams } from '@api/contracts/ids';
import { MasterCodeGridQuery } from '@api/contracts/inventory-master-codes';
import { WholesalePricing, WholesaleTiersBody } from '@api/contracts/inventory-wholesale';
import { found } from '@api/errors';
import { router } from '@api/route';
import { setWholesaleTiers } from '@commands/inventory/wholesale-prices';
import { listWholesalePricing, wholesalePricingOf } from '@projections/inventory/wholesale-prices';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type InventoryDeps, tags } from './common';

const readers = { anyOf: ['inventory-master-code', 'pos-wholesale-price'] } as const;

export const wholesalePriceRoutes: FastifyPluginAsyncZod<InventoryDeps> = async (app, { db }) => {
  const route = router(app, { tags, access: { permission: 'inventory-master-code' } });

  route.get(
    '/api/inventory/wholesale-pricing',
    {
      summary: "The account's master codes with their wholesale tiers, for ag-grid's Infinite Row Model",
      access: readers,
      query: MasterCodeGridQuery,
      answer: GridPage(WholesalePricing),
    },
    async (request) => ok(request, await listWholesalePricing(db, seller(request).tenantId, request.query)),
  );

  route.get(
    '/api/inventory/wholesale-pricing/:id',
    {
      summary: "One master code's wholesale tiers, lowest minimum quantity first",
      access: readers,
      params: IdParams,
      answer: WholesalePricing,
    },
    async (request) =>
      ok(request, found(await wholesalePricingOf(db, seller(request).tenantId, request.params.id))),
  );

  route.put(
    '/api/inventory/wholesale-pricing/:id',
    {
      summary:
        "Replace a master code's wholesale tiers (minimum quantities ascending, none twice; an empty list removes them)",
      params: IdParams,
      body: WholesaleTiersBody,
      answer: WholesalePricing,
    },
    async (request) => {
      const changed = await setWholesaleTiers({ db }, seller(request), {
        id: request.params.id,
        body: request.body,
      });
      return ok(request, changed, 'inventory.wholesale.updated', { code: changed.code });
    },
  );
};
