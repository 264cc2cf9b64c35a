import { logActivity } from '@api/activity';
import { GridPage, Ok, ok, refusals } from '@api/answers';
import { seller } from '@api/auth/session';
import { DateFilter, gridQuery, setFilter, TextFilter } from '@api/contracts/grid';
import { masterCodesOfTenant } from '@api/documents';
import { ApiError, invalid } from '@api/errors';
import { IdParams } from '@api/ids';
import { runUpdate } from '@api/workflows';
import { loadGoodsReceipt } from '@commands/purchases/documents';
import {
  FINAL_GOODS_RECEIPT_STATUSES,
  GOODS_RECEIPT_STATUS_NAMES,
  type GoodsReceiptStatus,
} from '@domain/purchases/goods-receipt';
import type { ReceiptLine } from '@domain/purchases/purchase';
import type { Database } from '@infra/db';
import { withTenant } from '@infra/db/tenant';
import { allOf, dateWhere, pageWindow, searchWhere, sortTerms, textWhere } from '@projections/runtime/grid';
import {
  approveGoodsReceiptUpdate,
  cancelGoodsReceiptUpdate,
  GOODS_RECEIPT_WORKFLOW,
  type GoodsReceiptWorkflowInput,
  goodsReceiptWorkflowId,
  receiveGoodsReceiptUpdate,
  rejectGoodsReceiptUpdate,
} from '@workflows/goods-receipt-protocol';
import { openReceiptUpdate, purchaseWorkflowId } from '@workflows/purchase-protocol';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import { z } from 'zod';
import {
  actionRoutes,
  actorOf,
  commandStore,
  conflicts,
  documentIdOf,
  documentNumber,
  IdempotencyKey,
  managing,
  Pieces,
  PurchaseCode,
  type PurchaseDeps,
  purchaseSettings,
  ReasonText,
  RefId,
  startWorkflow,
  tags,
  text,
  viewing,
  withWorkflow,
  workflowHandlers,
} from './common';
import { GoodsReceiptDetail, goodsReceiptDetail, goodsReceiptOf, purchaseOf } from './documents';
import { purchaseRestart } from './purchases';

/**
 * Goods receive notes (spec §3, §4: 1 Pending, 2 Complete, 3 Cancel, 4 Waiting Approve, 5 Waiting Receive, 6 Reject;
 * domain/purchases/goods-receipt.ts). A note is opened on a purchase order that is ordered or partial: the order's
 * workflow reserves its quantities (received + returned ≤ what is still outstanding and not reserved by another open
 * note) and starts the note's workflow (`goods-receipt-<tenant>-<id>`). Approve, reject, receive and cancel are that
 * workflow's updates. Stock moves only when a note is received (completes).
 */

const itemsRequired = invalid(PurchaseCode.itemsRequired, 'purchases.items_required');

export const ReceiptItem = z.strictObject({
  master_code_id: RefId,
  /** Arrived and counted against the order (damaged units included). */
  received: Pieces(0).default(0),
  /** Of the received, damaged: received, then written off. */
  damaged: Pieces(0).default(0),
  /** Refused at the door and sent back: never in stock, still owed by the supplier. */
  returned: Pieces(0).default(0),
});

export const NewGoodsReceipt = z.strictObject({
  reference: text(100).default(''),
  note: text(500).default(''),
  items: z.array(ReceiptItem, { error: itemsRequired }).min(1, itemsRequired).max(500, itemsRequired),
  /** Complete the note at once when it needs no approval (the stock moves now). */
  receive_now: z.boolean({ error: invalid(400, 'purchases.flag_invalid') }).default(false),
  idempotency_key: IdempotencyKey.optional(),
});

const GRN_STATUS_VALUES = ['1', '2', '3', '4', '5', '6'] as const;

