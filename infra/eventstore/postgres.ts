import { EventEmitter } from 'node:events';
import { dedicatedClient } from '@infra/db';
import { violation } from '@infra/db/errors';
import type pg from 'pg';
import { DuplicateEventIdError, WrongExpectedRevisionError } from './errors';
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
import { runSubscription } from './subscription';

/**
 * The event store on Postgres (tables from infra/db/migrations/*_event_store.ts).
 *
 * - An append is one statement: bump the stream head only if it is at the expected revision, and insert the events
 *   numbered from it. A wrong revision bumps nothing, so the insert sees no row and nothing is written.
 * - Group commit: at most a few appends are in flight at once; appends that arrive meanwhile wait, and go together
 *   as one statement (one round trip, one commit) as soon as one of those finishes. Each keeps its own revision
 *   check, its own revisions and positions and its own answer; see appendGroup.
 * - The log is read in (transaction id, sequence) order and only below the oldest running writer
 *   (pg_snapshot_xmin), so a reader never passes an event that a slower transaction has yet to commit.
 * - Readers in this process are woken at once after an append; other processes get a NOTIFY, sent at most every
 *   few milliseconds outside the append's transaction (NOTIFY inside it would serialise every commit).
 */
export interface PostgresEventStoreOptions {
  /** How often an idle subscriber looks for events it was not woken for (another process, a held-back writer). */
  pollIntervalMs?: number;
  /** End the pool on close (when the store created it). */
  ownsPool?: boolean;
  /**
   * Appends (or groups of appends) sent at once; those that arrive meanwhile go together next (default 4). Fewer
   * makes bigger groups (fewer commits and round trips); more lets more backends work side by side, which a machine
   * busy with other work rewards: there, with 8 writers, 2 wrote slower than sending every append alone, 4 did not.
   */
  appendsInFlight?: number;
}

const CHANNEL = 'kedai_event_store';
const NOTIFY_EVERY_MS = 20;
const NOTIFY_SQL = `SELECT set_config('synchronous_commit', 'off', true), pg_notify('${CHANNEL}', '')`;

/** A row of COLUMNS, fetched as an array (cheaper to parse than one object per row). */
type EventRow = [
  globalPosition: string,
  transactionId: string,
  streamId: string,
  streamRevision: string,
  eventId: string,
  type: string,
  data: unknown,
  metadata: EventMetadata,
  createdMs: number,
];

// Output names shadow the columns in ORDER BY: order by the qualified columns, never these aliases.
const COLUMNS = `global_position, transaction_id::text, stream_id, stream_revision, event_id, type,
  data, metadata, (extract(epoch FROM created_at) * 1000)::float8`;

/**
 * The stream's next revision is read from the (stream_id, stream_revision) index in the same statement that inserts
 * the events. Two writers that read the same head both try to insert the same revision: the unique index makes the
 * second wait for the first and then fail, which is the conflict it should get.
 */
const HEAD = `(SELECT coalesce(max(stream_revision) + 1, 0) AS next FROM es_events WHERE stream_id = $1) AS head`;
const EXPECTED = {
  expected: 'WHERE head.next = $6::bigint + 1',
  no_stream: 'WHERE head.next = 0',
  any: '',
};
type Mode = keyof typeof EXPECTED;
const RETURNING = 'RETURNING stream_revision, transaction_id::text, global_position';

// One event (the common case) with plain parameters; several through arrays.
const appendOneSql = (mode: Mode) => `
  INSERT INTO es_events (stream_id, stream_revision, event_id, type, data, metadata)
  SELECT $1, head.next, $2::uuid, $3::text, $4::jsonb, $5::jsonb FROM ${HEAD} ${EXPECTED[mode]} ${RETURNING}`;
const appendManySql = (mode: Mode) => `
  INSERT INTO es_events (stream_id, stream_revision, event_id, type, data, metadata)
  SELECT $1, head.next + e.ord - 1, e.id, e.type, e.data, e.metadata
  FROM ${HEAD}, unnest($2::uuid[], $3::text[], $4::jsonb[], $5::jsonb[]) WITH ORDINALITY AS e(id, type, data, metadata, ord)
  ${EXPECTED[mode]} ${RETURNING}`;

