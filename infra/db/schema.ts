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

// ---- accounts and the console shell (plain tables) ----

/** A column with a default, of any type. */
export type WithDefault<T> = ColumnType<T, T | undefined, T>;
/** numeric: pg hands it over as a string, to keep every cent. */
export type Numeric = ColumnType<string, string | number | undefined, string | number>;
export type JsonDefault = ColumnType<JsonValue, string | undefined, string>;

export interface PackagesTable {
  id: string;
  name: string;
  limits: Json;
  flags: JsonDefault;
  created_at: GeneratedTimestamp;
}

export interface TenantsTable {
  id: string;
  name: string;
  country: string;
  package_id: string;
  status: WithDefault<'pending' | 'active' | 'suspended'>;
  promo_code: string | null;
  business: JsonDefault;
  ewallet_balance: Numeric;
  created_at: GeneratedTimestamp;
}

export interface UserGroupsTable {
  id: string;
  tenant_id: string;
  name: string;
  permissions: WithDefault<string[]>;
  created_at: GeneratedTimestamp;
  updated_at: GeneratedTimestamp;
}

export type UserKind = 'owner' | 'subuser' | 'admin' | 'subadmin';
export type UserStatus = 'pending' | 'active' | 'inactive';

export interface UsersTable {
  id: string;
  tenant_id: string | null;
  kind: UserKind;
  username: string | null;
  email: string;
  first_name: string;
  last_name: WithDefault<string>;
  phone: WithDefault<string>;
  country: string | null;
  password_hash: string;
  pos_pin_hash: string | null;
  status: UserStatus;
  group_id: string | null;
  language: WithDefault<string>;
  email_verified_at: Timestamp | null;
  last_sign_in_at: Timestamp | null;
  created_at: GeneratedTimestamp;
  updated_at: GeneratedTimestamp;
}

export interface AccessTokensTable {
  token_hash: string;
  user_id: string;
  created_at: GeneratedTimestamp;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
  address: string | null;
}

export interface SignInFailuresTable {
  id: GeneratedInt8;
  scope: 'account' | 'address' | 'signup';
  key: string;
  at: GeneratedTimestamp;
}

export interface EmailVerificationsTable {
  user_id: string;
  code_hash: string;
  expires_at: Timestamp;
  attempts: WithDefault<number>;
  sends: WithDefault<number>;
  first_sent_at: GeneratedTimestamp;
  last_sent_at: GeneratedTimestamp;
}

export interface ResetLinksTable {
  token_hash: string;
  user_id: string;
  purpose: 'password' | 'pos_pin';
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: GeneratedTimestamp;
}

export interface MailOutboxTable {
  id: GeneratedInt8;
  recipient: string;
  subject: string;
  body: string;
  purpose: string;
  created_at: GeneratedTimestamp;
  sent_at: Timestamp | null;
  error: string | null;
}

export interface TableSettingsTable {
  user_id: string;
  settings: Json;
  updated_at: GeneratedTimestamp;
}

export interface AnnouncementsTable {
  id: string;
  subject: string;
  content: string;
  start_at: Timestamp;
  end_at: Timestamp;
  priority: number;
  is_active: boolean;
  requires_ack: boolean;
  country: string | null;
  prompt: boolean;
  created_by: string | null;
  created_at: GeneratedTimestamp;
  updated_at: GeneratedTimestamp;
}

export interface AnnouncementAcksTable {
  announcement_id: string;
  user_id: string;
  status: 100 | 110 | 120;
  dont_show_again: WithDefault<boolean>;
  updated_at: GeneratedTimestamp;
}

export interface CategoriesTable {
  id: string;
  tenant_id: string;
  platform: string;
  name: string;
  parent_id: string | null;
  created_at: GeneratedTimestamp;
  updated_at: GeneratedTimestamp;
}

export interface ActivityLogTable {
  id: GeneratedInt8;
  tenant_id: string | null;
  user_id: string | null;
  action: string;
  subject_type: string;
  subject_id: string;
  detail: JsonDefault;
  at: GeneratedTimestamp;
}

export interface Database {
  es_events: EsEventsTable;
  projection_checkpoints: ProjectionCheckpointsTable;
  stream_catalogue: StreamCatalogueTable;
  packages: PackagesTable;
  tenants: TenantsTable;
  user_groups: UserGroupsTable;
  users: UsersTable;
  access_tokens: AccessTokensTable;
  sign_in_failures: SignInFailuresTable;
  email_verifications: EmailVerificationsTable;
  reset_links: ResetLinksTable;
  mail_outbox: MailOutboxTable;
  table_settings: TableSettingsTable;
  announcements: AnnouncementsTable;
  announcement_acks: AnnouncementAcksTable;
  categories: CategoriesTable;
  activity_log: ActivityLogTable;
}

