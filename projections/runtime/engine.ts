import type { Database } from '@infra/db';
import { comparePositions, type EventStore, type Position, type RecordedEvent } from '@infra/eventstore/port';
import { type Kysely, sql, type Transaction } from 'kysely';
import { advanceCheckpoint, moveCheckpointFrom } from './checkpoint';
import type { LiveHub } from './live-hub';
import { followLive } from './live-runner';
import { mergeChanges, type Projection } from './projection';

/**
 * Runs projections: live (a subscription per projection, from its checkpoint) and rebuilds (empty the tables,
 * reset the checkpoint, replay). Every batch is applied in one transaction that also moves the checkpoint, and only
 * if the checkpoint is still where the batch was read from; so any number of runners, in any number of processes,
 * can work on one projection without applying an event twice or skipping one.
 */

export interface CheckpointState {
  name: string;
  position: Position | null;
  status: 'live' | 'rebuilding';
  rebuildId: string | null;
  eventsApplied: bigint;
  updatedAt: Date;
}

export interface ProjectionStatus extends CheckpointState {
  /** Events (Postgres) or log bytes (EventStoreDB) between the checkpoint and the head of the log. */
  lag: bigint;
}

export interface RebuildProgress {
  name: string;
  position: Position | null;
  head: Position | null;
  eventsApplied: bigint;
}

export interface RebuildOptions {
  /** Names this rebuild: a rebuild already in progress under the same id is resumed, not restarted. */
  rebuildId: string;
  batchSize?: number;
  onProgress?: (progress: RebuildProgress) => void | Promise<void>;
  /** Checked between batches; when it aborts, the rebuild stops and stays resumable. */
  signal?: AbortSignal;
}

export interface EngineLogger {
  error(details: object, message: string): void;
  info(details: object, message: string): void;
}

const silent: EngineLogger = { error: () => undefined, info: () => undefined };

export class ProjectionEngine {
  private readonly byName: Map<string, Projection>;
  private readonly live = new Map<string, { stop(): Promise<void> }>();
  private readonly logger: EngineLogger;

  constructor(
    private readonly deps: {
      db: Kysely<Database>;
      store: EventStore;
      projections: readonly Projection[];
      hub?: LiveHub;
      logger?: EngineLogger;
      /** How long a waiting live runner sleeps before looking again (rebuild in progress, after a failure). */
      retryMs?: number;
    },
  ) {
    this.byName = new Map(deps.projections.map((p) => [p.name, p]));
    this.logger = deps.logger ?? silent;
  }

  get projections(): readonly Projection[] {
    return this.deps.projections;
  }

  projection(name: string): Projection {
    const projection = this.byName.get(name);
    if (!projection) {
      throw new Error(
        `There is no projection named "${name}"; known: ${[...this.byName.keys()].join(', ')}.`,
      );
    }
    return projection;
  }

  // ---- checkpoints ----

  /** Where the projection stands; a projection that never ran is live at the start of the log. */
  async checkpoint(name: string): Promise<CheckpointState> {
    const row = await this.deps.db
      .selectFrom('projection_checkpoints')
      .selectAll()
      .where('name', '=', name)
      .executeTakeFirst();
    return row
      ? toState(row)
      : { name, position: null, status: 'live', rebuildId: null, eventsApplied: 0n, updatedAt: new Date(0) };
  }

  /** The checkpoint row, created if missing and locked until the transaction ends: one writer at a time. */
  private async lockCheckpoint(trx: Transaction<Database>, name: string): Promise<CheckpointState> {
    await trx
      .insertInto('projection_checkpoints')
      .values({ name })
      .onConflict((oc) => oc.doNothing())
      .execute();
    const row = await trx
      .selectFrom('projection_checkpoints')
      .selectAll()
      .where('name', '=', name)
      .forUpdate()
      .executeTakeFirstOrThrow();
    return toState(row);
  }