// A writer with 'any' that lost the race for a revision simply takes the next one.
const ANY_ATTEMPTS = 20;

/**
 * Several appends, to distinct streams, in one statement: each request's head is checked as in the single append
 * (a request whose check fails inserts nothing, the others go ahead), and its events are numbered from its head.
 * Rows come out in request order, so each append's events get increasing positions; they share one transaction.
 */
const APPEND_GROUP_SQL = `
  WITH request AS (
    SELECT r.req, r.stream, head.next
    FROM unnest($1::int[], $2::text[], $3::text[], $4::bigint[]) AS r(req, stream, mode, expected)
    CROSS JOIN LATERAL (
      SELECT coalesce(max(stream_revision) + 1, 0) AS next FROM es_events WHERE stream_id = r.stream
    ) AS head
    WHERE r.mode = 'any' OR (r.mode = 'no_stream' AND head.next = 0)
      OR (r.mode = 'expected' AND head.next = r.expected + 1)
  )
  INSERT INTO es_events (stream_id, stream_revision, event_id, type, data, metadata)
  SELECT request.stream, request.next + e.ord, e.id, e.type, e.data, e.metadata
  FROM unnest($5::int[], $6::int[], $7::uuid[], $8::text[], $9::jsonb[], $10::jsonb[])
    AS e(req, ord, id, type, data, metadata)
  JOIN request ON request.req = e.req
  ORDER BY e.req, e.ord
  RETURNING stream_id, stream_revision, transaction_id::text, global_position`;

/** A group holds at most this many events (an append larger than that goes alone). */
const GROUP_MAX_EVENTS = 1000;

/** An append waiting for its turn. */
interface PendingAppend {
  stream: string;
  events: Required<NewEvent>[];
  expected: ExpectedRevision;
  resolve(result: AppendResult): void;
  reject(error: unknown): void;
}

/** The last event readers may see (below the oldest running writer). */
const HEAD_SQL = `SELECT transaction_id::text AS transaction_id, global_position FROM es_events
  WHERE transaction_id < pg_snapshot_xmin(pg_current_snapshot())
  ORDER BY es_events.transaction_id DESC, es_events.global_position DESC LIMIT 1`;

/** How long awaitVisible waits for an older transaction to end before it gives up. */
const VISIBLE_WAIT_MS = 30_000;

export class PostgresEventStore implements EventStore {
  readonly kind = 'postgres' as const;
  private readonly wakeups = new EventEmitter();
  private listener: pg.Client | undefined;
  private listening: Promise<void> | undefined;
  private notifyTimer: NodeJS.Timeout | undefined;
  private notifiedAt = Number.NEGATIVE_INFINITY;
  private readonly subscriptions = new Set<Subscription>();
  private closed = false;
  /** Appends not yet sent, oldest first. */
  private waiting: PendingAppend[] = [];
  /** Appends sent and not yet answered, by stream: a stream has one in flight at a time. */
  private readonly inFlight = new Set<string>();
  private groupsInFlight = 0;

  constructor(
    private readonly pool: pg.Pool,
    private readonly registry: EventSchemaRegistry,
    private readonly options: PostgresEventStoreOptions = {},
  ) {
    this.wakeups.setMaxListeners(0);
  }

  async append(
    stream: string,
    events: readonly NewEvent[],
    opts: { expectedRevision: ExpectedRevision },
  ): Promise<AppendResult> {
    const prepared = this.registry.prepare(events);
    return new Promise<AppendResult>((resolve, reject) => {
      this.waiting.push({ stream, events: prepared, expected: opts.expectedRevision, resolve, reject });
      this.sendAppends();
    });
  }

  // ---- group commit ----

