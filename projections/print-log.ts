import type { OrderEvent } from '@domain/orders/order';
import { PRINT_LOG_VIEW } from '@domain/shared/live-views';
import type { OrderShipmentsTable, PrintLogTable } from '@infra/db';
import { parseStreamId, type RecordedEvent } from '@infra/eventstore/port';
import { type Insertable, sql } from 'kysely';
import { defineProjection, type LiveChange } from './runtime/projection';

export { PRINT_LOG_VIEW };

/**
 * Two read models over the order events for printing, returns and carrier manifests:
 *
 * - `order_shipments`: per order, its number, store, warehouse, tracking number, shipping provider, status and
 *   when it shipped (OrderShipped; an order first seen shipped or delivered: the marketplace's update time) — what
 *   the print log shows beside each print, what the returns form finds an order by, and what a carrier manifest
 *   counts per month and carrier;
 * - `print_log`: one row per OrderPrinted (the event's id), with the document, the origin, who and when, and the
 *   order's number and tracking number as they were then.
 *
 * Live changes name print log rows in the view `printLog`.
 */

export const FULFILMENT_PROJECTION = 'order_fulfilment';

export const FULFILMENT_EVENT_TYPES = [
  'OrderImported',
  'OrderSynced',
  'OrderShipmentArranged',
  'OrderMoved',
  'OrderScanned',
  'OrderShipped',
  'OrderCancelled',
  'OrderReturned',
  'OrderPrinted',
] as const;

type Shipment = Insertable<OrderShipmentsTable>;

const at = (event: RecordedEvent) => event.metadata.occurredAt;

export const fulfilmentProjection = defineProjection({
  name: FULFILMENT_PROJECTION,
  eventTypes: FULFILMENT_EVENT_TYPES,
  tables: ['order_shipments', 'print_log'],
  async apply(trx, events) {
    const keyOf = (tenantId: string, orderId: string) => `${tenantId}\u0000${orderId}`;
    const byOrder = new Map<string, { tenantId: string; orderId: string; events: RecordedEvent[] }>();
    for (const event of events) {
      const orderId = parseStreamId(event.stream)?.entityKey;
      if (!orderId) continue;
      const key = keyOf(event.metadata.tenantId, orderId);
      const entry = byOrder.get(key) ?? { tenantId: event.metadata.tenantId, orderId, events: [] };
      entry.events.push(event);
      byOrder.set(key, entry);
    }
    if (byOrder.size === 0) return [];

    const ids = [...new Set([...byOrder.values()].map((entry) => entry.orderId))];
    const stored = await trx.selectFrom('order_shipments').selectAll().where('order_id', 'in', ids).execute();
    const rows = new Map<string, Shipment>(stored.map((row) => [keyOf(row.tenant_id, row.order_id), row]));

    const prints: Insertable<PrintLogTable>[] = [];
    const changed = new Set<string>();
    for (const [key, entry] of byOrder) {
      let row = rows.get(key);
      for (const recorded of entry.events) {
        const event = { type: recorded.type, data: recorded.data } as OrderEvent;
        if (event.type === 'OrderImported') {
          const d = event.data;
          row = {
            tenant_id: entry.tenantId,
            order_id: entry.orderId,
            order_number: d.orderNumber,
            store_id: d.storeId,
            platform: d.platform,
            warehouse_id: d.warehouseId,
            tracking_number: d.trackingNumber ?? null,
            shipping_provider: d.shippingProvider ?? null,
            status: d.status,
            shipped_at: d.status === 'shipped' || d.status === 'delivered' ? d.marketplaceUpdatedAt : null,
            updated_at: at(recorded),
          };
          changed.add(key);
          continue;
        }
        if (!row) continue;
        row = { ...row, updated_at: at(recorded) };
        changed.add(key);
        switch (event.type) {
          case 'OrderSynced':
            if (event.data.trackingNumber !== undefined) row.tracking_number = event.data.trackingNumber;
            if (event.data.shippingProvider !== undefined)
              row.shipping_provider = event.data.shippingProvider;
            break;
          case 'OrderShipmentArranged':
            row.tracking_number = event.data.trackingNumber;
            row.shipping_provider = event.data.shippingProvider;
            if (row.status === 'new') row.status = 'unscan';
            break;
          case 'OrderMoved':
            row.status = event.data.to;
            break;
          case 'OrderScanned':
            row.status = 'scanned';
            break;
          case 'OrderShipped':
            row.status = 'shipped';
            row.shipped_at = at(recorded);
            break;
          case 'OrderCancelled':
            row.status = 'cancelled';
            break;
          case 'OrderReturned':
            row.status = 'returned';
            break;
          case 'OrderPrinted':
            prints.push({
              tenant_id: entry.tenantId,
              id: recorded.id,
              order_id: entry.orderId,
              order_number: row.order_number,
              tracking_number: row.tracking_number ?? null,
              document: event.data.document,
              origin: event.data.origin,
              printed_by: recorded.metadata.userId ?? null,
              printed_at: at(recorded),
            });
            break;
          default:
            break;
        }
      }
      if (row) rows.set(key, row);
    }

    const upserts = [...changed]
      .map((key) => rows.get(key))
      .filter((row): row is Shipment => row !== undefined);
    if (upserts.length > 0) {
      await trx
        .insertInto('order_shipments')
        .values(upserts)
        .onConflict((oc) =>
          oc.columns(['tenant_id', 'order_id']).doUpdateSet({
            order_number: sql`excluded.order_number`,
            store_id: sql`excluded.store_id`,
            platform: sql`excluded.platform`,
            warehouse_id: sql`excluded.warehouse_id`,
            tracking_number: sql`excluded.tracking_number`,
            shipping_provider: sql`excluded.shipping_provider`,
            status: sql`excluded.status`,
            shipped_at: sql`excluded.shipped_at`,
            updated_at: sql`excluded.updated_at`,
          }),
        )
        .execute();
    }
    if (prints.length === 0) return [];
    await trx
      .insertInto('print_log')
      .values(prints)
      .onConflict((oc) => oc.columns(['tenant_id', 'id']).doNothing())
      .execute();
    const changes = new Map<string, LiveChange>();
    for (const print of prints) {
      const change = changes.get(print.tenant_id) ?? {
        tenantId: print.tenant_id,
        view: PRINT_LOG_VIEW,
        ids: [],
      };
      change.ids.push(print.id);
      changes.set(print.tenant_id, change);
    }
    return [...changes.values()];
  },
});
