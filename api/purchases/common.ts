import { randomUUID } from 'node:crypto';
import { ErrorAnswer, Ok, ok, refusals } from '@api/answers';
import { type SellerSession, seller } from '@api/auth/session';
import {
  IDEMPOTENCY_KEY_MAX,
  idempotencyKeyField,
  idempotencyKeyOf,
  placeOfTenant,
  wholeStore,
} from '@api/documents';
import { ApiError, invalid } from '@api/errors';
import type { MessageParams } from '@api/i18n';
import { IdParams, isUuid } from '@api/ids';
import {
  type runUpdate,
  startOrFindWorkflow,
  type WorkflowDeps,
  type WorkflowRefusal,
  withWorkflow as withWorkflowOf,
} from '@api/workflows';
import { eventIdFor } from '@commands/support/ids';
import type { Database } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import type { Actor } from '@workflows/purchase-protocol';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type Kysely, sql, type Transaction } from 'kysely';
import { z } from 'zod';

/**
 * What the purchasing routes share (api/purchases/index.ts lists them): result codes 520–549, field schemas, the
 * lookups every route starts with (a supplier, warehouse or master code of another tenant is simply missing), the
 * account's purchase settings, document numbers, the idempotency key, and how a workflow's or the domain's refusal
 * becomes an answer.
 */

export const PurchaseCode = {
  /** "Must fill store name" (spec §5): a supplier's name. */
  supplierNameRequired: 520,
  supplierCompanyRequired: 521,
  supplierContactInvalid: 522,
  supplierAddressRequired: 523,
  supplierCityRequired: 524,
  supplierPostalCodeRequired: 525,
  supplierStateRequired: 526,
  supplierCountryRequired: 527,
  supplierEmailInvalid: 528,
  /** Another supplier of the account has the code (HTTP 409). */
  supplierCodeTaken: 529,
  /** A bulk file with bad rows: nothing applied, every bad row listed. */
  uploadRows: 530,
  /** A bulk file that cannot be read at all (HTTP 400; 415 when the body is not a file). */
  uploadFile: 531,
  /** An inactive supplier cannot take a new order (HTTP 409). */
  supplierInactive: 532,
  quantityInvalid: 533,
  unitCostInvalid: 534,
  /** A combo has no stock of its own: it cannot be bought as a line (HTTP 409). */
  comboRefused: 535,
  itemRepeated: 536,
  discountInvalid: 537,
  dateInvalid: 538,
  /** The order's or note's state does not allow the action (HTTP 409): also an open note, goods already received, a
   * note waiting for its approval. */
  wrongState: 539,
  /** Another action on the same document is running: a double click (HTTP 409). */
  inProgress: 540,
  /** The creator approving (or rejecting) their own document; only the owner may (HTTP 403). */
  approverIsCreator: 541,
  /** Receiving more than is still outstanding, or returning more than was received (HTTP 409). */
  moreThanOutstanding: 542,
  /** A receipt line that receives nothing, or more damaged than received. */
  receiptLineInvalid: 543,
  notOnPurchase: 544,
  itemsRequired: 545,
  keyInvalid: 546,
  /** The document's process has ended (HTTP 409). */
  closed: 547,
  textInvalid: 548,
  choiceInvalid: 549,
} as const;

export interface PurchaseDeps {
  db: Kysely<Database>;
  /** The app's event store (AppDeps types only what /api/health reads). */
  store: Pick<EventStore, 'kind'>;
  workflows: WorkflowDeps;
}

export const tags = ['purchases'];
export const viewing = { access: { permission: 'purchases-index' } } as const;
export const managing = { access: { permission: 'purchases-manage' } } as const;

/** The store as a command handler needs it. */
export const commandStore = (store: Pick<EventStore, 'kind'>) => wholeStore(store, 'purchase');

export const actorOf = (session: SellerSession): Actor => ({
  userId: session.userId,
  owner: session.kind === 'owner',
});

// ---- field schemas ----

export const tooLong = (max: number) => invalid(PurchaseCode.textInvalid, 'purchases.too_long', { max });

export const text = (max: number) =>
  z
    .string({ error: invalid(PurchaseCode.textInvalid, 'purchases.text_invalid') })
    .trim()
    .max(max, tooLong(max));

export const requiredText = (max: number, code: number, key: string) =>
  z
    .string({ error: invalid(code, key) })
    .trim()
    .min(1, invalid(code, key))
    .max(max, tooLong(max));

