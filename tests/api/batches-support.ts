import { randomUUID } from 'node:crypto';
import type { BatchDetail } from '@api/contracts/batches';
import { handleOrderCommand, loadOrder } from '@commands/orders/order';
import type { MarketplaceOrder, MarketplaceOrderLine } from '@domain/orders/marketplace-order';
import { type OrderEvent, orderStreamId } from '@domain/orders/order';
import { BATCHES_PROJECTION } from '@projections/batches';
import { type Catalogue, importOrder, line, marketplaceOrder, settle } from '@tests/api/orders-support';
import { bearer, type TestApi } from '@tests/support/api';
import { waitFor } from '@tests/support/wait';
import { expect } from 'vitest';

/**
 * What the batch and scan tests share: orders made the way an integration makes them (imported, paid, some with
 * their shipment arranged so they wait to be scanned), the read models caught up, and calls to the API.
 */

export interface OrderSpec {
  lines?: MarketplaceOrderLine[];
  shippingProvider?: string;
  paymentMethod?: string;
  preOrder?: boolean;
  /** Arrange the shipment with this tracking number: the order moves to unscan. */
  tracking?: string;
  /** A tracking number the marketplace gave with the order (the order stays new). */
  importedTracking?: string;
  storeId?: string;
  platform?: MarketplaceOrder['platform'];
}

export interface MadeOrder {
  orderId: string;
  orderNumber: string;
  tracking: string | null;
}

/** Imports paid orders (new), arranges the shipment of those given a tracking number (unscan), and settles. */
export async function makeOrders(
  api: TestApi,
  tenantId: string,
  catalogue: Catalogue,
  specs: readonly OrderSpec[],
): Promise<MadeOrder[]> {
  const made: MadeOrder[] = [];
  for (const spec of specs) {
    const order = marketplaceOrder(spec.lines ?? [line('BATIK-01', 1)], {
      shippingProvider: spec.shippingProvider ?? 'J&T Express',
      paymentMethod: spec.paymentMethod ?? 'Online banking',
      preOrder: spec.preOrder ?? false,
      ...(spec.importedTracking ? { trackingNumber: spec.importedTracking } : {}),
      ...(spec.platform ? { platform: spec.platform } : {}),
    });
    const orderId = await importOrder(api, tenantId, catalogue.warehouseId, order, spec.storeId ?? 'store-a');
    if (spec.tracking) {
      await handleOrderCommand(
        api.store,
        orderId,
        {
          type: 'ArrangeShipment',
          trackingNumber: spec.tracking,
          shippingProvider: spec.shippingProvider ?? 'J&T Express',
        },
        { tenantId, commandId: randomUUID(), occurredAt: new Date().toISOString() },
      );
    }
    made.push({ orderId, orderNumber: order.orderNumber, tracking: spec.tracking ?? null });
  }
  // The board has every order as its stream has it (status and tracking number).
  await settledUntil(api, async () => {
    const rows = await api.database.db
      .selectFrom('orders')
      .select(['id', 'status', 'tracking_number'])
      .where('tenant_id', '=', tenantId)
      .where(
        'id',
        'in',
        made.map((order) => order.orderId),
      )
      .execute();
    for (const order of made) {
      const row = rows.find((r) => r.id === order.orderId);
      const state = await loadOrder(api.store, tenantId, order.orderId);
      if (!row || row.status !== state.status || row.tracking_number !== state.trackingNumber) return false;
    }
    return true;
  });
  return made;
}

/** The reactor, the board and the batches read model caught up with everything appended so far. */
export async function settleAll(api: TestApi): Promise<void> {
  await settle(api);
  await api.engine.catchUp(BATCHES_PROJECTION);
}

/**
 * Settles until `probe` holds. A catch-up reads what is committed below the oldest write still running (the live
 * reactor may be appending meanwhile), so one catch-up may stop short of the newest events; the next one gets them.
 */
export function settledUntil<T>(api: TestApi, probe: () => Promise<T | undefined | false>): Promise<T> {
  return waitFor(async () => {
    await settleAll(api);
    return probe();
  });
}

/** The events of an order's stream, by type. */
export async function orderEvents(api: TestApi, tenantId: string, orderId: string): Promise<OrderEvent[]> {
  const events: OrderEvent[] = [];
  for await (const recorded of api.store.readStream(orderStreamId(tenantId, orderId))) {
    events.push({ type: recorded.type, data: recorded.data } as OrderEvent);
  }
  return events;
}

export const count = (events: readonly { type: string }[], type: string) =>
  events.filter((event) => event.type === type).length;

export type Call = (
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  token: string,
  payload?: unknown,
  language?: string,
) => Promise<{
  statusCode: number;
  body: string;
  rawPayload: Buffer;
  headers: Record<string, unknown>;
  json<T = unknown>(): T;
}>;

export const callerOf =
  (api: () => TestApi): Call =>
  (method, url, token, payload, language) =>
    api().app.inject({
      method,
      url,
      headers: bearer(token, language),
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

/** The `data` of a 200 answer (fails the test with the body otherwise). */
export async function data<T>(
  answer: Promise<{ statusCode: number; body: string; json<U>(): U }>,
): Promise<T> {
  const response = await answer;
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ data: T }>().data;
}

/** A refusal: its status, code and message. */
export async function refusal(
  answer: Promise<{ statusCode: number; body: string; json<U>(): U }>,
): Promise<{ status: number; code: number; msg: string }> {
  const response = await answer;
  const body = response.json<{ code: number; msg: string }>();
  return { status: response.statusCode, code: body.code, msg: body.msg };
}

/** A batch as the API answers it (the list's row with its orders): the contract's shape. */
export type BatchAnswer = BatchDetail;

export interface ScanAnswer {
  order: { id: string; order_number: string; tracking_number: string | null; status: string };
  check: {
    status: 'open' | 'completed' | 'idle';
    round: number;
    picker: { id: string; name: string | null } | null;
    lines: {
      line_id: string;
      code: string;
      name: string;
      required: number;
      scanned: number;
      serial_numbers: string[];
    }[];
    scanned: number;
    required: number;
    completed: boolean;
  };
  scanned_line: string | null;
  batch: { id: string; label: string; total_orders: number; scanned_orders: number } | null;
}
