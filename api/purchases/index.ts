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
 * index, manage"). Viewing needs purchases-index, changing purchases-manage; the settings are the owner's. Every
 * answer is `{ code: 0, msg, data }`; a refusal is a 4xx with `{ code, msg }`, codes 520–549
 * (domain/purchases/codes.ts PurchaseCode; each refusal's answer sits in its domain's error table). Another
 * tenant's supplier, warehouse, master code, order or note answers as a missing one (404).
 *
 * Suppliers (suppliers.ts)
 *   GET  /api/purchases/suppliers            grid (code, name, company, contact_number, city, country, status…)
 *   GET  /api/purchases/suppliers/options    active suppliers for the purchase form
 *   GET  /api/purchases/suppliers/:id
 *   POST /api/purchases/suppliers            { name, company, contact_number, address, city, postal_code, state,
 *                                              country, email?, currency?, vat_number?, code?, status? }
 *   PUT  /api/purchases/suppliers/:id        any of those; status 'inactive' deactivates
 *   POST /api/purchases/suppliers/upload     CSV/XLSX body (?filename=); any bad row → 400 (530), nothing applied
 * Purchase orders (purchases.ts; the workflow `purchase-<tenant>-<id>` runs every action after creation)
 *   GET  /api/purchases                      grid; live view `purchases`
 *   POST /api/purchases                      { reference?, date?, supplier_id, warehouse_id, items: [{ master_code_id,
 *                                              quantity ≥ 1, unit_cost ≥ 0 }], discount?, estimated_arrival?, note?,
 *                                              place?, idempotency_key? }
 *   GET  /api/purchases/:id                  detail: lines with average cost, notes, actions, timeline
 *   POST /api/purchases/:id/place | approve | reject | cancel | void | return
 *   GET  /api/purchases/:id/pdf              the order as a PDF (pdf.ts)
 *   POST /api/purchases/upload               CSV/XLSX of items grouped by reference → draft orders (upload.ts)
 *   GET  /api/purchases/settings, PUT (owner) { purchase_approval, goods_receipt_approval }
 * Goods receive notes (goods-receipts.ts; the workflow `goods-receipt-<tenant>-<id>`)
 *   GET  /api/purchases/goods-receipts       grid (purchase_id=…: one order's); live view `goodsReceipts`
 *   POST /api/purchases/:id/goods-receipts   { items: [{ master_code_id, received, damaged, returned }], reference?,
 *                                              note?, receive_now?, idempotency_key? }
 *   GET  /api/purchases/goods-receipts/:id
 *   POST /api/purchases/goods-receipts/:id/approve | reject | receive | cancel
 * Pickers (options.ts): GET /api/purchases/options/warehouses, GET /api/purchases/options/master-codes?search=
 * Average cost (average-costs.ts)
 *   GET  /api/purchases/average-costs        grid; GET /api/purchases/average-costs/:masterCodeId
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
