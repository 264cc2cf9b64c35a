import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { catalogueRoutes } from './catalogue';
import { comboRoutes } from './combos';
import type { InventoryDeps } from './common';
import { masterCodeImageRoutes } from './master-code-images';
import { masterCodeRoutes } from './master-codes';
import { rackRoutes } from './racks';
import { warehouseRoutes } from './warehouses';
import { wholesalePriceRoutes } from './wholesale-prices';

/** The inventory's reference data; `stockOf` is how these routes ask the stock (absent: 0). */
export const inventoryRoutes: FastifyPluginAsyncZod<InventoryDeps> = async (app, deps) => {
  await app.register(masterCodeRoutes, deps);
  await app.register(masterCodeImageRoutes, deps);
  await app.register(wholesalePriceRoutes, deps);
  await app.register(comboRoutes, deps);
  await app.register(catalogueRoutes, deps);
  await app.register(warehouseRoutes, deps);
  await app.register(rackRoutes, deps);
};

export type { StockOf } from './common';
