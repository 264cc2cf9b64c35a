import {
  type AllStreamResolvedEvent,
  ANY,
  type AppendExpectedRevision,
  BACKWARDS,
  type CurrentRevision,
  END,
  EventStoreDBClient,
  eventTypeFilter,
  excludeSystemEvents,
  type Filter,
  type JSONEventData,
  type JSONType,
  NO_STREAM,
  type ReadPosition,
  type ReadRevision,
  type ResolvedEvent,
  START,
  StreamNotFoundError,
  WrongExpectedVersionError,
} from '@eventstore/db-client';
import { WrongExpectedRevisionError } from './errors';
import {
  type AppendResult,
  comparePositions,
  type EventMetadata,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type Position,
  type ReadAllOptions,
  type RecordedEvent,
  type SubscribeOptions,
  type Subscription,
} from './port';
import type { EventSchemaRegistry } from './registry';

/**
 * The event store on EventStoreDB (KurrentDB), for users who outgrow one Postgres.
 *
 * - Optimistic concurrency and retried appends are the server's own: an append with the same event ids and the
 *   same expected revision as one already written is answered as a success without writing again.
 * - $all holds the server's own events too (statistics, projection links): every read leaves out types that start
 *   with '$', and filters by type on the client as well, so results do not depend on server-side filter semantics.
 * - Subscriptions are catch-up subscriptions to $all, resumed from the last delivered position after a drop.
 */
export interface EventStoreDbEventStoreOptions {
  /** Events asked for per read of $all (readAll keeps reading pages until it has `limit` matching events). */
  pageSize?: number;
  /** First wait before resubscribing after a drop; doubles on each further drop, up to maxResubscribeDelayMs. */
  resubscribeDelayMs?: number;
  maxResubscribeDelayMs?: number;
  /** Told about each dropped subscription before it is resumed (for logs). */
  onSubscriptionDropped?: (error: unknown, retryInMs: number) => void;
}

export class EventStoreDbEventStore implements EventStore {
  readonly kind = 'eventstoredb' as const;
  private readonly subscriptions = new Set<Subscription>();

  constructor(
    private readonly client: EventStoreDBClient,
    private readonly registry: EventSchemaRegistry,
    private readonly options: EventStoreDbEventStoreOptions = {},
  ) {}

  /** Accepts esdb://, esdb+discover:// and the kurrentdb:// / kurrent:// spellings of newer servers and tools. */
  static fromConnectionString(
    url: string,
    registry: EventSchemaRegistry,
    options?: EventStoreDbEventStoreOptions,
  ): EventStoreDbEventStore {
    return new EventStoreDbEventStore(
      EventStoreDBClient.connectionString(toEsdbConnectionString(url)),
      registry,
      options,
    );
  }

  async append(
    stream: string,
    events: readonly NewEvent[],
    opts: { expectedRevision: ExpectedRevision },
  ): Promise<AppendResult> {
    const prepared = this.registry.prepare(events);
    const expected = opts.expectedRevision;
    const proposed = prepared.map(
      (event): JSONEventData => ({
        id: event.id,
        contentType: 'application/json',
        type: event.type,
        // The client JSON-encodes data; its type only names the JSON shapes it expects at the top level.
        data: event.data as JSONType,
        metadata: event.metadata,
      }),
    );
    let result: Awaited<ReturnType<EventStoreDBClient['appendToStream']>>;
    try {
      result = await this.client.appendToStream(stream, proposed, {
        expectedRevision: toClientExpectedRevision(expected),
      });
    } catch (error) {
      if (error instanceof WrongExpectedVersionError) throw toWrongExpectedRevision(stream, expected, error);
      throw error;
    }
    if (!result.success) {
      // Only with throwOnAppendFailure=false in the connection string; the client's batch append then reports
      // the current revision wrongly, so ask the stream itself.
      throw new WrongExpectedRevisionError(stream, expected, await this.currentRevision(stream));
    }
    const nextRevision = result.nextExpectedRevision;
    // An append the server recognises as a retry of one already written can come back without a position:
    // take it from the stored event.
    const position = result.position ?? (await this.positionOf(stream, nextRevision));
    return { nextRevision, position };
  }

  /** EventStoreDB shows an event to readers as soon as its append is acknowledged. */
  async awaitVisible(): Promise<void> {}

