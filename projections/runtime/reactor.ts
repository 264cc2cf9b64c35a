import type { Database } from '@infra/db';
import type { EventStore, Position, RecordedEvent } from '@infra/eventstore/port';
import { type Kysely, sql } from 'kysely';
import { advanceCheckpoint } from './checkpoint';
import type { EngineLogger } from './engine';
import { followLive } from './live-runner';

/**
 * Reactors: subscribers that answer events with commands (the order events with stock commands, say). A projection
 * writes its rows in the transaction that moves its checkpoint; a reactor cannot, since its commands go to the event
 * store, and holding a transaction open around them would also hold back every reader of the log (the Postgres store
 * reads only below the oldest running writer). So a reactor runs its commands first and moves its checkpoint after,
 * compare-and-set: a crash in between makes it run them again. Every command a reactor issues is therefore
 * idempotent, its id derived from the event's id (and the line, the step…): at-least-once delivery with idempotent
 * commands is an exactly-once effect. Replaying a reactor from the start changes nothing.
 *
 * Events of one stream (or of one partition the reactor names) are handled in log order, one after another;
 * different streams of a batch run side by side (`concurrency` at a time). The checkpoint lives beside the projections' (`projection_checkpoints`, named
 * `reactor.<name>`).
 */

export interface Reactor {
  readonly name: string;
  readonly eventTypes: readonly string[];
  /** Answers one event; must be idempotent (a retry or a replay issues the same commands with the same ids). */
  react(event: RecordedEvent): Promise<void>;
  /**
   * Events of one partition are answered in log order, one after another (default: the event's stream). A reactor
   * whose answers to different streams contend (orders reserving the same stock) widens it, so the earlier event
   * is served first.
   */
  partitionOf?(event: RecordedEvent): string;
  /**
   * Answers a whole batch at once, in place of `react` per event: for a reactor whose answer to many events is
   * cheaper together than apart (one figure per SKU and one signal per store, however many events moved it). Same
   * contract: idempotent, and a batch is the log's events in order.
   */
  reactBatch?(events: readonly RecordedEvent[]): Promise<void>;
}

export const defineReactor = <R extends Reactor>(reactor: R): R => reactor;

export interface ReactorRunnerDeps {
  db: Kysely<Database>;
  store: EventStore;
  reactors: readonly Reactor[];
  logger?: EngineLogger;
  /** How long a failed runner waits before it reads from its checkpoint again. */
  retryMs?: number;
  /** Streams of one batch handled at once. */
  concurrency?: number;
  batchSize?: number;
}

const silent: EngineLogger = { error: () => undefined, info: () => undefined };

export const checkpointName = (reactor: string) => `reactor.${reactor}`;

export class ReactorRunner {
  private readonly byName: Map<string, Reactor>;
  private readonly live = new Map<string, { stop(): Promise<void> }>();
  private readonly logger: EngineLogger;

  constructor(private readonly deps: ReactorRunnerDeps) {
    this.byName = new Map(deps.reactors.map((r) => [r.name, r]));
    this.logger = deps.logger ?? silent;
  }

  reactor(name: string): Reactor {
    const reactor = this.byName.get(name);
    if (!reactor) throw new Error(`There is no reactor named "${name}".`);
    return reactor;
  }

  /** Where the reactor stands: the position of the last event it has answered (null: none yet). */
  async checkpoint(name: string): Promise<Position | null> {
    const row = await this.deps.db
      .selectFrom('projection_checkpoints')
      .select(['position_commit', 'position_prepare'])
      .where('name', '=', checkpointName(name))
      .executeTakeFirst();
    return row?.position_commit != null && row.position_prepare != null
      ? { commit: BigInt(row.position_commit), prepare: BigInt(row.position_prepare) }
      : null;
  }

  /** Moves the checkpoint from `from` to `to`; false when someone else moved it meanwhile (nothing changes). */
  private advance(name: string, from: Position | null, to: Position, events: number): Promise<boolean> {
    return advanceCheckpoint(this.deps.db, checkpointName(name), from, to, events);
  }

  /** Answers a batch: each partition's events in order (a stream's, by default), partitions side by side. */
  private async handle(reactor: Reactor, events: readonly RecordedEvent[]): Promise<void> {
    if (reactor.reactBatch) return reactor.reactBatch(events);
    const byPartition = new Map<string, RecordedEvent[]>();
    for (const event of events) {
      const key = reactor.partitionOf?.(event) ?? event.stream;
      const list = byPartition.get(key) ?? [];
      list.push(event);
      byPartition.set(key, list);
    }
    const queues = [...byPartition.values()];
    const workers = Math.max(1, Math.min(this.deps.concurrency ?? 4, queues.length));
    let next = 0;
    await Promise.all(
      Array.from({ length: workers }, async () => {
        while (next < queues.length) {
          const queue = queues[next++]!;
          for (const event of queue) await reactor.react(event);
        }
      }),
    );
  }

  /** Answers everything visible after the checkpoint now; returns how many events it answered. */
  async catchUp(name: string): Promise<number> {
    const reactor = this.reactor(name);
    let handled = 0;
    // Not short of what is already written: events committed behind an older open transaction come into view.
    await this.deps.store.awaitVisible();
    for (;;) {
      const from = await this.checkpoint(name);
      const events = await this.deps.store.readAll({
        after: from ?? undefined,
        limit: this.deps.batchSize ?? 500,
        types: reactor.eventTypes,
      });
      if (events.length === 0) return handled;
      await this.handle(reactor, events);
      if (await this.advance(name, from, events.at(-1)!.position, events.length)) handled += events.length;
    }
  }

  /** Answers the whole log again from the start (its commands are idempotent: nothing moves twice). */
  async replay(name: string): Promise<number> {
    this.reactor(name);
    await this.deps.db
      .updateTable('projection_checkpoints')
      .set({ position_commit: null, position_prepare: null, events_applied: 0, updated_at: sql`now()` })
      .where('name', '=', checkpointName(name))
      .execute();
    return this.catchUp(name);
  }

  /** Follows the log live, each reactor from its checkpoint, until stop(). */
  start(): void {
    for (const reactor of this.deps.reactors) {
      if (!this.live.has(reactor.name)) this.live.set(reactor.name, this.runLive(reactor));
    }
  }

  async stop(): Promise<void> {
    const runners = [...this.live.values()];
    this.live.clear();
    await Promise.all(runners.map((runner) => runner.stop()));
  }

  private runLive(reactor: Reactor): { stop(): Promise<void> } {
    return followLive({
      store: this.deps.store,
      types: reactor.eventTypes,
      batchSize: this.deps.batchSize ?? 500,
      retryMs: this.deps.retryMs ?? 1000,
      resume: () => this.checkpoint(reactor.name),
      handle: async (from, batch) => {
        await this.handle(reactor, batch);
        // False: another runner (a catch-up, a replay, another process) moved the checkpoint; start again from it.
        return this.advance(reactor.name, from, batch.at(-1)!.position, batch.length);
      },
      advance: (from, to) => this.advance(reactor.name, from, to, 0),
      onError: (error) =>
        this.logger.error({ reactor: reactor.name, err: error }, 'reactor failed; retrying'),
    });
  }
}