// ---- the schema as Postgres reports it, tied to the interfaces above ----

type PgType =
  | 'text'
  | 'int8'
  | 'int4'
  | 'bool'
  | 'numeric'
  | '_text'
  | 'uuid'
  | 'xid8'
  | 'jsonb'
  | 'timestamptz';
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
  packages: {
    id: col('text', false),
    name: col('text', false),
    limits: col('jsonb', false),
    flags: col('jsonb', false),
    created_at: col('timestamptz', false),
  },
  tenants: {
    id: col('text', false),
    name: col('text', false),
    country: col('text', false),
    package_id: col('text', false),
    status: col('text', false),
    promo_code: col('text', true),
    business: col('jsonb', false),
    ewallet_balance: col('numeric', false),
    created_at: col('timestamptz', false),
  },
  user_groups: {
    id: col('uuid', false),
    tenant_id: col('text', false),
    name: col('text', false),
    permissions: col('_text', false),
    created_at: col('timestamptz', false),
    updated_at: col('timestamptz', false),
  },
  users: {
    id: col('uuid', false),
    tenant_id: col('text', true),
    kind: col('text', false),
    username: col('text', true),
    email: col('text', false),
    first_name: col('text', false),
    last_name: col('text', false),
    phone: col('text', false),
    country: col('text', true),
    password_hash: col('text', false),
    pos_pin_hash: col('text', true),
    status: col('text', false),
    group_id: col('uuid', true),
    language: col('text', false),
    email_verified_at: col('timestamptz', true),
    last_sign_in_at: col('timestamptz', true),
    created_at: col('timestamptz', false),
    updated_at: col('timestamptz', false),
  },
  access_tokens: {
    token_hash: col('text', false),
    user_id: col('uuid', false),
    created_at: col('timestamptz', false),
    expires_at: col('timestamptz', false),
    revoked_at: col('timestamptz', true),
    address: col('text', true),
  },
  sign_in_failures: {
    id: col('int8', false),
    scope: col('text', false),
    key: col('text', false),
    at: col('timestamptz', false),
  },
  email_verifications: {
    user_id: col('uuid', false),
    code_hash: col('text', false),
    expires_at: col('timestamptz', false),
    attempts: col('int4', false),
    sends: col('int4', false),
    first_sent_at: col('timestamptz', false),
    last_sent_at: col('timestamptz', false),
  },
  reset_links: {
    token_hash: col('text', false),
    user_id: col('uuid', false),
    purpose: col('text', false),
    expires_at: col('timestamptz', false),
    used_at: col('timestamptz', true),
    created_at: col('timestamptz', false),
  },
  mail_outbox: {
    id: col('int8', false),
    recipient: col('text', false),
    subject: col('text', false),
    body: col('text', false),
    purpose: col('text', false),
    created_at: col('timestamptz', false),
    sent_at: col('timestamptz', true),
    error: col('text', true),
  },
  table_settings: {
    user_id: col('uuid', false),
    settings: col('jsonb', false),
    updated_at: col('timestamptz', false),
  },
  announcements: {
    id: col('uuid', false),
    subject: col('text', false),
    content: col('text', false),
    start_at: col('timestamptz', false),
    end_at: col('timestamptz', false),
    priority: col('int4', false),
    is_active: col('bool', false),
    requires_ack: col('bool', false),
    country: col('text', true),
    prompt: col('bool', false),
    created_by: col('uuid', true),
    created_at: col('timestamptz', false),
    updated_at: col('timestamptz', false),
  },
  announcement_acks: {
    announcement_id: col('uuid', false),
    user_id: col('uuid', false),
    status: col('int4', false),
    dont_show_again: col('bool', false),
    updated_at: col('timestamptz', false),
  },
  categories: {
    id: col('uuid', false),
    tenant_id: col('text', false),
    platform: col('text', false),
    name: col('text', false),
    parent_id: col('uuid', true),
    created_at: col('timestamptz', false),
    updated_at: col('timestamptz', false),
  },
  activity_log: {
    id: col('int8', false),
    tenant_id: col('text', true),
    user_id: col('uuid', true),
    action: col('text', false),
    subject_type: col('text', false),
    subject_id: col('text', false),
    detail: col('jsonb', false),
    at: col('timestamptz', false),
  },
} as const satisfies SchemaOf<Database>;

// Every table and column of `Database` appears in `columns` (checked by `satisfies`), and no more (checked here).
type Exact<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type SameKeys<A, B> =
  Exact<keyof A, keyof B> extends true
    ? { [K in keyof A & keyof B]: Exact<keyof A[K], keyof B[K]> }[keyof A & keyof B]
    : false;
export const columnsMatchDatabase: SameKeys<typeof columns, Database> = true;
