import {
  GOODS_RECEIPT_EVENT_TYPES,
  GOODS_RECEIPT_STATUS,
  type GoodsReceiptEvent,
} from '@domain/purchases/goods-receipt';
import { fromUnits, toUnits } from '@domain/purchases/money';
import { PURCHASE_EVENT_TYPES, type PurchaseEvent, subtotalUnits } from '@domain/purchases/purchase';
import { GOODS_RECEIPTS_VIEW, PURCHASES_VIEW } from '@domain/shared/live-views';
import type { Database, GoodsReceiptsTable, PurchasesTable } from '@infra/db';
import { parseStreamId, type RecordedEvent } from '@infra/eventstore/port';
import { type Insertable, type Selectable, sql, type Transaction } from 'kysely';
import { defineProjection, type LiveChange } from './runtime/projection';

export { GOODS_RECEIPTS_VIEW, PURCHASES_VIEW };

/**
 * The purchasing lists, from the purchase order and goods receive note events (domain/purchases/):
 *
 * - `purchases`: one row per order — PO number, reference, date, supplier, warehouse, status, item count, quantities
 *   ordered and received, subtotal, discount, total, estimated arrival, notes still open;
 * - `goods_receipts`: one row per note — GRN number, its order, status (1–6), quantities received, damaged and
 *   returned, who created and approved it.
 *
 * A batch loads the rows its events touch, applies the events in order in memory and writes each row once. Live
 * changes name orders in the view `purchases` and notes in `goodsReceipts` by their ids.
 */

export const PURCHASES_PROJECTION = 'purchases';

export type PurchaseRow = Selectable<PurchasesTable>;
export type GoodsReceiptRow = Selectable<GoodsReceiptsTable>;
type NewPurchaseRow = Insertable<PurchasesTable>;
type NewGoodsReceiptRow = Insertable<GoodsReceiptsTable>;

interface PurchaseDraft {
  tenant_id: string;
  id: string;
  po_number: string;
  reference: string;
  purchase_date: string;
  supplier_id: string;
  warehouse_id: string;
  status: string;
  item_count: number;
  quantity: number;
  received: number;
  subtotal: string;
  discount: string;
  total: string;
  estimated_arrival: string | null;
  open_receipts: number;
  created_by: string;
  created_at: string;
  updated_at: string;
}

interface GoodsReceiptDraft {
  tenant_id: string;
  id: string;
  grn_number: string;
  purchase_id: string;
  po_number: string;
  supplier_id: string;
  warehouse_id: string;
  status: number;
  reference: string;
  line_count: number;
  received: number;
  damaged: number;
  returned: number;
  approval_required: boolean;
  created_by: string;
  approved_by: string | null;
  created_at: string;
  updated_at: string;
}

const key = (tenantId: string, id: string) => `${tenantId}\u0000${id}`;
const sum = <T>(items: readonly T[], of: (item: T) => number) =>
  items.reduce((total, item) => total + of(item), 0);
/** Postgres's numeric text as the four-place amount ("12.5" → "12.5000"). */
const amount = (value: string) => fromUnits(toUnits(value));

