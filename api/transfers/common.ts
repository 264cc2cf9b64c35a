import { randomUUID } from 'node:crypto';
import {
  IDEMPOTENCY_KEY_MAX,
  idempotencyKeyField,
  idempotencyKeyOf as keyOf,
  masterCodesOfTenant,
  placesOfTenant,
  standardMasterCodes,
  wholeStore,
} from '@api/documents';
import { ApiError, forbidden, invalid, notFound } from '@api/errors';
import { translate } from '@api/i18n';
import { isUuid } from '@api/ids';
import { eventIdFor } from '@commands/support/ids';
import type { PermissionKey } from '@domain/access/permissions';
import { DomainError } from '@domain/shared/errors';
import {
  MAX_LINES,
  MAX_QUANTITY,
  REFERENCE_MAX,
  REMARK_MAX,
  type TransferErrorCode,
} from '@domain/transfers/rules';
import type { Database } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { WorkflowDeps } from '../workflows';

/**
 * What the transfer routes share (api/transfers/index.ts has the route list): result codes 500–519, the body
 * schemas, the checks of places and master codes against the account, the idempotency key, and the answers of the
 * domain's refusals.
 */

export const TransferCode = {
  /** "Transfer source and destination branches must differ" (spec §5). */
  sameBranch: 500,
  linesRequired: 501,
  quantityInvalid: 502,
  masterCodeRepeated: 503,
  masterCodeNotFound: 504,
  /** A combo has no stock of its own: it cannot be transferred. */
  comboRefused: 505,
  placeNotFound: 506,
  rejectReasonRequired: 507,
  /** The request is no longer pending (HTTP 409). */
  requestNotPending: 508,
  /** The transfer's state does not allow the action (HTTP 409). */
  wrongState: 509,
  /** Another action on the transfer is still running: a double click (HTTP 409). */
  actionInProgress: 510,
  /** More than is in transit (HTTP 409). */
  receiveMoreThanInTransit: 511,
  receiptInvalid: 512,
  /** The source lacks the stock while the account refuses negative manual stock (HTTP 409). */
  insufficientStock: 513,
  /** Nothing to return, or nothing received yet (cancel instead) (HTTP 409). */
  nothingToReturn: 514,
  /** A stock step failed for good and the action was undone (HTTP 409). */
  actionFailed: 515,
  textInvalid: 516,
  keyInvalid: 517,
  /** The idempotency key was used for another document (HTTP 409). */
  keyReused: 518,
} as const;

export const tags = ['transfer-stock'];

export interface TransferDeps {
  db: Kysely<Database>;
  /** The app's event store (AppDeps types only what /api/health reads): the routes need it whole. */
  store: Pick<EventStore, 'kind'>;
  workflows: WorkflowDeps;
}

/** The store as a command handler needs it. */
export const documentStore = (store: Pick<EventStore, 'kind'>) => wholeStore(store, 'transfer');

// ---- access ----

export const REQUEST_READERS: readonly PermissionKey[] = [
  'transfer-manage-request',
  'transfer-approve-request',
];
export const TRANSFER_READERS: readonly PermissionKey[] = [
  'transfer-manage-transfer',
  'transfer-manage-request',
  'transfer-approve-request',
];

/** Read routes several roles need: any of `keys` will do (the route declares 'seller'). */
export { requireAny } from '@api/inventory/common';

// ---- bodies ----

const quantityInvalid = invalid(TransferCode.quantityInvalid, 'transfer.quantity_invalid', {
  max: MAX_QUANTITY,
});
const idInvalid = invalid(400, 'transfer.id_invalid');

/** An id in a body; one that is not a uuid is looked up all the same and found missing (404). */
export const RefId = z.string({ error: idInvalid }).trim().min(1, idInvalid).max(64, idInvalid);

export const text = (max: number, field: string) =>
  z
    .string({ error: invalid(TransferCode.textInvalid, 'transfer.text_invalid', { field }) })
    .trim()
    .max(max, invalid(TransferCode.textInvalid, 'transfer.too_long', { field, max }));

