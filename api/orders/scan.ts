import { ErrorAnswer, Ok, ok, refusals } from '@api/answers';
import { seller } from '@api/auth/session';
import {
  type BatchProgress,
  ItemBody,
  OrderParams,
  ResetBody,
  ScanAnswer,
  ScanBatch,
  TrackingBody,
} from '@api/contracts/scan';
import { forbidden, notFound } from '@api/errors';
import { loadBatch } from '@commands/batches/batch';
import { loadOrderFacts } from '@commands/batches/orders';
import { loadScanCheck, openCheck, resetCheck, scanItem } from '@commands/scan/check';
import { checkTotals, refuse, type ScanCheckState } from '@domain/scan/check';
import type { Db } from '@infra/db';
import { scannedOrdersAmong } from '@projections/orders.queries';
import { openBatchesToScan, smartScanEnabled } from '@projections/scan.queries';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  type BatchDeps,
  requireAny,
  SCAN_DELETE_KEY,
  SCAN_KEYS,
  scanTags as tags,
  userAnswer,
  userNames,
} from './batches-common';

/**
 * Scan to verify (/orders/smart-scan; spec §4, §5, §8; commands/scan/check.ts), for a keyboard-wedge scanner:
 *
 * POST /api/orders/scan/tracking { tracking_number, batch_id? } — opens the check of the order with this tracking
 *   number (the account's: another account's is not found, 404) for the caller, or gives back the one they hold.
 *   400 620 "Tracking Number is required"; 409 623 "Already scanned and checking in progress" when another picker
 *   is checking it or it is scanned already; 409 637 when it cannot be scanned now (new without a shipment,
 *   cancelled…); 400 639 when a batch is chosen and the order is not in it.
 * POST /api/orders/scan/item { order_id, item_code, scan_id? } — one item scanned on the caller's open check: the
 *   master code's code, the seller SKU or the UPC. 400 621 "Item Code is required"; 400 622 "Item Code [code]
 *   invalid" when the item is not on the order or all its units are scanned already; 409 638 without an open check.
 *   The scan that completes the check scans the order (once, however many requests race). `scan_id` makes a resent
 *   scan count once.
 * POST /api/orders/scan/reset { order_id, undo_scan? } — clears the check's progress (anyone's check needs "scan
 *   delete"); with undo_scan a scanned order goes back to unscan too ("scan delete").
 * GET  /api/orders/scan/check/:id — the check of an order (404 when it has none).
 * GET  /api/orders/scan/batches — open batches to scan by, with their progress (a picker working by task sees the
 *   batches given to them).
 *
 * Every answer carries the order, the check (lines with scanned/required) and the batch's progress. Needs one of the
 * keys "unscan", "order by task" or "batch", and the package's smart scan module (403 645 without it).
 */

/** The package's smart scan module (spec §6 "Package flags control … smart scan"). */
async function requireSmartScan(db: Db, request: FastifyRequest) {
  if (!(await smartScanEnabled(db, seller(request).tenantId))) throw refuse('SMART_SCAN_OFF');
}

/** A batch's progress: its orders and how many are scanned (`justScanned` counts even if the board is behind). */
async function batchProgress(
  deps: Pick<BatchDeps, 'db' | 'store'>,
  tenantId: string,
  batchId: string | null,
  justScanned: string | null,
): Promise<z.infer<typeof BatchProgress> | null> {
  if (!batchId) return null;
  const { state } = await loadBatch(deps.store, tenantId, batchId);
  if (state.status === 'none') return null;
  const scanned = await scannedOrdersAmong(deps.db, tenantId, state.orderIds);
  const ids = new Set(scanned);
  if (justScanned && state.orderIds.includes(justScanned)) ids.add(justScanned);
  return {
    id: state.batchId,
    label: state.label,
    name: state.name,
    total_orders: state.orderIds.length,
    scanned_orders: ids.size,
  };
}

