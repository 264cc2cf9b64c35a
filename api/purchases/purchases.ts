import { logActivity } from '@api/activity';
import { GridPage, Ok, ok, refusals } from '@api/answers';
import { type SellerSession, seller } from '@api/auth/session';
import { DateFilter, gridQuery, setFilter, TextFilter } from '@api/contracts/grid';
import { masterCodesOfTenant, standardMasterCodes } from '@api/documents';
import { ApiError, invalid } from '@api/errors';
import { IdParams } from '@api/ids';
import { runUpdate } from '@api/workflows';
import { handlePurchaseCommand, loadPurchase } from '@commands/purchases/documents';
import { fromUnits, toUnits } from '@domain/purchases/money';
import {
  FINAL_PURCHASE_STATUSES,
  PURCHASE_STATUSES,
  type Purchase,
  type PurchaseLine,
} from '@domain/purchases/purchase';
import { DomainError } from '@domain/shared/errors';
import type { Database } from '@infra/db';
import { withTenant } from '@infra/db/tenant';
import { allOf, dateWhere, pageWindow, searchWhere, sortTerms, textWhere } from '@projections/runtime/grid';
import {
  approvePurchaseUpdate,
  cancelPurchaseUpdate,
  PURCHASE_WORKFLOW,
  type PurchaseWorkflowInput,
  placePurchaseUpdate,
  purchaseWorkflowId,
  rejectPurchaseUpdate,
  returnPurchaseUpdate,
  voidPurchaseUpdate,
} from '@workflows/purchase-protocol';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import { z } from 'zod';
import {
  actionRoutes,
  actorOf,
  commandStore,
  conflicts,
  Day,
  documentIdOf,
  documentNumber,
  findSupplier,
  findWarehouse,
  IdempotencyKey,
  Money,
  managing,
  masterCodeMissing,
  Pieces,
  PurchaseCode,
  type PurchaseDeps,
  purchaseSettings,
  ReasonText,
  RefId,
  refusalAnswer,
  startWorkflow,
  tags,
  text,
  viewing,
  workflowHandlers,
} from './common';
import { PurchaseDetail, purchaseDetail, purchaseOf } from './documents';

/**
 * Purchase orders (spec §3 Purchase, §4 states; domain/purchases/purchase.ts has the state machine). The route
 * records a new order (a draft, `pending`) and starts its workflow (`purchase-<tenant>-<id>`); every later action is
 * an update of that workflow, which refuses what the order's state does not allow — the answer is then a 4xx and
 * nothing is recorded or moved. See api/purchases/index.ts for the list of routes.
 */

const unitCostInvalid = invalid(PurchaseCode.unitCostInvalid, 'purchases.unit_cost_invalid');
const itemsRequired = invalid(PurchaseCode.itemsRequired, 'purchases.items_required');

export const PurchaseItem = z.strictObject({
  master_code_id: RefId,
  quantity: Pieces(1),
  unit_cost: Money(unitCostInvalid),
});

export const NewPurchase = z.strictObject({
  reference: text(100).default(''),
  /** The order's date (yyyy-mm-dd); today (UTC) when left out. */
  date: Day.optional(),
  supplier_id: RefId,
  warehouse_id: RefId,
  items: z.array(PurchaseItem, { error: itemsRequired }).min(1, itemsRequired).max(500, itemsRequired),
  discount: Money(invalid(PurchaseCode.discountInvalid, 'purchases.discount_invalid')).default('0.0000'),
  estimated_arrival: Day.nullable().default(null),
  note: text(500).default(''),
  /** Place the order at once (ordered, or pending approval); otherwise it is saved as a draft (pending). */
  place: z.boolean({ error: invalid(400, 'purchases.flag_invalid') }).default(false),
  idempotency_key: IdempotencyKey.optional(),
});
export type NewPurchase = z.infer<typeof NewPurchase>;

const ReasonBody = z.strictObject({ reason: ReasonText });
const ReturnBody = z.strictObject({
  reason: ReasonText,
  items: z
    .array(z.strictObject({ master_code_id: RefId, quantity: Pieces(1) }), { error: itemsRequired })
    .min(1, itemsRequired)
    .max(500, itemsRequired),
});