export const Line = z.strictObject({
  master_code_id: RefId,
  quantity: z
    .number({ error: quantityInvalid })
    .int(quantityInvalid)
    .min(1, quantityInvalid)
    .max(MAX_QUANTITY, quantityInvalid),
});

const linesRequired = invalid(TransferCode.linesRequired, 'transfer.lines_required', { max: MAX_LINES });

export const IdempotencyKey = idempotencyKeyField(
  invalid(TransferCode.keyInvalid, 'transfer.idempotency_key_invalid', { max: IDEMPOTENCY_KEY_MAX }),
);

/** A request or a transfer: from, to, reference, remark and lines (the same fields for both, spec §3). */
export const DocumentBody = z
  .strictObject({
    from_warehouse_id: RefId,
    to_warehouse_id: RefId,
    reference: text(REFERENCE_MAX, 'reference').optional(),
    remark: text(REMARK_MAX, 'remark').optional(),
    lines: z.array(Line, { error: linesRequired }).min(1, linesRequired).max(MAX_LINES, linesRequired),
    idempotency_key: IdempotencyKey.optional(),
  })
  .superRefine((body, ctx) => {
    if (body.from_warehouse_id.toLowerCase() === body.to_warehouse_id.toLowerCase()) {
      ctx.addIssue({
        code: 'custom',
        path: ['to_warehouse_id'],
        message: invalid(TransferCode.sameBranch, 'transfer.same_branch'),
      });
    }
    const seen = new Set<string>();
    body.lines.forEach((line, index) => {
      const id = line.master_code_id.toLowerCase();
      if (seen.has(id)) {
        ctx.addIssue({
          code: 'custom',
          path: ['lines', index, 'master_code_id'],
          message: invalid(TransferCode.masterCodeRepeated, 'transfer.master_code_repeated', {
            index: index + 1,
          }),
        });
      }
      seen.add(id);
    });
  });
export type DocumentBody = z.infer<typeof DocumentBody>;

export { IdParams } from '@api/ids';

/** A document id from the path: anything but a uuid is an id nobody has. */
export function documentId(id: string): string {
  if (!isUuid(id)) throw notFound();
  return id.toLowerCase();
}

// ---- idempotency ----

/**
 * The idempotency key of a request: the `Idempotency-Key` header or the body's `idempotency_key` (both given, they
 * must agree); undefined without one.
 */
export const idempotencyKeyOf = (request: FastifyRequest, bodyKey?: string) =>
  keyOf(request, bodyKey, {
    invalid: () =>
      new ApiError(400, TransferCode.keyInvalid, 'transfer.idempotency_key_invalid', {
        max: IDEMPOTENCY_KEY_MAX,
      }),
    mismatch: () => new ApiError(400, TransferCode.keyInvalid, 'transfer.idempotency_key_mismatch'),
  });

/** The command id of a request (scoped by tenant), fresh without a key: such a request is not retried safely. */
export const commandIdOf = (tenantId: string, purpose: string, key: string | undefined) =>
  key === undefined ? `${tenantId}:${purpose}:${randomUUID()}` : `${tenantId}:${purpose}:${key}`;

/** A new document's id: derived from the key, so a retried create makes the same document once. */
export const newDocumentId = (tenantId: string, purpose: string, key: string | undefined) =>
  key === undefined ? randomUUID() : eventIdFor(`${tenantId}:${purpose}:${key}`, 0);

/** The transfer an approved request makes: one id per request, whoever approves and however often. */
export const transferIdOfRequest = (tenantId: string, requestId: string) =>
  eventIdFor(`${tenantId}:transfer-of-request:${requestId}`, 0);

/** The reference a document gets when none is typed: its kind and the first part of its id. */
export const defaultReference = (prefix: 'TRQ' | 'TRF', id: string) =>
  `${prefix}-${id.slice(0, 8).toUpperCase()}`;