  /** Sends what waits, as long as fewer than `appendsInFlight` groups are out. */
  private sendAppends(): void {
    const limit = this.options.appendsInFlight ?? 4;
    while (this.groupsInFlight < limit) {
      const group = this.takeGroup();
      if (group.length === 0) return;
      this.groupsInFlight++;
      for (const pending of group) this.inFlight.add(pending.stream);
      void this.appendGroup(group).finally(() => {
        for (const pending of group) this.inFlight.delete(pending.stream);
        this.groupsInFlight--;
        this.sendAppends();
      });
    }
  }

  /**
   * The oldest waiting appends, one per stream and none to a stream with an append in flight (so appends to one
   * stream are sent in the order they came, and a group never races itself for a revision), up to GROUP_MAX_EVENTS.
   */
  private takeGroup(): PendingAppend[] {
    const group: PendingAppend[] = [];
    const streams = new Set<string>();
    let events = 0;
    const left: PendingAppend[] = [];
    for (const pending of this.waiting) {
      const fits = group.length === 0 || events + pending.events.length <= GROUP_MAX_EVENTS;
      if (fits && !streams.has(pending.stream) && !this.inFlight.has(pending.stream)) {
        group.push(pending);
        events += pending.events.length;
      } else {
        left.push(pending);
      }
      streams.add(pending.stream);
    }
    this.waiting = left;
    return group;
  }

  /**
   * Appends a group in one statement. An append whose revision check failed gets the answer it would get alone
   * (a retry of an append already stored, or a conflict). Should the statement fail (another writer won a
   * revision, an event id already stored…), it wrote nothing: each append of the group is then sent alone.
   */
  private async appendGroup(group: PendingAppend[]): Promise<void> {
    if (group.length === 1) return settle(group[0]!, (pending) => this.appendAlone(pending));
    const requests = group.map((pending, req) => ({ pending, req }));
    const events = requests.flatMap(({ pending, req }) =>
      pending.events.map((event, ord) => ({ req, ord, event })),
    );
    let rows: [stream: string, revision: string, transactionId: string, globalPosition: string][];
    try {
      const result = await this.pool.query<[string, string, string, string]>({
        name: 'kedai_es_append_group',
        text: APPEND_GROUP_SQL,
        values: [
          requests.map(({ req }) => req),
          requests.map(({ pending }) => pending.stream),
          requests.map(({ pending }) => modeOf(pending.expected)),
          requests.map(({ pending }) =>
            typeof pending.expected === 'bigint' ? String(pending.expected) : null,
          ),
          events.map(({ req }) => req),
          events.map(({ ord }) => ord),
          events.map(({ event }) => event.id),
          events.map(({ event }) => event.type),
          events.map(({ event }) => JSON.stringify(event.data)),
          events.map(({ event }) => JSON.stringify(event.metadata)),
        ],
        rowMode: 'array',
      });
      rows = result.rows;
    } catch {
      await Promise.all(group.map((pending) => settle(pending, (p) => this.appendAlone(p))));
      return;
    }
    if (rows.length > 0) this.appended();
    const byStream = new Map<string, (typeof rows)[number]>();
    for (const row of rows) {
      const last = byStream.get(row[0]);
      if (!last || BigInt(row[1]) > BigInt(last[1])) byStream.set(row[0], row);
    }
    await Promise.all(
      group.map((pending) => {
        const last = byStream.get(pending.stream);
        if (!last) {
          return settle(pending, (p) =>
            this.alreadyAppended(
              p.stream,
              p.events.map((e) => e.id),
              p.expected,
            ),
          );
        }
        pending.resolve({
          nextRevision: BigInt(last[1]),
          position: { commit: BigInt(last[2]), prepare: BigInt(last[3]) },
        });
        return undefined;
      }),
    );
  }

