import { randomUUID } from 'node:crypto';
import type { PermissionKey } from '@domain/access/permissions';
import { type PrintDocument, type PrintOrigin, placed } from '@domain/orders/order';
import type { Database } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import { type Kysely, sql } from 'kysely';
import { findOrder, handleOrderCommand } from '../orders/order';
import { loadOrderView, type OrderView } from './order-view';

/**
 * What printing an order's document records, and the one-print limits (spec §6 "one-print limits for AWB and
 * delivery order"). Every print marks the order printed for that document (MarkPrinted through the order's
 * command handler, with the origin — unscan, smart scan, shipped, processed — the print was made from); the print
 * log is the projection of those events (projections/print-log.ts).
 *
 * A user holding `orders-awb-one-print-limit` (or `orders-do-one-print-limit`) prints an order's AWB (or delivery
 * order) once: a second print is refused when the order already shows that document printed. Their marks are made
 * holding a transaction-scoped advisory lock per order and document, after looking at the order again, so of two
 * prints racing each other one marks and the other is refused. The account's owner holds every key but is never
 * limited: a limit key restricts, it grants nothing.
 */

export const ONE_PRINT_LIMIT_KEYS: Partial<Record<PrintDocument, PermissionKey>> = {
  AWB: 'orders-awb-one-print-limit',
  DO: 'orders-do-one-print-limit',
};

export interface Printer {
  tenantId: string;
  userId: string;
  kind: string;
  permissions: ReadonlySet<string>;
}

/** Whether this user may print `document` of an order once only. */
export function limitedTo(printer: Printer, document: PrintDocument): boolean {
  const key = ONE_PRINT_LIMIT_KEYS[document];
  return key !== undefined && printer.kind !== 'owner' && printer.permissions.has(key);
}

/** The orders of the tenant, in the order asked for; the ids not found (another tenant's, none) are listed. */
export async function loadOrders(
  store: EventStore,
  tenantId: string,
  orderIds: readonly string[],
): Promise<{ orders: (OrderView & { orderId: string })[]; missing: string[] }> {
  const orders: (OrderView & { orderId: string })[] = [];
  const missing: string[] = [];
  for (const orderId of [...new Set(orderIds)]) {
    const view = await loadOrderView(store, tenantId, orderId);
    if (view) orders.push({ ...view, orderId });
    else missing.push(orderId);
  }
  return { orders, missing };
}

/** The orders already printed for `document` (what a limited user may not print again). */
export const alreadyPrinted = <Order extends OrderView>(orders: readonly Order[], document: PrintDocument) =>
  orders.filter((order) => order.state.printed.includes(document));

export interface MarkOutcome {
  /** Orders a limited user found printed by a print that raced this one (nothing was marked then). */
  refused: string[];
}

/** Marks each order printed for `document` from `origin` (for a limited user: only if none is printed yet). */
export async function markPrinted(
  deps: { store: EventStore; db: Kysely<Database> },
  printer: Printer,
  orderIds: readonly string[],
  document: PrintDocument,
  origin: PrintOrigin,
  printId: string = randomUUID(),
): Promise<MarkOutcome> {
  const occurredAt = new Date().toISOString();
  const mark = async () => {
    for (const orderId of orderIds) {
      await handleOrderCommand(
        deps.store,
        orderId,
        { type: 'MarkPrinted', document, origin },
        {
          tenantId: printer.tenantId,
          userId: printer.userId,
          commandId: `print:${printId}:${orderId}`,
          correlationId: `print:${printId}`,
          occurredAt,
        },
      );
    }
  };
  if (!limitedTo(printer, document)) {
    await mark();
    return { refused: [] };
  }
  return deps.db.transaction().execute(async (trx) => {
    // In one order everywhere, so two prints of overlapping selections cannot wait on each other.
    for (const orderId of [...orderIds].sort()) {
      await sql`SELECT pg_advisory_xact_lock(hashtext('kedai.print_once'), hashtext(${`${printer.tenantId}:${orderId}:${document}`}))`.execute(
        trx,
      );
    }
    const refused: string[] = [];
    for (const orderId of orderIds) {
      const state = placed(await findOrder(deps.store, printer.tenantId, orderId));
      if (state?.printed.includes(document)) refused.push(orderId);
    }
    if (refused.length === 0) await mark();
    return { refused };
  });
}