/** The context of a command a person's request runs: who, under which command id, now. */
export const commandContext = (session: { tenantId: string; userId: string }, commandId: string) => ({
  tenantId: session.tenantId,
  userId: session.userId,
  commandId,
  occurredAt: new Date().toISOString(),
});

/**
 * What creating a request or a transfer starts with: the key, from and to and the lines checked against the
 * account, the new document's id (derived from the key) with the fields of its creation, and the command's context.
 */
export async function newDocumentOf(
  request: FastifyRequest,
  db: Kysely<Database>,
  session: { tenantId: string; userId: string },
  body: DocumentBody,
  kind: 'transfer-request' | 'transfer',
) {
  const key = idempotencyKeyOf(request, body.idempotency_key);
  const places = await checkPlaces(db, session.tenantId, body.from_warehouse_id, body.to_warehouse_id);
  const lines = await checkMasterCodes(db, session.tenantId, body.lines);
  const id = newDocumentId(session.tenantId, kind, key);
  return {
    id,
    fields: {
      fromWarehouseId: places.from,
      toWarehouseId: places.to,
      reference: body.reference || defaultReference(kind === 'transfer' ? 'TRF' : 'TRQ', id),
      remark: body.remark ?? '',
      lines,
    },
    context: commandContext(session, commandIdOf(session.tenantId, kind, key)),
  };
}

// ---- checks against the account ----

const placeMissing = (which: 'from' | 'to') =>
  new ApiError(404, TransferCode.placeNotFound, `transfer.${which}_not_found`);

/** From and to: warehouses or branches of the account (another account's: not found, 404). */
export async function checkPlaces(
  db: Kysely<Database>,
  tenantId: string,
  fromId: string,
  toId: string,
): Promise<{ from: string; to: string }> {
  const found = await placesOfTenant(db, tenantId, [fromId, toId]);
  const from = fromId.toLowerCase();
  const to = toId.toLowerCase();
  if (!found.has(from)) throw placeMissing('from');
  if (!found.has(to)) throw placeMissing('to');
  return { from, to };
}

/** Each line's master code: the account's (else 404), standard (a combo has no stock: 400). */
export async function checkMasterCodes(
  db: Kysely<Database>,
  tenantId: string,
  lines: readonly { master_code_id: string; quantity: number }[],
): Promise<{ masterCodeId: string; quantity: number }[]> {
  const checked = await standardMasterCodes(db, tenantId, lines, {
    missing: (_line, index) =>
      new ApiError(404, TransferCode.masterCodeNotFound, 'transfer.master_code_not_found', {
        index: index + 1,
      }),
    combo: (code) => new ApiError(400, TransferCode.comboRefused, 'transfer.combo_refused', { code }),
  });
  return checked.map(({ line, masterCode }) => ({ masterCodeId: masterCode.id, quantity: line.quantity }));
}

// ---- the domain's refusals as answers ----

interface Refusal {
  status: number;
  code: number;
  key: string;
}

