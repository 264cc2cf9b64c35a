import { movementReason } from '@domain/inventory/movement-reasons';
import {
  decide,
  emptyReturn,
  evolve,
  type ReturnCommand,
  type ReturnEvent,
  type ReturnedOrder,
  type ReturnRequest,
  type ReturnState,
  refuse,
  restockLines,
  returnStreamId,
} from '@domain/returns/return';
import type { Database } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import type { Kysely } from 'kysely';
import { comboComponents, handleComboCommand } from '../inventory/combo';
import { handleStockCommand } from '../inventory/stock';
import { handleOrderCommand } from '../orders/order';
import type { OrderView } from '../printing/order-view';
import { type DocumentContext, type DocumentResult, handleDocumentCommand } from '../support/document';
import { returnImagesOf } from './images';

/**
 * Processing a return of a marketplace order (domain/returns/return.ts), step by step, each step idempotent by a
 * command id derived from the return's id, so the same request run again — a retry after a timeout, a double
 * click with the same idempotency key — finishes what is missing and moves stock once:
 *
 * 1. the return is checked as the decider would record it (spec §5; the order shipped or delivered);
 * 2. the order records the return (ReturnOrder, `return:<id>:order`): the gate — an order takes one return, so two
 *    different returns of one order racing each other cannot both go on;
 * 3. the return document is recorded (OrderReturnRecorded);
 * 4. the reusable lines returned to stock go back into the order's warehouse (ReturnStock, `return:<id>:stock:<line>`;
 *    a combo's components through the combo command); a write-off or an unusable item moves nothing;
 * 5. the return is completed with what went back (OrderReturnCompleted).
 */

export interface ReturnDeps {
  store: EventStore;
  db: Kysely<Database>;
}

export function handleReturnCommand(
  store: EventStore,
  returnId: string,
  command: ReturnCommand,
  context: DocumentContext,
): Promise<DocumentResult<ReturnEvent, ReturnState>> {
  return handleDocumentCommand(
    store,
    returnStreamId(context.tenantId, returnId),
    { initial: emptyReturn, evolve, decide },
    command,
    context,
  );
}

export async function loadReturn(
  store: EventStore,
  tenantId: string,
  returnId: string,
): Promise<ReturnState> {
  let state = emptyReturn;
  for await (const recorded of store.readStream(returnStreamId(tenantId, returnId))) {
    state = evolve(state, { type: recorded.type, data: recorded.data } as ReturnEvent);
  }
  return state;
}

/** The order as a return takes it. */
export function returnedOrder(orderId: string, view: OrderView): ReturnedOrder {
  return {
    orderId,
    orderNumber: view.orderNumber,
    trackingNumber: view.state.trackingNumber,
    storeId: view.storeId,
    platform: view.platform,
    warehouseId: view.state.warehouseId,
    currency: view.currency,
    status: view.state.status,
    returnId: view.returnId,
    lines: view.lines,
  };
}

export interface ProcessReturnInput {
  tenantId: string;
  userId: string;
  returnId: string;
  orderId: string;
  order: OrderView;
  request: ReturnRequest;
}

/** Runs the return through (see above); a DomainError of the return or the order refuses it. */
export async function processReturn(deps: ReturnDeps, input: ProcessReturnInput): Promise<ReturnState> {
  const { tenantId, userId, returnId } = input;
  const order = returnedOrder(input.orderId, input.order);
  const context = (step: string): DocumentContext => ({
    tenantId,
    userId,
    commandId: `return:${returnId}:${step}`,
    correlationId: `return:${returnId}`,
    occurredAt: new Date().toISOString(),
  });
  const record: ReturnCommand = { type: 'RecordReturn', returnId, order, request: input.request };
  // 1. The checks, before anything is recorded: the images attached are the account's uploads, not another
  // return's (the returns projection gives them to this return when it records it), and the decider's own.
  const images = input.request.images;
  if (images.length > 0) {
    const found = await returnImagesOf(deps.db, tenantId, images);
    const usable = found.filter((row) => row.return_id === null || row.return_id === returnId);
    if (usable.length !== new Set(images).size) throw refuse('IMAGE_NOT_FOUND');
  }
  const [recorded] = decide(record, emptyReturn);
  if (recorded?.type !== 'OrderReturnRecorded') throw new Error('the return records nothing');

  // 2. The order takes the return (once).
  await handleOrderCommand(
    deps.store,
    input.orderId,
    {
      type: 'ReturnOrder',
      returnId,
      lines: recorded.data.lines.map((line) => ({ lineId: line.lineId, quantity: line.quantity })),
    },
    context('order'),
  );

  // 3. The return document.
  await handleReturnCommand(deps.store, returnId, record, context('record'));
  const state = await loadReturn(deps.store, tenantId, returnId);
  const data = state.record!;

  // 4. Stock back for reusable items returned to stock.
  for (const line of restockLines(data)) {
    const source = { type: 'order_return', id: returnId };
    const reason = movementReason('order_returned', { order: data.orderNumber });
    const stockContext = {
      tenantId,
      userId,
      commandId: `return:${returnId}:stock:${line.lineId}`,
      correlationId: `return:${returnId}`,
      occurredAt: new Date().toISOString(),
    };
    if (line.combo) {
      const components = await comboComponents(deps.db, tenantId, line.masterCodeId);
      await handleComboCommand(
        deps.store,
        {
          type: 'ReturnStock',
          comboId: line.masterCodeId,
          warehouseId: data.warehouseId,
          quantity: line.quantity,
          reason,
          source,
        },
        components,
        stockContext,
      );
    } else {
      await handleStockCommand(
        deps.store,
        {
          type: 'ReturnStock',
          masterCodeId: line.masterCodeId,
          warehouseId: data.warehouseId,
          quantity: line.quantity,
          reason,
          source,
        },
        stockContext,
      );
    }
  }

  // 5. Done.
  const completed = await handleReturnCommand(
    deps.store,
    returnId,
    { type: 'CompleteReturn' },
    context('complete'),
  );
  return completed.state;
}
