import { randomUUID } from 'node:crypto';
import type { OrderStatus } from '@domain/orders/order';
import {
  type CheckLine,
  CODE_MAX,
  normaliseCode,
  type OrderReadiness,
  refuse,
  type ScanCheckCommand,
  type ScanCheckEvent,
  type ScanCheckState,
  scanCheckDecider,
  scanCheckStreamId,
} from '@domain/scan/check';
import { refusalOf } from '@domain/shared/errors';
import type { Database } from '@infra/db';
import { withTenant } from '@infra/db/tenant';
import type { EventStore } from '@infra/eventstore/port';
import { componentsOfCombos } from '@projections/inventory/combos';
import type { Kysely } from 'kysely';
import { liveLines, loadOrderFacts, loadOrdersFacts, type OrderFacts } from '../batches/orders';
import { handleOrderCommand } from '../orders/order';
import { type DocumentContext, type DocumentResult, handleDocumentCommand } from '../support/document';

/**
 * Scan to verify (domain/scan/check.ts) as the console's smart scan drives it: a tracking number opens the check of
 * its order (the account's only: another account's tracking number is not found), each item code scanned counts
 * against the order's lines, and the scan that completes the check scans the order — with the order's own ScanOrder,
 * under a command id of the order and the check's round, so however often that step is retried (or two pickers'
 * requests race) the order is scanned once and its stock moves once.
 */

export interface ScanDeps {
  store: EventStore;
  db: Kysely<Database>;
}

export interface ScanContext {
  tenantId: string;
  pickerId: string;
  /** When the picker scanned (ISO instant). */
  at: string;
}

export function handleScanCheckCommand(
  store: EventStore,
  tenantId: string,
  orderId: string,
  command: ScanCheckCommand,
  context: DocumentContext,
): Promise<DocumentResult<ScanCheckEvent, ScanCheckState>> {
  return handleDocumentCommand(
    store,
    scanCheckStreamId(tenantId, orderId),
    scanCheckDecider,
    command,
    context,
  );
}

export async function loadScanCheck(
  store: EventStore,
  tenantId: string,
  orderId: string,
): Promise<ScanCheckState> {
  let state: ScanCheckState = scanCheckDecider.initial;
  for await (const recorded of store.readStream(scanCheckStreamId(tenantId, orderId))) {
    state = scanCheckDecider.evolve(state, { type: recorded.type, data: recorded.data } as ScanCheckEvent);
  }
  return state;
}

/** Statuses past the scan: the order was scanned already. */
const SCANNED: readonly OrderStatus[] = [
  'scanned',
  'processed',
  'shipped',
  'delivered',
  'returned',
  'refunded',
];

export const readinessOf = (status: OrderStatus): OrderReadiness =>
  status === 'unscan' ? 'unscan' : SCANNED.includes(status) ? 'scanned' : 'not_ready';

/** The command id of the order's scan by a check's round: one scan per round, whoever completes it. */
export const scanOrderCommandId = (tenantId: string, orderId: string, round: number) =>
  `${tenantId}:scan-check:${orderId}:${round}`;

/**
 * The orders of the account with this tracking number (usually one), an unscanned one first; with `orderNumber`
 * (bulk scan control), the order with this number too.
 */
export async function ordersByTracking(
  db: Kysely<Database>,
  tenantId: string,
  trackingNumber: string,
  opts: { orderNumber?: boolean } = {},
): Promise<{ orderId: string; status: string }[]> {
  const typed = trackingNumber.trim();
  const codes = [...new Set([typed, typed.toUpperCase()])];
  const rows = await withTenant(db, tenantId, (trx) =>
    trx
      .selectFrom('orders')
      .select(['id', 'status'])
      .where('tenant_id', '=', tenantId)
      .where((eb) =>
        opts.orderNumber
          ? eb.or([eb('tracking_number', 'in', codes), eb('order_number', 'in', codes)])
          : eb('tracking_number', 'in', codes),
      )
      .orderBy('updated_at', 'desc')
      .limit(20)
      .execute(),
  );
  const rank = (status: string) => (status === 'unscan' ? 0 : status === 'new' ? 1 : 2);
  return rows
    .map((row) => ({ orderId: row.id, status: row.status }))
    .sort((a, b) => rank(a.status) - rank(b.status));
}

/**
 * The check's lines: each line still on the order, and every code that counts as its item. A combo is packed as its
 * components (it has no barcode of its own on the shelf): one check line per component, `<lineId>/<componentId>`,
 * required the combo's quantity times the component's.
 */
