import {
  decide,
  emptyStock,
  evolve,
  type StockCommand,
  type StockEvent,
  type StockState,
  stockStreamId,
} from '@domain/inventory/stock';
import { WrongExpectedRevisionError } from '@infra/eventstore/errors';
import type { EventStore, ExpectedRevision, Position } from '@infra/eventstore/port';
import { eventIdFor } from '../support/ids';

/**
 * Runs a stock command: load the stream of the master code in the warehouse, decide, append with the revision it
 * was decided on. A concurrent movement of the same stock makes the append fail; the handler then reloads and
 * decides again, so simultaneous adjustments all count. The command's id is its idempotency key: the event id is
 * derived from it, and a command whose event is already in the stream answers as it did the first time.
 */

export interface CommandContext {
  tenantId: string;
  userId?: string;
  /** The idempotency key: the same id never moves stock twice. */
  commandId: string;
  correlationId?: string;
  causationId?: string;
  occurredAt: string;
}

export interface StockCommandResult {
  event: StockEvent;
  revision: bigint;
  position: Position;
  /** True when this command had already been applied and nothing new was appended. */
  replayed: boolean;
}

const MAX_ATTEMPTS = 50;

export async function handleStockCommand(
  store: EventStore,
  command: StockCommand,
  context: CommandContext,
): Promise<StockCommandResult> {
  const stream = stockStreamId(context.tenantId, command.masterCodeId, command.warehouseId);
  const eventId = eventIdFor(context.commandId);
  for (let attempt = 1; ; attempt++) {
    let state: StockState = emptyStock;
    let revision: ExpectedRevision = 'no_stream';
    for await (const recorded of store.readStream(stream)) {
      const event = { type: recorded.type, data: recorded.data } as StockEvent;
      if (recorded.id === eventId) {
        return { event, revision: recorded.revision, position: recorded.position, replayed: true };
      }
      state = evolve(state, event);
      revision = recorded.revision;
    }
    const event = decide(command, state);
    try {
      const appended = await store.append(
        stream,
        [
          {
            id: eventId,
            type: event.type,
            data: event.data,
            metadata: {
              tenantId: context.tenantId,
              userId: context.userId,
              commandId: context.commandId,
              correlationId: context.correlationId ?? context.commandId,
              causationId: context.causationId,
              occurredAt: context.occurredAt,
            },
          },
        ],
        { expectedRevision: revision },
      );
      return { event, revision: appended.nextRevision, position: appended.position, replayed: false };
    } catch (error) {
      if (error instanceof WrongExpectedRevisionError && attempt < MAX_ATTEMPTS) continue;
      throw error;
    }
  }
}