  async *readStream(
    stream: string,
    opts: { fromRevision?: bigint; toPosition?: Position } = {},
  ): AsyncGenerator<RecordedEvent> {
    const read = this.client.readStream(stream, { fromRevision: opts.fromRevision ?? START });
    let complete = false;
    try {
      for await (const resolved of read) {
        const event = toRecordedEvent(resolved);
        if (!event) continue;
        // A stream's events are in log order: the first one past toPosition ends the read.
        if (opts.toPosition && comparePositions(event.position, opts.toPosition) > 0) return;
        yield event;
      }
      complete = true;
    } catch (error) {
      if (isStreamNotFound(error)) return;
      throw error;
    } finally {
      // Leaving early (toPosition reached, or the caller stopped iterating) must also end the gRPC call.
      if (!complete) await read.cancel().catch(() => undefined);
    }
  }

  async readLastEvent(stream: string): Promise<RecordedEvent | null> {
    // One event read backwards from the end; more only if the newest records are not events this port wrote.
    for await (const event of this.readBackwards(stream, 1)) return event;
    return null;
  }

  /** The server looks events up by stream and revision only: scan the stream from its end, newest first. */
  async findEvent(stream: string, eventId: string): Promise<RecordedEvent | null> {
    const wanted = eventId.toLowerCase();
    for await (const event of this.readBackwards(stream, 64)) {
      if (event.id.toLowerCase() === wanted) return event;
    }
    return null;
  }

  async readAll(opts: ReadAllOptions): Promise<RecordedEvent[]> {
    const found: RecordedEvent[] = [];
    if (opts.limit <= 0) return found;
    const pageSize = this.pageSize;
    let from = opts.after;
    for (;;) {
      const read = this.client.readAll({ fromPosition: from ?? START, maxCount: pageSize });
      let count = 0;
      let last: Position | undefined;
      try {
        for await (const resolved of read) {
          count++;
          const position = resolved.event?.position;
          if (position) last = position;
          // A read from a position starts with the event at that position: it was read already.
          if (!position || (from && comparePositions(position, from) <= 0)) continue;
          const event = toRecordedEvent(resolved);
          if (!event || !matchesTypes(event.type, opts.types)) continue;
          found.push(event);
          if (found.length === opts.limit) break;
        }
      } finally {
        if (found.length === opts.limit) await read.cancel().catch(() => undefined);
      }
      if (found.length === opts.limit || count < pageSize || !last) return found;
      from = last;
    }
  }

  subscribe(opts: SubscribeOptions, handle: (batch: RecordedEvent[]) => Promise<void>): Subscription {
    const types = opts.types;
    const subscription = runResubscribingSubscription({
      open: (after, signal) => this.liveEvents(after, types, signal),
      after: opts.after,
      batchSize: opts.batchSize ?? 1000,
      handle,
      retryDelayMs: this.options.resubscribeDelayMs ?? 100,
      maxRetryDelayMs: this.options.maxResubscribeDelayMs ?? 5000,
      onDrop: this.options.onSubscriptionDropped,
    });
    this.subscriptions.add(subscription);
    void subscription.done.catch(() => undefined).finally(() => this.subscriptions.delete(subscription));
    return subscription;
  }

