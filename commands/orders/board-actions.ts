import { randomUUID } from 'node:crypto';
import type { ErrorAnswer } from '@api/contracts/common';
import type { ActionAnswer, ActionBody } from '@api/contracts/orders';
import { boardRefuse } from '@domain/orders/board';
import { marketplaceErrors } from '@domain/orders/marketplace-refusals';
import { type OrderCommand, type ProcessRequest, refuse } from '@domain/orders/order';
import { type DomainError, refusalOf } from '@domain/shared/errors';
import type { Database } from '@infra/db';
import { withTenant } from '@infra/db/tenant';
import type { EventStore } from '@infra/eventstore/port';
import { type Language, translate } from '@infra/i18n';
import type { MarketplaceShipping } from '@integrations/stores';
import { activeUserId } from '@projections/batches.queries';
import type { Kysely } from 'kysely';
import { refusalAnswer } from '../support/refusal';
import {
  marketplaceCancel,
  marketplaceReleaseShipment,
  marketplaceShipment,
  type ShippingStep,
} from './marketplace-shipping';
import { handleOrderCommand, loadOrder } from './order';

/**
 * The board's actions on one order or many (spec §4): put back to new, move to unscan or trash, undo or reset scan,
 * reset, scan (mark as scanned, without the item check of the scan screen), mark processed (RTS), ship, set
 * delivered or refunded, cancel, mark as printed (a document printed outside Kedai), set to or out of preview,
 * arrange or re-arrange shipment (tracking number and provider per order), request pickup (provider, pickup address,
 * day and time of spec §9), cancel third-party shipment (back to pending process, to be arranged again), try a
 * failed step again ("process failed"), assign a picker ("waiting assign"). An order of a connected marketplace
 * store is arranged (or cancelled, or its shipment cancelled) with its marketplace first (marketplace-shipping.ts):
 * its tracking number is the one the marketplace gives, and the marketplace's refusal is recorded on the order as
 * its failed step, with what was asked, so that "try again" asks the same. Each order answers for itself: done
 * (changed or not), or its refusal.
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

/** One order's part of an action: its command, and what the marketplace is asked first (a process step). */
interface OrderTask {
  orderId: string;
  command: OrderCommand;
  /** A step of spec §4 "process failed": what a refusal by the marketplace records, to be tried again. */
  request: ProcessRequest | null;
}

/** The command of a process step, as asked (or as asked the time it failed). */
function stepCommand(request: ProcessRequest): OrderCommand {
  switch (request.step) {
    case 'arrange_shipment':
      return {
        type: 'ArrangeShipment',
        trackingNumber: request.trackingNumber,
        shippingProvider: request.shippingProvider,
      };
    case 'request_pickup':
      return {
        type: 'RequestPickup',
        provider: request.provider,
        pickupAddress: request.pickupAddress,
        pickupDay: request.pickupDay,
        pickupTime: request.pickupTime,
      };
    case 'cancel':
      return {
        type: 'CancelOrder',
        byMarketplace: false,
        ...(request.reason ? { reason: request.reason } : {}),
      };
    case 'cancel_shipment':
      return { type: 'CancelShipment' };
    default: {
      const unknown: never = request;
      throw new Error(`unknown process step ${JSON.stringify(unknown)}`);
    }
  }
}

/** Each order's part of the action; a retry's is the order's own failed step, read when its turn comes (an id). */
function tasksOf(body: ActionBody): (OrderTask | string)[] {
  const once = (items: OrderTask[]) => [...new Map(items.map((item) => [item.orderId, item])).values()];
  const step = (orderId: string, request: ProcessRequest): OrderTask => ({
    orderId,
    command: stepCommand(request),
    request,
  });
  const orderIds = 'order_ids' in body ? body.order_ids : [];
  const each = (command: OrderCommand) =>
    once(orderIds.map((orderId) => ({ orderId, command, request: null })));
  switch (body.action) {
    case 'arrange_shipment':
      return once(
        body.shipments.map((shipment) =>
          step(shipment.order_id, {
            step: 'arrange_shipment',
            trackingNumber: shipment.tracking_number,
            shippingProvider: shipment.shipping_provider,
          }),
        ),
      );
    case 'request_pickup':
      return once(
        body.order_ids.map((orderId) =>
          step(orderId, {
            step: 'request_pickup',
            provider: body.provider,
            pickupAddress: body.pickup_address,
            ...(body.pickup_address_id !== undefined ? { pickupAddressId: body.pickup_address_id } : {}),
            pickupDay: body.pickup_day,
            pickupTime: body.pickup_time,
          }),
        ),
      );
    case 'cancel':
      return once(
        body.order_ids.map((orderId) =>
          step(orderId, {
            step: 'cancel',
            ...(body.reason ? { reason: body.reason } : {}),
            marketplaceReason: body.marketplace_reason,
          }),
        ),
      );
    case 'cancel_shipment':
      return once(body.order_ids.map((orderId) => step(orderId, { step: 'cancel_shipment' })));
    case 'retry_process':
      return [...new Set(body.order_ids)];
    case 'assign':
      return each({ type: 'AssignPicker', pickerId: body.picker_id });
    case 'scan':
      return each({ type: 'ScanOrder' });
    case 'set_preview':
    case 'clear_preview':
      return each({ type: 'SetPreview', preview: body.action === 'set_preview' });
    case 'mark_printed':
      return each({ type: 'MarkPrinted', document: body.document, origin: body.origin });
    case 'ship':
      return each({ type: 'ShipOrder', byMarketplace: false });
    default:
      return each({ type: 'MoveOrder', action: body.action });
  }
}