  /** One append in its own statement. */
  private async appendAlone({ stream, events: prepared, expected }: PendingAppend): Promise<AppendResult> {
    const mode = modeOf(expected);
    const ids = prepared.map((e) => e.id);
    const one = prepared.length === 1;
    const values: unknown[] = one
      ? [
          stream,
          ids[0],
          prepared[0]!.type,
          JSON.stringify(prepared[0]!.data),
          JSON.stringify(prepared[0]!.metadata),
        ]
      : [
          stream,
          ids,
          prepared.map((e) => e.type),
          prepared.map((e) => JSON.stringify(e.data)),
          prepared.map((e) => JSON.stringify(e.metadata)),
        ];
    if (mode === 'expected') values.push(String(expected));
    for (let attempt = 1; ; attempt++) {
      let rows: [revision: string, transactionId: string, globalPosition: string][];
      try {
        const result = await this.pool.query<[string, string, string]>({
          name: `kedai_es_append_${one ? 'one' : 'many'}_${mode}`,
          text: one ? appendOneSql(mode) : appendManySql(mode),
          values,
          rowMode: 'array',
        });
        rows = result.rows;
      } catch (error) {
        const raced = isUniqueViolation(error, 'es_events_stream_revision_key');
        if (raced && mode === 'any' && attempt < ANY_ATTEMPTS) continue;
        if (raced || isUniqueViolation(error, 'es_events_event_id_key')) {
          return this.alreadyAppended(stream, ids, expected);
        }
        throw error;
      }
      if (rows.length === 0) return this.alreadyAppended(stream, ids, expected);
      let last = rows[0]!;
      for (const row of rows) if (BigInt(row[0]) > BigInt(last[0])) last = row;
      this.appended();
      return {
        nextRevision: BigInt(last[0]),
        position: { commit: BigInt(last[1]), prepare: BigInt(last[2]) },
      };
    }
  }

  /**
   * The append was refused (wrong revision or an event id already stored). When every one of its events is
   * already in this stream, it is a retry of an append that succeeded: answer as that append did.
   */
  private async alreadyAppended(
    stream: string,
    ids: string[],
    expected: ExpectedRevision,
  ): Promise<AppendResult> {
    const stored = await this.pool.query<{
      event_id: string;
      stream_id: string;
      stream_revision: string;
      transaction_id: string;
      global_position: string;
    }>(
      `SELECT event_id, stream_id, stream_revision, transaction_id::text AS transaction_id, global_position
       FROM es_events WHERE event_id = ANY($1::uuid[]) ORDER BY stream_revision`,
      [ids],
    );
    if (stored.rowCount === ids.length && stored.rows.every((r) => r.stream_id === stream)) {
      const last = stored.rows.at(-1)!;
      return {
        nextRevision: BigInt(last.stream_revision),
        position: { commit: BigInt(last.transaction_id), prepare: BigInt(last.global_position) },
      };
    }
    if ((stored.rowCount ?? 0) > 0) throw new DuplicateEventIdError(stored.rows.map((r) => r.event_id));
    const head = await this.pool.query<{ revision: string | null }>(
      'SELECT max(stream_revision) AS revision FROM es_events WHERE stream_id = $1',
      [stream],
    );
    const revision = head.rows[0]?.revision;
    const actual = revision === null || revision === undefined ? 'no_stream' : BigInt(revision);
    throw new WrongExpectedRevisionError(stream, expected, actual);
  }

  async *readStream(stream: string, opts: { fromRevision?: bigint; toPosition?: Position } = {}) {
    const pageSize = 1000;
    let from = opts.fromRevision ?? 0n;
    const to = opts.toPosition;
    for (;;) {
      const result = await this.pool.query<EventRow>({
        name: to ? 'kedai_es_read_stream_to' : 'kedai_es_read_stream',
        text: `SELECT ${COLUMNS} FROM es_events WHERE stream_id = $1 AND stream_revision >= $2::bigint
          ${to ? 'AND (transaction_id, global_position) <= ($4::text::xid8, $5::bigint)' : ''}
          ORDER BY stream_revision LIMIT $3`,
        values: to
          ? [stream, String(from), pageSize, String(to.commit), String(to.prepare)]
          : [stream, String(from), pageSize],
        rowMode: 'array',
      });
      for (const row of result.rows) yield toRecorded(row);
      if (result.rows.length < pageSize) return;
      from = BigInt(result.rows.at(-1)![3]) + 1n;
    }
  }

