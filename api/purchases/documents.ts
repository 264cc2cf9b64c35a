import type { SellerSession } from '@api/auth/session';
import { masterCodesOfTenant, namedTimeline, placeOfTenant } from '@api/documents';
import { isUuid } from '@api/ids';
import { loadGoodsReceipt, loadPurchase } from '@commands/purchases/documents';
import {
  FINAL_GOODS_RECEIPT_STATUSES,
  GOODS_RECEIPT_STATUS,
  GOODS_RECEIPT_STATUS_NAMES,
  type GoodsReceipt,
} from '@domain/purchases/goods-receipt';
import { fromUnits, toUnits } from '@domain/purchases/money';
import {
  netUnitCost,
  outstandingOf,
  PURCHASE_STATUSES,
  type Purchase,
  receivableOf,
  subtotalUnits,
} from '@domain/purchases/purchase';
import type { Database } from '@infra/db';
import { withTenant } from '@infra/db/tenant';
import type { EventStore } from '@infra/eventstore/port';
import { averageCostsOf } from '@projections/average-cost';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { goodsReceiptMissing, purchaseMissing } from './common';

/**
 * The detail answers of a purchase order and a goods receive note, read from their event streams (so an answer right
 * after an action shows it), with the names of the supplier, warehouse, master codes and people, each line's moving
 * average cost, the actions the caller may take now, and the timeline — who did what, when.
 */

const Named = z.object({ id: z.string(), code: z.string().nullable(), name: z.string().nullable() });
const Person = z.object({ id: z.string(), name: z.string().nullable() }).nullable();

export const TimelineItem = z.object({
  type: z.string(),
  at: z.string(),
  user: Person,
  data: z.unknown(),
});

export const PurchaseLineAnswer = z.object({
  master_code: Named,
  quantity: z.number().int(),
  unit_cost: z.string(),
  line_total: z.string(),
  /** The unit cost less the line's share of the order's discount. */
  net_unit_cost: z.string(),
  received: z.number().int(),
  damaged: z.number().int(),
  /** Refused at the door on receipt: still owed by the supplier. */
  returned_on_receipt: z.number().int(),
  /** Sent back to the supplier after receipt. */
  returned: z.number().int(),
  outstanding: z.number().int(),
  /** What a new goods receive note may still take (outstanding less what open notes reserve). */
  receivable: z.number().int(),
  /** The master code's moving average cost across the account; null before any receipt at a cost. */
  average_cost: z.string().nullable(),
});

export const PURCHASE_ACTIONS = [
  'place',
  'approve',
  'reject',
  'cancel',
  'void',
  'return',
  'receive',
] as const;
export type PurchaseAction = (typeof PURCHASE_ACTIONS)[number];

export const PurchaseDetail = z.object({
  id: z.string(),
  po_number: z.string(),
  reference: z.string(),
  date: z.string(),
  status: z.enum(PURCHASE_STATUSES),
  supplier: Named.extend({ company: z.string().nullable() }),
  warehouse: Named,
  discount: z.string(),
  subtotal: z.string(),
  total: z.string(),
  estimated_arrival: z.string().nullable(),
  note: z.string(),
  reject_reason: z.string().nullable(),
  created_by: Person,
  lines: z.array(PurchaseLineAnswer),
  open_receipts: z.array(z.object({ id: z.string(), grn_number: z.string() })),
  goods_receipts: z.array(
    z.object({ id: z.string(), grn_number: z.string(), status: z.number().int(), created_at: z.string() }),
  ),
  /** What the caller may do now. */
  actions: z.array(z.enum(PURCHASE_ACTIONS)),
  timeline: z.array(TimelineItem),
});
export type PurchaseDetail = z.infer<typeof PurchaseDetail>;

export const GRN_ACTIONS = ['approve', 'reject', 'receive', 'cancel'] as const;

export const GoodsReceiptDetail = z.object({
  id: z.string(),
  grn_number: z.string(),
  purchase: z.object({ id: z.string(), po_number: z.string() }),
  supplier: Named,
  warehouse: Named,
  /** 1 Pending, 2 Complete, 3 Cancel, 4 Waiting Approve, 5 Waiting Receive, 6 Reject. */
  status: z.number().int().min(1).max(6),
  status_name: z.string(),
  reference: z.string(),
  note: z.string(),
  reason: z.string().nullable(),
  approval_required: z.boolean(),
  created_by: Person,
  approved_by: Person,
  lines: z.array(
    z.object({
      master_code: Named,
      received: z.number().int(),
      damaged: z.number().int(),
      returned: z.number().int(),
      /** Net of the order's discount share; null until the note completes. */
      unit_cost: z.string().nullable(),
    }),
  ),
  actions: z.array(z.enum(GRN_ACTIONS)),
  timeline: z.array(TimelineItem),
});
export type GoodsReceiptDetail = z.infer<typeof GoodsReceiptDetail>;

