import { randomUUID } from 'node:crypto';
import type {
  BatchProgress,
  BulkAnswer,
  BulkBody,
  ItemBody,
  ResetBody,
  ScanAnswer,
  ScanBatch,
  SerialBody,
  TrackingBody,
} from '@api/contracts/scan';
import type { PermissionKey } from '@domain/access/permissions';
import { isUuid } from '@domain/platform/ids';
import { checkTotals, refuse, type ScanCheckState } from '@domain/scan/check';
import { refuseBySettings } from '@domain/scan/settings';
import type { MessageParams } from '@infra/i18n';
import { userAnswer, userNames } from '@projections/batches.queries';
import { scannedOrdersAmong } from '@projections/orders.queries';
import { openBatchesToScan, scanSettingsOf, smartScanEnabled } from '@projections/scan.queries';
import { loadBatch } from '../batches/batch';
import { loadOrderFacts } from '../batches/orders';
import { handleOrderCommand } from '../orders/order';
import { loadScanCheck, openCheck, resetCheck, type ScanDeps, scanItem, scanSingleItemOrders } from './check';

/**
 * The smart scan screen's use cases (spec §4, §5, §8; check.ts does the scanning): each needs the package's smart
 * scan module, and answers the order, its check and its batch's progress with the message its outcome calls for.
 */

export interface Scanner {
  tenantId: string;
  userId: string;
  permissions: ReadonlySet<PermissionKey>;
}

export interface ScanAnswered {
  answer: ScanAnswer;
  message?: string;
  params?: MessageParams;
}

/** The package's smart scan module (spec §6 "Package flags control … smart scan"). */
async function requireSmartScan(deps: ScanDeps, tenantId: string) {
  if (!(await smartScanEnabled(deps.db, tenantId))) throw refuse('SMART_SCAN_OFF');
}

const contextOf = (actor: Scanner) => ({
  tenantId: actor.tenantId,
  pickerId: actor.userId,
  at: new Date().toISOString(),
});

/** A batch's progress: its orders and how many are scanned (`justScanned` count even if the board is behind). */
async function batchProgress(
  deps: ScanDeps,
  tenantId: string,
  batchId: string | null,
  justScanned: readonly string[],
): Promise<BatchProgress | null> {
  if (!batchId) return null;
  const { state } = await loadBatch(deps.store, tenantId, batchId);
  if (state.status === 'none') return null;
  const ids = new Set(await scannedOrdersAmong(deps.db, tenantId, state.orderIds));
  for (const id of justScanned) if (state.orderIds.includes(id)) ids.add(id);
  return {
    id: state.batchId,
    label: state.label,
    name: state.name,
    total_orders: state.orderIds.length,
    scanned_orders: ids.size,
  };
}

async function answerOf(
  deps: ScanDeps,
  tenantId: string,
  orderId: string,
  check: ScanCheckState,
  opts: { scannedLine?: string | null; completed?: boolean } = {},
): Promise<ScanAnswer> {
  if (check.status === 'none') throw refuse('ORDER_NOT_FOUND');
  const facts = await loadOrderFacts(deps.store, tenantId, orderId);
  if (!facts) throw refuse('ORDER_NOT_FOUND');
  const names = await userNames(deps.db, tenantId, [check.pickerId]);
  const totals = checkTotals(check.lines);
  const serials = new Map(facts.state.lines.map((line) => [line.lineId, line.serialNumbers ?? []]));
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
        serial_numbers: serials.get(orderLineOf(line.lineId)) ?? [],
      })),
      scanned: totals.scanned,
      required: totals.required,
      completed: check.status === 'completed',
    },
    scanned_line: opts.scannedLine ?? null,
    batch: await batchProgress(deps, tenantId, check.batchId, opts.completed ? [orderId] : []),
  };
}

/** The order line a check line counts: a combo's component lines (`<lineId>/<componentId>`) count the combo's. */
const orderLineOf = (checkLineId: string) => checkLineId.split('/')[0]!;

/** A tracking number scanned: opens the check of its order for the caller, or gives back the one they hold. */
export async function scanTracking(
  deps: ScanDeps,
  actor: Scanner,
  body: TrackingBody,
): Promise<ScanAnswered> {
  await requireSmartScan(deps, actor.tenantId);
  const settings = await scanSettingsOf(deps.db, actor.tenantId);
  const opened = await openCheck(deps, contextOf(actor), {
    trackingNumber: body.tracking_number,
    batchId: body.batch_id?.toLowerCase() ?? null,
    orderNumber: settings.orderNumberScan,
  });
  const answer = await answerOf(deps, actor.tenantId, opened.facts.orderId, opened.check);
  return { answer, message: 'batch.scan.opened', params: { order: answer.order.order_number } };
}

/** An item code scanned on the caller's open check; the scan that completes it scans the order. */
export async function scanItemCode(deps: ScanDeps, actor: Scanner, body: ItemBody): Promise<ScanAnswered> {
  await requireSmartScan(deps, actor.tenantId);
  const quantity = body.quantity ?? 1;
  if (quantity > 1 && !(await scanSettingsOf(deps.db, actor.tenantId)).quantityEntry) {
    throw refuseBySettings('QUANTITY_OFF');
  }
  const result = await scanItem(deps, contextOf(actor), {
    orderId: body.order_id,
    code: body.item_code,
    scanId: body.scan_id,
    quantity,
  });
  const answer = await answerOf(deps, actor.tenantId, body.order_id, result.check, {
    scannedLine: result.lineId,
    completed: result.completed,
  });
  if (result.completed) {
    return { answer, message: 'batch.scan.completed', params: { order: answer.order.order_number } };
  }
  const { scanned, required } = answer.check;
  return { answer, message: 'batch.scan.item_scanned', params: { code: body.item_code, scanned, required } };
}