const Settings = z.object({
  purchase_approval: z.boolean(),
  goods_receipt_approval: z.boolean(),
  updated_at: z.string().nullable(),
});
const SettingsBody = z.strictObject({
  purchase_approval: z.boolean({ error: invalid(400, 'purchases.flag_invalid') }),
  goods_receipt_approval: z.boolean({ error: invalid(400, 'purchases.flag_invalid') }),
});

export const PurchaseListRow = z.object({
  id: z.string(),
  po_number: z.string(),
  reference: z.string(),
  date: z.string(),
  supplier_id: z.string(),
  supplier_name: z.string().nullable(),
  warehouse_id: z.string(),
  warehouse_name: z.string().nullable(),
  status: z.enum(PURCHASE_STATUSES),
  item_count: z.number().int(),
  quantity: z.number().int(),
  received: z.number().int(),
  subtotal: z.string(),
  discount: z.string(),
  total: z.string(),
  estimated_arrival: z.string().nullable(),
  open_receipts: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});

const SORT_COLUMNS = [
  'po_number',
  'reference',
  'date',
  'supplier_name',
  'warehouse_name',
  'status',
  'item_count',
  'quantity',
  'received',
  'total',
  'estimated_arrival',
  'created_at',
] as const;
const ListQuery = gridQuery(SORT_COLUMNS, {
  po_number: TextFilter,
  reference: TextFilter,
  supplier_name: TextFilter,
  warehouse_name: TextFilter,
  status: setFilter(PURCHASE_STATUSES),
  date: DateFilter,
  created_at: DateFilter,
}).extend({
  supplier_id: z.string().max(64).optional(),
  /** One status only (the console's status picker; the grid's own filter takes several). */
  status: z.enum(PURCHASE_STATUSES).optional(),
});

const COLUMNS: Record<(typeof SORT_COLUMNS)[number], RawBuilder<unknown>> = {
  po_number: sql`p.po_number`,
  reference: sql`p.reference`,
  date: sql`p.purchase_date`,
  supplier_name: sql`s.name`,
  warehouse_name: sql`w.name`,
  status: sql`p.status`,
  item_count: sql`p.item_count`,
  quantity: sql`p.quantity`,
  received: sql`p.received`,
  total: sql`p.total`,
  estimated_arrival: sql`p.estimated_arrival`,
  created_at: sql`p.created_at`,
};

const today = () => new Date().toISOString().slice(0, 10);

/** The answer of a domain refusal when recording a new order. */
function creationRefusal(error: unknown, codes: ReadonlyMap<string, { code: string }>): unknown {
  if (error instanceof DomainError) return refusalAnswer(error.code, error.params, codes) ?? error;
  return error;
}

export interface CreatedPurchase {
  purchaseId: string;
  poNumber: string;
  replayed: boolean;
}

/**
 * Records a new order and starts its workflow; places it when asked. The supplier must be the account's and active,
 * the warehouse the account's, every item a standard master code of the account (a combo has no stock: 409).
 */
