import { z } from 'zod';

/**
 * The event store port of ARCHITECTURE.md. Two adapters implement it (Postgres, the default, and EventStoreDB)
 * and one contract suite (tests/infra/eventstore.contract.ts) holds them to the same behaviour.
 */

/**
 * A place in the global log. Both engines order events by (commit, prepare): for EventStoreDB these are its
 * commit and prepare positions; for Postgres `commit` is the writing transaction's id and `prepare` the event's
 * global sequence number, so an event committed late by a transaction that started early is still read in order.
 */
export interface Position {
  readonly commit: bigint;
  readonly prepare: bigint;
}

export type ExpectedRevision = bigint | 'no_stream' | 'any';

/** Who, when and why, carried by every event (time and ids come from the command, never from the domain). */
export const EventMetadata = z
  .object({
    tenantId: z.string().min(1),
    userId: z.string().min(1).optional(),
    commandId: z.string().min(1).optional(),
    correlationId: z.string().min(1).optional(),
    causationId: z.string().min(1).optional(),
    occurredAt: z.iso.datetime({ offset: true }),
  })
  .strict();
export type EventMetadata = z.infer<typeof EventMetadata>;

export interface NewEvent<Type extends string = string, Data = unknown> {
  /** A UUID; a retried append with the same id stores the event once. Generated when absent. */
  id?: string;
  type: Type;
  data: Data;
  metadata: EventMetadata;
}

export interface RecordedEvent<Type extends string = string, Data = unknown> {
  id: string;
  stream: string;
  revision: bigint;
  type: Type;
  data: Data;
  metadata: EventMetadata;
  position: Position;
  createdAt: Date;
}

export interface AppendResult {
  /** The revision of the last event now in the stream: pass it as `expectedRevision` for the next append. */
  nextRevision: bigint;
  /** The position of the last event appended. */
  position: Position;
}

export interface ReadAllOptions {
  /** Read events strictly after this position; from the start when absent. */
  after?: Position;
  limit: number;
  /** Only events of these types. */
  types?: readonly string[];
}

export interface SubscribeOptions {
  after?: Position;
  types?: readonly string[];
  /** Largest batch handed to the handler at once. */
  batchSize?: number;
  /**
   * Called between batches when the subscription has looked at every event up to `position`, of any type, and
   * handed over each one of its types: a subscriber to a few types may keep it as its checkpoint, so that neither
   * it nor a restart reads the events of other types again. The Postgres adapter calls it when a read finds no
   * more of its types; EventStoreDB, whose subscriptions are pushed rather than polled, does not.
   */
  onCaughtUp?: (position: Position) => Promise<void>;
}

export interface Subscription {
  /** Stops reading; resolves once the handler is no longer running. */
  stop(): Promise<void>;
  /** Settles when the subscription ends: resolves after stop(), rejects when the handler or the store fails. */
  readonly done: Promise<void>;
}

export interface EventStore {
  readonly kind: 'postgres' | 'eventstoredb';
  append(
    stream: string,
    events: readonly NewEvent[],
    opts: { expectedRevision: ExpectedRevision },
  ): Promise<AppendResult>;
  readStream(
    stream: string,
    opts?: { fromRevision?: bigint; toPosition?: Position },
  ): AsyncIterable<RecordedEvent>;
  /**
   * The newest event of the stream, or null when the stream has none: the one read a command needs when every
   * event carries the state after it.
   */
  readLastEvent(stream: string): Promise<RecordedEvent | null>;
  /**
   * The event with this id when it is in this stream, or null (also when the id is stored in another stream):
   * how a retried command finds what it appended the first time.
   */
  findEvent(stream: string, eventId: string): Promise<RecordedEvent | null>;
  readAll(opts: ReadAllOptions): Promise<RecordedEvent[]>;
  /** Delivers batches in log order, one at a time (the next read waits for the handler). */
  subscribe(opts: SubscribeOptions, handle: (batch: RecordedEvent[]) => Promise<void>): Subscription;
  /** The position of the newest event, or null for an empty log: how far behind a reader is. */
  headPosition(): Promise<Position | null>;
  /**
   * Resolves once every event committed before the call can be read by `readAll` (a catch-up that must not stop
   * short of what is already written waits for this first). Postgres holds back events committed while an older
   * transaction still runs; EventStoreDB shows committed events at once.
   */
  awaitVisible(): Promise<void>;
  close(): Promise<void>;
}

// ---- positions ----

export function comparePositions(a: Position, b: Position): number {
  if (a.commit !== b.commit) return a.commit < b.commit ? -1 : 1;
  if (a.prepare !== b.prepare) return a.prepare < b.prepare ? -1 : 1;
  return 0;
}

export function formatPosition(position: Position): string {
  return `${position.commit}/${position.prepare}`;
}

// ---- stream ids: <category>-<tenantId>.<entityKey> ----

export function streamId(category: string, tenantId: string, entityKey: string): string {
  if (!/^[a-z][a-zA-Z0-9_]*$/.test(category))
    throw new Error(`stream category "${category}" must be camelCase`);
  if (!tenantId || tenantId.includes('.'))
    throw new Error(`tenant id "${tenantId}" must be non-empty, without dots`);
  return `${category}-${tenantId}.${entityKey}`;
}

export function parseStreamId(
  stream: string,
): { category: string; tenantId: string; entityKey: string } | null {
  const match = /^([^-]+)-([^.]+)\.(.+)$/.exec(stream);
  return match ? { category: match[1]!, tenantId: match[2]!, entityKey: match[3]! } : null;
}
