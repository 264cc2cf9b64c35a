import type { ApiError } from '@api/errors';
import { isUuid } from '@api/ids';
import type { TimelineEntry } from '@commands/support/document';
import type { Database } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import { type MasterCodeName, masterCodesOfTenant, userNames } from '@projections/documents.queries';
import type { FastifyRequest } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
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

// ---- the account's records by id (projections/documents.queries.ts) ----

export {
  type MasterCodeName,
  masterCodeOfTenant,
  masterCodesOfTenant,
  placeOfTenant,
  placesOfTenant,
  userNames,
} from '@projections/documents.queries';

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