function applyPurchase(row: PurchaseDraft | undefined, event: PurchaseEvent, at: string, tenantId: string) {
  if (event.type === 'PurchaseCreated') {
    const data = event.data;
    const subtotal = subtotalUnits(data.lines);
    const discount = toUnits(data.discount);
    return {
      tenant_id: tenantId,
      id: data.purchaseId,
      po_number: data.poNumber,
      reference: data.reference,
      purchase_date: data.date,
      supplier_id: data.supplierId,
      warehouse_id: data.warehouseId,
      status: 'pending',
      item_count: data.lines.length,
      quantity: sum(data.lines, (line) => line.quantity),
      received: 0,
      subtotal: fromUnits(subtotal),
      discount: fromUnits(discount),
      total: fromUnits(subtotal - discount),
      estimated_arrival: data.estimatedArrival,
      open_receipts: 0,
      created_by: data.createdBy,
      created_at: at,
      updated_at: at,
    } satisfies PurchaseDraft;
  }
  if (!row) return undefined;
  const next: PurchaseDraft = { ...row, updated_at: at };
  switch (event.type) {
    case 'PurchaseApprovalRequested':
      next.status = 'pending approval';
      break;
    case 'PurchaseOrdered':
    case 'PurchaseApproved':
      next.status = 'ordered';
      break;
    case 'PurchaseRejected':
      next.status = 'pending';
      break;
    case 'PurchaseReceiptOpened':
      next.open_receipts += 1;
      break;
    case 'PurchaseReceiptWithdrawn':
      next.open_receipts = Math.max(0, next.open_receipts - 1);
      break;
    case 'PurchaseGoodsReceived':
      next.open_receipts = Math.max(0, next.open_receipts - 1);
      next.received += sum(event.data.lines, (line) => line.received);
      // A line never receives more than it ordered, so the totals meeting means every line is received.
      next.status = next.received >= next.quantity ? 'received' : 'partial';
      break;
    case 'PurchaseCancelled':
      next.status = 'cancel';
      break;
    case 'PurchaseVoided':
      next.status = 'void';
      break;
    case 'PurchaseReturned':
      next.status = 'returned';
      break;
    default: {
      const unknown: never = event;
      throw new Error(`unknown purchase event ${(unknown as { type: string }).type}`);
    }
  }
  return next;
}

function applyGoodsReceipt(
  row: GoodsReceiptDraft | undefined,
  event: GoodsReceiptEvent,
  at: string,
  tenantId: string,
) {
  if (event.type === 'GoodsReceiptCreated') {
    const data = event.data;
    return {
      tenant_id: tenantId,
      id: data.goodsReceiptId,
      grn_number: data.grnNumber,
      purchase_id: data.purchaseId,
      po_number: data.poNumber,
      supplier_id: data.supplierId,
      warehouse_id: data.warehouseId,
      status: data.approvalRequired ? GOODS_RECEIPT_STATUS.waitingApprove : GOODS_RECEIPT_STATUS.pending,
      reference: data.reference,
      line_count: data.lines.length,
      received: sum(data.lines, (line) => line.received),
      damaged: sum(data.lines, (line) => line.damaged),
      returned: sum(data.lines, (line) => line.returned),
      approval_required: data.approvalRequired,
      created_by: data.createdBy,
      approved_by: null,
      created_at: at,
      updated_at: at,
    } satisfies GoodsReceiptDraft;
  }
  if (!row) return undefined;
  const next: GoodsReceiptDraft = { ...row, updated_at: at };
  switch (event.type) {
    case 'GoodsReceiptApproved':
      next.status = GOODS_RECEIPT_STATUS.waitingReceive;
      next.approved_by = event.data.by;
      break;
    case 'GoodsReceiptRejected':
      next.status = GOODS_RECEIPT_STATUS.reject;
      break;
    case 'GoodsReceiptCancelled':
      next.status = GOODS_RECEIPT_STATUS.cancel;
      break;
    case 'GoodsReceiptCompleted':
      next.status = GOODS_RECEIPT_STATUS.complete;
      break;
    default: {
      const unknown: never = event;
      throw new Error(`unknown goods receipt event ${(unknown as { type: string }).type}`);
    }
  }
  return next;
}

const PURCHASE_TYPES = new Set<string>(PURCHASE_EVENT_TYPES);

async function loadRows<Table extends 'purchases' | 'goods_receipts'>(
  trx: Transaction<Database>,
  table: Table,
  keys: { tenantId: string; id: string }[],
) {
  if (keys.length === 0) return [];
  return trx
    .selectFrom(table as 'purchases')
    .selectAll()
    .where(
      sql<boolean>`(tenant_id, id) IN (SELECT * FROM unnest(${keys.map((k) => k.tenantId)}::text[], ${keys.map((k) => k.id)}::text[]))`,
    )
    .execute() as unknown as Promise<Selectable<Database[Table]>[]>;
}