  async headPosition(): Promise<Position | null> {
    // The newest records of $all are often the server's own (statistics, projection links): page backwards
    // until an event of ours.
    const pageSize = 100;
    let from: ReadPosition = END;
    for (;;) {
      const read = this.client.readAll({ direction: BACKWARDS, fromPosition: from, maxCount: pageSize });
      let count = 0;
      let oldest: Position | undefined;
      let head: Position | undefined;
      try {
        for await (const resolved of read) {
          count++;
          const event = resolved.event;
          if (!event?.position) continue;
          oldest = event.position;
          if (from !== END && comparePositions(event.position, from) >= 0) continue;
          if (!isSystemEventType(event.type)) {
            head = event.position;
            break;
          }
        }
      } finally {
        if (head) await read.cancel().catch(() => undefined);
      }
      if (head) return head;
      if (count < pageSize || !oldest) return null;
      from = oldest;
    }
  }

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
    await this.client.dispose();
  }

  private get pageSize(): number {
    return Math.max(2, this.options.pageSize ?? 1000);
  }

  /** The live events of $all after a position, ours only; aborting the signal ends the gRPC subscription. */
  private async *liveEvents(
    after: Position | undefined,
    types: readonly string[] | undefined,
    signal: AbortSignal,
  ): AsyncGenerator<RecordedEvent> {
    const subscription = this.client.subscribeToAll({
      fromPosition: after ?? START,
      filter: subscriptionFilter(types),
    });
    let cancelled = false;
    const cancel = () => {
      if (cancelled) return;
      cancelled = true;
      void subscription.unsubscribe().catch(() => undefined);
      // Cancelling the call does not end the client's stream object; destroying it ends our iteration.
      subscription.destroy();
    };
    signal.addEventListener('abort', cancel, { once: true });
    if (signal.aborted) cancel();
    try {
      for await (const resolved of subscription) {
        const event = toRecordedEvent(resolved);
        if (event && matchesTypes(event.type, types)) yield event;
      }
    } catch (error) {
      if (!signal.aborted) throw error;
    } finally {
      signal.removeEventListener('abort', cancel);
      cancel();
    }
  }

  /**
   * The stream's events newest first, in backward reads of `firstPage` events growing to MAX_BACKWARD_PAGE (most
   * callers stop after the first few); nothing for a missing stream. Leaving early ends the gRPC call.
   */
  private async *readBackwards(stream: string, firstPage: number): AsyncGenerator<RecordedEvent> {
    let from: ReadRevision = END;
    let pageSize = firstPage;
    for (;;) {
      const read = this.client.readStream(stream, {
        direction: BACKWARDS,
        fromRevision: from,
        maxCount: pageSize,
      });
      let count = 0;
      let oldest: bigint | undefined;
      let complete = false;
      try {
        for await (const resolved of read) {
          count++;
          if (resolved.event) oldest = resolved.event.revision;
          const event = toRecordedEvent(resolved);
          if (event) yield event;
        }
        complete = true;
      } catch (error) {
        if (isStreamNotFound(error)) return;
        throw error;
      } finally {
        if (!complete) await read.cancel().catch(() => undefined);
      }
      // A short page is the start of the stream (or of what truncation left of it).
      if (count < pageSize || oldest === undefined || oldest === 0n) return;
      from = oldest - 1n;
      pageSize = Math.min(pageSize * 4, MAX_BACKWARD_PAGE);
    }
  }

  /** The stream's last revision, or 'no_stream'. */
  private async currentRevision(stream: string): Promise<bigint | 'no_stream'> {
    try {
      for await (const resolved of this.client.readStream(stream, {
        direction: BACKWARDS,
        fromRevision: END,
        maxCount: 1,
      })) {
        if (resolved.event) return resolved.event.revision;
      }
    } catch (error) {
      if (!isStreamNotFound(error)) throw error;
    }
    return 'no_stream';
  }

  private async positionOf(stream: string, revision: bigint): Promise<Position> {
    for await (const resolved of this.client.readStream(stream, { fromRevision: revision, maxCount: 1 })) {
      const position = resolved.event?.position;
      if (position) return { commit: position.commit, prepare: position.prepare };
    }
    throw new Error(
      `Stream ${stream} has no position for revision ${revision} (EventStoreDB 22.6 or later returns positions on stream reads).`,
    );
  }
}

/** The largest backward read of one stream at once (findEvent's scan). */
const MAX_BACKWARD_PAGE = 4096;

// ---- pure pieces, exported for tests ----

/** Our expected revision in the client's terms. */
export function toClientExpectedRevision(expected: ExpectedRevision): AppendExpectedRevision {
  if (expected === 'no_stream') return NO_STREAM;
  if (expected === 'any') return ANY;
  if (expected < 0n) throw new RangeError(`expected revision ${expected} is negative`);
  return expected;
}

/** The client's current revision in our terms; older servers report a missing stream as -1. */
export function fromClientCurrentRevision(current: CurrentRevision): bigint | 'no_stream' {
  if (current === NO_STREAM || current < 0n) return 'no_stream';
  return current;
}

/** The client's conflict as ours, keeping the revision the caller passed (the client only echoes its own form). */
export function toWrongExpectedRevision(
  stream: string,
  expected: ExpectedRevision,
  error: WrongExpectedVersionError,
): WrongExpectedRevisionError {
  return new WrongExpectedRevisionError(stream, expected, fromClientCurrentRevision(error.actualVersion));
}

