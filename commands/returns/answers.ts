import { randomUUID } from 'node:crypto';
import type { LookupQuery, OrderLookup, ReturnBody, ReturnDetail } from '@api/contracts/returns';
import { mayReturn, refuse } from '@domain/returns/return';
import type { Database } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import { masterCodesOfTenant, placeOfTenant, userNames } from '@projections/documents.queries';
import { orderLineFields } from '@projections/orders';
import { refundFields } from '@projections/returns';
import { returnableOrderByNumber } from '@projections/returns.queries';
import type { Kysely } from 'kysely';
import { loadOrderView } from '../printing/order-view';
import { eventIdFor } from '../support/ids';
import { returnImagesOf } from './images';
import { loadReturn, processReturn } from './return';

/**
 * Returns as the API answers them (spec §3 "Return"): one return with its lines, images, what went back to stock and
 * who recorded it; the order a return is for; and recording a return from the request (return.ts runs it). An order
 * or return of another account is one that does not exist.
 */

interface Deps {
  db: Kysely<Database>;
  store: EventStore;
}

type Actor = { tenantId: string; userId: string };

const named = (row: { id: string; code: string; name: string } | undefined | null) =>
  row ? { id: row.id, code: row.code, name: row.name } : null;

/** One return from its stream, with who recorded it and when. */
export async function returnDetail(deps: Deps, tenantId: string, returnId: string): Promise<ReturnDetail> {
  let createdBy: string | null = null;
  let createdAt: string | null = null;
  for await (const recorded of deps.store.readStream(`orderReturn-${tenantId}.${returnId}`)) {
    if (recorded.type === 'OrderReturnRecorded') {
      createdBy = recorded.metadata.userId ?? null;
      createdAt = recorded.metadata.occurredAt;
    }
  }
  const state = await loadReturn(deps.store, tenantId, returnId);
  if (!state.exists) throw refuse('RETURN_NOT_FOUND');
  const record = state.record!;
  const [warehouse, codes, names, images] = await Promise.all([
    placeOfTenant(deps.db, tenantId, record.warehouseId),
    masterCodesOfTenant(
      deps.db,
      tenantId,
      record.lines.flatMap((line) => (line.masterCodeId ? [line.masterCodeId] : [])),
    ),
    userNames(deps.db, tenantId, [createdBy]),
    returnImagesOf(deps.db, tenantId, record.images),
  ]);
  const restocked = new Map(state.restocked.map((line) => [line.lineId, line.quantity]));
  return {
    id: returnId,
    order_id: record.orderId,
    order_number: record.orderNumber,
    tracking_number: record.trackingNumber,
    platform: record.platform,
    warehouse: named(warehouse),
    ...refundFields(record),
    completed: state.completed,
    lines: record.lines.map((line) => ({
      ...orderLineFields(line),
      condition: line.condition,
      master_code: named(line.masterCodeId ? codes.get(line.masterCodeId) : null),
      restocked: restocked.get(line.lineId) ?? 0,
    })),
    images: record.images.flatMap((id) => {
      const image = images.find((row) => row.id === id);
      return image ? [{ id, content_type: image.content_type, bytes: image.byte_size }] : [];
    }),
    created_by: createdBy ? { id: createdBy, name: names.get(createdBy) ?? '' } : null,
    created_at: createdAt,
  };
}

/** The order a return is for, by its id or else its order or tracking number, with its lines. */
export async function returnLookup(deps: Deps, tenantId: string, query: LookupQuery): Promise<OrderLookup> {
  let orderId = query.order_id;
  if (!orderId) {
    if (!query.q) throw refuse('LOOKUP_REQUIRED');
    orderId = await returnableOrderByNumber(deps.db, tenantId, query.q);
    if (!orderId) throw refuse('RETURN_NOT_FOUND');
  }
  const view = await loadOrderView(deps.store, tenantId, orderId);
  if (!view) throw refuse('RETURN_NOT_FOUND');
  return {
    order_id: orderId,
    order_number: view.orderNumber,
    tracking_number: view.state.trackingNumber,
    status: view.state.status,
    platform: view.platform,
    currency: view.currency,
    total_amount: view.totalAmount,
    shipping_fee: view.shippingFee,
    returnable: view.returnId === null && mayReturn({ status: view.state.status, returnId: null }, ''),
    return_id: view.returnId,
    lines: view.lines.map((line) => ({
      ...orderLineFields(line),
      mapped: line.masterCodeId !== null,
      combo: line.combo,
    })),
  };
}

/** Records a return from the request; `key` (the request's idempotency key) makes a repeat change nothing more. */
export async function recordReturn(
  deps: Deps,
  actor: Actor,
  input: { body: ReturnBody; key: string | undefined },
): Promise<ReturnDetail> {
  const { body, key } = input;
  const returnId = key ? eventIdFor(`order-return:${actor.tenantId}:${key}`) : randomUUID();
  const order = await loadOrderView(deps.store, actor.tenantId, body.order_id);
  if (!order) throw refuse('RETURN_NOT_FOUND');
  const state = await processReturn(deps, {
    tenantId: actor.tenantId,
    userId: actor.userId,
    returnId,
    orderId: body.order_id,
    order,
    request: {
      action: body.action,
      reason: body.reason,
      refundToBuyer: body.refund_to_buyer,
      includeShipping: body.include_shipping,
      refundReason: body.refund_reason,
      reversalItemPrice: body.reversal_item_price ?? null,
      images: [...new Set(body.images)],
      lines: body.lines.map((line) => ({
        lineId: line.line_id,
        quantity: line.quantity,
        condition: line.condition,
      })),
    },
  });
  if (!state.completed) throw new Error(`return ${returnId} did not complete`);
  return returnDetail(deps, actor.tenantId, returnId);
}