/** An id in a body; one that is not a uuid is looked up all the same and found missing (404). */
export const RefId = z
  .string({ error: invalid(400, 'purchases.id_invalid') })
  .trim()
  .min(1, invalid(400, 'purchases.id_invalid'))
  .max(64, invalid(400, 'purchases.id_invalid'));

export const QUANTITY_MAX = 1_000_000_000;
const quantityInvalid = invalid(PurchaseCode.quantityInvalid, 'purchases.quantity_invalid', {
  max: QUANTITY_MAX,
});

/** A whole number of pieces within [least, QUANTITY_MAX]. */
export const Pieces = (least: number) =>
  z
    .number({ error: quantityInvalid })
    .int(quantityInvalid)
    .min(least, quantityInvalid)
    .max(QUANTITY_MAX, quantityInvalid);

/**
 * An amount as a JSON number or a numeric string, never negative, at most four decimals and fourteen digits before
 * the point; answered as four-place text ("12.5000").
 */
export const Money = (message: string) =>
  z
    .union([z.number({ error: message }), z.string({ error: message }).max(40, message)], { error: message })
    .transform((value, ctx) => {
      const textValue = typeof value === 'number' ? String(value) : value.trim();
      if (!/^\d{1,14}(\.\d{1,4})?$/.test(textValue)) {
        ctx.addIssue({ code: 'custom', message, input: value });
        return z.NEVER;
      }
      const [whole = '0', fraction = ''] = textValue.split('.');
      return `${BigInt(whole)}.${fraction.padEnd(4, '0')}`;
    });

const dateInvalid = invalid(PurchaseCode.dateInvalid, 'purchases.date_invalid');
/** A calendar day, yyyy-mm-dd. */
export const Day = z
  .string({ error: dateInvalid })
  .regex(/^\d{4}-\d{2}-\d{2}$/, dateInvalid)
  .refine((day) => {
    const date = new Date(`${day}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === day;
  }, dateInvalid);

export const ReasonText = text(500).default('');

// ---- idempotency ----

export const IdempotencyKey = idempotencyKeyField(
  invalid(PurchaseCode.keyInvalid, 'purchases.idempotency_key_invalid', { max: IDEMPOTENCY_KEY_MAX }),
);

/**
 * The id of a document a request creates: derived from the `Idempotency-Key` header (or the body's
 * `idempotency_key`) and the tenant, so a retried request names the same document and creates nothing twice; a fresh
 * id without a key.
 */
export function documentIdOf(
  request: FastifyRequest,
  tenantId: string,
  kind: string,
  bodyKey: string | undefined,
): string {
  const key = idempotencyKeyOf(request, bodyKey, {
    invalid: () =>
      new ApiError(400, PurchaseCode.keyInvalid, 'purchases.idempotency_key_invalid', {
        max: IDEMPOTENCY_KEY_MAX,
      }),
  });
  return key === undefined ? randomUUID() : eventIdFor(`${kind}:${tenantId}:${key}`);
}

// ---- lookups ----

type Db = Kysely<Database> | Transaction<Database>;

export const supplierMissing = () => new ApiError(404, 404, 'purchases.supplier_not_found');
export const warehouseMissing = () => new ApiError(404, 404, 'purchases.warehouse_not_found');
export const masterCodeMissing = (code = '') =>
  new ApiError(404, 404, 'purchases.master_code_not_found', { code });
export const purchaseMissing = () => new ApiError(404, 404, 'purchases.not_found');
export const goodsReceiptMissing = () => new ApiError(404, 404, 'purchases.grn.not_found');

export async function findSupplier(db: Db, tenantId: string, id: string) {
  const row = isUuid(id)
    ? await db
        .selectFrom('suppliers')
        .select(['id', 'code', 'name', 'company', 'status'])
        .where('tenant_id', '=', tenantId)
        .where('id', '=', id.toLowerCase())
        .executeTakeFirst()
    : undefined;
  if (!row) throw supplierMissing();
  return row;
}

export async function findWarehouse(db: Db, tenantId: string, id: string) {
  const row = await placeOfTenant(db, tenantId, id);
  if (!row) throw warehouseMissing();
  return row;
}

// ---- settings ----

export interface PurchaseSettings {
  purchase_approval: boolean;
  goods_receipt_approval: boolean;
  updated_at: string | null;
}

export async function purchaseSettings(db: Db, tenantId: string): Promise<PurchaseSettings> {
  const row = await db
    .selectFrom('purchase_settings')
    .select(['purchase_approval', 'goods_receipt_approval', 'updated_at'])
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
  return row
    ? {
        purchase_approval: row.purchase_approval,
        goods_receipt_approval: row.goods_receipt_approval,
        updated_at: row.updated_at.toISOString(),
      }
    : { purchase_approval: false, goods_receipt_approval: false, updated_at: null };
}

// ---- document numbers ----

const PREFIX = { purchase: 'PO', goods_receipt: 'GRN' } as const;

/**
 * The document's number: the account's next in the kind's sequence (PO-000001, GRN-000001), or the one it was given
 * before (a retried creation). One writer per account and kind at a time.
 */
export async function documentNumber(
  db: Kysely<Database>,
  tenantId: string,
  kind: 'purchase' | 'goods_receipt',
  documentId: string,
): Promise<string> {
  const number = await db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(hashtext(${`purchase-number|${kind}|${tenantId}`}))`.execute(trx);
    const given = await trx
      .selectFrom('purchase_numbers')
      .select('number')
      .where('tenant_id', '=', tenantId)
      .where('kind', '=', kind)
      .where('document_id', '=', documentId)
      .executeTakeFirst();
    if (given) return given.number;
    const last = await trx
      .selectFrom('purchase_numbers')
      .select(sql<number>`coalesce(max(number), 0)::int`.as('last'))
      .where('tenant_id', '=', tenantId)
      .where('kind', '=', kind)
      .executeTakeFirstOrThrow();
    const next = last.last + 1;
    await trx
      .insertInto('purchase_numbers')
      .values({ tenant_id: tenantId, kind, document_id: documentId, number: next })
      .execute();
    return next;
  });
  return `${PREFIX[kind]}-${String(number).padStart(6, '0')}`;
}

