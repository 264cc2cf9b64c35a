import type {
  AddressBody,
  GiftBody,
  MapBody,
  OrderDetail,
  PackingBody,
  RemoveBody,
  ReplacementBody,
  SplitBody,
} from '@api/contracts/orders';
import type { OrderCommand } from '@domain/orders/order';
import type { Database } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import { orderDetail } from '@projections/orders-detail.queries';
import type { Kysely } from 'kysely';
import { addGift } from './add-gift';
import { commandIdOf } from './board-actions';
import { mapOrderLine } from './map-line';
import { handleOrderCommand } from './order';
import { replaceOrder } from './replacement';
import { splitOrder } from './split';

/**
 * Changes to one order (spec §4): split it (some lines or part of their quantity to a new order), change its
 * shipping address (spec §3 "A custom shipping address can be modified"), map an unmapped line ("item not found") to
 * a master code, remove an out-of-stock line with the two choices of spec §4, make a replacement order of some of
 * its items (spec §4 "replacement"), add a free gift, record a line's bin and serial numbers. Each answers the order
 * as it now stands; `key` is the request's idempotency key.
 */
export type OrderEdit =
  | { edit: 'split'; body: SplitBody }
  | { edit: 'replacement'; body: ReplacementBody }
  | { edit: 'address'; body: AddressBody }
  | { edit: 'map'; lineId: string; body: MapBody }
  | { edit: 'remove'; lineId: string; body: RemoveBody }
  | { edit: 'gift'; body: GiftBody }
  | { edit: 'packing'; lineId: string; body: PackingBody };

export interface OrderEdited {
  order: OrderDetail;
  /** Split: the new order. */
  childOrderId?: string;
  /** Replacement: the replacement order. */
  replacementOrderId?: string;
  /** Map, gift: the master code's code. */
  code?: string;
}

export async function editOrder(
  deps: { db: Kysely<Database>; store: EventStore },
  actor: { tenantId: string; userId: string },
  input: OrderEdit & { orderId: string; key: string | undefined },
): Promise<OrderEdited> {
  const { orderId, key } = input;
  const purpose = 'lineId' in input ? `${input.edit}:${input.lineId}` : input.edit;
  const context = {
    tenantId: actor.tenantId,
    userId: actor.userId,
    commandId: commandIdOf(actor.tenantId, purpose, key, orderId),
    occurredAt: new Date().toISOString(),
  };
  const done: Omit<OrderEdited, 'order'> = {};
  switch (input.edit) {
    case 'split': {
      // A line left at 0 is a line not split: only what is chosen counts.
      const lines = input.body.lines
        .filter((line) => line.quantity > 0)
        .map((line) => ({ lineId: line.line_id, quantity: line.quantity }));
      done.childOrderId = (await splitOrder(deps.store, orderId, lines, context)).childOrderId;
      break;
    }
    case 'replacement': {
      const lines = input.body.lines.map((line) => ({ lineId: line.line_id, quantity: line.quantity }));
      done.replacementOrderId = (await replaceOrder(deps.store, orderId, lines, context)).replacementOrderId;
      break;
    }
    case 'map': {
      const masterCodeId = input.body.master_code_id;
      done.code = (await mapOrderLine(deps, context, { orderId, lineId: input.lineId, masterCodeId })).code;
      break;
    }
    case 'gift': {
      const { master_code_id: masterCodeId, quantity } = input.body;
      done.code = (await addGift(deps, context, { orderId, masterCodeId, quantity })).code;
      break;
    }
    case 'address':
    case 'remove':
    case 'packing':
      await handleOrderCommand(deps.store, orderId, commandOf(input), context);
      break;
    default: {
      const never: never = input;
      throw new Error(`unknown order edit ${JSON.stringify(never)}`);
    }
  }
  return { ...done, order: await orderDetail(deps.db, deps.store, actor.tenantId, orderId) };
}

function commandOf(input: Extract<OrderEdit, { edit: 'address' | 'remove' | 'packing' }>): OrderCommand {
  if (input.edit === 'remove') return { type: 'RemoveLine', lineId: input.lineId, mark: input.body.mark };
  if (input.edit === 'packing') {
    return {
      type: 'RecordLineDetails',
      lineId: input.lineId,
      binNumber: input.body.bin_number || null,
      serialNumbers: input.body.serial_numbers,
    };
  }
  const { idempotency_key, full_address, postal_code, email, district, barangay, ...rest } = input.body;
  return {
    type: 'ChangeAddress',
    address: {
      ...rest,
      fullAddress: full_address,
      postalCode: postal_code,
      ...(district ? { district } : {}),
      ...(barangay ? { barangay } : {}),
      ...(email ? { email } : {}),
    },
  };
}