const canManage = (session: SellerSession) => session.permissions.has('purchases-manage');
const mayApprove = (session: SellerSession, createdBy: string) =>
  canManage(session) && (session.kind === 'owner' || session.userId !== createdBy);

/** What the caller may do to the order in its state (the workflow decides again when they try). */
export function purchaseActions(purchase: Purchase, session: SellerSession): PurchaseAction[] {
  if (!canManage(session)) return [];
  const open = purchase.openReceipts.length > 0;
  const anyReceived = purchase.lines.some((line) => line.received > 0 || line.returnedOnReceipt > 0);
  const actions: PurchaseAction[] = [];
  const status = purchase.status;
  if (status === 'pending') actions.push('place');
  if (status === 'pending approval' && mayApprove(session, purchase.createdBy))
    actions.push('approve', 'reject');
  if (
    (status === 'ordered' || status === 'partial') &&
    purchase.lines.some((line) => receivableOf(purchase, line) > 0)
  )
    actions.push('receive');
  if (['pending', 'pending approval', 'ordered'].includes(status) && !open && !anyReceived)
    actions.push('cancel');
  if (['pending', 'pending approval', 'ordered', 'partial'].includes(status) && !open) actions.push('void');
  if ((status === 'partial' || status === 'received') && !open) actions.push('return');
  return actions;
}

export function goodsReceiptActions(
  note: GoodsReceipt,
  session: SellerSession,
): (typeof GRN_ACTIONS)[number][] {
  if (!canManage(session) || FINAL_GOODS_RECEIPT_STATUSES.includes(note.status)) return [];
  const actions: (typeof GRN_ACTIONS)[number][] = [];
  if (note.status === GOODS_RECEIPT_STATUS.waitingApprove && mayApprove(session, note.createdBy))
    actions.push('approve', 'reject');
  if (note.status === GOODS_RECEIPT_STATUS.pending || note.status === GOODS_RECEIPT_STATUS.waitingReceive)
    actions.push('receive');
  actions.push('cancel');
  return actions;
}

/** The order of the tenant, or 404 (an id that is not a uuid and another tenant's answer the same). */
export async function purchaseOf(store: EventStore, tenantId: string, id: string) {
  const loaded = isUuid(id) ? await loadPurchase(store, tenantId, id.toLowerCase()) : undefined;
  if (!loaded || loaded.state.status === 'none') throw purchaseMissing();
  return { ...loaded, purchase: loaded.state };
}

/** The goods receive note of the tenant, or 404. */
export async function goodsReceiptOf(store: EventStore, tenantId: string, id: string) {
  const loaded = isUuid(id) ? await loadGoodsReceipt(store, tenantId, id.toLowerCase()) : undefined;
  if (!loaded || loaded.state.status === 0) throw goodsReceiptMissing();
  return { ...loaded, note: loaded.state };
}

async function placeOf(db: Kysely<Database>, tenantId: string, id: string) {
  const row = await placeOfTenant(db, tenantId, id);
  return { id, code: row?.code ?? null, name: row?.name ?? null };
}

async function supplierOf(db: Kysely<Database>, tenantId: string, id: string) {
  const row = isUuid(id)
    ? await db
        .selectFrom('suppliers')
        .select(['code', 'name', 'company'])
        .where('tenant_id', '=', tenantId)
        .where('id', '=', id)
        .executeTakeFirst()
    : undefined;
  return { id, code: row?.code ?? null, name: row?.name ?? null, company: row?.company ?? null };
}