export async function createPurchase(
  deps: PurchaseDeps,
  session: SellerSession,
  purchaseId: string,
  input: Omit<NewPurchase, 'idempotency_key'>,
  opts: { commandId: string },
): Promise<CreatedPurchase> {
  const { db, workflows } = deps;
  const store = commandStore(deps.store);
  const { tenantId } = session;
  const supplier = await findSupplier(db, tenantId, input.supplier_id);
  const warehouse = await findWarehouse(db, tenantId, input.warehouse_id);
  const items = await standardMasterCodes(db, tenantId, input.items, {
    missing: (item) => masterCodeMissing(item.master_code_id),
    combo: (code) => new ApiError(409, PurchaseCode.comboRefused, 'purchases.combo_refused', { code }),
    repeated: (code) => new ApiError(400, PurchaseCode.itemRepeated, 'purchases.item_repeated', { code }),
  });
  const codes = new Map(items.map(({ masterCode }) => [masterCode.id, masterCode]));
  const lines: PurchaseLine[] = items.map(({ line, masterCode }) => ({
    masterCodeId: masterCode.id,
    quantity: line.quantity,
    unitCost: line.unit_cost,
  }));
  // A retried creation (the same key) finds the order it made: it is answered as it stands.
  const existing = await loadPurchase(store, tenantId, purchaseId);
  if (existing.state.status !== 'none') {
    return { purchaseId, poNumber: existing.state.poNumber, replayed: true };
  }
  if (supplier.status !== 'active')
    throw new ApiError(409, PurchaseCode.supplierInactive, 'purchases.supplier_inactive', {
      name: supplier.name,
    });
  const poNumber = await documentNumber(db, tenantId, 'purchase', purchaseId);
  let created: Awaited<ReturnType<typeof handlePurchaseCommand>>;
  try {
    created = await handlePurchaseCommand(
      store,
      purchaseId,
      {
        type: 'CreatePurchase',
        purchaseId,
        poNumber,
        reference: input.reference,
        date: input.date ?? today(),
        supplierId: supplier.id,
        warehouseId: warehouse.id,
        lines,
        discount: input.discount,
        estimatedArrival: input.estimated_arrival,
        note: input.note,
        by: session.userId,
      },
      {
        tenantId,
        userId: session.userId,
        commandId: opts.commandId,
        occurredAt: new Date().toISOString(),
      },
    );
  } catch (error) {
    throw creationRefusal(error, codes);
  }
  if (created.state.status === 'none') throw new Error('a created purchase has no state');
  const workflowInput: PurchaseWorkflowInput = {
    tenantId,
    purchaseId,
    purchase: created.state,
    revision: Number(created.revision ?? 0),
  };
  await startWorkflow(workflows, PURCHASE_WORKFLOW, purchaseWorkflowId(tenantId, purchaseId), workflowInput);
  if (input.place) {
    const settings = await purchaseSettings(db, tenantId);
    await runUpdate(
      workflows,
      purchaseWorkflowId(tenantId, purchaseId),
      placePurchaseUpdate,
      [{ ...actorOf(session), approvalRequired: settings.purchase_approval }],
      workflowHandlers(codes),
    );
  }
  return { purchaseId, poNumber, replayed: created.replayed };
}

/** Starts an open order's workflow again from the order as recorded (null: the order is closed). */
export const purchaseRestart = (
  deps: PurchaseDeps,
  tenantId: string,
  purchase: Purchase,
  revision: number,
) =>
  FINAL_PURCHASE_STATUSES.includes(purchase.status)
    ? null
    : () =>
        startWorkflow(deps.workflows, PURCHASE_WORKFLOW, purchaseWorkflowId(tenantId, purchase.purchaseId), {
          tenantId,
          purchaseId: purchase.purchaseId,
          purchase,
          revision,
        } satisfies PurchaseWorkflowInput);

