import { ErrorAnswer, Ok, ok, refusals } from '@api/answers';
import { seller } from '@api/auth/session';
import { wholeStore } from '@api/documents';
import { ApiError, invalid } from '@api/errors';
import { translate } from '@api/i18n';
import { handleOrderCommand } from '@commands/orders/order';
import { ACTION_KEYS, BOARD_ACTIONS } from '@domain/orders/board';
import {
  MOVES,
  type MoveAction,
  type OrderCommand,
  PRINT_DOCUMENTS,
  PRINT_ORIGINS,
} from '@domain/orders/order';
import { refusalOf } from '@domain/shared/errors';
import { withTenant } from '@infra/db/tenant';
import { SELLER_CANCEL_REASONS, storesShipping } from '@integrations/stores';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  commandIdOf,
  IdempotencyKey,
  idempotencyKeyOf,
  MAX_ORDERS,
  OrderCode,
  type OrderDeps,
  OrderId,
  OrderIds,
  requireKey,
  tags,
  text,
} from './common';
import { marketplaceCancel, marketplaceShipment, type ShippingRequest } from './shipping';

/**
 * The board's actions on one order or many (spec §4): put back to new, move to unscan or trash, undo or reset scan,
 * reset, scan (mark as scanned, without the item check of the scan screen), mark processed (RTS), ship, set
 * delivered or refunded, cancel, mark as printed (a document printed outside Kedai), set to or out of preview, arrange or re-arrange shipment (tracking number and provider per order), request
 * pickup (provider, pickup address, day and time of spec §9). An order of a connected marketplace store is arranged
 * with its marketplace first (shipping.ts): its tracking number is the one the marketplace gives. Each order answers for itself; when every order was
 * refused the answer is that refusal (4xx, the others in `errors`), so a single-order action fails clearly.
 */

const SIMPLE_ACTIONS = [
  'scan',
  'ship',
  'set_preview',
  'clear_preview',
  ...(Object.keys(MOVES) as MoveAction[]),
] as ['scan', 'ship', 'set_preview', 'clear_preview', ...MoveAction[]];

const trackingRequired = invalid(OrderCode.trackingRequired, 'orders.tracking_required');
const pickupDetails = invalid(OrderCode.pickupDetailsRequired, 'orders.pickup_details_required');
const shipmentsRequired = invalid(OrderCode.ordersRequired, 'orders.orders_required', { max: MAX_ORDERS });
const key = { idempotency_key: IdempotencyKey.optional() };
const documentInvalid = invalid(OrderCode.textInvalid, 'orders.document_invalid', {
  documents: PRINT_DOCUMENTS.join(', '),
});
const originInvalid = invalid(OrderCode.textInvalid, 'orders.origin_invalid', {
  origins: PRINT_ORIGINS.join(', '),
});

export const ActionBody = z.discriminatedUnion('action', [
  z.strictObject({ action: z.enum(SIMPLE_ACTIONS), order_ids: OrderIds, ...key }),
  z.strictObject({
    action: z.literal('mark_printed'),
    order_ids: OrderIds,
    document: z.enum(PRINT_DOCUMENTS, { error: documentInvalid }),
    origin: z.enum(PRINT_ORIGINS, { error: originInvalid }).default('unscan'),
    ...key,
  }),
  z.strictObject({
    action: z.literal('cancel'),
    order_ids: OrderIds,
    reason: text(500, 'reason').optional(),
    /** What a connected marketplace is told (its orders are cancelled there too). */
    marketplace_reason: z
      .enum(SELLER_CANCEL_REASONS, {
        error: invalid(OrderCode.textInvalid, 'orders.marketplace_reason_invalid', {
          reasons: SELLER_CANCEL_REASONS.join(', '),
        }),
      })
      .default('out_of_stock'),
    ...key,
  }),
  z.strictObject({
    action: z.literal('arrange_shipment'),
    shipments: z
      .array(
        z.strictObject({
          order_id: OrderId,
          // None for an order of a connected marketplace store: the marketplace gives it (drop-off). Typed for
          // such an order, the parcel goes with the seller's own carrier; for any other order it is required.
          tracking_number: z
            .string({ error: trackingRequired })
            .trim()
            .max(
              100,
              invalid(OrderCode.textInvalid, 'orders.too_long', { field: 'tracking_number', max: 100 }),
            )
            .default(''),
          shipping_provider: text(200, 'shipping_provider').default(''),
        }),
        { error: shipmentsRequired },
      )
      .min(1, shipmentsRequired)
      .max(MAX_ORDERS, shipmentsRequired),
    ...key,
  }),
  z.strictObject({
    action: z.literal('request_pickup'),
    order_ids: OrderIds,
    provider: z.string({ error: pickupDetails }).trim().min(1, pickupDetails).max(200, pickupDetails),
    pickup_address: z.string({ error: pickupDetails }).trim().min(1, pickupDetails).max(1000, pickupDetails),
    /** Of the marketplace's pickup addresses (GET /api/orders/shipping); none: the shop's default. */
    pickup_address_id: z.number({ error: pickupDetails }).int(pickupDetails).optional(),
    pickup_day: z.enum(['today', 'after_1_day', 'after_2_days']).default('today'),
    pickup_time: z.enum(['none', 'earliest', 'latest']).default('none'),
    ...key,
  }),
]);
export type ActionBody = z.infer<typeof ActionBody>;