  /** One row from the unique (stream_id, stream_revision) index, read backwards. */
  async readLastEvent(stream: string): Promise<RecordedEvent | null> {
    const result = await this.pool.query<EventRow>({
      name: 'kedai_es_read_last',
      text: `SELECT ${COLUMNS} FROM es_events WHERE stream_id = $1
        ORDER BY es_events.stream_revision DESC LIMIT 1`,
      values: [stream],
      rowMode: 'array',
    });
    const row = result.rows[0];
    return row ? toRecorded(row) : null;
  }

  /** One row from the unique event_id index; an id stored in another stream is not this stream's. */
  async findEvent(stream: string, eventId: string): Promise<RecordedEvent | null> {
    // Never stored (appends refuse ids that are not UUIDs), and the uuid cast would fail on it.
    if (!UUID.test(eventId)) return null;
    const result = await this.pool.query<EventRow>({
      name: 'kedai_es_find_event',
      text: `SELECT ${COLUMNS} FROM es_events WHERE event_id = $1::uuid AND stream_id = $2`,
      values: [eventId, stream],
      rowMode: 'array',
    });
    const row = result.rows[0];
    return row ? toRecorded(row) : null;
  }

  async readAll(opts: ReadAllOptions): Promise<RecordedEvent[]> {
    const result = await this.pool.query<EventRow>({
      ...readAllQuery(opts),
      rowMode: 'array',
    });
    return result.rows.map(toRecorded);
  }

  /**
   * A page of these types after `after`, and how far the read looked. The head readers may see is taken first: the
   * page, read after, sees at least as far, so when it is not full nothing of these types lies between its last
   * event and that head, and every later commit lands past it: the next read can start there. (Two statements: Postgres
   * planned the one-statement form as a parallel scan of the whole log per page; see commit 6f2c692.)
   */
  async readTypesPage(
    after: Position | undefined,
    limit: number,
    types: readonly string[],
  ): Promise<{ events: RecordedEvent[]; scannedTo: Position | null }> {
    const head = await this.headPosition();
    const events = await this.readAll({ after, limit, types });
    const last = events.at(-1)?.position ?? null;
    if (events.length === limit || !head) return { events, scannedTo: last };
    return { events, scannedTo: last && comparePositions(last, head) > 0 ? last : head };
  }

  subscribe(opts: SubscribeOptions, handle: (batch: RecordedEvent[]) => Promise<void>): Subscription {
    void this.listen();
    const types = opts.types;
    const subscription = runSubscription({
      read: async (after, limit) =>
        types
          ? this.readTypesPage(after, limit, types)
          : { events: await this.readAll({ after, limit }), scannedTo: null },
      after: opts.after,
      batchSize: opts.batchSize ?? 1000,
      pollIntervalMs: this.options.pollIntervalMs ?? 100,
      wakeups: this.wakeups,
      handle,
      onCaughtUp: opts.onCaughtUp,
    });
    this.subscriptions.add(subscription);
    void subscription.done.catch(() => undefined).finally(() => this.subscriptions.delete(subscription));
    return subscription;
  }

  async headPosition(): Promise<Position | null> {
    const result = await this.pool.query<{ transaction_id: string; global_position: string }>(HEAD_SQL);
    const row = result.rows[0];
    return row ? { commit: BigInt(row.transaction_id), prepare: BigInt(row.global_position) } : null;
  }