/**
 * The marketplace's part of a process step, then the commands to record: a shipment arranged with the marketplace
 * records what it gave; a cancel (or a cancelled shipment) is let go by the marketplace first. Throws its refusal.
 */
async function stepsOf(
  deps: BoardActionDeps,
  tenantId: string,
  purpose: string,
  task: OrderTask,
): Promise<ShippingStep[]> {
  const { orderId, command, request } = task;
  const own = [{ purpose, command }];
  switch (request?.step) {
    case 'arrange_shipment':
    case 'request_pickup':
      return (await marketplaceShipment(deps.shipping, deps.store, tenantId, orderId, request)) ?? own;
    case 'cancel':
      await marketplaceCancel(deps.shipping, deps.store, tenantId, orderId, request.marketplaceReason);
      return own;
    case 'cancel_shipment':
      await marketplaceReleaseShipment(deps.shipping, deps.store, tenantId, orderId);
      return own;
    default:
      return own;
  }
}

const orderOf = (item: OrderTask | string) => (typeof item === 'string' ? item : item.orderId);

/** A retry of "process failed": the order's refused step, as it was asked. */
async function retryTask(store: EventStore, tenantId: string, orderId: string): Promise<OrderTask> {
  const failure = (await loadOrder(store, tenantId, orderId)).failure;
  if (!failure) throw refuse('NOTHING_TO_RETRY');
  return { orderId, command: stepCommand(failure.request), request: failure.request };
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
  const work = tasksOf(body);
  if (body.action === 'arrange_shipment' || body.action === 'request_pickup') {
    await checkStores(deps.db, actor, work.map(orderOf));
  }
  if (body.action === 'assign' && body.picker_id !== null) {
    if (!(await activeUserId(deps.db, actor.tenantId, body.picker_id))) throw refuse('PICKER_NOT_FOUND');
  }
  const occurredAt = new Date().toISOString();
  const results: BoardActionResult[] = new Array(work.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(CONCURRENCY, work.length) }, async () => {
      while (next < work.length) {
        const index = next++;
        const item = work[index]!;
        const orderId = orderOf(item);
        const context = (purpose: string) => ({
          tenantId: actor.tenantId,
          userId: actor.userId,
          commandId: commandIdOf(actor.tenantId, purpose, key, orderId),
          occurredAt,
        });
        let task: OrderTask | undefined;
        try {
          task = typeof item === 'string' ? await retryTask(deps.store, actor.tenantId, orderId) : item;
          const purpose = task.request?.step ?? body.action;
          let unchanged = true;
          for (const step of await stepsOf(deps, actor.tenantId, purpose, task)) {
            const result = await handleOrderCommand(deps.store, orderId, step.command, context(step.purpose));
            unchanged &&= result.replayed || result.events.length === 0;
          }
          results[index] = { orderId, ok: true, unchanged };
        } catch (error) {
          const refusal = refusalOf(error);
          if (!refusal) throw error;
          // The marketplace said no to a process step: the order is "process failed" until it is tried again.
          if (task?.request && Object.hasOwn(marketplaceErrors, refusal.code)) {
            const { code, key: reason } = refusal.refusal;
            const params = Object.fromEntries(
              Object.entries(refusal.params).map(([name, value]) => [
                name,
                typeof value === 'string' ? value.slice(0, 2000) : value,
              ]),
            );
            const failure = { request: task.request, code, key: reason, params };
            await handleOrderCommand(
              deps.store,
              orderId,
              { type: 'RecordProcessFailure', failure },
              context(`${task.request.step}:failed`),
            );
          }
          results[index] = { orderId, ok: false, refusal };
        }
      }
    }),
  );
  return results;
}