const ActionResult = z.object({
  order_id: z.string(),
  ok: z.boolean(),
  /** 0, or the refusal's result code. */
  code: z.number().int(),
  msg: z.string(),
  /** Nothing new was recorded: a retry with the same key, or the order was already so. */
  unchanged: z.boolean(),
});
export const ActionAnswer = z.object({
  action: z.enum(BOARD_ACTIONS),
  succeeded: z.number().int(),
  failed: z.number().int(),
  results: z.array(ActionResult),
});
export type ActionAnswer = z.infer<typeof ActionAnswer>;

/** Each order's command for the action. */
function commandsOf(body: ActionBody): { orderId: string; command: OrderCommand }[] {
  const once = <T extends { orderId: string }>(items: T[]) => [
    ...new Map(items.map((item) => [item.orderId, item])).values(),
  ];
  switch (body.action) {
    case 'arrange_shipment':
      return once(
        body.shipments.map((shipment) => ({
          orderId: shipment.order_id,
          command: {
            type: 'ArrangeShipment',
            trackingNumber: shipment.tracking_number,
            shippingProvider: shipment.shipping_provider,
          } as OrderCommand,
        })),
      );
    case 'request_pickup':
      return once(
        body.order_ids.map((orderId) => ({
          orderId,
          command: {
            type: 'RequestPickup',
            provider: body.provider,
            pickupAddress: body.pickup_address,
            pickupDay: body.pickup_day,
            pickupTime: body.pickup_time,
          } as OrderCommand,
        })),
      );
    case 'cancel':
      return once(
        body.order_ids.map((orderId) => ({
          orderId,
          command: {
            type: 'CancelOrder',
            byMarketplace: false,
            ...(body.reason ? { reason: body.reason } : {}),
          } as OrderCommand,
        })),
      );
    case 'scan':
      return once(
        body.order_ids.map((orderId) => ({ orderId, command: { type: 'ScanOrder' } as OrderCommand })),
      );
    case 'set_preview':
    case 'clear_preview': {
      const preview = body.action === 'set_preview';
      return once(
        body.order_ids.map((orderId) => ({
          orderId,
          command: { type: 'SetPreview', preview } as OrderCommand,
        })),
      );
    }
    case 'mark_printed':
      return once(
        body.order_ids.map((orderId) => ({
          orderId,
          command: { type: 'MarkPrinted', document: body.document, origin: body.origin } as OrderCommand,
        })),
      );
    case 'ship':
      return once(
        body.order_ids.map((orderId) => ({
          orderId,
          command: { type: 'ShipOrder', byMarketplace: false } as OrderCommand,
        })),
      );
    default: {
      const action = body.action;
      return once(
        body.order_ids.map((orderId) => ({
          orderId,
          command: { type: 'MoveOrder', action } as OrderCommand,
        })),
      );
    }
  }
}

/** What a shipment action asks of the marketplace for one order (null: not a shipment action). */
function shippingRequestOf(body: ActionBody, command: OrderCommand): ShippingRequest | null {
  if (body.action === 'request_pickup') {
    return {
      action: 'request_pickup',
      provider: body.provider,
      pickupAddress: body.pickup_address,
      pickupDay: body.pickup_day,
      pickupTime: body.pickup_time,
      ...(body.pickup_address_id !== undefined ? { pickupAddressId: body.pickup_address_id } : {}),
    };
  }
  if (command.type === 'ArrangeShipment') {
    return {
      action: 'arrange_shipment',
      trackingNumber: command.trackingNumber,
      shippingProvider: command.shippingProvider,
    };
  }
  return null;
}