export const purchasesProjection = defineProjection({
  name: PURCHASES_PROJECTION,
  eventTypes: [...PURCHASE_EVENT_TYPES, ...GOODS_RECEIPT_EVENT_TYPES],
  tables: ['purchases', 'goods_receipts'],
  async apply(trx, events: readonly RecordedEvent[]) {
    const purchaseKeys = new Map<string, { tenantId: string; id: string }>();
    const noteKeys = new Map<string, { tenantId: string; id: string }>();
    for (const event of events) {
      const stream = parseStreamId(event.stream);
      if (!stream) continue;
      const target = PURCHASE_TYPES.has(event.type) ? purchaseKeys : noteKeys;
      target.set(key(stream.tenantId, stream.entityKey), { tenantId: stream.tenantId, id: stream.entityKey });
    }
    const [purchaseRows, noteRows] = await Promise.all([
      loadRows(trx, 'purchases', [...purchaseKeys.values()]),
      loadRows(trx, 'goods_receipts', [...noteKeys.values()]),
    ]);
    const purchases = new Map<string, PurchaseDraft>();
    for (const row of purchaseRows as PurchaseRow[]) {
      purchases.set(key(row.tenant_id, row.id), {
        ...row,
        quantity: Number(row.quantity),
        received: Number(row.received),
        subtotal: amount(row.subtotal),
        discount: amount(row.discount),
        total: amount(row.total),
        created_at: row.created_at.toISOString(),
        updated_at: row.updated_at.toISOString(),
      });
    }
    const notes = new Map<string, GoodsReceiptDraft>();
    for (const row of noteRows as GoodsReceiptRow[]) {
      notes.set(key(row.tenant_id, row.id), {
        ...row,
        received: Number(row.received),
        damaged: Number(row.damaged),
        returned: Number(row.returned),
        created_at: row.created_at.toISOString(),
        updated_at: row.updated_at.toISOString(),
      });
    }

    const touchedPurchases = new Set<string>();
    const touchedNotes = new Set<string>();
    for (const event of events) {
      const stream = parseStreamId(event.stream);
      if (!stream) continue;
      const at = event.metadata.occurredAt;
      const rowKey = key(stream.tenantId, stream.entityKey);
      if (PURCHASE_TYPES.has(event.type)) {
        const next = applyPurchase(purchases.get(rowKey), event as PurchaseEvent, at, stream.tenantId);
        if (next) {
          purchases.set(rowKey, next);
          touchedPurchases.add(rowKey);
        }
      } else {
        const next = applyGoodsReceipt(notes.get(rowKey), event as GoodsReceiptEvent, at, stream.tenantId);
        if (next) {
          notes.set(rowKey, next);
          touchedNotes.add(rowKey);
        }
      }
    }

    const purchaseValues: NewPurchaseRow[] = [...touchedPurchases].map((rowKey) => purchases.get(rowKey)!);
    if (purchaseValues.length > 0) {
      await trx
        .insertInto('purchases')
        .values(purchaseValues)
        .onConflict((oc) =>
          oc.columns(['tenant_id', 'id']).doUpdateSet({
            status: sql`excluded.status`,
            received: sql`excluded.received`,
            open_receipts: sql`excluded.open_receipts`,
            updated_at: sql`excluded.updated_at`,
          }),
        )
        .execute();
    }
    const noteValues: NewGoodsReceiptRow[] = [...touchedNotes].map((rowKey) => notes.get(rowKey)!);
    if (noteValues.length > 0) {
      await trx
        .insertInto('goods_receipts')
        .values(noteValues)
        .onConflict((oc) =>
          oc.columns(['tenant_id', 'id']).doUpdateSet({
            status: sql`excluded.status`,
            approved_by: sql`excluded.approved_by`,
            updated_at: sql`excluded.updated_at`,
          }),
        )
        .execute();
    }

    const changes: LiveChange[] = [];
    for (const row of purchaseValues)
      changes.push({ tenantId: row.tenant_id, view: PURCHASES_VIEW, ids: [row.id] });
    for (const row of noteValues)
      changes.push({ tenantId: row.tenant_id, view: GOODS_RECEIPTS_VIEW, ids: [row.id] });
    return changes;
  },
});