export const GoodsReceiptListRow = z.object({
  id: z.string(),
  grn_number: z.string(),
  purchase_id: z.string(),
  po_number: z.string(),
  supplier_name: z.string().nullable(),
  warehouse_name: z.string().nullable(),
  status: z.number().int(),
  status_name: z.string(),
  reference: z.string(),
  line_count: z.number().int(),
  received: z.number().int(),
  damaged: z.number().int(),
  returned: z.number().int(),
  approval_required: z.boolean(),
  created_by: z.object({ id: z.string(), name: z.string().nullable() }),
  approved_by: z.object({ id: z.string(), name: z.string().nullable() }).nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

const SORT_COLUMNS = [
  'grn_number',
  'po_number',
  'supplier_name',
  'warehouse_name',
  'status',
  'received',
  'damaged',
  'returned',
  'created_at',
  'updated_at',
] as const;
const ListQuery = gridQuery(SORT_COLUMNS, {
  grn_number: TextFilter,
  po_number: TextFilter,
  supplier_name: TextFilter,
  warehouse_name: TextFilter,
  status: setFilter(GRN_STATUS_VALUES),
  created_at: DateFilter,
}).extend({
  purchase_id: z.string().max(64).optional(),
  /** One status only (1–6), the console's status picker. */
  status: z.coerce.number().int().min(1).max(6).optional(),
});

const COLUMNS: Record<(typeof SORT_COLUMNS)[number], RawBuilder<unknown>> = {
  grn_number: sql`g.grn_number`,
  po_number: sql`g.po_number`,
  supplier_name: sql`s.name`,
  warehouse_name: sql`w.name`,
  status: sql`g.status`,
  received: sql`g.received`,
  damaged: sql`g.damaged`,
  returned: sql`g.returned`,
  created_at: sql`g.created_at`,
  updated_at: sql`g.updated_at`,
};

const userName = sql<
  string | null
>`nullif(trim(coalesce(cu.first_name, '') || ' ' || coalesce(cu.last_name, '')), '')`;
const approverName = sql<
  string | null
>`nullif(trim(coalesce(au.first_name, '') || ' ' || coalesce(au.last_name, '')), '')`;

export const goodsReceiptRoutes: FastifyPluginAsyncZod<PurchaseDeps> = async (app, deps) => {
  const { db, workflows } = deps;

  app.get(
    '/api/purchases/goods-receipts',
    {
      config: viewing,
      schema: {
        tags,
        summary:
          "The goods receive note list (ag-grid Infinite Row Model; purchase_id: one order's notes); live view `goodsReceipts`",
        querystring: ListQuery,
        response: { 200: Ok(GridPage(GoodsReceiptListRow)), ...refusals },
      },
    },
    async (request) => {
      const { tenantId } = seller(request);
      const query = request.query;
      const filter = query.filterModel;
      const where = [
        filter.grn_number && textWhere(sql<string>`g.grn_number`, filter.grn_number),
        filter.po_number && textWhere(sql<string>`g.po_number`, filter.po_number),
        filter.supplier_name && textWhere(sql<string>`coalesce(s.name, '')`, filter.supplier_name),
        filter.warehouse_name && textWhere(sql<string>`coalesce(w.name, '')`, filter.warehouse_name),
        filter.status && sql<boolean>`g.status = ANY(${filter.status.values.map(Number)}::int[])`,
        filter.created_at && dateWhere(sql<Date>`g.created_at`, filter.created_at),
        query.purchase_id && sql<boolean>`g.purchase_id = ${query.purchase_id.toLowerCase()}`,
        query.status && sql<boolean>`g.status = ${query.status}`,
        query.search &&
          searchWhere(
            [sql`g.grn_number`, sql`g.po_number`, sql`g.reference`, sql`coalesce(s.name, '')`],
            query.search,
          ),
      ].filter((part) => !!part) as RawBuilder<boolean>[];
      const order = sortTerms(query.sortModel, COLUMNS);
      const { limit, offset } = pageWindow(query);
      const base = (trx: Kysely<Database>) =>
        trx
          .selectFrom('goods_receipts as g')
          .leftJoin('suppliers as s', (join) =>
            join
              .on(sql`s.id::text`, '=', sql.ref('g.supplier_id'))
              .on('s.tenant_id', '=', sql.ref('g.tenant_id')),
          )
          .leftJoin('warehouses as w', (join) =>
            join
              .on(sql`w.id::text`, '=', sql.ref('g.warehouse_id'))
              .on('w.tenant_id', '=', sql.ref('g.tenant_id')),
          )
          .leftJoin('users as cu', (join) => join.on(sql`cu.id::text`, '=', sql.ref('g.created_by')))
          .leftJoin('users as au', (join) => join.on(sql`au.id::text`, '=', sql.ref('g.approved_by')))
          .where('g.tenant_id', '=', tenantId)
          .where(allOf(where));
      const { rows, count } = await withTenant(db, tenantId, async (trx) => ({
        rows: await base(trx)
          .selectAll('g')
          .select([
            's.name as supplier_name',
            'w.name as warehouse_name',
            userName.as('created_by_name'),
            approverName.as('approved_by_name'),
          ])
          .orderBy(sql.join([...order, sql`g.created_at DESC`, sql`g.id DESC`]))
          .limit(limit)
          .offset(offset)
          .execute(),
        count: (await base(trx).select(sql<number>`count(*)::int`.as('count')).executeTakeFirstOrThrow())
          .count,
      }));
      return ok(request, {
        rows: rows.map((row) => ({
          id: row.id,
          grn_number: row.grn_number,
          purchase_id: row.purchase_id,
          po_number: row.po_number,
          supplier_name: row.supplier_name,
          warehouse_name: row.warehouse_name,
          status: row.status,
          status_name: GOODS_RECEIPT_STATUS_NAMES[row.status as GoodsReceiptStatus] ?? String(row.status),
          reference: row.reference,
          line_count: row.line_count,
          received: Number(row.received),
          damaged: Number(row.damaged),
          returned: Number(row.returned),
          approval_required: row.approval_required,
          created_by: { id: row.created_by, name: row.created_by_name },
          approved_by: row.approved_by ? { id: row.approved_by, name: row.approved_by_name } : null,
          created_at: row.created_at.toISOString(),
          updated_at: row.updated_at.toISOString(),
        })),
        lastRow: count,
      });
    },
  );

  app.get(
    '/api/purchases/goods-receipts/:id',
    {
      config: viewing,
      schema: {
        tags,
        summary: 'One goods receive note: its lines, the actions the caller may take and the timeline',
        params: IdParams,
        response: { 200: Ok(GoodsReceiptDetail), ...refusals },
      },
    },
    async (request) =>
      ok(request, await goodsReceiptDetail(db, commandStore(deps.store), seller(request), request.params.id)),
  );

  app.post(
    '/api/purchases/:id/goods-receipts',
    {
      config: managing,
      schema: {
        tags,
        summary:
          'Open a goods receive note on an order (ordered or partial): received + returned per line ≤ what is still outstanding (409, code 542). Pending, or Waiting Approve when the account requires it; receive_now completes a note that needs no approval',
        params: IdParams,
        body: NewGoodsReceipt,
        response: { 200: Ok(GoodsReceiptDetail), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      const session = seller(request);
      const { tenantId } = session;
      const store = commandStore(deps.store);
      const { purchase, revision } = await purchaseOf(store, tenantId, request.params.id);
      const body = request.body;
      const codes = await masterCodesOfTenant(db, tenantId, [
        ...purchase.lines.map((line) => line.masterCodeId),
        ...body.items.map((item) => item.master_code_id),
      ]);
      const lines: ReceiptLine[] = [];
      for (const item of body.items) {
        const id = item.master_code_id.toLowerCase();
        const code = codes.get(id);
        if (!purchase.lines.some((line) => line.masterCodeId === id)) {
          throw new ApiError(400, PurchaseCode.notOnPurchase, 'purchases.not_on_purchase', {
            code: code?.code ?? item.master_code_id,
          });
        }
        lines.push({
          masterCodeId: id,
          received: item.received,
          damaged: item.damaged,
          returned: item.returned,
        });
      }
      const goodsReceiptId = documentIdOf(request, tenantId, 'goods-receipt', body.idempotency_key);
      const settings = await purchaseSettings(db, tenantId);
      const handlers = workflowHandlers(codes);
      const existing = await loadGoodsReceipt(store, tenantId, goodsReceiptId);
      if (existing.state.status === 0) {
        const grnNumber = await documentNumber(db, tenantId, 'goods_receipt', goodsReceiptId);
        await withWorkflow(
          () =>
            runUpdate(
              workflows,
              purchaseWorkflowId(tenantId, purchase.purchaseId),
              openReceiptUpdate,
              [
                {
                  ...actorOf(session),
                  goodsReceiptId,
                  grnNumber,
                  reference: body.reference,
                  note: body.note,
                  approvalRequired: settings.goods_receipt_approval,
                  lines,
                },
              ],
              handlers,
            ),
          purchaseRestart(deps, tenantId, purchase, revision),
        );
        await logActivity(db, {
          tenantId,
          userId: session.userId,
          action: 'goods_receipt.created',
          subjectType: 'goods_receipt',
          subjectId: goodsReceiptId,
          detail: { grn_number: grnNumber, po_number: purchase.poNumber },
        });
        if (body.receive_now && !settings.goods_receipt_approval) {
          await runUpdate(
            workflows,
            goodsReceiptWorkflowId(tenantId, goodsReceiptId),
            receiveGoodsReceiptUpdate,
            [actorOf(session)],
            handlers,
          );
        }
      }
      const detail = await goodsReceiptDetail(db, store, session, goodsReceiptId);
      return ok(request, detail, 'purchases.grn.created', { grnNumber: detail.grn_number });
    },
  );

  const action = actionRoutes(
    app,
    '/api/purchases/goods-receipts',
    GoodsReceiptDetail,
    async (session, id) => {
      const { note, revision } = await goodsReceiptOf(commandStore(deps.store), session.tenantId, id);
      return {
        workflowId: goodsReceiptWorkflowId(session.tenantId, note.goodsReceiptId),
        codes: await masterCodesOfTenant(
          db,
          session.tenantId,
          note.lines.map((line) => line.masterCodeId),
        ),
        // An open note whose workflow is gone gets it back (api/workflows.ts withWorkflow).
        restart: FINAL_GOODS_RECEIPT_STATUSES.includes(note.status)
          ? null
          : () =>
              startWorkflow(
                workflows,
                GOODS_RECEIPT_WORKFLOW,
                goodsReceiptWorkflowId(session.tenantId, note.goodsReceiptId),
                {
                  tenantId: session.tenantId,
                  goodsReceiptId: note.goodsReceiptId,
                  goodsReceipt: note,
                  revision,
                  purchaseWorkflowId: purchaseWorkflowId(session.tenantId, note.purchaseId),
                } satisfies GoodsReceiptWorkflowInput,
              ),
        answer: async (name) => ({
          detail: await goodsReceiptDetail(db, commandStore(deps.store), session, note.goodsReceiptId),
          key: `purchases.grn.done.${name}`,
          params: { grnNumber: note.grnNumber },
        }),
      };
    },
  );

  const Empty = z.strictObject({}).default({});
  const ReasonBody = z.strictObject({ reason: ReasonText }).default({ reason: '' });

  action(
    'approve',
    'Approve a note waiting for approval (not by its creator, unless the owner): 5 Waiting Receive',
    Empty,
    (session, workflowId, _body, handlers) =>
      runUpdate(workflows, workflowId, approveGoodsReceiptUpdate, [actorOf(session)], handlers),
  );
  action(
    'reject',
    'Reject a note waiting for approval: 6 Reject; its quantities go back to the order',
    ReasonBody,
    (session, workflowId, body, handlers) =>
      runUpdate(
        workflows,
        workflowId,
        rejectGoodsReceiptUpdate,
        [{ ...actorOf(session), reason: body.reason }],
        handlers,
      ),
  );
  action(
    'receive',
    'Receive a note (1 Pending or 5 Waiting Receive): the stock moves, the order follows (partial, received): 2 Complete',
    Empty,
    (session, workflowId, _body, handlers) =>
      runUpdate(workflows, workflowId, receiveGoodsReceiptUpdate, [actorOf(session)], handlers),
  );
  action(
    'cancel',
    'Cancel a note not yet complete: 3 Cancel; its quantities go back to the order',
    ReasonBody,
    (session, workflowId, body, handlers) =>
      runUpdate(
        workflows,
        workflowId,
        cancelGoodsReceiptUpdate,
        [{ ...actorOf(session), reason: body.reason }],
        handlers,
      ),
  );
};
