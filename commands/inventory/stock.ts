import {
  decide,
  evolve,
  initialState,
  type StockCommand,
  type StockEvent,
  type StockState,
  stockStreamId,
} from '@domain/inventory/stock';
import { WrongExpectedRevisionError } from '@infra/eventstore/errors';
import type { EventStore, ExpectedRevision, Position, RecordedEvent } from '@infra/eventstore/port';
import { eventIdFor } from '../support/ids';

/**
 * Runs a stock command: read the last event of the stream of the master code in the warehouse, decide, append with
 * the revision it was decided on. Every stock event carries the figures after it, so the last event alone is the
 * state: a command costs the same on a stock with a hundred thousand movements as on a new one. A concurrent movement
 * of the same stock makes the append fail; the handler then reads again and decides again, so simultaneous
 * adjustments all count. The command's id is its idempotency key: the event id is derived from it, and a command
 * whose event is already in the stream answers as it did the first time.
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
  const replayed = (applied: RecordedEvent): StockCommandResult => ({
    event: asStockEvent(applied),
    revision: applied.revision,
    position: applied.position,
    replayed: true,
  });
  for (let attempt = 1; ; attempt++) {
    // Looked up on every attempt: a concurrent retry of this very command may be what made the last append fail.
    const applied = await store.findEvent(stream, eventId);
    if (applied) return replayed(applied);
    const last = await store.readLastEvent(stream);
    const state: StockState = last ? evolve(initialState, asStockEvent(last)) : initialState;
    const revision: ExpectedRevision = last ? last.revision : 'no_stream';
    // A stock command records one event; its id is the command's, so that a replay finds it.
    let event: StockEvent;
    try {
      [event] = decide(command, state) as [StockEvent];
    } catch (error) {
      // The same command run at once by two runners (a reactor's live runner and a catch-up): the other one's event
      // may have landed between the look-up above and the read, and this one is then refused on the figures it left
      // (nothing more to release). That is a replay, not a refusal.
      const landed = await store.findEvent(stream, eventId);
      if (landed) return replayed(landed);
      throw error;
    }
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

const asStockEvent = (recorded: RecordedEvent): StockEvent =>
  ({ type: recorded.type, data: recorded.data }) as StockEvent;
