import type { ColumnType, Generated, SelectType } from 'kysely';

/**
 * The typed shape of every table the migrations create. `tests/infra/db-schema.int.spec.ts` migrates a fresh
 * database and compares it with `columns` below, and `columns` is bound to these interfaces at compile time,
 * so neither side can drift.
 */

/** bigint columns: pg hands them over as strings; we write bigint or string. */
export type Int8 = ColumnType<string, bigint | string | number, bigint | string | number>;
export type Timestamp = ColumnType<Date, Date | string, Date | string>;
/** Columns with a default; kysely's Generated<> does not unwrap a ColumnType. */
export type GeneratedInt8 = ColumnType<
  string,
  bigint | string | number | undefined,
  bigint | string | number
>;
export type GeneratedTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;
export type JsonValue = string | number | boolean | JsonValue[] | { [key: string]: JsonValue | null };
export type Json = ColumnType<JsonValue, string, string>;

export interface EsEventsTable {
  global_position: GeneratedInt8;
  transaction_id: Generated<string>;
  stream_id: string;
  stream_revision: Int8;
  event_id: string;
  type: string;
  data: Json;
  metadata: Json;
  created_at: GeneratedTimestamp;
}

export interface ProjectionCheckpointsTable {
  name: string;
  position_commit: Int8 | null;
  position_prepare: Int8 | null;
  status: Generated<'live' | 'rebuilding'>;
  rebuild_id: string | null;
  events_applied: GeneratedInt8;
  updated_at: GeneratedTimestamp;
}

export interface StreamCatalogueTable {
  tenant_id: string;
  stream_id: string;
  category: string;
  event_count: Int8;
  last_revision: Int8;
  last_event_type: string;
  first_event_at: Timestamp;
  last_event_at: Timestamp;
}

export interface Database {
  es_events: EsEventsTable;
  projection_checkpoints: ProjectionCheckpointsTable;
  stream_catalogue: StreamCatalogueTable;
}

// ---- the schema as Postgres reports it, tied to the interfaces above ----

type PgType = 'text' | 'int8' | 'uuid' | 'xid8' | 'jsonb' | 'timestamptz';
interface ColumnSpec<T> {
  type: PgType;
  nullable: null extends SelectType<T> ? true : false;
}
type SchemaOf<D> = { [Table in keyof D]: { [Column in keyof D[Table]]-?: ColumnSpec<D[Table][Column]> } };

const col = <T extends string, N extends boolean>(type: T, nullable: N) => ({ type, nullable });

export const columns = {
  es_events: {
    global_position: col('int8', false),
    transaction_id: col('xid8', false),
    stream_id: col('text', false),
    stream_revision: col('int8', false),
    event_id: col('uuid', false),
    type: col('text', false),
    data: col('jsonb', false),
    metadata: col('jsonb', false),
    created_at: col('timestamptz', false),
  },
  projection_checkpoints: {
    name: col('text', false),
    position_commit: col('int8', true),
    position_prepare: col('int8', true),
    status: col('text', false),
    rebuild_id: col('text', true),
    events_applied: col('int8', false),
    updated_at: col('timestamptz', false),
  },
  stream_catalogue: {
    tenant_id: col('text', false),
    stream_id: col('text', false),
    category: col('text', false),
    event_count: col('int8', false),
    last_revision: col('int8', false),
    last_event_type: col('text', false),
    first_event_at: col('timestamptz', false),
    last_event_at: col('timestamptz', false),
  },
} as const satisfies SchemaOf<Database>;

// Every table and column of `Database` appears in `columns` (checked by `satisfies`), and no more (checked here).
type Exact<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type SameKeys<A, B> =
  Exact<keyof A, keyof B> extends true
    ? { [K in keyof A & keyof B]: Exact<keyof A[K], keyof B[K]> }[keyof A & keyof B]
    : false;
export const columnsMatchDatabase: SameKeys<typeof columns, Database> = true;
