import {
  activeLines,
  evolve,
  initialState,
  ORDER_CATEGORY,
  ORDER_EVENT_TYPES,
  type OrderEvent,
  type OrderState,
  orderFlags,
  type PlacedOrder,
  waitingOnHold,
} from '@domain/orders/order';
import { ORDER_COUNTS_VIEW, ORDERS_VIEW } from '@domain/shared/live-views';
import type { Database, OrderCountsTable, OrderLinesTable, OrdersTable } from '@infra/db';
import { parseStreamId, type RecordedEvent } from '@infra/eventstore/port';
import { type Insertable, type Selectable, sql, type Transaction } from 'kysely';
import { defineProjection, type LiveChange } from './runtime/projection';

export { ORDER_COUNTS_VIEW, ORDERS_VIEW };

/**
 * The order board (issue 6 item 8; spec §2 order lists, §4 filters): one row per order with what its lists show,
 * filter and sort on, its lines, and the number of orders per store and status behind the tabs' counts. A batch
 * loads the rows it touches with their folded order (`state`), evolves each with the domain's own `evolve`, and
 * writes each row once; the counts move by the difference. Who scanned, and when it was scanned, shipped or
 * cancelled, come from the events' metadata.
 *
 * Live views: `orders` names the orders whose row changed; `orderCounts` the orders that changed status (or
 * arrived), so a board refreshes its tab counts.
 */

export const ORDERS_PROJECTION = 'orders';

export type OrderRow = Selectable<OrdersTable>;
type OrderValues = Insertable<OrdersTable>;
type LineValues = Insertable<OrderLinesTable>;

/** What a row keeps besides the folded order: stamps from the events' metadata. */
export interface Stamps {
  scanned_at: Date | null;
  scanned_by: string | null;
  shipped_at: Date | null;
  cancelled_at: Date | null;
  cancel_reason: string | null;
  imported_at: Date;
  updated_at: Date;
}

interface Entry {
  tenantId: string;
  id: string;
  state: OrderState;
  stamps: Stamps | null;
  /** Status, store and platform as counted before this batch (null: the order was not on the board). */
  before: { status: string; storeId: string; platform: string } | null;
  linesChanged: boolean;
}

/** An entry whose order the batch writes: known, with its stamps. */
type Written = Entry & { state: PlacedOrder; stamps: Stamps };

const LINE_EVENTS = new Set([
  'OrderImported',
  'OrderLineMapped',
  'OrderLineRemoved',
  'OrderSplit',
  'OrderStockShort',
  'OrderGiftAdded',
  'OrderLineDetailsRecorded',
]);
const at = (event: RecordedEvent) => new Date(event.metadata.occurredAt);

/** The stamps after one event. */
export function stampsAfter(stamps: Stamps | null, event: OrderEvent, recorded: RecordedEvent): Stamps {
  const when = at(recorded);
  const base: Stamps = stamps ?? {
    scanned_at: null,
    scanned_by: null,
    shipped_at: null,
    cancelled_at: null,
    cancel_reason: null,
    imported_at: when,
    updated_at: when,
  };
  const next = { ...base, updated_at: when };
  switch (event.type) {
    case 'OrderScanned':
      return { ...next, scanned_at: when, scanned_by: recorded.metadata.userId ?? null };
    case 'OrderMoved':
      // Back before scanning: the scan no longer stands.
      return event.data.to === 'new' || event.data.to === 'unscan'
        ? { ...next, scanned_at: null, scanned_by: null }
        : next;
    case 'OrderShipmentCancelled':
      // Back to pending process: a scan of the cancelled shipment no longer stands.
      return { ...next, scanned_at: null, scanned_by: null };
    case 'OrderShipped':
      return { ...next, shipped_at: when };
    case 'OrderCancelled':
      return { ...next, cancelled_at: when, cancel_reason: event.data.reason ?? null };
    default:
      return next;
  }
}

/** The board row of an order. */
export function orderRow(tenantId: string, state: PlacedOrder, stamps: Stamps): OrderValues {
  const details = state.details;
  const lines = activeLines(state);
  const flags = orderFlags(state);
  return {
    tenant_id: tenantId,
    id: state.orderId,
    order_number: state.orderNumber,
    store_id: state.storeId,
    platform: details.platform,
    status: state.status,
    marketplace_status: state.marketplaceStatus ?? details.marketplaceStatus,
    payment_method: details.paymentMethod,
    cod: state.cod,
    currency: details.currency,
    total_amount: details.totalAmount,
    ordered_at: details.orderedAt,
    paid_at: state.paidAt,
    tracking_number: state.trackingNumber,
    shipping_provider: state.shippingProvider,
    buyer_username: details.buyerUsername ?? null,
    buyer_name: details.address.name,
    warehouse_id: state.warehouseId,
    batch_id: state.batchId,
    item_count: lines.reduce((sum, line) => sum + line.quantity, 0),
    line_count: lines.length,
    item_not_found: flags.itemNotFound,
    out_of_stock: flags.outOfStock,
    pre_order: flags.preOrder,
    on_hold: waitingOnHold(state),
    printed: state.printed,
    preview: state.preview,
    stock_stage: state.stock,
    split_from: state.splitFrom,
    ...stamps,
    state: JSON.stringify(state),
    replacement_of: state.replacementOf ?? null,
    picker_id: state.pickerId ?? null,
    process_failure: state.failure ? JSON.stringify(state.failure) : null,
  };
}