export const purchaseRoutes: FastifyPluginAsyncZod<PurchaseDeps> = async (app, deps) => {
  const { db, workflows } = deps;

  app.get(
    '/api/purchases',
    {
      config: viewing,
      schema: {
        tags,
        summary: 'The purchase list (ag-grid Infinite Row Model); live view `purchases`',
        querystring: ListQuery,
        response: { 200: Ok(GridPage(PurchaseListRow)), ...refusals },
      },
    },
    async (request) => {
      const { tenantId } = seller(request);
      const query = request.query;
      const filter = query.filterModel;
      const where = [
        filter.po_number && textWhere(sql<string>`p.po_number`, filter.po_number),
        filter.reference && textWhere(sql<string>`p.reference`, filter.reference),
        filter.supplier_name && textWhere(sql<string>`coalesce(s.name, '')`, filter.supplier_name),
        filter.warehouse_name && textWhere(sql<string>`coalesce(w.name, '')`, filter.warehouse_name),
        filter.status && sql<boolean>`p.status = ANY(${filter.status.values}::text[])`,
        filter.date && dateWhere(sql<Date>`(p.purchase_date || 'T00:00:00Z')::timestamptz`, filter.date),
        filter.created_at && dateWhere(sql<Date>`p.created_at`, filter.created_at),
        query.supplier_id && sql<boolean>`p.supplier_id = ${query.supplier_id.toLowerCase()}`,
        query.status && sql<boolean>`p.status = ${query.status}`,
        query.search &&
          searchWhere([sql`p.po_number`, sql`p.reference`, sql`coalesce(s.name, '')`], query.search),
      ].filter((part) => !!part) as RawBuilder<boolean>[];
      const order = sortTerms(query.sortModel, COLUMNS);
      const { limit, offset } = pageWindow(query);
      const base = (trx: Kysely<Database>) =>
        trx
          .selectFrom('purchases as p')
          .leftJoin('suppliers as s', (join) =>
            join
              .on(sql`s.id::text`, '=', sql.ref('p.supplier_id'))
              .on('s.tenant_id', '=', sql.ref('p.tenant_id')),
          )
          .leftJoin('warehouses as w', (join) =>
            join
              .on(sql`w.id::text`, '=', sql.ref('p.warehouse_id'))
              .on('w.tenant_id', '=', sql.ref('p.tenant_id')),
          )
          .where('p.tenant_id', '=', tenantId)
          .where(allOf(where));
      const { rows, count } = await withTenant(db, tenantId, async (trx) => ({
        rows: await base(trx)
          .selectAll('p')
          .select(['s.name as supplier_name', 'w.name as warehouse_name'])
          .orderBy(sql.join([...order, sql`p.created_at DESC`, sql`p.id DESC`]))
          .limit(limit)
          .offset(offset)
          .execute(),
        count: (await base(trx).select(sql<number>`count(*)::int`.as('count')).executeTakeFirstOrThrow())
          .count,
      }));
      return ok(request, {
        rows: rows.map((row) => ({
          id: row.id,
          po_number: row.po_number,
          reference: row.reference,
          date: row.purchase_date,
          supplier_id: row.supplier_id,
          supplier_name: row.supplier_name,
          warehouse_id: row.warehouse_id,
          warehouse_name: row.warehouse_name,
          status: row.status as (typeof PURCHASE_STATUSES)[number],
          item_count: row.item_count,
          quantity: Number(row.quantity),
          received: Number(row.received),
          subtotal: fromUnits(toUnits(row.subtotal)),
          discount: fromUnits(toUnits(row.discount)),
          total: fromUnits(toUnits(row.total)),
          estimated_arrival: row.estimated_arrival,
          open_receipts: row.open_receipts,
          created_at: row.created_at.toISOString(),
          updated_at: row.updated_at.toISOString(),
        })),
        lastRow: count,
      });
    },
  );

  app.post(
    '/api/purchases',
    {
      config: managing,
      schema: {
        tags,
        summary:
          'Raise a purchase order: saved as a draft (pending), or placed at once with place: true (ordered, or pending approval when the account requires it). Idempotency-Key: a retry creates nothing twice',
        body: NewPurchase,
        response: { 200: Ok(PurchaseDetail), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      const session = seller(request);
      const { idempotency_key: key, ...input } = request.body;
      const purchaseId = documentIdOf(request, session.tenantId, 'purchase', key);
      const created = await createPurchase(deps, session, purchaseId, input, {
        commandId: `purchase-create:${purchaseId}`,
      });
      if (!created.replayed) {
        await logActivity(db, {
          tenantId: session.tenantId,
          userId: session.userId,
          action: 'purchase.created',
          subjectType: 'purchase',
          subjectId: purchaseId,
          detail: { po_number: created.poNumber, placed: input.place },
        });
      }
      return ok(
        request,
        await purchaseDetail(db, commandStore(deps.store), session, purchaseId),
        'purchases.created',
        { poNumber: created.poNumber },
      );
    },
  );

  app.get(
    '/api/purchases/settings',
    {
      config: viewing,
      schema: {
        tags,
        summary: "The account's purchase settings: whether orders and goods receive notes need an approval",
        response: { 200: Ok(Settings), ...refusals },
      },
    },
    async (request) => ok(request, await purchaseSettings(db, seller(request).tenantId)),
  );

  app.put(
    '/api/purchases/settings',
    {
      config: { access: 'owner' },
      schema: {
        tags,
        summary: "Change the account's purchase settings (the owner only)",
        body: SettingsBody,
        response: { 200: Ok(Settings), ...refusals },
      },
    },
    async (request) => {
      const session = seller(request);
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('purchase_settings')
          .values({ tenant_id: session.tenantId, ...request.body, updated_by: session.userId })
          .onConflict((oc) =>
            oc
              .column('tenant_id')
              .doUpdateSet({ ...request.body, updated_by: session.userId, updated_at: new Date() }),
          )
          .execute();
        await logActivity(trx, {
          tenantId: session.tenantId,
          userId: session.userId,
          action: 'purchase_settings.updated',
          subjectType: 'purchase_settings',
          subjectId: session.tenantId,
          detail: request.body,
        });
      });
      return ok(request, await purchaseSettings(db, session.tenantId), 'purchases.settings_saved');
    },
  );

  app.get(
    '/api/purchases/:id',
    {
      config: viewing,
      schema: {
        tags,
        summary:
          'One purchase order: its lines (with the moving average cost), goods receive notes, the actions the caller may take and the timeline',
        params: IdParams,
        response: { 200: Ok(PurchaseDetail), ...refusals },
      },
    },
    async (request) =>
      ok(request, await purchaseDetail(db, commandStore(deps.store), seller(request), request.params.id)),
  );

  const action = actionRoutes(app, '/api/purchases', PurchaseDetail, async (session, id) => {
    const { purchase, revision } = await purchaseOf(commandStore(deps.store), session.tenantId, id);
    return {
      workflowId: purchaseWorkflowId(session.tenantId, purchase.purchaseId),
      codes: await masterCodesOfTenant(
        db,
        session.tenantId,
        purchase.lines.map((line) => line.masterCodeId),
      ),
      // An open order whose workflow is gone gets it back (api/workflows.ts withWorkflow).
      restart: purchaseRestart(deps, session.tenantId, purchase, revision),
      answer: async (name) => ({
        detail: await purchaseDetail(db, commandStore(deps.store), session, purchase.purchaseId),
        key: `purchases.done.${name}`,
        params: { poNumber: purchase.poNumber },
      }),
    };
  });

  const Empty = z.strictObject({}).default({});

  action(
    'place',
    'Place a draft order: ordered (its items become incoming at the warehouse), or pending approval when the account requires it',
    Empty,
    async (session, workflowId, _body, handlers) => {
      const settings = await purchaseSettings(db, session.tenantId);
      await runUpdate(
        workflows,
        workflowId,
        placePurchaseUpdate,
        [{ ...actorOf(session), approvalRequired: settings.purchase_approval }],
        handlers,
      );
    },
  );
  action(
    'approve',
    'Approve an order pending approval (not by its creator, unless the owner): it becomes ordered',
    Empty,
    (session, workflowId, _body, handlers) =>
      runUpdate(workflows, workflowId, approvePurchaseUpdate, [actorOf(session)], handlers),
  );
  action(
    'reject',
    'Reject an order pending approval: it goes back to pending with the reason',
    ReasonBody,
    (session, workflowId, body, handlers) =>
      runUpdate(
        workflows,
        workflowId,
        rejectPurchaseUpdate,
        [{ ...actorOf(session), reason: body.reason }],
        handlers,
      ),
  );
  action(
    'cancel',
    'Cancel an order before anything was received (no goods receive note open): what was expected stops being incoming',
    ReasonBody.default({ reason: '' }),
    (session, workflowId, body, handlers) =>
      runUpdate(
        workflows,
        workflowId,
        cancelPurchaseUpdate,
        [{ ...actorOf(session), reason: body.reason }],
        handlers,
      ),
  );
  action(
    'void',
    'Void (annul) an order not fully received, with no note open: received stock stays, the rest stops being incoming',
    ReasonBody.default({ reason: '' }),
    (session, workflowId, body, handlers) =>
      runUpdate(
        workflows,
        workflowId,
        voidPurchaseUpdate,
        [{ ...actorOf(session), reason: body.reason }],
        handlers,
      ),
  );
  action(
    'return',
    'Return received goods to the supplier: they leave the stock, and the order becomes returned (closed)',
    ReturnBody,
    async (session, workflowId, body, handlers) => {
      const codes = await masterCodesOfTenant(
        db,
        session.tenantId,
        body.items.map((item) => item.master_code_id),
      );
      const lines = body.items.map((item) => {
        const code = codes.get(item.master_code_id.toLowerCase());
        if (!code) throw masterCodeMissing(item.master_code_id);
        return { masterCodeId: code.id, quantity: item.quantity };
      });
      await runUpdate(
        workflows,
        workflowId,
        returnPurchaseUpdate,
        [{ ...actorOf(session), reason: body.reason, lines }],
        handlers,
      );
    },
  );
};
