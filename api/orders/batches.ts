/**
 * Batches, auto batch and scan to verify (issue 6 items 4 and 5; spec §2 /orders/batch, /orders/batch-setting,
 * /orders/smart-scan; §3 "Batch"; §4, §5, §8, §9). Codes 620–649 (batches-common.ts BatchCode); every answer is
 * `{ code: 0, msg, data }`, a refusal an HTTP 4xx with `{ code, msg }`; another account's batch, order or tracking
 * number answers like a missing one (404). Batches and auto batch settings need "batch" (orders-batch); scanning
 * needs "unscan", "order by task" or "batch" (see scan.ts).
 *
 * ---- batches (batches-list.ts, batches-actions.ts, batches-pick-list.ts) ----
 * GET  /api/orders/batches                 grid (sort number, label, name, date, status, type, total_orders,
 *      created_at; filter label, name, group, status, type, created_at; status, picker_id; search)
 * GET  /api/orders/batches/waiting         grid of the orders waiting for a batch (type=normal|pre-order)
 * GET  /api/orders/batches/pickers         the account's active users
 * GET  /api/orders/batches/:id             one batch with its orders and history
 * POST /api/orders/batches                 { order_ids, name?, prefix?, digits?, type?, picker_id?, max_orders?,
 *      split?: none|logistics|payment, date?, idempotency_key? } → { batches } (one per group and max orders)
 * POST /api/orders/batches/:id/orders      { order_ids } add;   POST …/orders/remove { order_ids } take out
 * POST /api/orders/batches/:id/picker      { picker_id | null };   POST …/close
 * GET  /api/orders/batches/:id/pick-list?filter=item|sku|single|multiple|all   (JSON)
 * GET  /api/orders/batches/:id/pick-list.pdf?filter=…                         (PDF)
 *
 * ---- auto batch (batches-settings.ts) ----
 * GET /api/orders/batch-settings; POST (create); PUT /:id; DELETE /:id; POST /:id/run (now)
 *
 * ---- smart scan (scan.ts) ----
 * POST /api/orders/scan/tracking; POST /api/orders/scan/item; POST /api/orders/scan/reset;
 * GET /api/orders/scan/check/:id; GET /api/orders/scan/batches
 *
 * The plugin also runs the auto batch count trigger: when the order board says orders arrived or changed status
 * (live view `orderCounts`), each active configuration whose waiting orders reached its maximum gets its run.
 */
import { AutoBatchCountTrigger } from '@commands/batches/auto-batch';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { batchActionRoutes } from './batches-actions';
import type { BatchDeps } from './batches-common';
import { batchListRoutes } from './batches-list';
import { batchPickListRoutes } from './batches-pick-list';
import { batchSettingsRoutes } from './batches-settings';
import { scanRoutes } from './scan';

export const batchRoutes: FastifyPluginAsyncZod<BatchDeps> = async (app, deps) => {
  // The process that runs the reactors also follows the board's counts with its trigger (followOrderCounts); the
  // routes only nudge it when a configuration changes.
  const trigger =
    deps.trigger ??
    new AutoBatchCountTrigger(deps.db, deps.workflows, (error, tenantId) =>
      app.log.warn({ err: error, tenantId }, 'auto batch count trigger failed'),
    );
  app.addHook('onClose', async () => {
    await trigger.idle();
  });
  await app.register(batchListRoutes, deps);
  await app.register(batchActionRoutes, deps);
  await app.register(batchPickListRoutes, deps);
  await app.register(batchSettingsRoutes, { ...deps, trigger });
  await app.register(scanRoutes, deps);
};
