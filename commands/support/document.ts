import { WrongExpectedRevisionError } from '@infra/eventstore/errors';
import type { EventStore, ExpectedRevision, Position, RecordedEvent } from '@infra/eventstore/port';
import { eventIdFor } from './ids';

/**
 * Runs a command against an event-sourced document (a transfer, a purchase order, a goods note…): load its stream,
 * fold the state, decide, append what was decided with the revision it was decided on. A concurrent change makes
 * the append fail; the handler then reloads and decides again. The command's id is its idempotency key: the ids of
 * the events it appends derive from it (`eventIdFor(commandId, n)`), and a command whose first event already stands
 * in the stream answers with what it recorded then, appending nothing — so a retried workflow activity, a double
 * click or a resent request changes the document once.
 *
 * Documents are short (tens of events), so reading the whole stream is the simple, right load.
 */

export interface DocumentDecider<Command, Event extends { type: string; data: unknown }, State> {
  initial: State;
  evolve(state: State, event: Event): State;
  /** The events the command records (none: nothing to change), or a DomainError. */
  decide(command: Command, state: State): Event[];
}

export interface DocumentContext {
  tenantId: string;
  userId?: string;
  /** The idempotency key: the same id never records twice. */
  commandId: string;
  correlationId?: string;
  causationId?: string;
  occurredAt: string;
  /**
   * The revision a person's change was made against (a detail's `revision`): a stream that has moved past it
   * refuses the change with WrongExpectedRevisionError instead of deciding again, so no concurrent change is lost.
   */
  expectedRevision?: number;
}

export interface DocumentResult<Event, State> {
  /** What this command recorded (on a replay: what it recorded the first time). */
  events: Event[];
  /** The document after the command. */
  state: State;
  /** The stream's revision after the command; null when the stream is still empty. */
  revision: bigint | null;
  position: Position | null;
  /** True when this command had already been applied and nothing new was appended. */
  replayed: boolean;
}

const MAX_ATTEMPTS = 50;

export async function handleDocumentCommand<Command, Event extends { type: string; data: unknown }, State>(
  store: EventStore,
  stream: string,
  decider: DocumentDecider<Command, Event, State>,
  command: Command,
  context: DocumentContext,
): Promise<DocumentResult<Event, State>> {
  const firstId = eventIdFor(context.commandId, 0);
  for (let attempt = 1; ; attempt++) {
    let state = decider.initial;
    let revision: ExpectedRevision = 'no_stream';
    let position: Position | null = null;
    let mine: RecordedEvent[] | undefined;
    for await (const recorded of store.readStream(stream)) {
      const event = { type: recorded.type, data: recorded.data } as Event;
      state = decider.evolve(state, event);
      revision = recorded.revision;
      position = recorded.position;
      if (recorded.id === firstId) mine = [];
      if (mine && recorded.metadata.commandId === context.commandId) mine.push(recorded);
    }
    if (mine) {
      return {
        events: mine.map((recorded) => ({ type: recorded.type, data: recorded.data }) as Event),
        state,
        revision: revision === 'no_stream' ? null : revision,
        position,
        replayed: true,
      };
    }
    const expected = context.expectedRevision;
    const current = revision === 'no_stream' ? -1n : revision;
    if (expected !== undefined && current !== BigInt(expected)) {
      throw new WrongExpectedRevisionError(stream, BigInt(expected), revision);
    }
    const events = decider.decide(command, state);
    if (events.length === 0) {
      return {
        events,
        state,
        revision: revision === 'no_stream' ? null : revision,
        position,
        replayed: false,
      };
    }
    try {
      const appended = await store.append(
        stream,
        events.map((event, index) => ({
          id: eventIdFor(context.commandId, index),
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
        })),
        { expectedRevision: revision },
      );
      return {
        events,
        state: events.reduce(decider.evolve, state),
        revision: appended.nextRevision,
        position: appended.position,
        replayed: false,
      };
    } catch (error) {
      if (error instanceof WrongExpectedRevisionError && expected === undefined && attempt < MAX_ATTEMPTS)
        continue;
      throw error;
    }
  }
}

/** A document's history for its timeline: who did what, when, oldest first. */
export interface TimelineEntry {
  type: string;
  at: string;
  userId: string | null;
  data: unknown;
}

export async function documentTimeline(store: EventStore, stream: string): Promise<TimelineEntry[]> {
  const entries: TimelineEntry[] = [];
  for await (const recorded of store.readStream(stream)) {
    entries.push({
      type: recorded.type,
      at: recorded.metadata.occurredAt,
      userId: recorded.metadata.userId ?? null,
      data: recorded.data,
    });
  }
  return entries;
}

/** A document as its events leave it, with its history, oldest first. */
export interface LoadedDocument<State> {
  state: State;
  timeline: TimelineEntry[];
  /** The stream's last revision, as a number (-1: no event yet). */
  revision: number;
}

export async function loadDocument<Event extends { type: string; data: unknown }, State>(
  store: EventStore,
  stream: string,
  decider: Pick<DocumentDecider<unknown, Event, State>, 'initial' | 'evolve'>,
): Promise<LoadedDocument<State>> {
  const timeline = await documentTimeline(store, stream);
  const state = timeline.reduce(
    (current, entry) => decider.evolve(current, { type: entry.type, data: entry.data } as Event),
    decider.initial,
  );
  return { state, timeline, revision: timeline.length - 1 };
}

/**
 * The command handler and the loader of one kind of document, its streams named by `streamId(tenant, document)`:
 * `handle(store, documentId, command, context)` and `load(store, tenantId, documentId)`.
 */
export function documentCommands<Command, Event extends { type: string; data: unknown }, State>(
  streamId: (tenantId: string, documentId: string) => string,
  decider: DocumentDecider<Command, Event, State>,
) {
  return {
    handle: (
      store: EventStore,
      documentId: string,
      command: Command,
      context: DocumentContext,
    ): Promise<DocumentResult<Event, State>> =>
      handleDocumentCommand(store, streamId(context.tenantId, documentId), decider, command, context),
    load: (store: EventStore, tenantId: string, documentId: string): Promise<LoadedDocument<State>> =>
      loadDocument(store, streamId(tenantId, documentId), decider),
  };
}

/** The store as a command handler needs it; an app wired with a partial store is a bug, not a refusal. */
export function wholeStore(store: Pick<EventStore, 'kind'>, routes: string): EventStore {
  const whole = store as Partial<EventStore>;
  if (typeof whole.append !== 'function' || typeof whole.readStream !== 'function') {
    throw new Error(`the ${routes} routes were given an event store that cannot append`);
  }
  return store as EventStore;
}
