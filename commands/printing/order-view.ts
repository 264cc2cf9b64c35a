import type { OrderAddress } from '@domain/orders/marketplace-order';
import {
  evolve,
  initialState,
  type OrderEvent,
  type OrderLine,
  type OrderState,
  orderStreamId,
  type PlacedOrder,
  placed,
} from '@domain/orders/order';
import type { EventStore } from '@infra/eventstore/port';

/**
 * An order as its documents print it and its return takes it: the order's state (domain/orders/order.ts `evolve`)
 * with what the state leaves out — the order number, the store, the address as it now stands, the amounts, the
 * buyer's remark, the return the order records. Read from the order's stream, so a document printed right after a
 * change shows it (the order board's read model may lag).
 */

export interface OrderView {
  state: PlacedOrder;
  orderNumber: string;
  storeId: string;
  platform: string;
  orderedAt: string;
  paymentMethod: string;
  currency: string;
  totalAmount: string;
  shippingFee: string | null;
  buyerUsername: string | null;
  buyerRemark: string | null;
  address: OrderAddress;
  /** The lines the order still has (removed ones left out), as the state holds them. */
  lines: OrderLine[];
  /** The return the order records (OrderReturned), if any. */
  returnId: string | null;
  /** Each printed document with the last time it was printed. */
  printedAt: Partial<Record<string, string>>;
  shippedAt: string | null;
}

export async function loadOrderView(
  store: EventStore,
  tenantId: string,
  orderId: string,
): Promise<OrderView | null> {
  let state: OrderState = initialState;
  let view: Omit<OrderView, 'state' | 'lines'> | null = null;
  for await (const recorded of store.readStream(orderStreamId(tenantId, orderId))) {
    const event = { type: recorded.type, data: recorded.data } as OrderEvent;
    state = evolve(state, event);
    const at = recorded.metadata.occurredAt;
    switch (event.type) {
      case 'OrderImported': {
        const d = event.data;
        view = {
          orderNumber: d.orderNumber,
          storeId: d.storeId,
          platform: d.platform,
          orderedAt: d.orderedAt,
          paymentMethod: d.paymentMethod,
          currency: d.currency,
          totalAmount: d.totalAmount,
          shippingFee: d.shippingFee ?? null,
          buyerUsername: d.buyerUsername ?? null,
          buyerRemark: d.buyerRemark ?? null,
          address: d.address,
          returnId: null,
          printedAt: {},
          shippedAt: d.status === 'shipped' || d.status === 'delivered' ? d.marketplaceUpdatedAt : null,
        };
        break;
      }
      case 'OrderSynced':
        if (view && event.data.address) view.address = event.data.address;
        break;
      case 'OrderAddressChanged':
        if (view) view.address = event.data.address;
        break;
      case 'OrderReturned':
        if (view) view.returnId = event.data.returnId;
        break;
      case 'OrderPrinted':
        if (view) view.printedAt[event.data.document] = at;
        break;
      case 'OrderShipped':
        if (view) view.shippedAt = at;
        break;
      default:
        break;
    }
  }
  const order = placed(state);
  if (!order || !view) return null;
  return {
    ...view,
    state: order,
    lines: order.lines.filter((line) => !order.removed.includes(line.lineId)),
  };
}