export const scanRoutes: FastifyPluginAsyncZod<BatchDeps> = async (app, deps) => {
  const { db, store } = deps;
  const scanners = async (request: FastifyRequest) => {
    await requireAny(SCAN_KEYS)(request);
    await requireSmartScan(db, request);
  };

  async function answerOf(
    tenantId: string,
    orderId: string,
    check: ScanCheckState,
    opts: { scannedLine?: string | null; completed?: boolean } = {},
  ): Promise<ScanAnswer> {
    if (check.status === 'none') throw notFound();
    const facts = await loadOrderFacts(store, tenantId, orderId);
    if (!facts) throw notFound();
    const names = await userNames(db, tenantId, [check.pickerId]);
    const totals = checkTotals(check.lines);
    return {
      order: {
        id: orderId,
        order_number: facts.orderNumber,
        tracking_number: facts.state.trackingNumber,
        status: facts.state.status,
      },
      check: {
        status: check.status,
        round: check.round,
        picker: userAnswer(names, check.pickerId),
        lines: check.lines.map((line) => ({
          line_id: line.lineId,
          code: line.code,
          name: line.name,
          required: line.required,
          scanned: line.scanned,
        })),
        scanned: totals.scanned,
        required: totals.required,
        completed: check.status === 'completed',
      },
      scanned_line: opts.scannedLine ?? null,
      batch: await batchProgress(deps, tenantId, check.batchId, opts.completed ? orderId : null),
    };
  }

  const conflicts = { 409: ErrorAnswer };

  app.post(
    '/api/orders/scan/tracking',
    {
      config: { access: 'seller' },
      preHandler: scanners,
      schema: {
        tags,
        summary:
          'Scan a tracking number: opens the check of its order for the caller (400 620 "Tracking Number is required"; 409 623 "Already scanned and checking in progress")',
        body: TrackingBody,
        response: { 200: Ok(ScanAnswer), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      const session = seller(request);
      const opened = await openCheck(
        { store, db },
        { tenantId: session.tenantId, pickerId: session.userId, at: new Date().toISOString() },
        {
          trackingNumber: request.body.tracking_number,
          batchId: request.body.batch_id?.toLowerCase() ?? null,
        },
      );
      const answer = await answerOf(session.tenantId, opened.facts.orderId, opened.check);
      return ok(request, answer, 'batch.scan.opened', { order: answer.order.order_number });
    },
  );

  app.post(
    '/api/orders/scan/item',
    {
      config: { access: 'seller' },
      preHandler: scanners,
      schema: {
        tags,
        summary:
          'Scan an item code (master code, seller SKU or UPC) on the open check; the last unit scans the order (400 621 "Item Code is required", 400 622 "Item Code [code] invalid")',
        body: ItemBody,
        response: { 200: Ok(ScanAnswer), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      const session = seller(request);
      const body = request.body;
      const result = await scanItem(
        { store, db },
        { tenantId: session.tenantId, pickerId: session.userId, at: new Date().toISOString() },
        { orderId: body.order_id, code: body.item_code, scanId: body.scan_id },
      );
      const answer = await answerOf(session.tenantId, body.order_id, result.check, {
        scannedLine: result.lineId,
        completed: result.completed,
      });
      return result.completed
        ? ok(request, answer, 'batch.scan.completed', { order: answer.order.order_number })
        : ok(request, answer, 'batch.scan.item_scanned', {
            code: body.item_code,
            scanned: answer.check.scanned,
            required: answer.check.required,
          });
    },
  );

  app.post(
    '/api/orders/scan/reset',
    {
      config: { access: 'seller' },
      preHandler: scanners,
      schema: {
        tags,
        summary:
          "Reset a check: its progress is cleared (another picker's check needs scan delete); undo_scan also puts a scanned order back to unscan (scan delete)",
        body: ResetBody,
        response: { 200: Ok(ScanAnswer), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      const session = seller(request);
      const body = request.body;
      const current = await loadScanCheck(store, session.tenantId, body.order_id);
      if (current.status === 'none') throw notFound();
      const mine = current.pickerId === session.userId && current.status === 'open';
      if ((!mine || body.undo_scan) && !session.permissions.has(SCAN_DELETE_KEY)) throw forbidden();
      const check = await resetCheck(
        { store, db },
        { tenantId: session.tenantId, pickerId: session.userId, at: new Date().toISOString() },
        { orderId: body.order_id, undoScan: body.undo_scan ?? false },
      );
      return ok(request, await answerOf(session.tenantId, body.order_id, check), 'batch.scan.reset');
    },
  );

  app.get(
    '/api/orders/scan/check/:id',
    {
      config: { access: 'seller' },
      preHandler: scanners,
      schema: {
        tags,
        summary: "An order's scan check: its lines with scanned and required units, and its batch's progress",
        params: OrderParams,
        response: { 200: Ok(ScanAnswer), ...refusals },
      },
    },
    async (request) => {
      const { tenantId } = seller(request);
      const check = await loadScanCheck(store, tenantId, request.params.id);
      return ok(request, await answerOf(tenantId, request.params.id, check));
    },
  );

  app.get(
    '/api/orders/scan/batches',
    {
      config: { access: 'seller' },
      preHandler: scanners,
      schema: {
        tags,
        summary:
          'Open batches to scan by, newest first, with their progress; a picker working by task (without "view all tasks") sees the batches given to them',
        response: { 200: Ok(z.array(ScanBatch)), ...refusals },
      },
    },
    async (request) => {
      const session = seller(request);
      const ownOnly =
        session.permissions.has('orders-order-by-task') &&
        !session.permissions.has('orders-view-all-task') &&
        !session.permissions.has('orders-batch');
      const rows = await openBatchesToScan(db, session.tenantId, ownOnly ? session.userId : null);
      const names = await userNames(
        db,
        session.tenantId,
        rows.map((row) => row.picker_id),
      );
      return ok(
        request,
        rows.map((row) => ({
          id: row.id,
          label: row.label,
          name: row.name,
          total_orders: row.total_orders,
          scanned_orders: row.scanned_orders,
          picker: userAnswer(names, row.picker_id),
        })),
      );
    },
  );
};