const CONCURRENCY = 8;

export const orderActionRoutes: FastifyPluginAsyncZod<OrderDeps> = async (app, deps) => {
  const store = wholeStore(deps.store, 'order');
  const shipping = deps.shipping ?? storesShipping(deps.db);

  /** Arranging or picking up orders of several stores at once needs the multi-store key (spec §6). */
  async function checkStores(request: FastifyRequest, tenantId: string, orderIds: string[]) {
    if (seller(request).permissions.has('orders-multi-store-arrange')) return;
    const rows = await withTenant(deps.db, tenantId, (trx) =>
      trx
        .selectFrom('orders')
        .select('store_id')
        .distinct()
        .where('tenant_id', '=', tenantId)
        .where('id', 'in', orderIds)
        .execute(),
    );
    if (rows.length > 1) throw new ApiError(403, OrderCode.multiStore, 'orders.multi_store');
  }

  app.post(
    '/api/orders/actions',
    {
      config: { access: 'seller' },
      schema: {
        tags,
        summary:
          'Run an action of spec §4 on one or many orders (Idempotency-Key: a retry records nothing twice); each order answers for itself',
        body: ActionBody,
        response: { 200: Ok(ActionAnswer), ...refusals, 409: ErrorAnswer },
      },
    },
    async (request, reply) => {
      const session = seller(request);
      const body = request.body;
      requireKey(request, ACTION_KEYS[body.action]);
      const requestKey = idempotencyKeyOf(request, body.idempotency_key);
      const work = commandsOf(body);
      if (body.action === 'arrange_shipment' || body.action === 'request_pickup') {
        await checkStores(
          request,
          session.tenantId,
          work.map((item) => item.orderId),
        );
      }
      const occurredAt = new Date().toISOString();
      const results: (z.infer<typeof ActionResult> & { status: number })[] = new Array(work.length);
      let next = 0;
      await Promise.all(
        Array.from({ length: Math.min(CONCURRENCY, work.length) }, async () => {
          while (next < work.length) {
            const index = next++;
            const { orderId, command } = work[index]!;
            try {
              if (body.action === 'cancel') {
                await marketplaceCancel(shipping, store, session.tenantId, orderId, body.marketplace_reason);
              }
              const asked = shippingRequestOf(body, command);
              const steps = (asked &&
                (await marketplaceShipment(shipping, store, session.tenantId, orderId, asked))) || [
                { purpose: body.action, command },
              ];
              let unchanged = true;
              for (const step of steps) {
                const result = await handleOrderCommand(store, orderId, step.command, {
                  tenantId: session.tenantId,
                  userId: session.userId,
                  commandId: commandIdOf(session.tenantId, step.purpose, requestKey, orderId),
                  occurredAt,
                });
                unchanged &&= result.replayed || result.events.length === 0;
              }
              results[index] = {
                order_id: orderId,
                ok: true,
                code: 0,
                msg: translate(request.language, 'common.ok'),
                unchanged,
                status: 200,
              };
            } catch (error) {
              const refused = refusalOf(error);
              if (!refused?.refusal) throw error;
              const refusal = refused.refusal;
              results[index] = {
                order_id: orderId,
                ok: false,
                code: refusal.code,
                msg: translate(request.language, refusal.key, refused.params),
                unchanged: true,
                status: refusal.status,
              };
            }
          }
        }),
      );
      const succeeded = results.filter((result) => result.ok).length;
      const failed = results.length - succeeded;
      if (succeeded === 0) {
        const first = results[0]!;
        return reply.code(first.status as 400 | 404 | 409).send({
          code: first.code,
          msg: first.msg,
          errors: results.map((result) => ({ path: `order:${result.order_id}`, message: result.msg })),
        } satisfies ErrorAnswer);
      }
      return ok(
        request,
        {
          action: body.action,
          succeeded,
          failed,
          results: results.map(({ status: _status, ...result }) => result),
        },
        failed === 0 ? 'orders.action_done' : 'orders.action_partly_done',
        { succeeded, failed, total: results.length },
      );
    },
  );
};