/**
 * A serial number scanned after an item (spec §3 order item "serial number"): added to the order line the check line
 * counts, through the order's own rule (at most one per unit, none twice on the order: 596, 597). Only the picker
 * whose check it is records them, while it is open or just completed (the last unit's serial comes after its scan).
 */
export async function scanSerialNumber(
  deps: ScanDeps,
  actor: Scanner,
  body: SerialBody,
): Promise<ScanAnswered> {
  await requireSmartScan(deps, actor.tenantId);
  const check = await loadScanCheck(deps.store, actor.tenantId, body.order_id);
  if (check.status === 'none') throw refuse('ORDER_NOT_FOUND');
  if (check.status === 'idle') throw refuse('CHECK_NOT_OPEN');
  if (check.pickerId !== actor.userId) throw refuse('CHECK_IN_PROGRESS');
  if (!check.lines.some((line) => line.lineId === body.line_id)) throw refuse('ORDER_NOT_FOUND');
  await handleOrderCommand(
    deps.store,
    body.order_id,
    { type: 'AddSerialNumber', lineId: orderLineOf(body.line_id), serialNumber: body.serial_number },
    {
      tenantId: actor.tenantId,
      userId: actor.userId,
      commandId: `scan-serial:${actor.tenantId}:${body.scan_id ?? randomUUID()}`,
      occurredAt: new Date().toISOString(),
    },
  );
  const answer = await answerOf(deps, actor.tenantId, body.order_id, check, { scannedLine: body.line_id });
  return { answer, message: 'batch.scan.serial_recorded', params: { serial: body.serial_number } };
}

/**
 * One item scanned for a whole batch (bulk scan control's bulk single items): every order of the batch waiting to be
 * scanned whose only unit is that item is scanned. Refused when the option is off, and with the spec's "Item Code
 * [code] invalid" when no such order waits.
 */
export async function scanBatchItem(
  deps: ScanDeps,
  actor: Scanner,
  body: BulkBody,
): Promise<{ answer: BulkAnswer; message: string; params: MessageParams }> {
  await requireSmartScan(deps, actor.tenantId);
  if (!(await scanSettingsOf(deps.db, actor.tenantId)).bulkSingleItems)
    throw refuseBySettings('BULK_SCAN_OFF');
  const batchId = body.batch_id.toLowerCase();
  const batch = isUuid(batchId) ? (await loadBatch(deps.store, actor.tenantId, batchId)).state : null;
  if (!batch || batch.status === 'none') throw refuse('ORDER_NOT_FOUND');
  const scanned = await scanSingleItemOrders(deps, contextOf(actor), {
    batchId,
    orderIds: batch.orderIds,
    code: body.item_code,
  });
  if (scanned.length === 0) throw refuse('ITEM_CODE_INVALID', { item_code: body.item_code });
  return {
    answer: {
      orders: scanned.map((order) => ({
        id: order.orderId,
        order_number: order.orderNumber,
        tracking_number: order.state.trackingNumber,
      })),
      batch: await batchProgress(
        deps,
        actor.tenantId,
        batchId,
        scanned.map((order) => order.orderId),
      ),
    },
    message: 'batch.scan.bulk_scanned',
    params: { count: scanned.length, code: body.item_code },
  };
}

/** Clears a check's progress (anyone else's needs "scan delete"); undo_scan puts a scanned order back (the same). */
export async function resetScan(deps: ScanDeps, actor: Scanner, body: ResetBody): Promise<ScanAnswered> {
  await requireSmartScan(deps, actor.tenantId);
  const current = await loadScanCheck(deps.store, actor.tenantId, body.order_id);
  if (current.status === 'none') throw refuse('ORDER_NOT_FOUND');
  const mine = current.pickerId === actor.userId && current.status === 'open';
  if ((!mine || body.undo_scan) && !actor.permissions.has('orders-scan-delete')) throw refuse('NOT_ALLOWED');
  const check = await resetCheck(deps, contextOf(actor), {
    orderId: body.order_id,
    undoScan: body.undo_scan ?? false,
  });
  return { answer: await answerOf(deps, actor.tenantId, body.order_id, check), message: 'batch.scan.reset' };
}

/** An order's check as it stands. */
export async function scanCheckOf(deps: ScanDeps, actor: Scanner, orderId: string): Promise<ScanAnswered> {
  await requireSmartScan(deps, actor.tenantId);
  const check = await loadScanCheck(deps.store, actor.tenantId, orderId);
  return { answer: await answerOf(deps, actor.tenantId, orderId, check) };
}

/** Open batches to scan by, with their progress; a picker working by task (without "view all tasks") sees theirs. */
export async function batchesToScan(deps: ScanDeps, actor: Scanner): Promise<ScanBatch[]> {
  await requireSmartScan(deps, actor.tenantId);
  const has = (key: PermissionKey) => actor.permissions.has(key);
  const ownOnly = has('orders-order-by-task') && !has('orders-view-all-task') && !has('orders-batch');
  const rows = await openBatchesToScan(deps.db, actor.tenantId, ownOnly ? actor.userId : null);
  const names = await userNames(
    deps.db,
    actor.tenantId,
    rows.map((row) => row.picker_id),
  );
  return rows.map(({ picker_id, ...row }) => ({ ...row, picker: userAnswer(names, picker_id) }));
}
