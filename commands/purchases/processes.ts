import { PurchaseCode } from '@domain/purchases/codes';
import { FINAL_PURCHASE_STATUSES, type Purchase } from '@domain/purchases/purchase';
import { namingMasterCode, purchasingRefusal } from '@domain/purchases/refusals';
import { DomainError, refusalOf } from '@domain/shared/errors';
import type { UpdateDefinition } from '@temporalio/common';
import { goodsReceiptWorkflowId, receiveGoodsReceiptUpdate } from '@workflows/goods-receipt-protocol';
import {
  openReceiptUpdate,
  PURCHASE_WORKFLOW,
  type PurchaseWorkflowInput,
  placePurchaseUpdate,
  purchaseWorkflowId,
} from '@workflows/purchase-protocol';
import {
  runUpdate,
  startOrFindWorkflow,
  type WorkflowDeps,
  type WorkflowRefusal,
  withWorkflow as withWorkflowOf,
} from '@workflows/updates';
import type { ApprovingActor } from '../support/actor';
import type { PurchaseProcesses } from './create-purchase';
import type { GoodsReceiptProcesses } from './open-goods-receipt';

/**
 * The purchasing workflows as the purchasing commands and routes drive them: start one (idempotent by its business
 * key), run a person's action as its update, and start an open document's workflow again when it is gone. A
 * workflow's refusal comes back as the DomainError of the purchasing tables, master codes named by their code.
 */

/** The document's process has ended: its state allows no action any more. */
const closedRefusal = () => {
  return new DomainError('PROCESS_CLOSED', {}, purchasingRefusal('PROCESS_CLOSED')!);
};

/** Starts a workflow or finds it running (the id is the business key), mapping an unreachable server to 503. */
export const startWorkflow = (workflows: WorkflowDeps, name: string, workflowId: string, input: unknown) =>
  startOrFindWorkflow(workflows, name, workflowId, input, closedRefusal);

/**
 * Runs an action on a document's workflow. A workflow that is gone while its document is still open (its start
 * failed after the document was recorded, say) is started again from the document, and the action tried once more.
 */
export const withWorkflow = <T>(run: () => Promise<T>, restart: (() => Promise<void>) | null) =>
  withWorkflowOf(run, restart, (error) => refusalOf(error)?.refusal.code === PurchaseCode.closed);

/** A purchasing workflow's answer as the route's: its refusal from the domain's tables, master codes named. */
export const workflowHandlers = (codes: ReadonlyMap<string, { code: string }>) => ({
  refuse: ({ code, params }: WorkflowRefusal) => {
    const refusal = purchasingRefusal(code);
    return refusal && new DomainError(code, namingMasterCode(params, codes), refusal);
  },
  missing: closedRefusal,
});

/** Starts an order's workflow from the order as recorded, or finds it running. */
export const startPurchaseWorkflow = (
  workflows: WorkflowDeps,
  tenantId: string,
  purchase: Purchase,
  revision: number,
) =>
  startWorkflow(workflows, PURCHASE_WORKFLOW, purchaseWorkflowId(tenantId, purchase.purchaseId), {
    tenantId,
    purchaseId: purchase.purchaseId,
    purchase,
    revision,
  } satisfies PurchaseWorkflowInput);

/** Starts an open order's workflow again from the order as recorded (null: the order is closed). */
export const purchaseRestart = (
  workflows: WorkflowDeps,
  tenantId: string,
  purchase: Purchase,
  revision: number,
) =>
  FINAL_PURCHASE_STATUSES.includes(purchase.status)
    ? null
    : () => startPurchaseWorkflow(workflows, tenantId, purchase, revision);

/** Runs a person's update on an order's workflow, started again first if it is gone while the order is open. */
const onOrder = async <Arg>(
  workflows: WorkflowDeps,
  actor: ApprovingActor,
  { purchase, revision }: { purchase: Purchase; revision: number },
  update: UpdateDefinition<unknown, [Arg & { userId: string; owner: boolean }]>,
  arg: Arg,
  codes: ReadonlyMap<string, { code: string }>,
) => {
  const workflowId = purchaseWorkflowId(actor.tenantId, purchase.purchaseId);
  const args: [Arg & { userId: string; owner: boolean }] = [
    { userId: actor.userId, owner: actor.owner, ...arg },
  ];
  await withWorkflow(
    () => runUpdate(workflows, workflowId, update, args, workflowHandlers(codes)),
    purchaseRestart(workflows, actor.tenantId, purchase, revision),
  );
};

/** The purchase workflows as the purchasing commands drive them. */
export const purchaseProcesses = (workflows: WorkflowDeps): PurchaseProcesses => ({
  place: (actor, order, approvalRequired, codes) =>
    onOrder(workflows, actor, order, placePurchaseUpdate, { approvalRequired }, codes),
});

/** The workflows a goods receive note's opening drives. */
export const goodsReceiptProcesses = (workflows: WorkflowDeps): GoodsReceiptProcesses => ({
  open: (actor, order, note, codes) => onOrder(workflows, actor, order, openReceiptUpdate, note, codes),
  receive: async (actor, goodsReceiptId, codes) => {
    await runUpdate(
      workflows,
      goodsReceiptWorkflowId(actor.tenantId, goodsReceiptId),
      receiveGoodsReceiptUpdate,
      [{ userId: actor.userId, owner: actor.owner }],
      workflowHandlers(codes),
    );
  },
});