export function isSystemEventType(type: string): boolean {
  return type.startsWith('$');
}

export function matchesTypes(type: string, types: readonly string[] | undefined): boolean {
  if (isSystemEventType(type)) return false;
  return types === undefined || types.includes(type);
}

/**
 * The server-side filter of a subscription: exactly the given types (an anchored alternation, since a prefix
 * filter would also let `CountedX` through for `Counted`), or everything but system events.
 */
export function subscriptionFilter(types: readonly string[] | undefined): Filter {
  if (types === undefined) return excludeSystemEvents();
  if (types.length === 0) return eventTypeFilter({ regex: '^(?!)' });
  return eventTypeFilter({ regex: `^(?:${types.map(escapeRegex).join('|')})$` });
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Our RecordedEvent for one the client read, or undefined for what this port never writes: a link whose target
 * is gone, a system event, a binary event, or one without JSON object metadata.
 */
export function toRecordedEvent(resolved: ResolvedEvent | AllStreamResolvedEvent): RecordedEvent | undefined {
  const event = resolved.event;
  if (!event || isSystemEventType(event.type) || !event.isJson) return undefined;
  const metadata: unknown = event.metadata;
  if (typeof metadata !== 'object' || metadata === null || metadata instanceof Uint8Array) return undefined;
  if (!event.position) {
    throw new Error(
      `Event ${event.id} in ${event.streamId} came without a position (EventStoreDB 22.6 or later is required).`,
    );
  }
  return {
    id: event.id,
    stream: event.streamId,
    revision: event.revision,
    type: event.type,
    data: event.data,
    // Validated on the way in (EventSchemaRegistry.prepare); stored events are not re-validated on read.
    metadata: metadata as EventMetadata,
    position: { commit: event.position.commit, prepare: event.position.prepare },
    createdAt: event.created,
  };
}

export function toEsdbConnectionString(url: string): string {
  return url.replace(/^(?:kurrentdb|kurrent)(\+discover)?:\/\//i, (_, discover: string | undefined) =>
    discover ? 'esdb+discover://' : 'esdb://',
  );
}

function isStreamNotFound(error: unknown): boolean {
  return (
    error instanceof StreamNotFoundError ||
    (typeof error === 'object' && error !== null && (error as { type?: unknown }).type === 'stream-not-found')
  );
}

// ---- delivery in batches ----

/** A wake-up for one waiter; the waiter checks its condition and waits in one synchronous step, so none is lost. */
class Wakeup {
  private resolve: (() => void) | undefined;
  wait(): Promise<void> {
    return new Promise((resolve) => {
      this.resolve = resolve;
    });
  }
  notify(): void {
    const resolve = this.resolve;
    this.resolve = undefined;
    resolve?.();
  }
}

export interface BatchDeliveryOptions {
  /** Largest batch handed to the handler at once. */
  batchSize: number;
  /** Ends delivery: no handler call starts after it, and the promise resolves once the running one finishes. */
  signal?: AbortSignal;
  /** How many undelivered items to hold before reading pauses (at least batchSize). */
  maxBuffered?: number;
}

/**
 * Reads `source` ahead while `handle` runs and hands over what arrived since, up to batchSize at a time: in order,
 * one call at a time. Resolves when the source ends and everything is delivered, or when the signal aborts;
 * rejects with the handler's error (reading stops), or with the source's error once what arrived before it is
 * delivered (so a reader resuming from the last delivered item misses nothing).
 */
export async function deliverInBatches<T>(
  source: AsyncIterable<T>,
  handle: (batch: T[]) => Promise<void>,
  options: BatchDeliveryOptions,
): Promise<void> {
  const { batchSize, signal } = options;
  if (!Number.isInteger(batchSize) || batchSize < 1) {
    throw new RangeError(`batchSize must be a positive integer, not ${batchSize}`);
  }
  if (signal?.aborted) return;
  const maxBuffered = Math.max(options.maxBuffered ?? batchSize * 4, batchSize);
  const iterator = source[Symbol.asyncIterator]();
  const buffer: T[] = [];
  const state: { ended: boolean; failure: { error: unknown } | undefined; finished: boolean } = {
    ended: false,
    failure: undefined,
    finished: false,
  };
  const itemsArrived = new Wakeup();
  const roomMade = new Wakeup();

  const readAhead = async () => {
    try {
      while (!state.finished) {
        if (buffer.length >= maxBuffered) {
          await roomMade.wait();
          continue;
        }
        const next = await iterator.next();
        if (next.done) break;
        buffer.push(next.value);
        itemsArrived.notify();
      }
    } catch (error) {
      state.failure = { error };
    } finally {
      state.ended = true;
      itemsArrived.notify();
    }
  };

  const onAbort = () => {
    state.finished = true;
    itemsArrived.notify();
    roomMade.notify();
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  void readAhead();
  try {
    for (;;) {
      if (signal?.aborted) return;
      if (buffer.length === 0) {
        if (state.ended) {
          if (state.failure) throw state.failure.error;
          return;
        }
        await itemsArrived.wait();
        continue;
      }
      // Let what is already on its way arrive, so a burst becomes one batch rather than many of one.
      if (buffer.length < batchSize && !state.ended) await new Promise((resolve) => setImmediate(resolve));
      if (signal?.aborted) return;
      const batch = buffer.splice(0, batchSize);
      roomMade.notify();
      await handle(batch);
    }
  } finally {
    state.finished = true;
    signal?.removeEventListener('abort', onAbort);
    roomMade.notify();
    if (!state.ended) {
      void Promise.resolve()
        .then(() => iterator.return?.())
        .catch(() => undefined);
    }
  }
}

// ---- subscriptions that survive drops ----

export interface ResubscribingOptions {
  /** Opens a live source of events after a position (all of them when undefined); the signal's abort ends it. */
  open: (after: Position | undefined, signal: AbortSignal) => AsyncIterable<RecordedEvent>;
  after: Position | undefined;
  batchSize: number;
  handle: (batch: RecordedEvent[]) => Promise<void>;
  retryDelayMs: number;
  maxRetryDelayMs: number;
  onDrop?: ((error: unknown, retryInMs: number) => void) | undefined;
}

/**
 * Delivers a source in batches and, when it fails or ends, opens it again after the last delivered position
 * (waiting retryDelayMs, doubled per drop without progress) until stop(). Events at or before the position it
 * resumed from are skipped, whether or not the server includes the event at that position.
 */
export function runResubscribingSubscription(options: ResubscribingOptions): Subscription {
  const stopping = new AbortController();
  let last = options.after;

  const loop = async (): Promise<void> => {
    let delay = options.retryDelayMs;
    while (!stopping.signal.aborted) {
      const attempt = new AbortController();
      const endAttempt = () => attempt.abort();
      stopping.signal.addEventListener('abort', endAttempt, { once: true });
      const outcome: { handlerFailure?: { error: unknown }; progressed: boolean; drop: unknown } = {
        progressed: false,
        drop: new Error('the subscription ended'),
      };
      try {
        const from = last;
        await deliverInBatches(
          onlyAfter(options.open(from, attempt.signal), from),
          async (batch) => {
            try {
              await options.handle(batch);
            } catch (error) {
              outcome.handlerFailure = { error };
              throw error;
            }
            last = batch.at(-1)!.position;
            outcome.progressed = true;
          },
          { batchSize: options.batchSize, signal: stopping.signal },
        );
      } catch (error) {
        if (outcome.handlerFailure) throw outcome.handlerFailure.error;
        outcome.drop = error;
      } finally {
        stopping.signal.removeEventListener('abort', endAttempt);
        attempt.abort();
      }
      if (stopping.signal.aborted) return;
      if (outcome.progressed) delay = options.retryDelayMs;
      options.onDrop?.(outcome.drop, delay);
      await sleep(delay, stopping.signal);
      delay = Math.min(delay * 2, options.maxRetryDelayMs);
    }
  };

  const done = loop();
  return {
    done,
    async stop() {
      stopping.abort();
      await done.catch(() => undefined);
    },
  };
}

async function* onlyAfter(
  source: AsyncIterable<RecordedEvent>,
  from: Position | undefined,
): AsyncGenerator<RecordedEvent> {
  for await (const event of source) {
    if (!from || comparePositions(event.position, from) > 0) yield event;
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve();
      return;
    }
    const finish = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', finish);
      resolve();
    };
    const timer = setTimeout(finish, ms);
    signal.addEventListener('abort', finish, { once: true });
  });
}
