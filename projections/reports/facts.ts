import { ORDER_EVENT_TYPES, type OrderEvent, type OrderLine, type OrderStatus } from '@domain/orders/order';
import { fromUnits, toUnits } from '@domain/purchases/money';
import { RETURN_EVENT_TYPES, type ReturnEvent } from '@domain/returns/return';
import type { Database, ReportOrderLinesTable, ReportOrdersTable, ReportReturnsTable } from '@infra/db';
import { parseStreamId, type RecordedEvent } from '@infra/eventstore/port';
import { type Insertable, type Selectable, sql, type Transaction } from 'kysely';
import { defineProjection } from '../runtime/projection';

/**
 * The facts the order, fulfilment and return reports are read from (issue 16 item 2), from the order and return
 * events alone:
 *
 * - `report_orders`: an order's amounts (total, shipping fee) and the moments of its life — ordered, paid, scanned
 *   (and by whom, in which batch), shipped, cancelled, returned, refunded — with the status it is in now;
 * - `report_order_lines`: its lines as sold (a split moves units to the child order, which brings them as its own
 *   lines) and how many units of each came back;
 * - `report_returns`: each return's refund to the buyer, what came back and what was put back on the shelf.
 *
 * A batch loads the rows it touches, folds its events into them and writes each row once, so a rebuild from the
 * start writes the same rows (tests/reports). The moments come from the events' metadata (`occurredAt`), as the
 * board's do; the paid time from the marketplace's own.
 */

export const REPORT_FACTS_PROJECTION = 'report_facts';

type OrderRow = Insertable<ReportOrdersTable>;
type LineRow = Insertable<ReportOrderLinesTable>;
type ReturnRow = Insertable<ReportReturnsTable>;

/** The status an order is in after an event (the decider's own moves: domain/orders/order.ts `evolve`). */
function statusAfter(status: string, event: OrderEvent): string {
  switch (event.type) {
    case 'OrderAccepted':
    case 'OrderShipmentCancelled':
      return 'new';
    case 'OrderShipmentArranged':
      return status === 'new' ? 'unscan' : status;
    case 'OrderMoved':
      return event.data.to;
    case 'OrderScanned':
      return 'scanned';
    case 'OrderShipped':
      return 'shipped';
    case 'OrderCancelled':
      return 'cancelled';
    case 'OrderReturned':
      return 'returned';
    default:
      return status;
  }
}

const key = (...parts: string[]) => parts.join('\u0000');

type FactTable = 'report_orders' | 'report_order_lines' | 'report_returns';

/** Writes rows, replacing those of the same key, a thousand at a time (a statement's parameters are limited). */
async function upsert<Table extends FactTable>(
  trx: Transaction<Database>,
  table: Table,
  keyColumns: readonly string[],
  rows: readonly Insertable<Database[Table]>[],
) {
  for (let i = 0; i < rows.length; i += 1000) {
    const chunk = rows.slice(i, i + 1000);
    const columns = Object.keys(chunk[0]!);
    const others = columns.filter((column) => !keyColumns.includes(column));
    const names = sql.join(columns.map((c) => sql.id(c)));
    await sql`
      INSERT INTO ${sql.table(table)} (${names})
      SELECT ${names} FROM jsonb_populate_recordset(NULL::${sql.table(table)}, ${JSON.stringify(chunk)}::jsonb)
      ON CONFLICT (${sql.join(keyColumns.map((c) => sql.id(c)))})
      DO UPDATE SET ${sql.join(others.map((c) => sql`${sql.id(c)} = excluded.${sql.id(c)}`))}`.execute(trx);
  }
}

/** The rows of a fact table of the given orders or returns (tenant and id pairs). */
async function loadRows<Table extends FactTable>(
  trx: Transaction<Database>,
  table: Table,
  idColumn: 'order_id' | 'return_id',
  keys: [string, string][],
): Promise<Selectable<Database[Table]>[]> {
  if (keys.length === 0) return [];
  const { rows } = await sql<Selectable<Database[Table]>>`
    SELECT * FROM ${sql.table(table)} WHERE (tenant_id, ${sql.ref(idColumn)}) IN (
      SELECT * FROM unnest(${keys.map((k) => k[0])}::text[], ${keys.map((k) => k[1])}::text[]))`.execute(trx);
  return rows;
}

const ORDER_TYPES = new Set<string>(ORDER_EVENT_TYPES);