// ---- refusals ----

interface Refusal {
  status: number;
  code: number;
  key: string;
}

/** Every code a purchasing workflow or decider refuses with, as the answer it means. */
const refusalOf: Record<string, Refusal> = {
  WRONG_STATE: { status: 409, code: PurchaseCode.wrongState, key: 'purchases.wrong_state' },
  RECEIPT_OPEN: { status: 409, code: PurchaseCode.wrongState, key: 'purchases.receipt_open' },
  ALREADY_RECEIVED: { status: 409, code: PurchaseCode.wrongState, key: 'purchases.already_received' },
  APPROVAL_REQUIRED: { status: 409, code: PurchaseCode.wrongState, key: 'purchases.grn.approval_required' },
  RECEIPT_NOT_OPEN: { status: 409, code: PurchaseCode.wrongState, key: 'purchases.grn.not_open' },
  ACTION_IN_PROGRESS: { status: 409, code: PurchaseCode.inProgress, key: 'purchases.in_progress' },
  APPROVER_IS_CREATOR: {
    status: 403,
    code: PurchaseCode.approverIsCreator,
    key: 'purchases.approver_is_creator',
  },
  RECEIVE_MORE_THAN_OUTSTANDING: {
    status: 409,
    code: PurchaseCode.moreThanOutstanding,
    key: 'purchases.grn.more_than_outstanding',
  },
  RETURN_MORE_THAN_RECEIVED: {
    status: 409,
    code: PurchaseCode.moreThanOutstanding,
    key: 'purchases.return_more_than_received',
  },
  RECEIPT_LINE_EMPTY: { status: 400, code: PurchaseCode.receiptLineInvalid, key: 'purchases.grn.line_empty' },
  DAMAGED_MORE_THAN_RECEIVED: {
    status: 400,
    code: PurchaseCode.receiptLineInvalid,
    key: 'purchases.grn.damaged_more_than_received',
  },
  NOT_ON_PURCHASE: { status: 400, code: PurchaseCode.notOnPurchase, key: 'purchases.not_on_purchase' },
  QUANTITY_NOT_POSITIVE: {
    status: 400,
    code: PurchaseCode.quantityInvalid,
    key: 'purchases.quantity_invalid',
  },
  ITEMS_REQUIRED: { status: 400, code: PurchaseCode.itemsRequired, key: 'purchases.items_required' },
  ITEM_REPEATED: { status: 400, code: PurchaseCode.itemRepeated, key: 'purchases.item_repeated' },
  UNIT_COST_INVALID: { status: 400, code: PurchaseCode.unitCostInvalid, key: 'purchases.unit_cost_invalid' },
  DISCOUNT_TOO_LARGE: {
    status: 400,
    code: PurchaseCode.discountInvalid,
    key: 'purchases.discount_too_large',
  },
  ARRIVAL_BEFORE_DATE: { status: 400, code: PurchaseCode.dateInvalid, key: 'purchases.arrival_before_date' },
};