/** What every answer that shows an order line shows of it (the board's row and detail, a return, a return's lookup). */
export const orderLineFields = (line: {
  lineId: string;
  sku: string;
  sellerSku: string;
  name: string;
  variation?: string | null;
  quantity: number;
  unitPrice: string;
}) => ({
  line_id: line.lineId,
  sku: line.sku,
  seller_sku: line.sellerSku,
  name: line.name,
  variation: line.variation ?? null,
  quantity: line.quantity,
  unit_price: line.unitPrice,
});

function lineRows(tenantId: string, state: PlacedOrder): LineValues[] {
  return state.lines.map((line, position) => ({
    tenant_id: tenantId,
    order_id: state.orderId,
    position,
    ...orderLineFields(line),
    master_code_id: line.masterCodeId,
    combo: line.combo,
    removed: state.removed.includes(line.lineId),
    short: state.short.includes(line.lineId),
    gift: line.gift ?? false,
    bin_number: line.binNumber ?? null,
    serial_numbers: line.serialNumbers ?? [],
  }));
}

const keyOf = (tenantId: string, id: string) => `${tenantId}\u0000${id}`;

/** What a batch reads of an order it touches. */
type LoadedRow = Pick<
  OrderRow,
  | 'tenant_id'
  | 'id'
  | 'status'
  | 'store_id'
  | 'platform'
  | 'state'
  | 'scanned_at'
  | 'scanned_by'
  | 'shipped_at'
  | 'cancelled_at'
  | 'cancel_reason'
  | 'imported_at'
  | 'updated_at'
>;

async function loadEntries(
  trx: Transaction<Database>,
  keys: readonly { tenantId: string; id: string }[],
): Promise<Map<string, Entry>> {
  const entries = new Map<string, Entry>();
  for (const { tenantId, id } of keys) {
    entries.set(keyOf(tenantId, id), {
      tenantId,
      id,
      state: initialState,
      stamps: null,
      before: null,
      linesChanged: false,
    });
  }
  const wanted = [...entries.values()];
  // One primary-key lookup per order, every tenant in one statement. Joined to the keys, the tenant is a value the
  // planner does not know: written as `tenant_id = 'x' AND id IN (…)`, a tenant the statistics have not seen yet
  // (a new account on a large table, until the next ANALYZE) looked empty, and the planner took any index that
  // starts with tenant_id and filtered all of that tenant's orders, in every batch.
  const { rows } = await sql<LoadedRow>`
    SELECT o.tenant_id, o.id, o.status, o.store_id, o.platform, o.state, o.scanned_at, o.scanned_by, o.shipped_at,
      o.cancelled_at, o.cancel_reason, o.imported_at, o.updated_at
    FROM unnest(${wanted.map((e) => e.tenantId)}::text[], ${wanted.map((e) => e.id)}::text[]) AS k(tenant_id, id)
    JOIN orders o ON o.tenant_id = k.tenant_id AND o.id = k.id`.execute(trx);
  for (const row of rows) {
    const entry = entries.get(keyOf(row.tenant_id, row.id))!;
    entry.state = row.state as unknown as OrderState;
    entry.stamps = {
      scanned_at: row.scanned_at,
      scanned_by: row.scanned_by,
      shipped_at: row.shipped_at,
      cancelled_at: row.cancelled_at,
      cancel_reason: row.cancel_reason,
      imported_at: row.imported_at,
      updated_at: row.updated_at,
    };
    entry.before = { status: row.status, storeId: row.store_id, platform: row.platform };
  }
  return entries;
}

const ROW_COLUMNS = [
  'order_number',
  'store_id',
  'platform',
  'status',
  'marketplace_status',
  'payment_method',
  'cod',
  'currency',
  'total_amount',
  'ordered_at',
  'paid_at',
  'tracking_number',
  'shipping_provider',
  'buyer_username',
  'buyer_name',
  'warehouse_id',
  'batch_id',
  'item_count',
  'line_count',
  'item_not_found',
  'out_of_stock',
  'pre_order',
  'on_hold',
  'printed',
  'preview',
  'stock_stage',
  'split_from',
  'scanned_at',
  'scanned_by',
  'shipped_at',
  'cancelled_at',
  'cancel_reason',
  'imported_at',
  'updated_at',
  'state',
  'replacement_of',
  'picker_id',
  'process_failure',
] as const satisfies readonly (keyof OrdersTable)[];

const excluded = (columns: readonly string[]) =>
  Object.fromEntries(columns.map((column) => [column, sql`excluded.${sql.ref(column)}`]));

type CountKey = Omit<Insertable<OrderCountsTable>, 'orders'>;

