import type { ReturnBody } from '@api/contracts/purchases';
import { purchasingInputErrors } from '@domain/purchases/codes';
import { FINAL_GOODS_RECEIPT_STATUSES } from '@domain/purchases/goods-receipt';
import { refuser } from '@domain/shared/errors';
import type { Db } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import { masterCodesOfTenant } from '@projections/documents.queries';
import { purchaseSettings } from '@projections/purchases.queries';
import {
  approveGoodsReceiptUpdate,
  cancelGoodsReceiptUpdate,
  GOODS_RECEIPT_WORKFLOW,
  type GoodsReceiptWorkflowInput,
  goodsReceiptWorkflowId,
  receiveGoodsReceiptUpdate,
  rejectGoodsReceiptUpdate,
} from '@workflows/goods-receipt-protocol';
import {
  approvePurchaseUpdate,
  cancelPurchaseUpdate,
  placePurchaseUpdate,
  purchaseWorkflowId,
  rejectPurchaseUpdate,
  returnPurchaseUpdate,
  voidPurchaseUpdate,
} from '@workflows/purchase-protocol';
import { runUpdate, type UpdateHandlers, type WorkflowDeps } from '@workflows/updates';
import { goodsReceiptDetail, goodsReceiptOf, purchaseDetail, purchaseOf, type Viewer } from './details';
import { purchaseRestart, startWorkflow, withWorkflow, workflowHandlers } from './processes';

/**
 * A person's action on a purchase order or a goods receive note, run by the document's workflow as an update (the
 * workflow refuses what the state does not allow: nothing moves). The document is the caller's (404 otherwise); an
 * open one whose workflow is gone gets it started again first. The answer is the document after the action, and the
 * message saying what was done.
 */

const refuse = refuser(purchasingInputErrors);

export interface PurchasingDeps {
  db: Db;
  store: EventStore;
  workflows: WorkflowDeps;
}

export type PurchaseAction =
  | { action: 'place' | 'approve' }
  | { action: 'reject' | 'cancel' | 'void'; reason: string }
  | ({ action: 'return' } & ReturnBody);

export type GoodsReceiptAction =
  | { action: 'approve' | 'receive' }
  | { action: 'reject' | 'cancel'; reason: string };

/**
 * Runs the update on the document's workflow, a refusal naming the document's master codes by their code; a workflow
 * gone while the document is open is started by `restart`, and the update tried once more.
 */
async function onWorkflow(
  deps: PurchasingDeps,
  tenantId: string,
  lines: readonly { masterCodeId: string }[],
  run: (handlers: UpdateHandlers) => Promise<unknown>,
  restart: (() => Promise<void>) | null,
) {
  const codes = await masterCodesOfTenant(
    deps.db,
    tenantId,
    lines.map((line) => line.masterCodeId),
  );
  await withWorkflow(() => run(workflowHandlers(codes)), restart);
}

export async function actOnPurchase(deps: PurchasingDeps, viewer: Viewer, id: string, input: PurchaseAction) {
  const { db, workflows } = deps;
  const { tenantId } = viewer;
  const { purchase, revision } = await purchaseOf(deps.store, tenantId, id);
  const workflowId = purchaseWorkflowId(tenantId, purchase.purchaseId);
  const by = { userId: viewer.userId, owner: viewer.owner };
  const run = async (handlers: UpdateHandlers) => {
    switch (input.action) {
      case 'place': {
        const settings = await purchaseSettings(db, tenantId);
        const approvalRequired = settings.purchase_approval;
        return runUpdate(workflows, workflowId, placePurchaseUpdate, [{ ...by, approvalRequired }], handlers);
      }
      case 'approve':
        return runUpdate(workflows, workflowId, approvePurchaseUpdate, [by], handlers);
      case 'reject':
      case 'cancel':
      case 'void': {
        const update = {
          reject: rejectPurchaseUpdate,
          cancel: cancelPurchaseUpdate,
          void: voidPurchaseUpdate,
        };
        return runUpdate(
          workflows,
          workflowId,
          update[input.action],
          [{ ...by, reason: input.reason }],
          handlers,
        );
      }
      case 'return': {
        const codes = await masterCodesOfTenant(
          db,
          tenantId,
          input.items.map((item) => item.master_code_id),
        );
        const lines = input.items.map((item) => {
          const code = codes.get(item.master_code_id.toLowerCase());
          if (!code) throw refuse('MASTER_CODE_NOT_FOUND', { code: item.master_code_id });
          return { masterCodeId: code.id, quantity: item.quantity };
        });
        const args = { ...by, reason: input.reason, lines };
        return runUpdate(workflows, workflowId, returnPurchaseUpdate, [args], handlers);
      }
      default: {
        const unknown: never = input;
        throw new Error(`unknown purchase action ${JSON.stringify(unknown)}`);
      }
    }
  };
  await onWorkflow(
    deps,
    tenantId,
    purchase.lines,
    run,
    purchaseRestart(workflows, tenantId, purchase, revision),
  );
  return {
    detail: await purchaseDetail(deps, viewer, purchase.purchaseId),
    key: `purchases.done.${input.action}`,
    params: { poNumber: purchase.poNumber },
  };
}

export async function actOnGoodsReceipt(
  deps: PurchasingDeps,
  viewer: Viewer,
  id: string,
  input: GoodsReceiptAction,
) {
  const { workflows } = deps;
  const { tenantId } = viewer;
  const { note, revision } = await goodsReceiptOf(deps.store, tenantId, id);
  const workflowId = goodsReceiptWorkflowId(tenantId, note.goodsReceiptId);
  const by = { userId: viewer.userId, owner: viewer.owner };
  const run = async (handlers: UpdateHandlers) => {
    switch (input.action) {
      case 'approve':
        return runUpdate(workflows, workflowId, approveGoodsReceiptUpdate, [by], handlers);
      case 'receive':
        return runUpdate(workflows, workflowId, receiveGoodsReceiptUpdate, [by], handlers);
      case 'reject':
      case 'cancel': {
        const update = input.action === 'reject' ? rejectGoodsReceiptUpdate : cancelGoodsReceiptUpdate;
        return runUpdate(workflows, workflowId, update, [{ ...by, reason: input.reason }], handlers);
      }
      default: {
        const unknown: never = input;
        throw new Error(`unknown goods receive note action ${JSON.stringify(unknown)}`);
      }
    }
  };
  // An open note's workflow is started by its order's; one found gone is started again from the note as recorded.
  const restart = FINAL_GOODS_RECEIPT_STATUSES.includes(note.status)
    ? null
    : () =>
        startWorkflow(workflows, GOODS_RECEIPT_WORKFLOW, workflowId, {
          tenantId,
          goodsReceiptId: note.goodsReceiptId,
          goodsReceipt: note,
          revision,
          purchaseWorkflowId: purchaseWorkflowId(tenantId, note.purchaseId),
        } satisfies GoodsReceiptWorkflowInput);
  await onWorkflow(deps, tenantId, note.lines, run, restart);
  return {
    detail: await goodsReceiptDetail(deps, viewer, note.goodsReceiptId),
    key: `purchases.grn.done.${input.action}`,
    params: { grnNumber: note.grnNumber },
  };
}
