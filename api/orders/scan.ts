/**
 * Scan to verify (/orders/smart-scan; spec §4, §5, §8; commands/scan/verify.ts), for a keyboard-wedge scanner: a
 * tracking number opens its order's check, each item code scanned counts on it, the last scans the order; a check
 * can be reset, read, and the open batches to scan by listed. Needs one of the keys "unscan", "order by task" or
 * "batch" (and "scan delete" to reset another picker's check or undo a scan), and the package's smart scan module.
 * The bulk scan control (commands/scan/settings.ts) is read by whoever scans and changed by batch managers.
 */
import { ErrorAnswer, ok } from '@api/answers';
import { seller } from '@api/auth/session';
import {
  BulkAnswer,
  BulkBody,
  ItemBody,
  OrderParams,
  ResetBody,
  ScanAnswer,
  ScanBatch,
  ScanSettingsAnswer,
  ScanSettingsBody,
  SerialBody,
  TrackingBody,
} from '@api/contracts/scan';
import { router } from '@api/route';
import { saveScanSettings, scanSettingsAnswer } from '@commands/scan/settings';
import {
  batchesToScan,
  resetScan,
  type ScanAnswered,
  scanBatchItem,
  scanCheckOf,
  scanItemCode,
  scanSerialNumber,
  scanTracking,
} from '@commands/scan/verify';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type BatchDeps, SCAN_KEYS, SCAN_SETTINGS_KEY, scanTags as tags } from './batches-common';

export const scanRoutes: FastifyPluginAsyncZod<BatchDeps> = async (app, deps) => {
  // Scan to verify is the package's smart scan module (spec §6 package flags).
  const route = router(app, { tags, access: { anyOf: SCAN_KEYS }, module: 'smartScan' });
  const scanning = { answer: ScanAnswer, errors: { 409: ErrorAnswer } } as const;
  const answer = (request: FastifyRequest, done: ScanAnswered) =>
    ok(request, done.answer, done.message, done.params);

  route.post(
    '/api/orders/scan/tracking',
    {
      summary:
        'Scan a tracking number: opens the check of its order for the caller (400 620 "Tracking Number is required"; 409 623 "Already scanned and checking in progress")',
      body: TrackingBody,
      ...scanning,
    },
    async (request) => answer(request, await scanTracking(deps, seller(request), request.body)),
  );

  route.post(
    '/api/orders/scan/item',
    {
      summary:
        'Scan an item code (master code, seller SKU or UPC) on the open check; the last unit scans the order (400 621 "Item Code is required", 400 622 "Item Code [code] invalid")',
      body: ItemBody,
      ...scanning,
    },
    async (request) => answer(request, await scanItemCode(deps, seller(request), request.body)),
  );

  route.post(
    '/api/orders/scan/serial',
    {
      summary:
        "Scan a serial number for a line of the caller's check, after its item (at most one per unit, none twice on the order: 400 596, 597)",
      body: SerialBody,
      ...scanning,
    },
    async (request) => answer(request, await scanSerialNumber(deps, seller(request), request.body)),
  );

  route.post(
    '/api/orders/scan/reset',
    {
      summary:
        "Reset a check: its progress is cleared (another picker's check needs scan delete); undo_scan also puts a scanned order back to unscan (scan delete)",
      body: ResetBody,
      ...scanning,
    },
    async (request) => answer(request, await resetScan(deps, seller(request), request.body)),
  );

  route.get(
    '/api/orders/scan/check/:id',
    {
      summary: "An order's scan check: its lines with scanned and required units, and its batch's progress",
      params: OrderParams,
      answer: ScanAnswer,
    },
    async (request) => answer(request, await scanCheckOf(deps, seller(request), request.params.id)),
  );

  route.get(
    '/api/orders/scan/batches',
    {
      summary:
        'Open batches to scan by, newest first, with their progress; a picker working by task (without "view all tasks") sees the batches given to them',
      answer: z.array(ScanBatch),
    },
    async (request) => ok(request, await batchesToScan(deps, seller(request))),
  );

  route.post(
    '/api/orders/scan/bulk',
    {
      summary:
        'Bulk scan (bulk scan control): one item code scanned for a batch scans every order of it waiting to be scanned whose only unit is that item (409 648 when bulk scan is off; 400 622 when no such order waits)',
      body: BulkBody,
      answer: BulkAnswer,
      errors: { 409: ErrorAnswer },
    },
    async (request) => {
      const done = await scanBatchItem(deps, seller(request), request.body);
      return ok(request, done.answer, done.message, done.params);
    },
  );

  route.get(
    '/api/orders/scan-settings',
    {
      summary:
        'The bulk scan control: quantity entry, order number in place of the tracking number, bulk scan of single-item orders',
      answer: ScanSettingsAnswer,
    },
    async (request) => ok(request, await scanSettingsAnswer(deps.db, seller(request).tenantId)),
  );

  route.put(
    '/api/orders/scan-settings',
    {
      summary: 'Change the bulk scan control (batch managers)',
      access: { permission: SCAN_SETTINGS_KEY },
      body: ScanSettingsBody,
      answer: ScanSettingsAnswer,
    },
    async (request) =>
      ok(request, await saveScanSettings(deps, seller(request), request.body), 'batch.scan_settings.saved'),
  );
};