/** A line as the order brings it (its tenant filled in when written). */
const lineRow = (orderId: string, line: OrderLine): LineRow => ({
  tenant_id: '',
  order_id: orderId,
  line_id: line.lineId,
  sku: line.sku,
  seller_sku: line.sellerSku,
  name: line.name,
  master_code_id: line.masterCodeId,
  quantity: line.quantity,
  unit_price: line.unitPrice,
  gift: line.gift === true,
  removed: false,
  returned_quantity: 0,
});

/** Applies one order event to its order's row and lines (the row exists once the order is imported). */
function applyOrderEvent(
  event: OrderEvent,
  at: string,
  userId: string | undefined,
  order: OrderRow | undefined,
  lines: Map<string, LineRow>,
): OrderRow | undefined {
  if (event.type === 'OrderImported') {
    const d = event.data;
    for (const line of d.lines) lines.set(line.lineId, lineRow(d.orderId, line));
    return {
      tenant_id: '',
      order_id: d.orderId,
      order_number: d.orderNumber,
      store_id: d.storeId,
      platform: d.platform,
      warehouse_id: d.warehouseId,
      status: d.status,
      currency: d.currency,
      payment_method: d.paymentMethod,
      cod: d.cod,
      replacement: d.replacementOf !== undefined,
      total_amount: d.totalAmount,
      shipping_fee: d.shippingFee ?? null,
      shipping_provider: d.shippingProvider ?? null,
      item_count: d.lines.reduce((sum, line) => sum + line.quantity, 0),
      ordered_at: d.orderedAt,
      paid_at: d.paidAt,
      scanned_at: null,
      scanned_by: null,
      batch_id: null,
      shipped_at: null,
      cancelled_at: null,
      returned_at: null,
      refunded_at: null,
    };
  }
  if (!order) return undefined;
  const next: OrderRow = { ...order, status: statusAfter(order.status as OrderStatus, event) };
  switch (event.type) {
    case 'OrderSynced':
      if (event.data.paidAt !== undefined) next.paid_at = event.data.paidAt;
      if (event.data.shippingProvider !== undefined) next.shipping_provider = event.data.shippingProvider;
      break;
    case 'OrderShipmentArranged':
      next.shipping_provider = event.data.shippingProvider;
      break;
    case 'OrderLineMapped': {
      const line = lines.get(event.data.lineId);
      if (line) lines.set(line.line_id, { ...line, master_code_id: event.data.masterCodeId });
      break;
    }
    case 'OrderLineRemoved': {
      const line = lines.get(event.data.lineId);
      if (line) lines.set(line.line_id, { ...line, removed: true });
      break;
    }
    case 'OrderGiftAdded': {
      lines.set(event.data.line.lineId, lineRow(order.order_id, { ...event.data.line, gift: true }));
      break;
    }
    case 'OrderSplit':
      for (const moved of event.data.lines) {
        const line = lines.get(moved.lineId);
        if (line) lines.set(line.line_id, { ...line, quantity: line.quantity - moved.quantity });
        next.item_count -= moved.quantity;
      }
      break;
    case 'OrderScanned':
      next.scanned_at = at;
      next.scanned_by = userId ?? null;
      if (event.data.batchId) next.batch_id = event.data.batchId;
      break;
    case 'OrderBatched':
      next.batch_id = event.data.batchId ?? next.batch_id;
      break;
    case 'OrderShipped':
      next.shipped_at = at;
      break;
    case 'OrderCancelled':
      next.cancelled_at = at;
      break;
    case 'OrderReturned':
      next.returned_at = at;
      for (const back of event.data.lines) {
        const line = lines.get(back.lineId);
        if (line)
          lines.set(line.line_id, { ...line, returned_quantity: line.returned_quantity! + back.quantity });
      }
      break;
    case 'OrderMoved':
      if (event.data.action === 'set_refunded') next.refunded_at = at;
      if (event.data.to === 'trash') next.cancelled_at = at;
      break;
    default:
      break;
  }
  return next;
}

/** An amount of the order events (which may carry a sign) in ten-thousandths. */
const signedUnits = (amount: string) =>
  amount.startsWith('-') ? -toUnits(amount.slice(1)) : toUnits(amount);

