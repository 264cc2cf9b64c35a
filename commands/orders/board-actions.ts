import { randomUUID } from 'node:crypto';
import type { ErrorAnswer } from '@api/contracts/common';
import type { ActionAnswer, ActionBody } from '@api/contracts/orders';
import { boardRefuse } from '@domain/orders/board';
import type { OrderCommand } from '@domain/orders/order';
import { type DomainError, refusalOf } from '@domain/shared/errors';
import type { Database } from '@infra/db';
import { withTenant } from '@infra/db/tenant';
import type { EventStore } from '@infra/eventstore/port';
import { type Language, translate } from '@infra/i18n';
import type { MarketplaceShipping } from '@integrations/stores';
import type { Kysely } from 'kysely';
import { refusalAnswer } from '../support/refusal';
import { marketplaceCancel, marketplaceShipment, type ShippingRequest } from './marketplace-shipping';
import { handleOrderCommand } from './order';

/**
 * The board's actions on one order or many (spec §4): put back to new, move to unscan or trash, undo or reset scan,
 * reset, scan (mark as scanned, without the item check of the scan screen), mark processed (RTS), ship, set
 * delivered or refunded, cancel, mark as printed (a document printed outside Kedai), set to or out of preview,
 * arrange or re-arrange shipment (tracking number and provider per order), request pickup (provider, pickup address,
 * day and time of spec §9). An order of a connected marketplace store is arranged (or cancelled) with its
 * marketplace first (marketplace-shipping.ts): its tracking number is the one the marketplace gives. Each order
 * answers for itself: done (changed or not), or its refusal.
 */

export interface BoardActionDeps {
  db: Kysely<Database>;
  store: EventStore;
  shipping: MarketplaceShipping;
}

export interface BoardActor {
  tenantId: string;
  userId: string;
  /** orders-multi-store-arrange: may arrange orders of several stores at once (spec §6). */
  multiStore: boolean;
}

type BoardActionResult =
  | { orderId: string; ok: true; unchanged: boolean }
  | { orderId: string; ok: false; refusal: DomainError };

/**
 * The request's answer: each order's result, and the message its outcome calls for — or, when every order was
 * refused, the first refusal (its status, the others in `errors`), so a single-order action fails clearly.
 */
export type BoardActionOutcome =
  | { refused: { status: number; answer: ErrorAnswer } }
  | { refused?: undefined; answer: ActionAnswer; message: string; params: Record<string, number> };

/** The command id of one order's part of a request: scoped by account, purpose and order; fresh without a key. */
export const commandIdOf = (tenantId: string, purpose: string, key: string | undefined, orderId: string) =>
  `${tenantId}:orders:${purpose}:${key ?? randomUUID()}:${orderId}`;

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

/** Arranging or picking up orders of several stores at once needs the multi-store key (spec §6). */
async function checkStores(db: Kysely<Database>, actor: BoardActor, orderIds: string[]) {
  if (actor.multiStore) return;
  const rows = await withTenant(db, actor.tenantId, (trx) =>
    trx
      .selectFrom('orders')
      .select('store_id')
      .distinct()
      .where('tenant_id', '=', actor.tenantId)
      .where('id', 'in', orderIds)
      .execute(),
  );
  if (rows.length > 1) throw boardRefuse('MULTI_STORE');
}

/** Runs a board action on each of its orders; `key` the request's idempotency key, `language` the answer's. */
export async function runBoardAction(
  deps: BoardActionDeps,
  actor: BoardActor,
  input: { body: ActionBody; key: string | undefined; language: Language },
): Promise<BoardActionOutcome> {
  const results = (await runEach(deps, actor, input)).map((result) =>
    result.ok
      ? {
          order_id: result.orderId,
          ok: true,
          code: 0,
          msg: translate(input.language, 'common.ok'),
          unchanged: result.unchanged,
          status: 200,
        }
      : {
          order_id: result.orderId,
          ok: false,
          ...refusalAnswer(result.refusal, input.language),
          unchanged: true,
        },
  );
  const succeeded = results.filter((result) => result.ok).length;
  const failed = results.length - succeeded;
  if (succeeded === 0) {
    const { status, code, msg } = results[0]!;
    const errors = results.map((result) => ({ path: `order:${result.order_id}`, message: result.msg }));
    // Spec §8 words this refusal "Failed Set To Preview"; each order's reason stays in `errors`.
    const message =
      input.body.action === 'set_preview' ? translate(input.language, 'orders.set_preview_failed') : msg;
    return { refused: { status, answer: { code, msg: message, errors } } };
  }
  return {
    answer: {
      action: input.body.action,
      succeeded,
      failed,
      results: results.map(({ status: _, ...result }) => result),
    },
    message: failed === 0 ? 'orders.action_done' : 'orders.action_partly_done',
    params: { succeeded, failed, count: results.length },
  };
}

/** Runs the action on each of its orders, a few at a time: each order answers for itself. */
async function runEach(
  deps: BoardActionDeps,
  actor: BoardActor,
  input: { body: ActionBody; key: string | undefined },
): Promise<BoardActionResult[]> {
  const { body, key } = input;
  const work = commandsOf(body);
  if (body.action === 'arrange_shipment' || body.action === 'request_pickup') {
    await checkStores(
      deps.db,
      actor,
      work.map((item) => item.orderId),
    );
  }
  const occurredAt = new Date().toISOString();
  const results: BoardActionResult[] = new Array(work.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(CONCURRENCY, work.length) }, async () => {
      while (next < work.length) {
        const index = next++;
        const { orderId, command } = work[index]!;
        try {
          if (body.action === 'cancel') {
            await marketplaceCancel(
              deps.shipping,
              deps.store,
              actor.tenantId,
              orderId,
              body.marketplace_reason,
            );
          }
          const asked = shippingRequestOf(body, command);
          const steps = (asked &&
            (await marketplaceShipment(deps.shipping, deps.store, actor.tenantId, orderId, asked))) || [
            { purpose: body.action, command },
          ];
          let unchanged = true;
          for (const step of steps) {
            const result = await handleOrderCommand(deps.store, orderId, step.command, {
              tenantId: actor.tenantId,
              userId: actor.userId,
              commandId: commandIdOf(actor.tenantId, step.purpose, key, orderId),
              occurredAt,
            });
            unchanged &&= result.replayed || result.events.length === 0;
          }
          results[index] = { orderId, ok: true, unchanged };
        } catch (error) {
          const refusal = refusalOf(error);
          if (!refusal) throw error;
          results[index] = { orderId, ok: false, refusal };
        }
      }
    }),
  );
  return results;
}
