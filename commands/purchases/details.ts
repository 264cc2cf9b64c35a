import type { GoodsReceiptDetail, PurchaseDetail } from '@api/contracts/purchases';
import { isUuid } from '@domain/platform/ids';
import {
  allowedActions as allowedGoodsReceiptActions,
  GOODS_RECEIPT_STATUS_NAMES,
  goodsReceiptErrors,
} from '@domain/purchases/goods-receipt';
import { fromUnits, toUnits } from '@domain/purchases/money';
import {
  allowedActions as allowedPurchaseActions,
  netUnitCost,
  outstandingOf,
  receivableOf,
  refusePurchase as refuse,
  subtotalUnits,
} from '@domain/purchases/purchase';
import { refuser } from '@domain/shared/errors';
import type { Db } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import { averageCostsOf } from '@projections/average-cost';
import { masterCodesOfTenant, placeOfTenant } from '@projections/documents.queries';
import { goodsReceiptsOfPurchase } from '@projections/purchases.queries';
import { supplierNamed } from '@projections/suppliers.queries';
import type { ApprovingActor } from '../support/actor';
import { namedTimeline } from '../support/named-timeline';
import { loadGoodsReceipt, loadPurchase } from './documents';

const refuseNote = refuser(goodsReceiptErrors);

/**
 * The detail answers of a purchase order and a goods receive note, read from their event streams (so an answer right
 * after an action shows it), with the names of the supplier, warehouse, master codes and people, each line's moving
 * average cost, the actions the caller may take now, and the timeline — who did what, when.
 */

/** Who reads a document: without `manages` (purchases-manage), a detail offers no action. */
export interface Viewer extends ApprovingActor {
  manages: boolean;
}

/** What the viewer may do to a document: none without purchases-manage, else what its state allows them. */
const actionsFor = <Action>(viewer: Viewer, allowed: (by: ApprovingActor) => Action[]) =>
  viewer.manages ? allowed(viewer) : [];

/** The order of the tenant, or 404 (an id that is not a uuid and another tenant's answer the same). */
export async function purchaseOf(store: EventStore, tenantId: string, id: string) {
  const loaded = isUuid(id) ? await loadPurchase(store, tenantId, id.toLowerCase()) : undefined;
  if (!loaded || loaded.state.status === 'none') throw refuse('PURCHASE_NOT_FOUND');
  return { ...loaded, purchase: loaded.state };
}

/** The goods receive note of the tenant, or 404. */
export async function goodsReceiptOf(store: EventStore, tenantId: string, id: string) {
  const loaded = isUuid(id) ? await loadGoodsReceipt(store, tenantId, id.toLowerCase()) : undefined;
  if (!loaded || loaded.state.status === 0) throw refuseNote('GOODS_RECEIPT_NOT_FOUND');
  return { ...loaded, note: loaded.state };
}

async function placeOf(db: Db, tenantId: string, id: string) {
  const row = await placeOfTenant(db, tenantId, id);
  return { id, code: row?.code ?? null, name: row?.name ?? null };
}

/** The order as a purchase-index holder sees it; another tenant's or an unknown id is 404. */
export async function purchaseDetail(
  { db, store }: { db: Db; store: EventStore },
  viewer: Viewer,
  purchaseId: string,
): Promise<PurchaseDetail> {
  const { tenantId } = viewer;
  const { purchase, timeline } = await purchaseOf(store, tenantId, purchaseId);
  const ids = purchase.lines.map((line) => line.masterCodeId);
  const [codes, costs, named, supplier, warehouse, notes] = await Promise.all([
    masterCodesOfTenant(db, tenantId, ids),
    averageCostsOf(db, tenantId, ids),
    namedTimeline(db, tenantId, timeline, [purchase.createdBy]),
    supplierNamed(db, tenantId, purchase.supplierId),
    placeOf(db, tenantId, purchase.warehouseId),
    goodsReceiptsOfPurchase(db, tenantId, purchase.purchaseId),
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
    actions: actionsFor(viewer, (by) => allowedPurchaseActions(purchase, by)),
    timeline: named.timeline,
  };
}

/** The note as a purchase-index holder sees it; another tenant's or an unknown id is 404. */
export async function goodsReceiptDetail(
  { db, store }: { db: Db; store: EventStore },
  viewer: Viewer,
  goodsReceiptId: string,
): Promise<GoodsReceiptDetail> {
  const { tenantId } = viewer;
  const { note, timeline } = await goodsReceiptOf(store, tenantId, goodsReceiptId);
  const [codes, named, supplier, warehouse] = await Promise.all([
    masterCodesOfTenant(
      db,
      tenantId,
      note.lines.map((line) => line.masterCodeId),
    ),
    namedTimeline(db, tenantId, timeline, [note.createdBy, note.approvedBy]),
    supplierNamed(db, tenantId, note.supplierId),
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
    actions: actionsFor(viewer, (by) => allowedGoodsReceiptActions(note, by)),
    timeline: named.timeline,
  };
}