export async function checkLinesOf(
  db: Kysely<Database>,
  tenantId: string,
  facts: OrderFacts,
): Promise<CheckLine[]> {
  const lines = liveLines(facts.state);
  const comboIds = [
    ...new Set(lines.flatMap((line) => (line.combo && line.masterCodeId ? [line.masterCodeId] : []))),
  ];
  const combos = await componentsOfCombos(db, tenantId, comboIds);
  const ids = [
    ...new Set([
      ...lines.flatMap((line) => (line.masterCodeId ? [line.masterCodeId] : [])),
      ...[...combos.values()].flat().map((part) => part.masterCodeId),
    ]),
  ];
  const masters = ids.length
    ? await db
        .selectFrom('master_codes')
        .select(['id', 'code', 'name', 'seller_sku', 'upc'])
        .where('tenant_id', '=', tenantId)
        .where('id', 'in', ids)
        .execute()
    : [];
  const byId = new Map(masters.map((row) => [row.id, row]));
  const codesOf = (...codes: (string | null | undefined)[]) =>
    [
      ...new Set(
        codes
          .map((code) => normaliseCode(code ?? ''))
          .filter((code) => code !== '' && code.length <= CODE_MAX),
      ),
    ].slice(0, 10);
  return lines.flatMap((line): CheckLine[] => {
    const components = line.combo && line.masterCodeId ? (combos.get(line.masterCodeId) ?? []) : [];
    if (components.length > 0) {
      return components.map((part) => {
        const component = byId.get(part.masterCodeId);
        return {
          lineId: `${line.lineId}/${part.masterCodeId}`,
          code: component?.code ?? part.masterCodeId,
          name: component?.name ?? line.name,
          codes: codesOf(component?.code, component?.seller_sku, component?.upc),
          required: line.quantity * part.quantity,
        };
      });
    }
    const master = line.masterCodeId ? byId.get(line.masterCodeId) : undefined;
    return [
      {
        lineId: line.lineId,
        code: (master?.code ?? line.sellerSku) || line.sku,
        name: master?.name ?? line.name,
        codes: codesOf(master?.code, master?.seller_sku, master?.upc, line.sellerSku, line.sku),
        required: line.quantity,
      },
    ];
  });
}

const documentContext = (context: ScanContext, commandId: string): DocumentContext => ({
  tenantId: context.tenantId,
  userId: context.pickerId,
  commandId,
  occurredAt: context.at,
});

export interface OpenedCheck {
  facts: OrderFacts;
  check: ScanCheckState;
}

/**
 * Opens the check of the order with this tracking number for the picker (or gives them back the one they hold). With
 * a batch, only an order of that batch is taken.
 */
export async function openCheck(
  deps: ScanDeps,
  context: ScanContext,
  input: { trackingNumber: string; batchId?: string | null; orderNumber?: boolean },
): Promise<OpenedCheck> {
  const candidates = await ordersByTracking(deps.db, context.tenantId, input.trackingNumber, {
    orderNumber: input.orderNumber ?? false,
  });
  if (candidates.length === 0) throw refuse('ORDER_NOT_FOUND');
  // The order's batch as its stream has it: the board may not show a batch made a moment ago yet.
  let facts: OrderFacts | null = null;
  for (const candidate of candidates) {
    const found = await loadOrderFacts(deps.store, context.tenantId, candidate.orderId);
    if (found && (!input.batchId || found.state.batchId === input.batchId)) {
      facts = found;
      break;
    }
  }
  if (!facts && input.batchId) throw refuse('NOT_IN_BATCH', { tracking: input.trackingNumber.trim() });
  if (!facts) throw refuse('ORDER_NOT_FOUND');
  return openCheckOfOrder(deps, context, facts, input.trackingNumber);
}

/** Opens the check of this order for the picker (or gives them back the one they hold). */
async function openCheckOfOrder(
  deps: ScanDeps,
  context: ScanContext,
  facts: OrderFacts,
  scanned: string,
): Promise<OpenedCheck> {
  const orderId = facts.orderId;

  let scanUndone = false;
  const current = await loadScanCheck(deps.store, context.tenantId, orderId);
  if (current.status === 'completed' && facts.state.status === 'unscan') {
    // The round completed; its scan is on the order (then undone since: a new round may start) or was never made
    // (the step after completing failed): make it now, once.
    const scan = await handleOrderCommand(
      deps.store,
      orderId,
      { type: 'ScanOrder', ...(current.batchId ? { batchId: current.batchId } : {}) },
      documentContext(context, scanOrderCommandId(context.tenantId, orderId, current.round)),
    );
    if (!scan.replayed) throw refuse('ALREADY_SCANNED');
    scanUndone = true;
  }
  const lines = await checkLinesOf(deps.db, context.tenantId, facts);
  const opened = await handleScanCheckCommand(
    deps.store,
    context.tenantId,
    orderId,
    {
      type: 'OpenCheck',
      orderId,
      pickerId: context.pickerId,
      trackingNumber: facts.state.trackingNumber ?? scanned.trim(),
      batchId: facts.state.batchId,
      lines,
      at: context.at,
      order: readinessOf(facts.state.status),
      orderStatus: facts.state.status,
      scanUndone,
    },
    documentContext(context, `${context.tenantId}:scan-open:${orderId}:${randomUUID()}`),
  );
  return { facts, check: opened.state };
}

