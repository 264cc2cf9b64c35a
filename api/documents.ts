import type { ApiError } from '@api/errors';
import { isUuid } from '@api/ids';
import type { TimelineEntry } from '@commands/support/document';
import type { Database } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import type { FastifyRequest } from 'fastify';
import { type Kysely, sql, type Transaction } from 'kysely';
import { z } from 'zod';

/**
 * What the routes of event-sourced documents share (stock movements, transfers, purchases, goods issue notes): the
 * event store a command handler needs, the idempotency key, the account's warehouses, master codes and people by
 * id (another account's are simply missing), and a document's timeline with the people's names. Each area keeps its
 * own result codes and messages: the refusals are passed in.
 */

type Db = Kysely<Database> | Transaction<Database>;

/** The store as a command handler needs it; an app wired with a partial store is a bug, not a refusal. */
export function wholeStore(store: Pick<EventStore, 'kind'>, routes: string): EventStore {
  const whole = store as Partial<EventStore>;
  if (typeof whole.append !== 'function' || typeof whole.readStream !== 'function') {
    throw new Error(`the ${routes} routes were given an event store that cannot append`);
  }
  return store as EventStore;
}

// ---- idempotency ----

export const IDEMPOTENCY_KEY_MAX = 100;
const KEY_SHAPE = /^[\x21-\x7e]+$/;

/** A body's `idempotency_key`: 1 to 100 printable ASCII characters, else `message` (an `invalid(code, key)`). */
export const idempotencyKeyField = (message: string) =>
  z.string({ error: message }).min(1, message).max(IDEMPOTENCY_KEY_MAX, message).regex(KEY_SHAPE, message);

const isIdempotencyKey = (key: string) =>
  key.length >= 1 && key.length <= IDEMPOTENCY_KEY_MAX && KEY_SHAPE.test(key);

/**
 * The idempotency key of a request: the `Idempotency-Key` header (one of the wrong shape is `invalid()`), else the
 * body's key; undefined without either. With `mismatch`, a header and a body key that differ are refused.
 */
export function idempotencyKeyOf(
  request: FastifyRequest,
  bodyKey: string | undefined,
  refusals: { invalid(): ApiError; mismatch?(): ApiError },
): string | undefined {
  const header = request.headers['idempotency-key'];
  const headerKey = Array.isArray(header) ? header[0] : header;
  if (headerKey !== undefined && !isIdempotencyKey(headerKey)) throw refusals.invalid();
  if (refusals.mismatch && headerKey !== undefined && bodyKey !== undefined && headerKey !== bodyKey) {
    throw refusals.mismatch();
  }
  return headerKey ?? bodyKey;
}

// ---- the account's records by id ----

/** The uuids among `ids`, lower case, once each: anything else is an id nobody has. */
const uuidsOf = (ids: Iterable<string | null>) => [
  ...new Set([...ids].filter((id): id is string => id !== null && isUuid(id)).map((id) => id.toLowerCase())),
];

/** A warehouse or branch of the account; undefined for another account's or an unknown id. */
export async function placeOfTenant(db: Db, tenantId: string, id: string) {
  if (!isUuid(id)) return undefined;
  return db
    .selectFrom('warehouses')
    .select(['id', 'code', 'name', 'kind'])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id.toLowerCase())
    .executeTakeFirst();
}

/** The account's warehouses and branches among `ids`, by id. */
export async function placesOfTenant(db: Db, tenantId: string, ids: Iterable<string>) {
  const wanted = uuidsOf(ids);
  const rows = wanted.length
    ? await db
        .selectFrom('warehouses')
        .select(['id', 'code', 'name', 'kind'])
        .where('tenant_id', '=', tenantId)
        .where('id', 'in', wanted)
        .execute()
    : [];
  return new Map(rows.map((row) => [row.id, row]));
}

/** A master code of the account (inactive ones too); undefined for another account's or an unknown id. */
export async function masterCodeOfTenant(db: Db, tenantId: string, id: string) {
  if (!isUuid(id)) return undefined;
  return db
    .selectFrom('master_codes')
    .select(['id', 'code', 'name', 'type', 'status'])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id.toLowerCase())
    .executeTakeFirst();
}

export interface MasterCodeName {
  id: string;
  code: string;
  name: string;
  type: 'standard' | 'combo';
}

/** The account's master codes among `ids`, by id (the rest are another account's, or not master codes at all). */
export async function masterCodesOfTenant(
  db: Db,
  tenantId: string,
  ids: Iterable<string>,
): Promise<Map<string, MasterCodeName>> {
  const wanted = uuidsOf(ids);
  const rows = wanted.length
    ? await db
        .selectFrom('master_codes')
        .select(['id', 'code', 'name', 'type'])
        .where('tenant_id', '=', tenantId)
        .where(sql<boolean>`id = ANY(${wanted}::uuid[])`)
        .execute()
    : [];
  return new Map(rows.map((row) => [row.id, row]));
}

/**
 * Each line's master code: the account's, standard (a combo has no stock of its own) and, with `repeated`, on one
 * line only. The first line that is not is refused with the area's answer.
 */
export async function standardMasterCodes<Line extends { master_code_id: string }>(
  db: Db,
  tenantId: string,
  lines: readonly Line[],
  refuse: {
    missing(line: Line, index: number): ApiError;
    combo(code: string, index: number): ApiError;
    repeated?(code: string, index: number): ApiError;
  },
): Promise<{ line: Line; masterCode: MasterCodeName }[]> {
  const codes = await masterCodesOfTenant(
    db,
    tenantId,
    lines.map((line) => line.master_code_id),
  );
  const seen = new Set<string>();
  return lines.map((line, index) => {
    const masterCode = codes.get(line.master_code_id.toLowerCase());
    if (!masterCode) throw refuse.missing(line, index);
    if (masterCode.type === 'combo') throw refuse.combo(masterCode.code, index);
    if (refuse.repeated && seen.has(masterCode.id)) throw refuse.repeated(masterCode.code, index);
    seen.add(masterCode.id);
    return { line, masterCode };
  });
}

/** The names of the account's users among `ids` ("first last", or the email when both are empty). */
export async function userNames(
  db: Db,
  tenantId: string,
  ids: Iterable<string | null>,
): Promise<Map<string, string>> {
  const wanted = uuidsOf(ids);
  const rows = wanted.length
    ? await db
        .selectFrom('users')
        .select(['id', 'first_name', 'last_name', 'email'])
        .where('tenant_id', '=', tenantId)
        .where('id', 'in', wanted)
        .execute()
    : [];
  return new Map(rows.map((row) => [row.id, `${row.first_name} ${row.last_name}`.trim() || row.email]));
}

// ---- the timeline ----

export interface Person {
  id: string;
  name: string | null;
}

/**
 * A document's timeline as answered (who did what, when), and `person` to name anyone else among its people: both
 * from one read of the names of everyone in the timeline and in `others`.
 */
export async function namedTimeline(
  db: Db,
  tenantId: string,
  timeline: readonly TimelineEntry[],
  others: readonly (string | null)[] = [],
) {
  const names = await userNames(db, tenantId, [...timeline.map((entry) => entry.userId), ...others]);
  const person = (id: string | null): Person | null => (id ? { id, name: names.get(id) ?? null } : null);
  return {
    person,
    timeline: timeline.map((entry) => ({
      type: entry.type,
      at: entry.at,
      user: person(entry.userId),
      data: entry.data as Record<string, unknown>,
    })),
  };
}