const refusals: Record<TransferErrorCode, Refusal | 'not-found' | 'forbidden'> = {
  SAME_BRANCH: { status: 400, code: TransferCode.sameBranch, key: 'transfer.same_branch' },
  LINES_REQUIRED: { status: 400, code: TransferCode.linesRequired, key: 'transfer.lines_required' },
  TOO_MANY_LINES: { status: 400, code: TransferCode.linesRequired, key: 'transfer.lines_required' },
  QUANTITY_NOT_POSITIVE: {
    status: 400,
    code: TransferCode.quantityInvalid,
    key: 'transfer.quantity_invalid',
  },
  MASTER_CODE_REPEATED: {
    status: 400,
    code: TransferCode.masterCodeRepeated,
    key: 'transfer.master_code_repeated_named',
  },
  TEXT_TOO_LONG: { status: 400, code: TransferCode.textInvalid, key: 'transfer.too_long' },
  DOCUMENT_EXISTS: { status: 409, code: TransferCode.keyReused, key: 'transfer.idempotency_key_reused' },
  DOCUMENT_NOT_FOUND: 'not-found',
  REQUEST_NOT_PENDING: {
    status: 409,
    code: TransferCode.requestNotPending,
    key: 'transfer.request_not_pending',
  },
  REJECT_REASON_REQUIRED: {
    status: 400,
    code: TransferCode.rejectReasonRequired,
    key: 'transfer.reject_reason_required',
  },
  WRONG_STATE: { status: 409, code: TransferCode.wrongState, key: 'transfer.wrong_state' },
  ALREADY_CONFIRMED: { status: 409, code: TransferCode.wrongState, key: 'transfer.already_confirmed' },
  ACTION_IN_PROGRESS: {
    status: 409,
    code: TransferCode.actionInProgress,
    key: 'transfer.action_in_progress',
  },
  NOT_ALLOWED: 'forbidden',
  NOTHING_TO_RECEIVE: { status: 400, code: TransferCode.receiptInvalid, key: 'transfer.nothing_to_receive' },
  RECEIVE_UNKNOWN_LINE: {
    status: 400,
    code: TransferCode.receiptInvalid,
    key: 'transfer.receive_unknown_line',
  },
  RECEIVE_MORE_THAN_IN_TRANSIT: {
    status: 409,
    code: TransferCode.receiveMoreThanInTransit,
    key: 'transfer.receive_more_than_in_transit',
  },
  NOTHING_IN_TRANSIT: { status: 409, code: TransferCode.nothingToReturn, key: 'transfer.nothing_in_transit' },
  NOTHING_RECEIVED: { status: 409, code: TransferCode.nothingToReturn, key: 'transfer.nothing_received' },
  INSUFFICIENT_STOCK: {
    status: 409,
    code: TransferCode.insufficientStock,
    key: 'transfer.insufficient_stock',
  },
  ACTION_FAILED: { status: 409, code: TransferCode.actionFailed, key: 'transfer.action_failed' },
};

const isTransferError = (code: string): code is TransferErrorCode => code in refusals;

/**
 * A refusal of the domain (a DomainError of a decider, or a workflow's refusal) as the answer it means, with its
 * message's words in the caller's language: statuses and actions translated, master codes named by their code.
 * Undefined for a code that is not the transfers' (a bug: the caller rethrows what it had).
 */
export async function refusalAnswer(
  request: FastifyRequest,
  db: Kysely<Database>,
  tenantId: string,
  code: string,
  params: Record<string, string | number>,
): Promise<ApiError | undefined> {
  if (!isTransferError(code)) return undefined;
  const refusal = refusals[code];
  if (refusal === 'not-found') return notFound();
  if (refusal === 'forbidden') return forbidden();
  const words: Record<string, string | number> = { ...params };
  if (typeof params.status === 'string') {
    words.status = translate(request.language, `transfer.status.${params.status}`);
  }
  if (typeof params.action === 'string') {
    words.action = translate(request.language, `transfer.action.${params.action}`);
  }
  if (typeof params.field === 'string') {
    words.field = translate(request.language, `transfer.field.${params.field}`);
  }
  if (typeof params.masterCodeId === 'string') {
    const found = await masterCodesOfTenant(db, tenantId, [params.masterCodeId]);
    words.code = found.get(params.masterCodeId)?.code ?? params.masterCodeId;
  }
  return new ApiError(refusal.status, refusal.code, refusal.key, words);
}

/** Runs `work`, answering a DomainError of the transfers with its refusal. */
export async function answeringRefusals<T>(
  request: FastifyRequest,
  db: Kysely<Database>,
  tenantId: string,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof DomainError) {
      const answer = await refusalAnswer(request, db, tenantId, error.code, error.params);
      if (answer) throw answer;
    }
    throw error;
  }
}