/**
 * A refusal as its answer. `codes` names master codes by id, so a message says "SKU-1" rather than an id; a status
 * is shown in the caller's words by the console, here as it is.
 */
export function refusalAnswer(
  code: string,
  params: Record<string, string | number>,
  codes: ReadonlyMap<string, { code: string }> = new Map(),
): ApiError | undefined {
  const refusal = refusalOf[code];
  if (!refusal) return undefined;
  const named: MessageParams = { ...params, max: QUANTITY_MAX };
  if (typeof params.masterCodeId === 'string') {
    named.code = codes.get(params.masterCodeId)?.code ?? params.masterCodeId;
  }
  return new ApiError(refusal.status, refusal.code, refusal.key, named);
}

/** The document's process has ended: its state allows no action any more. */
export const closedRefusal = () => new ApiError(409, PurchaseCode.closed, 'purchases.closed');

/** Starts a workflow or finds it running (the id is the business key), mapping an unreachable server to 503. */
export const startWorkflow = (workflows: WorkflowDeps, name: string, workflowId: string, input: unknown) =>
  startOrFindWorkflow(workflows, name, workflowId, input, closedRefusal);

/**
 * Runs an action on a document's workflow. A workflow that is gone while its document is still open (its start
 * failed after the document was recorded, say) is started again from the document, and the action tried once more.
 */
export const withWorkflow = <T>(run: () => Promise<T>, restart: (() => Promise<void>) | null) =>
  withWorkflowOf(
    run,
    restart,
    (error) => error instanceof ApiError && error.refusal!.code === PurchaseCode.closed,
  );

/** How a purchasing workflow's answer becomes the route's: its refusals with master codes named, a closed process 409. */
export const workflowHandlers = (codes: ReadonlyMap<string, { code: string }>) => ({
  refuse: (refusal: WorkflowRefusal) => refusalAnswer(refusal.code, refusal.params, codes),
  missing: closedRefusal,
});

export const conflicts = { 409: ErrorAnswer, 503: ErrorAnswer };

type App = Parameters<FastifyPluginAsyncZod<PurchaseDeps>>[0];
type Handlers = Parameters<typeof runUpdate>[4];

/** A document an action names, as the action route needs it. */
export interface ActionTarget<Detail> {
  workflowId: string;
  /** Its master codes by id, for refusal messages. */
  codes: ReadonlyMap<string, { code: string }>;
  /** Starts its workflow again while it is open (null once closed). */
  restart: (() => Promise<void>) | null;
  /** The document after the action, and the message saying what was done. */
  answer(action: string): Promise<{ detail: Detail; key: string; params: MessageParams }>;
}

/**
 * The action routes of a document, `POST <path>/:id/<action>`: the document is the caller's (404 otherwise), its
 * workflow runs the action or refuses with a 4xx and nothing moves, and the answer is the document after it.
 */
export function actionRoutes<Detail>(
  app: App,
  path: string,
  detail: z.ZodType<Detail>,
  target: (session: SellerSession, id: string) => Promise<ActionTarget<Detail>>,
) {
  // The answer is checked against `detail` when sent; typed here through `target`.
  const answers = { 200: Ok(detail as z.ZodType), ...refusals, ...conflicts };
  return <Body extends z.ZodType>(
    name: string,
    summary: string,
    body: Body,
    run: (
      session: SellerSession,
      workflowId: string,
      body: z.infer<Body>,
      handlers: Handlers,
    ) => Promise<unknown>,
  ) =>
    app.post(
      `${path}/:id/${name}`,
      {
        config: managing,
        schema: {
          tags,
          summary,
          params: IdParams,
          body,
          response: answers,
        },
      },
      async (request) => {
        const session = seller(request);
        const document = await target(session, request.params.id);
        await withWorkflow(
          () =>
            run(
              session,
              document.workflowId,
              request.body as z.infer<Body>,
              workflowHandlers(document.codes),
            ),
          document.restart,
        );
        const { detail: answer, key, params } = await document.answer(name);
        return ok(request, answer, key, params);
      },
    );
}
