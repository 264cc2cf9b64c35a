import {
  type PostgresEventStore as EmmettStore,
  getPostgreSQLEventStore,
} from '@event-driven-io/emmett-postgresql';
import type { ExpectedRevision } from '@infra/eventstore/port';
import type { PostgresEventStore } from '@infra/eventstore/postgres';
import pg from 'pg';
import { BENCH_EVENT_TYPE, BENCH_TENANT, benchData, benchMetadata } from './fixtures';
import type { Operation } from './load';
import { log } from './report';

/**
 * The three write contenders. Each `open(session)` hands back one operation per writer (the driver in load.ts
 * runs them), so they all see the same 8-way concurrency for the same time. The event stores write 1 event per call
 * with the exact expected revision of the stream, tracked from the previous answer; every writer cycles over
 * streams of its own, created during the warm-up.
 */
export interface WriteSession {
  writers: Operation[];
  close(): Promise<void>;
}

export interface Contender {
  readonly key: 'raw' | 'ours' | 'emmett';
  readonly label: string;
  /** `session` is unique per call: it names the streams, so every session starts with new ones. */
  open(session: number, writers: number): Promise<WriteSession>;
}

export interface StreamOptions {
  /** How many streams each writer cycles over (each created by its first append, during the warm-up). */
  streamsPerWriter: number;
}

const streamName = (session: number, writer: number, stream: number) =>
  `benchAppend-${BENCH_TENANT}.x${session}w${writer}s${stream}`;

/** Single-row INSERT, one per commit (autocommit), each writer on its own connection: the ceiling for commits/s. */
export async function rawInsertContender(url: string): Promise<Contender> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query('CREATE TABLE bench_raw (id bigserial PRIMARY KEY, payload jsonb NOT NULL)');
  await admin.end();
  return {
    key: 'raw',
    label: 'raw INSERT commits/s',
    async open(_session, writers) {
      const clients = await Promise.all(
        Array.from({ length: writers }, async () => {
          const client = new pg.Client({ connectionString: url, application_name: 'kedai-bench-raw' });
          client.on('error', () => undefined); // a query in flight still rejects; a dropped idle one must not crash
          await client.connect();
          return client;
        }),
      );
      return {
        writers: clients.map((client, w) => {
          let n = 0;
          return async () => {
            await client.query({
              name: 'bench_raw_insert',
              text: 'INSERT INTO bench_raw (payload) VALUES ($1)',
              values: [JSON.stringify(benchData(w, n++))],
            });
          };
        }),
        close: async () => {
          await Promise.all(clients.map((c) => c.end()));
        },
      };
    },
  };
}

/** Ours: one PostgresEventStore over one shared pool (8+ connections). */
export function oursContender(store: PostgresEventStore, { streamsPerWriter }: StreamOptions): Contender {
  return {
    key: 'ours',
    label: 'ours: append/s',
    async open(session, writers) {
      return {
        writers: Array.from({ length: writers }, (_, w) => {
          const streams = Array.from({ length: streamsPerWriter }, (_, s) => ({
            name: streamName(session, w, s),
            expected: 'no_stream' as ExpectedRevision,
          }));
          let n = 0;
          return async () => {
            const stream = streams[n % streamsPerWriter]!;
            const result = await store.append(
              stream.name,
              [{ type: BENCH_EVENT_TYPE, data: benchData(w, n), metadata: benchMetadata(w) }],
              { expectedRevision: stream.expected },
            );
            stream.expected = result.nextRevision;
            n++;
          };
        }),
        close: async () => undefined,
      };
    },
  };
}

/**
 * The peer: Emmett's PostgreSQL event store, given a pool of the same size as ours. Emmett (through dumbo) sets
 * process-wide pg type parsers (int8 → BigInt, json/jsonb → a JSON.parse with a BigInt reviver) the first time it
 * builds a pool; we put the defaults back right away, so they slow neither our reads nor the raw baseline, and give
 * Emmett's own pool the int8 parser it expects (its append path reads no JSON).
 */
export async function emmettContender(
  url: string,
  poolSize: number,
  { streamsPerWriter }: StreamOptions,
): Promise<Contender & { close(): Promise<void> }> {
  const saved = [20, 114, 3802].map((oid) => [oid, pg.types.getTypeParser(oid, 'text')] as const);
  const restore = () => {
    for (const [oid, parser] of saved) pg.types.setTypeParser(oid, 'text', parser);
  };
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    application_name: 'kedai-bench-emmett',
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === 20
          ? (value: string) => BigInt(value)
          : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  pool.on('error', () => undefined);
  let store: EmmettStore;
  try {
    store = getPostgreSQLEventStore(url, { connectionOptions: { pool } });
    await store.schema.migrate();
  } finally {
    restore();
  }
  log('Emmett schema migrated');
  return {
    key: 'emmett',
    label: 'Emmett: append/s',
    async open(session, writers) {
      return {
        writers: Array.from({ length: writers }, (_, w) => {
          const streams = Array.from({ length: streamsPerWriter }, (_, s) => ({
            name: streamName(session, w, s),
            expected: 0n,
          }));
          let n = 0;
          return async () => {
            const stream = streams[n % streamsPerWriter]!;
            const result = await store.appendToStream(
              stream.name,
              [{ type: BENCH_EVENT_TYPE, data: benchData(w, n), metadata: benchMetadata(w) }],
              { expectedStreamVersion: stream.expected },
            );
            stream.expected = result.nextExpectedStreamVersion;
            n++;
          };
        }),
        close: async () => undefined,
      };
    },
    async close() {
      await store.close();
      await pool.end();
    },
  };
}

/** Checks that nothing changed pg's process-wide parsers behind our back (they shape our read figures). */
export function assertDefaultTypeParsers(): void {
  const int8 = pg.types.getTypeParser(20, 'text')('1');
  const jsonb = pg.types.getTypeParser(3802, 'text')('{"a":1}') as { a: unknown };
  if (typeof int8 !== 'string' || typeof jsonb.a !== 'number') {
    throw new Error('pg type parsers were changed process-wide; the read figures would not be ours');
  }
}
