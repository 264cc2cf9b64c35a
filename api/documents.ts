import { IDEMPOTENCY_KEY_MAX, IDEMPOTENCY_KEY_SHAPE } from '@api/contracts/idempotency';
import type { ApiError } from '@api/errors';
import type { Database } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import { type MasterCodeName, masterCodesOfTenant } from '@projections/documents.queries';
import type { FastifyRequest } from 'fastify';
import type { Kysely, Transaction } from 'kysely';

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

export { IDEMPOTENCY_KEY_MAX, idempotencyKeyField } from '@api/contracts/idempotency';

const isIdempotencyKey = (key: string) =>
  key.length >= 1 && key.length <= IDEMPOTENCY_KEY_MAX && IDEMPOTENCY_KEY_SHAPE.test(key);

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

// ---- the timeline (commands/support/named-timeline.ts) ----

export { namedTimeline, type Person } from '@commands/support/named-timeline';