export interface ScannedItem {
  check: ScanCheckState;
  /** The line the item counted on. */
  lineId: string | null;
  /** This scan completed the check: the order is now scanned. */
  completed: boolean;
}

/**
 * Counts one scanned item code on the picker's open check of the order. `scanId` (the console's id of this scan) makes
 * a resent request count once. The scan that completes the check scans the order.
 */
export async function scanItem(
  deps: ScanDeps,
  context: ScanContext,
  input: { orderId: string; code: string; scanId?: string; quantity?: number },
): Promise<ScannedItem> {
  const result = await handleScanCheckCommand(
    deps.store,
    context.tenantId,
    input.orderId,
    {
      type: 'ScanItem',
      pickerId: context.pickerId,
      code: input.code,
      at: context.at,
      ...(input.quantity ? { quantity: input.quantity } : {}),
    },
    documentContext(
      context,
      `${context.tenantId}:scan-item:${input.orderId}:${input.scanId ?? randomUUID()}`,
    ),
  );
  const completed = result.events.some((event) => event.type === 'ScanCheckCompleted');
  const scanned = result.events.find((event) => event.type === 'ScanItemScanned');
  const lineId = scanned?.type === 'ScanItemScanned' ? scanned.data.lineId : null;
  const check = result.state;
  if (completed && check.status !== 'none') {
    await handleOrderCommand(
      deps.store,
      input.orderId,
      { type: 'ScanOrder', ...(check.batchId ? { batchId: check.batchId } : {}) },
      documentContext(context, scanOrderCommandId(context.tenantId, input.orderId, check.round)),
    ).catch((error: unknown) => {
      // Cancelled or moved while it was being checked: the check is done, the order is not to be scanned.
      const wrong = refusalOf(error, 'WRONG_STATUS');
      if (wrong) {
        throw refuse('ORDER_NOT_READY', { status: String(wrong.params.status ?? '') });
      }
      throw error;
    });
  }
  return { check, lineId, completed };
}

/**
 * Bulk scan (bulk scan control): one scan of an item completes every order of the batch waiting to be scanned whose
 * only unit is that item — each through its own check, as if scanned one by one, so its stock moves once. Orders
 * another picker is checking, or that moved on meanwhile, are left as they are. Answers the orders it scanned.
 */
export async function scanSingleItemOrders(
  deps: ScanDeps,
  context: ScanContext,
  input: { batchId: string; orderIds: readonly string[]; code: string },
): Promise<OrderFacts[]> {
  const code = normaliseCode(input.code);
  const facts = await loadOrdersFacts(deps.store, context.tenantId, input.orderIds);
  const scanned: OrderFacts[] = [];
  for (const orderId of input.orderIds) {
    const order = facts.get(orderId);
    if (order?.state.status !== 'unscan' || order.state.batchId !== input.batchId) continue;
    const lines = liveLines(order.state);
    if (lines.length !== 1 || lines[0]!.quantity !== 1) continue;
    const checkLines = await checkLinesOf(deps.db, context.tenantId, order);
    if (checkLines.length !== 1 || !checkLines[0]!.codes.includes(code)) continue;
    try {
      const opened = await openCheckOfOrder(deps, context, order, order.state.trackingNumber ?? '');
      if (opened.check.status !== 'open' || opened.check.pickerId !== context.pickerId) continue;
      const result = await scanItem(deps, context, { orderId, code: input.code });
      if (result.completed) scanned.push(order);
    } catch (error) {
      if (refusalOf(error)) continue;
      throw error;
    }
  }
  return scanned;
}

/**
 * Resets the order's check: its progress is cleared and nobody holds it. With `undoScan`, an order the check scanned
 * goes back to unscan as well (the order's reset scan).
 */
export async function resetCheck(
  deps: ScanDeps,
  context: ScanContext,
  input: { orderId: string; undoScan: boolean; key?: string },
): Promise<ScanCheckState> {
  const key = input.key ?? randomUUID();
  let scanUndone = false;
  if (input.undoScan) {
    const facts = await loadOrderFacts(deps.store, context.tenantId, input.orderId);
    if (!facts) throw refuse('ORDER_NOT_FOUND');
    if (facts.state.status === 'scanned') {
      await handleOrderCommand(
        deps.store,
        input.orderId,
        { type: 'MoveOrder', action: 'reset_scan' },
        documentContext(context, `${context.tenantId}:scan-reset:${input.orderId}:${key}:order`),
      );
      scanUndone = true;
    }
  }
  const result = await handleScanCheckCommand(
    deps.store,
    context.tenantId,
    input.orderId,
    { type: 'ResetCheck', at: context.at, scanUndone },
    documentContext(context, `${context.tenantId}:scan-reset:${input.orderId}:${key}`),
  );
  return result.state;
}