/** The order as a purchase-index holder sees it; another tenant's or an unknown id is 404. */
export async function purchaseDetail(
  db: Kysely<Database>,
  store: EventStore,
  session: SellerSession,
  purchaseId: string,
): Promise<PurchaseDetail> {
  const { tenantId } = session;
  const { purchase, timeline } = await purchaseOf(store, tenantId, purchaseId);
  const ids = purchase.lines.map((line) => line.masterCodeId);
  const [codes, costs, named, supplier, warehouse, notes] = await Promise.all([
    masterCodesOfTenant(db, tenantId, ids),
    averageCostsOf(db, tenantId, ids),
    namedTimeline(db, tenantId, timeline, [purchase.createdBy]),
    supplierOf(db, tenantId, purchase.supplierId),
    placeOf(db, tenantId, purchase.warehouseId),
    withTenant(db, tenantId, (trx) =>
      trx
        .selectFrom('goods_receipts')
        .select(['id', 'grn_number', 'status', 'created_at'])
        .where('tenant_id', '=', tenantId)
        .where('purchase_id', '=', purchase.purchaseId)
        .orderBy('created_at')
        .orderBy('id')
        .execute(),
    ),
  ]);
  const subtotal = subtotalUnits(purchase.lines);
  return {
    id: purchase.purchaseId,
    po_number: purchase.poNumber,
    reference: purchase.reference,
    date: purchase.date,
    status: purchase.status,
    supplier,
    warehouse,
    discount: purchase.discount,
    subtotal: fromUnits(subtotal),
    total: fromUnits(subtotal - toUnits(purchase.discount)),
    estimated_arrival: purchase.estimatedArrival,
    note: purchase.note,
    reject_reason: purchase.rejectReason,
    created_by: named.person(purchase.createdBy),
    lines: purchase.lines.map((line) => {
      const code = codes.get(line.masterCodeId);
      return {
        master_code: { id: line.masterCodeId, code: code?.code ?? null, name: code?.name ?? null },
        quantity: line.quantity,
        unit_cost: line.unitCost,
        line_total: fromUnits(toUnits(line.unitCost) * BigInt(line.quantity)),
        net_unit_cost: netUnitCost(purchase.lines, purchase.discount, line.masterCodeId),
        received: line.received,
        damaged: line.damaged,
        returned_on_receipt: line.returnedOnReceipt,
        returned: line.returned,
        outstanding: outstandingOf(line),
        receivable: ['ordered', 'partial'].includes(purchase.status) ? receivableOf(purchase, line) : 0,
        average_cost: costs.get(line.masterCodeId)?.averageCost ?? null,
      };
    }),
    open_receipts: purchase.openReceipts.map((receipt) => ({
      id: receipt.goodsReceiptId,
      grn_number: receipt.grnNumber,
    })),
    goods_receipts: notes.map((note) => ({
      id: note.id,
      grn_number: note.grn_number,
      status: note.status,
      created_at: note.created_at.toISOString(),
    })),
    actions: purchaseActions(purchase, session),
    timeline: named.timeline,
  };
}

/** The note as a purchase-index holder sees it; another tenant's or an unknown id is 404. */
export async function goodsReceiptDetail(
  db: Kysely<Database>,
  store: EventStore,
  session: SellerSession,
  goodsReceiptId: string,
): Promise<GoodsReceiptDetail> {
  const { tenantId } = session;
  const { note, timeline } = await goodsReceiptOf(store, tenantId, goodsReceiptId);
  const [codes, named, supplier, warehouse] = await Promise.all([
    masterCodesOfTenant(
      db,
      tenantId,
      note.lines.map((line) => line.masterCodeId),
    ),
    namedTimeline(db, tenantId, timeline, [note.createdBy, note.approvedBy]),
    supplierOf(db, tenantId, note.supplierId),
    placeOf(db, tenantId, note.warehouseId),
  ]);
  return {
    id: note.goodsReceiptId,
    grn_number: note.grnNumber,
    purchase: { id: note.purchaseId, po_number: note.poNumber },
    supplier: { id: supplier.id, code: supplier.code, name: supplier.name },
    warehouse,
    status: note.status,
    status_name: GOODS_RECEIPT_STATUS_NAMES[note.status],
    reference: note.reference,
    note: note.note,
    reason: note.reason,
    approval_required: note.approvalRequired,
    created_by: named.person(note.createdBy),
    approved_by: named.person(note.approvedBy),
    lines: note.lines.map((line) => {
      const code = codes.get(line.masterCodeId);
      return {
        master_code: { id: line.masterCodeId, code: code?.code ?? null, name: code?.name ?? null },
        received: line.received,
        damaged: line.damaged,
        returned: line.returned,
        unit_cost: line.unitCost,
      };
    }),
    actions: goodsReceiptActions(note, session),
    timeline: named.timeline,
  };
}