/** Applies one return event to its return's row. */
function applyReturnEvent(event: ReturnEvent, at: string, row: ReturnRow | undefined): ReturnRow | undefined {
  if (event.type === 'OrderReturnRecorded') {
    const d = event.data;
    return {
      tenant_id: '',
      return_id: d.returnId,
      order_id: d.orderId,
      order_number: d.orderNumber,
      store_id: d.storeId,
      warehouse_id: d.warehouseId,
      currency: d.currency,
      action: d.action,
      refund_to_buyer: d.refundToBuyer,
      reversal_item_price: d.reversalItemPrice,
      returned_quantity: d.lines.reduce((sum, line) => sum + line.quantity, 0),
      returned_value: fromUnits(
        d.lines.reduce((sum, line) => sum + BigInt(line.quantity) * signedUnits(line.unitPrice), 0n),
      ),
      restocked_quantity: 0,
      recorded_at: at,
      completed_at: null,
    };
  }
  if (!row) return undefined;
  return {
    ...row,
    restocked_quantity: event.data.restocked.reduce((sum, line) => sum + line.quantity, 0),
    completed_at: at,
  };
}

export const reportFactsProjection = defineProjection({
  name: REPORT_FACTS_PROJECTION,
  eventTypes: [...ORDER_EVENT_TYPES, ...RETURN_EVENT_TYPES],
  tables: ['report_orders', 'report_order_lines', 'report_returns'],
  async apply(trx, events: readonly RecordedEvent[]) {
    const orderKeys = new Map<string, [string, string]>();
    const returnKeys = new Map<string, [string, string]>();
    for (const event of events) {
      const id = parseStreamId(event.stream)?.entityKey;
      if (!id) continue;
      const tenantId = event.metadata.tenantId;
      (ORDER_TYPES.has(event.type) ? orderKeys : returnKeys).set(key(tenantId, id), [tenantId, id]);
    }
    const [orderRows, lineRows, returnRows] = await Promise.all([
      loadRows(trx, 'report_orders', 'order_id', [...orderKeys.values()]),
      loadRows(trx, 'report_order_lines', 'order_id', [...orderKeys.values()]),
      loadRows(trx, 'report_returns', 'return_id', [...returnKeys.values()]),
    ]);
    const orders = new Map<string, OrderRow | undefined>(
      orderRows.map((row) => [key(row.tenant_id, row.order_id), row as OrderRow]),
    );
    const lines = new Map<string, Map<string, LineRow>>();
    for (const row of lineRows) {
      const of = key(row.tenant_id, row.order_id);
      const map = lines.get(of) ?? new Map<string, LineRow>();
      map.set(row.line_id, row as LineRow);
      lines.set(of, map);
    }
    const returns = new Map<string, ReturnRow | undefined>(
      returnRows.map((row) => [key(row.tenant_id, row.return_id), row as ReturnRow]),
    );

    for (const event of events) {
      const id = parseStreamId(event.stream)?.entityKey;
      if (!id) continue;
      const { tenantId, occurredAt, userId } = event.metadata;
      const of = key(tenantId, id);
      if (ORDER_TYPES.has(event.type)) {
        const orderLines = lines.get(of) ?? new Map<string, LineRow>();
        lines.set(of, orderLines);
        orders.set(
          of,
          applyOrderEvent(event as unknown as OrderEvent, occurredAt, userId, orders.get(of), orderLines),
        );
      } else {
        returns.set(of, applyReturnEvent(event as unknown as ReturnEvent, occurredAt, returns.get(of)));
      }
    }

    const tenantOf = (of: string) => of.split('\u0000')[0]!;
    const orderValues = [...orderKeys.keys()].flatMap((of) => {
      const row = orders.get(of);
      return row ? [{ ...row, tenant_id: tenantOf(of) }] : [];
    });
    const lineValues = [...orderKeys.keys()].flatMap((of) =>
      orders.get(of)
        ? [...(lines.get(of)?.values() ?? [])].map((line) => ({ ...line, tenant_id: tenantOf(of) }))
        : [],
    );
    const returnValues = [...returnKeys.keys()].flatMap((of) => {
      const row = returns.get(of);
      return row ? [{ ...row, tenant_id: tenantOf(of) }] : [];
    });
    await upsert(trx, 'report_orders', ['tenant_id', 'order_id'], orderValues);
    await upsert(trx, 'report_order_lines', ['tenant_id', 'order_id', 'line_id'], lineValues);
    await upsert(trx, 'report_returns', ['tenant_id', 'return_id'], returnValues);
    // Reports are read when opened, not followed live: nothing to announce.
    return [];
  },
});
