import {
  type StockCommand,
  type StockErrorCode,
  sameMovement,
  stockErrors,
  stockRequestErrors,
} from '@domain/inventory/stock';
import { DomainError, refusalOf, refuser } from '@domain/shared/errors';
import { DuplicateEventIdError } from '@infra/eventstore/errors';
import type { EventStore } from '@infra/eventstore/port';
import type { Actor } from '../support/actor';
import { handleStockCommand, type StockCommandResult } from './stock';

/**
 * A stock movement a person asks for (a route, an upload row, a master code's initial quantity): the command runs
 * once per command id, and a command id already used answers as it did the first time, provided it names the same
 * movement; a key used for another movement (replayed with other figures, or standing in another stock's stream)
 * is refused.
 */

export interface MoveStockDeps {
  store: EventStore;
  /** The movement's time (the caller's clock; tests pass a fixed one). */
  now?: () => Date;
}

export interface MoveStockInput {
  command: StockCommand;
  /** The idempotency key, scoped by tenant: the same id never moves stock twice. */
  commandId: string;
}

const refuseRequest = refuser(stockRequestErrors);

export async function moveStock(
  deps: MoveStockDeps,
  actor: Actor,
  input: MoveStockInput,
): Promise<StockCommandResult> {
  let result: StockCommandResult;
  try {
    result = await handleStockCommand(deps.store, input.command, {
      tenantId: actor.tenantId,
      userId: actor.userId,
      commandId: input.commandId,
      occurredAt: (deps.now?.() ?? new Date()).toISOString(),
    });
  } catch (error) {
    // The key's event already stands in another stock's stream: the key was used for another movement.
    if (error instanceof DuplicateEventIdError) throw refuseRequest('KEY_REUSED');
    throw withStockAfter(error);
  }
  if (result.replayed && !sameMovement(input.command, result.event)) throw refuseRequest('KEY_REUSED');
  return result;
}

/** A refusal for negative stock names the stock it would leave, which the message shows. */
function withStockAfter(error: unknown): unknown {
  const refused = refusalOf<StockErrorCode>(error, 'NEGATIVE_STOCK');
  const { onHand, change } = refused?.params ?? {};
  if (!refused || typeof onHand !== 'number' || typeof change !== 'number') return error;
  return new DomainError(
    refused.code,
    { ...refused.params, after: onHand + change },
    stockErrors.NEGATIVE_STOCK,
  );
}