function perTenant(view: string, ids: readonly { tenantId: string; id: string }[]): LiveChange[] {
  const byTenant = new Map<string, LiveChange>();
  for (const { tenantId, id } of ids) {
    const change = byTenant.get(tenantId) ?? { tenantId, view, ids: [] };
    change.ids.push(id);
    byTenant.set(tenantId, change);
  }
  return [...byTenant.values()];
}

export const ordersProjection = defineProjection({
  name: ORDERS_PROJECTION,
  eventTypes: ORDER_EVENT_TYPES,
  tables: ['orders', 'order_lines', 'order_counts'],
  async apply(trx, events) {
    const mine: { recorded: RecordedEvent; tenantId: string; id: string }[] = [];
    for (const recorded of events) {
      const stream = parseStreamId(recorded.stream);
      if (stream?.category === ORDER_CATEGORY) {
        mine.push({ recorded, tenantId: stream.tenantId, id: stream.entityKey });
      }
    }
    if (mine.length === 0) return [];
    const entries = await loadEntries(trx, mine);
    for (const { recorded, tenantId, id } of mine) {
      const entry = entries.get(keyOf(tenantId, id))!;
      const event = { type: recorded.type, data: recorded.data } as OrderEvent;
      // Events of an order whose import was never seen (none should be) leave nothing behind.
      if (entry.state.status === 'none' && event.type !== 'OrderImported') continue;
      entry.state = evolve(entry.state, event);
      entry.stamps = stampsAfter(entry.stamps, event, recorded);
      if (LINE_EVENTS.has(event.type)) entry.linesChanged = true;
    }

    const written = [...entries.values()].filter(
      (entry): entry is Written => entry.state.status !== 'none' && entry.stamps !== null,
    );
    if (written.length === 0) return [];

    // The tab counts: each order that arrived or changed status (or store) moves one count down and one up.
    const deltas = new Map<string, CountKey & { orders: number }>();
    const bump = (key: CountKey, by: number) => {
      const name = `${key.tenant_id}\u0000${key.store_id}\u0000${key.status}`;
      const delta = deltas.get(name) ?? { ...key, orders: 0 };
      delta.orders += by;
      deltas.set(name, delta);
    };
    const recounted: { tenantId: string; id: string }[] = [];
    for (const entry of written) {
      const now = {
        status: entry.state.status,
        storeId: entry.state.storeId,
        platform: entry.state.details.platform,
      };
      const before = entry.before;
      if (before && before.status === now.status && before.storeId === now.storeId) continue;
      if (before) {
        bump(
          {
            tenant_id: entry.tenantId,
            store_id: before.storeId,
            status: before.status,
            platform: before.platform,
          },
          -1,
        );
      }
      bump(
        { tenant_id: entry.tenantId, store_id: now.storeId, status: now.status, platform: now.platform },
        1,
      );
      recounted.push({ tenantId: entry.tenantId, id: entry.id });
    }
    const moves = [...deltas.values()].filter((delta) => delta.orders !== 0);

    // The rows and the counts in one statement (the batch's round trips are most of its time): the counts' insert
    // runs as the main statement, the rows' upsert beside it in a WITH.
    const upsertRows = (db: Transaction<Database>) =>
      db
        .insertInto('orders')
        .values(written.map((entry) => orderRow(entry.tenantId, entry.state, entry.stamps)))
        .onConflict((oc) => oc.columns(['tenant_id', 'id']).doUpdateSet(excluded(ROW_COLUMNS)));
    if (moves.length === 0) {
      await upsertRows(trx).execute();
    } else {
      await trx
        .with('board_rows', () => upsertRows(trx))
        .insertInto('order_counts')
        .values(moves)
        .onConflict((oc) =>
          oc.columns(['tenant_id', 'store_id', 'status']).doUpdateSet({
            orders: sql`order_counts.orders + excluded.orders`,
            platform: sql`excluded.platform`,
          }),
        )
        .execute();
    }

    // Lines: the orders whose lines changed lose theirs and get them again (two statements: within one, the
    // insert would not see the delete). Joined to the keys, as in loadEntries, for the primary key's sake.
    const relined = written.filter((entry) => entry.linesChanged);
    if (relined.length > 0) {
      await sql`
        DELETE FROM order_lines l
        USING unnest(${relined.map((e) => e.tenantId)}::text[], ${relined.map((e) => e.id)}::text[])
          AS k(tenant_id, order_id)
        WHERE l.tenant_id = k.tenant_id AND l.order_id = k.order_id`.execute(trx);
    }
    const lines = relined.flatMap((entry) => lineRows(entry.tenantId, entry.state));
    for (let i = 0; i < lines.length; i += 1000) {
      await trx
        .insertInto('order_lines')
        .values(lines.slice(i, i + 1000))
        .execute();
    }

    return [
      ...perTenant(
        ORDERS_VIEW,
        written.map((entry) => ({ tenantId: entry.tenantId, id: entry.id })),
      ),
      ...perTenant(ORDER_COUNTS_VIEW, recounted),
    ];
  },
});