  async awaitVisible(): Promise<void> {
    // Every committed event has a transaction id at most this; readAll shows it once no older transaction runs.
    const head = await this.pool.query<{ commit: string | null }>(
      'SELECT max(transaction_id)::text AS commit FROM es_events',
    );
    const commit = head.rows[0]?.commit;
    if (commit === null || commit === undefined) return;
    const deadline = Date.now() + VISIBLE_WAIT_MS;
    for (;;) {
      const horizon = await this.pool.query<{ visible: boolean }>(
        'SELECT $1::text::xid8 < pg_snapshot_xmin(pg_current_snapshot()) AS visible',
        [commit],
      );
      if (horizon.rows[0]?.visible) return;
      if (Date.now() > deadline) {
        throw new Error(
          `events up to transaction ${commit} are still not readable after ${VISIBLE_WAIT_MS} ms`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
    clearTimeout(this.notifyTimer);
    const listener = this.listener;
    this.listener = undefined;
    await listener?.end().catch(() => undefined);
    if (this.options.ownsPool) await this.pool.end();
  }

  /**
   * Wakes this process's subscribers now, and other processes' through one NOTIFY per few milliseconds: the first
   * append of a quiet spell notifies at once (the projections run in another process than the API's commands, and
   * a push waits on this), the appends that follow within the spell share one NOTIFY at its end.
   */
  private appended(): void {
    this.wakeups.emit('append');
    if (this.notifyTimer || this.closed) return;
    const wait = this.notifiedAt + NOTIFY_EVERY_MS - performance.now();
    if (wait <= 0) {
      this.notifyOthers();
      return;
    }
    this.notifyTimer = setTimeout(() => {
      this.notifyTimer = undefined;
      this.notifyOthers();
    }, wait);
    this.notifyTimer.unref();
  }

  private notifyOthers(): void {
    this.notifiedAt = performance.now();
    // A wake-up hint needs no flush to disk: its commit does not wait for one (and holds nobody's horizon).
    if (!this.closed) this.pool.query(NOTIFY_SQL).catch(() => undefined);
  }

  /** One LISTEN connection per store, shared by its subscribers; a lost one leaves polling to carry on. */
  private listen(): Promise<void> {
    this.listening ??= (async () => {
      const listener = dedicatedClient(this.pool);
      listener.on('notification', () => this.wakeups.emit('append'));
      listener.on('error', () => {
        this.listener = undefined;
        this.listening = undefined;
      });
      try {
        await listener.connect();
        await listener.query(`LISTEN ${CHANNEL}`);
        if (this.closed) await listener.end();
        else this.listener = listener;
      } catch {
        this.listening = undefined;
      }
    })();
    return this.listening;
  }
}

/**
 * readAll's statement: the events after `after` (of `types`), in log order, below the oldest running writer. Exported
 * for the bench, which reads the same rows with plain pg to compare.
 */
export function readAllQuery(opts: ReadAllOptions): { name: string; text: string; values: unknown[] } {
  const filters = ['transaction_id < pg_snapshot_xmin(pg_current_snapshot())'];
  const values: unknown[] = [opts.limit];
  if (opts.after) {
    values.push(String(opts.after.commit), String(opts.after.prepare));
    filters.push('(transaction_id, global_position) > ($2::text::xid8, $3::bigint)');
  }
  if (opts.types) {
    values.push(opts.types);
    filters.push(`type = ANY($${values.length}::text[])`);
  }
  return {
    name: `kedai_es_read_all_${opts.after ? 'a' : ''}${opts.types ? 't' : ''}`,
    text: `SELECT ${COLUMNS} FROM es_events WHERE ${filters.join(' AND ')}
      ORDER BY es_events.transaction_id, es_events.global_position LIMIT $1`,
    values,
  };
}

function toRecorded(row: EventRow): RecordedEvent {
  return {
    id: row[4],
    stream: row[2],
    revision: BigInt(row[3]),
    type: row[5],
    data: row[6],
    metadata: row[7],
    position: { commit: BigInt(row[1]), prepare: BigInt(row[0]) },
    createdAt: new Date(row[8]),
  };
}

const modeOf = (expected: ExpectedRevision): Mode =>
  expected === 'no_stream' || expected === 'any' ? expected : 'expected';

/** Answers a waiting append with what `run` gives or throws. */
async function settle(pending: PendingAppend, run: (pending: PendingAppend) => Promise<AppendResult>) {
  try {
    pending.resolve(await run(pending));
  } catch (error) {
    pending.reject(error);
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const isUniqueViolation = (error: unknown, constraint: string) => violation(error, '23505', constraint);
