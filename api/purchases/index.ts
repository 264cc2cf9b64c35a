import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { averageCostRoutes } from './average-costs';
import type { PurchaseDeps } from './common';
import { goodsReceiptRoutes } from './goods-receipts';
import { purchaseOptionRoutes } from './options';
import { purchasePdfRoutes } from './pdf';
import { purchaseRoutes } from './purchases';
import { supplierRoutes } from './suppliers';
import { purchaseUploadRoutes } from './upload';

/**
 * Purchasing (issue 5; spec §3 Purchase, Supplier, Goods receive notes; §4 states; §6 "Purchases and supplier:
 * index, manage"): suppliers, purchase orders and their PDF and bulk upload, goods receive notes, average costs and
 * the pickers. Viewing needs purchases-index, changing purchases-manage; the settings are the owner's. Shapes:
 * api/contracts/purchases.ts; result codes 520–549: domain/purchases/codes.ts. Another tenant's supplier, warehouse,
 * master code, order or note answers as a missing one (404).
 */
export const purchasingRoutes: FastifyPluginAsyncZod<PurchaseDeps> = async (app, deps) => {
  await app.register(supplierRoutes, deps);
  await app.register(purchaseRoutes, deps);
  await app.register(goodsReceiptRoutes, deps);
  await app.register(purchasePdfRoutes, deps);
  await app.register(purchaseUploadRoutes, deps);
  await app.register(averageCostRoutes, deps);
  await app.register(purchaseOptionRoutes, deps);
};
