import type { NewGoodsReceipt } from '@api/contracts/purchases';
import { logActivity } from '@commands/support/activity';
import type { Purchase, ReceiptLine } from '@domain/purchases/purchase';
import { refusePurchase } from '@domain/purchases/purchase';
import type { Db } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import { masterCodesOfTenant } from '@projections/documents.queries';
import { purchaseSettings } from '@projections/purchases.queries';
import type { OpenReceiptArgs } from '@workflows/purchase-protocol';
import type { ApprovingActor as Actor } from '../support/actor';
import type { PurchasingDeps } from './actions';
import { goodsReceiptDetail, purchaseOf, type Viewer } from './details';
import { documentNumber } from './document-number';
import { loadGoodsReceipt } from './documents';
import { goodsReceiptProcesses } from './processes';

/**
 * Opening a goods receive note on an order (ordered or partial): the order's workflow reserves its quantities
 * (received + returned ≤ what is still outstanding and not reserved by another open note) and starts the note's
 * workflow; with `receive_now`, a note that needs no approval is completed at once (the stock moves). A retried
 * request (the same key) opens nothing twice.
 */

/** The workflows a note's opening drives (processes.ts runs them on Temporal). */
export interface GoodsReceiptProcesses {
  /** Asks the order's workflow to open the note; `codes` name master codes in a refusal. */
  open(
    actor: Actor,
    order: { purchase: Purchase; revision: number },
    note: Omit<OpenReceiptArgs, 'userId' | 'owner'>,
    codes: ReadonlyMap<string, { code: string }>,
  ): Promise<void>;
  /** Completes the note through its workflow. */
  receive(actor: Actor, goodsReceiptId: string, codes: ReadonlyMap<string, { code: string }>): Promise<void>;
}

/** Opens the note on the caller's order `purchaseId` (404 otherwise); answers the note and the message. */
export async function openGoodsReceipt(
  deps: PurchasingDeps,
  viewer: Viewer,
  input: Omit<NewGoodsReceipt, 'idempotency_key'> & { purchaseId: string; goodsReceiptId: string },
) {
  const order = await purchaseOf(deps.store, viewer.tenantId, input.purchaseId);
  await recordOpening({ ...deps, processes: goodsReceiptProcesses(deps.workflows) }, viewer, {
    ...input,
    order,
  });
  const detail = await goodsReceiptDetail(deps, viewer, input.goodsReceiptId);
  return { detail, key: 'purchases.grn.created', params: { grnNumber: detail.grn_number } };
}

async function recordOpening(
  deps: { db: Db; store: EventStore; processes: GoodsReceiptProcesses },
  actor: Actor,
  input: Omit<NewGoodsReceipt, 'idempotency_key'> & {
    goodsReceiptId: string;
    order: { purchase: Purchase; revision: number };
  },
): Promise<void> {
  const { db, store } = deps;
  const { tenantId } = actor;
  const { purchase } = input.order;
  const codes = await masterCodesOfTenant(db, tenantId, [
    ...purchase.lines.map((line) => line.masterCodeId),
    ...input.items.map((item) => item.master_code_id),
  ]);
  const lines: ReceiptLine[] = [];
  for (const item of input.items) {
    const id = item.master_code_id.toLowerCase();
    if (!purchase.lines.some((line) => line.masterCodeId === id)) {
      throw refusePurchase('NOT_ON_PURCHASE', { code: codes.get(id)?.code ?? item.master_code_id });
    }
    lines.push({ masterCodeId: id, received: item.received, damaged: item.damaged, returned: item.returned });
  }
  const settings = await purchaseSettings(db, tenantId);
  const existing = await loadGoodsReceipt(store, tenantId, input.goodsReceiptId);
  if (existing.state.status !== 0) return;
  const grnNumber = await documentNumber(db, tenantId, 'goods_receipt', input.goodsReceiptId);
  await deps.processes.open(
    actor,
    input.order,
    {
      goodsReceiptId: input.goodsReceiptId,
      grnNumber,
      reference: input.reference,
      note: input.note,
      approvalRequired: settings.goods_receipt_approval,
      lines,
    },
    codes,
  );
  await logActivity(db, {
    tenantId,
    userId: actor.userId,
    action: 'goods_receipt.created',
    subjectType: 'goods_receipt',
    subjectId: input.goodsReceiptId,
    detail: { grn_number: grnNumber, po_number: purchase.poNumber },
  });
  if (input.receive_now && !settings.goods_receipt_approval) {
    await deps.processes.receive(actor, input.goodsReceiptId, codes);
  }
}
