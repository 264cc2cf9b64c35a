import type { OrderDetail } from '@api/contracts/orders';
import { namedTimeline } from '@commands/support/named-timeline';
import { actionsForOrder } from '@domain/orders/board';
import { withNameParts } from '@domain/orders/marketplace-order';
import {
  evolve,
  initialState,
  type OrderEvent,
  type OrderState,
  orderFlags,
  orderStreamId,
  placed,
  refuse,
  replacementNumberOf,
  waitingOnHold,
} from '@domain/orders/order';
import type { Db } from '@infra/db';
import type { EventStore, RecordedEvent } from '@infra/eventstore/port';
import { DEFAULT_LANGUAGE, type Language } from '@infra/i18n';
import { masterCodesOfTenant } from './documents.queries';
import { lineRackLocations } from './inventory/racks';
import { orderLineFields, type Stamps, stampsAfter } from './orders';
import { processFailureOf, storeNameOf } from './orders.queries';

/**
 * One order as its detail drawer shows it, read from its stream (an order is tens of events, and the drawer must
 * show what an action just did): the board's columns, the buyer's address and remark, the lines with their master
 * codes, flags, gift marks, bin and serial numbers and racks, the actions its status allows, its replacements (or the
 * order it replaces), and the timeline with
 * the people's names.
 */

const iso = (value: Date | null) => (value ? value.toISOString() : null);

/** The order number of an order, read from its stream (null: no such order). */
async function orderNumberOf(store: EventStore, tenantId: string, orderId: string): Promise<string | null> {
  for await (const event of store.readStream(orderStreamId(tenantId, orderId))) {
    const typed = { type: event.type, data: event.data } as OrderEvent;
    if (typed.type === 'OrderImported') return typed.data.orderNumber;
  }
  return null;
}

export async function orderDetail(
  db: Db,
  store: EventStore,
  tenantId: string,
  orderId: string,
  language: Language = DEFAULT_LANGUAGE,
): Promise<OrderDetail> {
  let state: OrderState = initialState;
  let stamps: Stamps | null = null;
  const recorded: RecordedEvent[] = [];
  for await (const event of store.readStream(orderStreamId(tenantId, orderId))) {
    const typed = { type: event.type, data: event.data } as OrderEvent;
    state = evolve(state, typed);
    stamps = stampsAfter(stamps, typed, event);
    recorded.push(event);
  }
  const order = placed(state);
  if (!order || !stamps) throw refuse('ORDER_NOT_FOUND');
  const details = order.details;
  const timeline = recorded.map((event) => ({
    type: event.type,
    at: event.metadata.occurredAt,
    userId: event.metadata.userId ?? null,
    data: event.data,
  }));
  const [codes, named, storeName, replacedNumber, racks] = await Promise.all([
    masterCodesOfTenant(
      db,
      tenantId,
      order.lines.flatMap((line) => (line.masterCodeId ? [line.masterCodeId] : [])),
    ),
    namedTimeline(db, tenantId, timeline, [stamps.scanned_by, order.pickerId ?? null]),
    storeNameOf(db, tenantId, order.storeId),
    order.replacementOf ? orderNumberOf(store, tenantId, order.replacementOf) : null,
    lineRackLocations(
      db,
      tenantId,
      order.lines.map((line) => ({ ...line, key: line.lineId, warehouseId: order.warehouseId })),
    ),
  ]);
  const { firstName, lastName } = withNameParts(details.address);
  const flags = orderFlags(order);
  const active = order.lines.filter((line) => !order.removed.includes(line.lineId));
  return {
    id: order.orderId,
    order_number: order.orderNumber,
    store_id: order.storeId,
    store_name: storeName,
    platform: details.platform,
    status: order.status,
    marketplace_status: order.marketplaceStatus ?? details.marketplaceStatus,
    marketplace_updated_at: order.marketplaceUpdatedAt,
    payment_method: details.paymentMethod,
    cod: order.cod,
    currency: details.currency,
    total_amount: details.totalAmount,
    shipping_fee: details.shippingFee ?? null,
    ordered_at: new Date(details.orderedAt).toISOString(),
    paid_at: order.paidAt ? new Date(order.paidAt).toISOString() : null,
    tracking_number: order.trackingNumber,
    shipping_provider: order.shippingProvider,
    buyer_username: details.buyerUsername ?? null,
    buyer_name: details.address.name,
    buyer_remark: details.buyerRemark ?? null,
    seller_remark: details.sellerRemark ?? null,
    fulfilment_type: details.fulfilmentType ?? null,
    package_numbers: details.packageNumbers ?? [],
    first_name: firstName ?? '',
    last_name: lastName ?? '',
    address: details.address,
    warehouse_id: order.warehouseId,
    batch_id: order.batchId,
    item_count: active.reduce((sum, line) => sum + line.quantity, 0),
    line_count: active.length,
    item_not_found: flags.itemNotFound,
    out_of_stock: flags.outOfStock,
    pre_order: flags.preOrder,
    on_hold: waitingOnHold(order),
    printed: order.printed,
    preview: order.preview,
    split_from: order.splitFrom,
    stock_stage: order.stock,
    scanned_at: iso(stamps.scanned_at),
    scanned_by: named.person(stamps.scanned_by),
    shipped_at: iso(stamps.shipped_at),
    cancelled_at: iso(stamps.cancelled_at),
    updated_at: stamps.updated_at.toISOString(),
    lines: order.lines.map((line) => {
      const code = line.masterCodeId ? codes.get(line.masterCodeId) : undefined;
      return {
        ...orderLineFields(line),
        master_code: line.masterCodeId
          ? {
              id: line.masterCodeId,
              code: code?.code ?? null,
              name: code?.name ?? null,
              type: code?.type ?? null,
            }
          : null,
        item_not_found: line.masterCodeId === null,
        out_of_stock: order.short.includes(line.lineId),
        removed: order.removed.includes(line.lineId),
        gift: line.gift ?? false,
        bin_number: line.binNumber ?? null,
        serial_numbers: line.serialNumbers ?? [],
        rack_locations: racks.get(line.lineId) ?? [],
      };
    }),
    replacement_of: order.replacementOf ?? null,
    picker: named.person(order.pickerId ?? null),
    process_failure: processFailureOf(order.failure, language),
    actions: actionsForOrder(order),
    replacements: (order.replacements ?? []).map((id, index) => ({
      id,
      order_number: replacementNumberOf(order.orderNumber, index + 1),
    })),
    replaces: order.replacementOf ? { id: order.replacementOf, order_number: replacedNumber } : null,
    timeline: named.timeline,
  };
}