  async status(): Promise<ProjectionStatus[]> {
    const head = await this.deps.store.headPosition();
    return Promise.all(
      this.deps.projections.map(async (p) => {
        const state = await this.checkpoint(p.name);
        // A projection that reads a few event types is caught up when none of its types waits, however far the
        // head of the log (other types) has moved.
        const waiting = await this.deps.store.readAll({
          after: state.position ?? undefined,
          limit: 1,
          types: p.eventTypes,
        });
        const lag =
          waiting.length > 0 && head && (!state.position || comparePositions(head, state.position) > 0)
            ? head.prepare - (state.position?.prepare ?? 0n)
            : 0n;
        return { ...state, lag };
      }),
    );
  }

  // ---- one batch ----

  /**
   * Applies events read after `from` in one transaction with the checkpoint. Returns false, applying nothing,
   * when the checkpoint is no longer at `from` (another runner moved it, or a rebuild reset it).
   *
   * The batch begins by moving the checkpoint, compare-and-set from `from`: that one statement locks the row until
   * the transaction ends (a second runner waits, then finds the checkpoint moved and backs off) and lets its commit
   * return without waiting for the disk. A read model
   * is derived from the log: should the server crash before the commit reaches the disk, the batch's rows and its
   * checkpoint are lost together and the batch is applied again, so nothing is applied twice or lost (the events
   * themselves are appended with the server's durable default). A batch is a handful of round trips, and on a busy
   * machine each one is a wait for the processor: one statement instead of four, and no flush, is most of a
   * command's way to the screen.
   */
  async applyBatch(
    projection: Projection,
    from: Position | null,
    events: readonly RecordedEvent[],
    opts: { rebuildId?: string } = {},
  ): Promise<boolean> {
    if (events.length === 0) return true;
    const to = events.at(-1)!.position;
    const changes = await this.deps.db.transaction().execute(async (trx) => {
      let moved = await this.moveCheckpoint(trx, projection.name, from, to, events.length, opts.rebuildId);
      if (!moved && from === null && opts.rebuildId === undefined) {
        // The first batch ever: the row is not there yet.
        await trx
          .insertInto('projection_checkpoints')
          .values({ name: projection.name })
          .onConflict((oc) => oc.doNothing())
          .execute();
        moved = await this.moveCheckpoint(trx, projection.name, from, to, events.length, opts.rebuildId);
      }
      if (!moved) return undefined;
      return projection.apply(trx, events);
    });
    if (!changes) return false;
    this.deps.hub?.publish(mergeChanges(changes));
    return true;
  }

  /**
   * Moves the checkpoint from `from` to `to` if it is still at `from` (and live, or in this rebuild), locking it;
   * sets the batch's commit not to wait for the disk (see applyBatch). False when it was not there.
   */
  private async moveCheckpoint(
    trx: Transaction<Database>,
    name: string,
    from: Position | null,
    to: Position,
    events: number,
    rebuildId: string | undefined,
  ): Promise<boolean> {
    const moved = await moveCheckpointFrom(trx, name, from, to, events)
      .where((eb) =>
        rebuildId === undefined
          ? eb('status', '=', 'live')
          : eb.and([eb('status', '=', 'rebuilding'), eb('rebuild_id', '=', rebuildId)]),
      )
      // The engine connects as the system role, whose own policy lets it write every tenant's rows.
      .returning([sql<string>`set_config('synchronous_commit', 'off', true)`.as('commit_setting')])
      .executeTakeFirst();
    return moved !== undefined;
  }

  // ---- live ----

  /** Starts a live runner per projection; each follows the log from its checkpoint until stop(). */
  start(): void {
    for (const projection of this.deps.projections) {
      if (!this.live.has(projection.name)) this.live.set(projection.name, this.runLive(projection));
    }
  }

  async stop(): Promise<void> {
    const runners = [...this.live.values()];
    this.live.clear();
    await Promise.all(runners.map((r) => r.stop()));
  }

  private runLive(projection: Projection): { stop(): Promise<void> } {
    return followLive({
      store: this.deps.store,
      types: projection.eventTypes,
      retryMs: this.deps.retryMs ?? 1000,
      resume: async () => {
        const state = await this.checkpoint(projection.name);
        // The rebuilder owns the projection until it marks it live again.
        return state.status === 'rebuilding' ? 'wait' : state.position;
      },
      handle: (from, batch) => this.applyBatch(projection, from, batch),
      advance: (from, to) => advanceCheckpoint(this.deps.db, projection.name, from, to, 0),
      onError: (error) =>
        this.logger.error({ projection: projection.name, err: error }, 'projection failed; retrying'),
    });
  }

  /**
   * Applies everything visible now, from the checkpoint, and returns how many events it applied. A projection
   * being rebuilt is left to its rebuilder.
   */
  async catchUp(name: string, batchSize = 1000): Promise<number> {
    const projection = this.projection(name);
    let applied = 0;
    // Not short of what is already written: events committed behind an older open transaction come into view.
    await this.deps.store.awaitVisible();
    for (;;) {
      const state = await this.checkpoint(name);
      if (state.status === 'rebuilding') return applied;
      const events = await this.deps.store.readAll({
        after: state.position ?? undefined,
        limit: batchSize,
        types: projection.eventTypes,
      });
      if (events.length === 0) return applied;
      if (await this.applyBatch(projection, state.position, events)) applied += events.length;
    }
  }

  // ---- rebuild ----

  /**
   * Empties the projection's tables and replays the log into them. A rebuild interrupted by a crash is resumed by
   * calling again with the same rebuildId: its checkpoint moved with every committed batch.
   */
  async rebuild(name: string, options: RebuildOptions): Promise<RebuildProgress> {
    const projection = this.projection(name);
    const batchSize = options.batchSize ?? 5000;
    const resumed = await this.deps.db.transaction().execute(async (trx) => {
      const state = await this.lockCheckpoint(trx, name);
      if (state.status === 'rebuilding' && state.rebuildId === options.rebuildId) return true;
      for (const table of projection.tables) await sql`TRUNCATE TABLE ${sql.table(table)}`.execute(trx);
      await trx
        .updateTable('projection_checkpoints')
        .set({
          position_commit: null,
          position_prepare: null,
          status: 'rebuilding',
          rebuild_id: options.rebuildId,
          events_applied: 0,
          updated_at: sql`now()`,
        })
        .where('name', '=', name)
        .execute();
      return false;
    });
    this.logger.info({ projection: name, rebuildId: options.rebuildId, resumed }, 'rebuild started');

    const head = await this.deps.store.headPosition();
    let state = await this.checkpoint(name);
    for (;;) {
      if (state.rebuildId !== options.rebuildId) {
        throw new Error(`The rebuild of ${name} was taken over by rebuild ${state.rebuildId ?? '(none)'}.`);
      }
      await options.onProgress?.({
        name,
        position: state.position,
        head,
        eventsApplied: state.eventsApplied,
      });
      options.signal?.throwIfAborted();
      const events = await this.deps.store.readAll({
        after: state.position ?? undefined,
        limit: batchSize,
        types: projection.eventTypes,
      });
      if (events.length === 0) break;
      await this.applyBatch(projection, state.position, events, { rebuildId: options.rebuildId });
      state = await this.checkpoint(name);
    }

    await this.deps.db
      .updateTable('projection_checkpoints')
      .set({ status: 'live', rebuild_id: null, updated_at: sql`now()` })
      .where('name', '=', name)
      .where('rebuild_id', '=', options.rebuildId)
      .execute();
    const done = await this.checkpoint(name);
    this.logger.info({ projection: name, eventsApplied: String(done.eventsApplied) }, 'rebuild finished');
    return { name, position: done.position, head, eventsApplied: done.eventsApplied };
  }
}

function toState(row: {
  name: string;
  position_commit: string | null;
  position_prepare: string | null;
  status: 'live' | 'rebuilding';
  rebuild_id: string | null;
  events_applied: string;
  updated_at: Date;
}): CheckpointState {
  return {
    name: row.name,
    position:
      row.position_commit === null || row.position_prepare === null
        ? null
        : { commit: BigInt(row.position_commit), prepare: BigInt(row.position_prepare) },
    status: row.status,
    rebuildId: row.rebuild_id,
    eventsApplied: BigInt(row.events_applied),
    updatedAt: row.updated_at,
  };
}
