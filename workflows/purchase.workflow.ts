import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import {
  ActivityFailure,
  ApplicationFailure,
  allHandlersFinished,
  condition,
  ParentClosePolicy,
  proxyActivities,
  setHandler,
  startChild,
  TemporalFailure,
  workflowInfo,
} from '@temporalio/workflow';
import { movementReason } from '../domain/inventory/movement-reasons';
import type { StockCommand } from '../domain/inventory/stock';
import {
  decide,
  type Purchase,
  type PurchaseCommand,
  type PurchaseStatus,
} from '../domain/purchases/purchase';
import { refusalOf } from '../domain/shared/errors';
import type { createPurchaseActivities } from './activities/purchases';
import {
  GOODS_RECEIPT_WORKFLOW,
  type GoodsReceiptWorkflowInput,
  goodsReceiptWorkflowId,
} from './goods-receipt-protocol';
import {
  type Actor,
  approvePurchaseUpdate,
  cancelPurchaseUpdate,
  type OpenReceiptArgs,
  openReceiptUpdate,
  type PlaceArgs,
  type PurchaseSnapshot,
  type PurchaseWorkflowInput,
  placePurchaseUpdate,
  purchaseChangedSignal,
  purchaseStateQuery,
  type ReasonArgs,
  type ReturnArgs,
  rejectPurchaseUpdate,
  returnPurchaseUpdate,
  voidPurchaseUpdate,
} from './purchase-protocol';
import { refusal } from './support/refusal';

type PurchaseActivities = ReturnType<typeof createPurchaseActivities>;

const activities = proxyActivities<PurchaseActivities>({
  // One append each: seconds at most. A worker that dies mid-step loses it to this timeout, and the retry (same
  // command id) finds what the first attempt recorded.
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '200 milliseconds', backoffCoefficient: 2, maximumInterval: '5 seconds' },
});

/** A domain refusal from an activity, as the update's refusal; anything else as it is. */
export function asRefusal(error: unknown): unknown {
  if (
    error instanceof ActivityFailure &&
    error.cause instanceof ApplicationFailure &&
    error.cause.nonRetryable
  ) {
    const details = error.cause.details?.[0];
    return refusal(
      error.cause.type ?? 'FAILED',
      details && typeof details === 'object' ? (details as Record<string, string | number>) : {},
    );
  }
  // Only a Temporal failure fails the update alone; anything else would fail the workflow task and retry it forever.
  if (error instanceof TemporalFailure) return error;
  return ApplicationFailure.create({
    type: 'FAILED',
    message: error instanceof Error ? error.message : String(error),
    nonRetryable: true,
  });
}

const FINAL: readonly PurchaseStatus[] = ['cancel', 'void', 'returned'];

/**
 * The life of one purchase order, `purchase-<tenant>-<purchaseId>` (the states are domain/purchases/purchase.ts's).
 * It waits for people's actions — place, approve, reject, cancel, void, return, and opening a goods receive note —
 * each an update whose validator refuses what the order's state does not allow (the wrong state, a second click while
 * the first runs, the creator approving their own order, an open note) before anything is recorded; the domain checks
 * again as it records. Reaching `ordered` records the items as incoming at the warehouse; closing the order (cancel,
 * void, return) withdraws what was still expected. Opening a note reserves its quantities on the order and starts
 * the note's own workflow (goods-receipt.workflow.ts), which tells this one when it changed the order. The workflow
 * ends once the order is cancelled, voided or returned.
 */
export async function purchaseWorkflow(input: PurchaseWorkflowInput): Promise<PurchaseSnapshot> {
  const { workflowId } = workflowInfo();
  let purchase: Purchase = input.purchase;
  let revision = input.revision;
  let busy: string | null = null;
  let actions = 0;

  const snapshot = (): PurchaseSnapshot => ({ purchase, revision, busy });

  const adopt = (next: { purchase: Purchase; revision: number }) => {
    if (next.revision >= revision) {
      purchase = next.purchase;
      revision = next.revision;
    }
  };

  setHandler(purchaseStateQuery, snapshot);
  setHandler(purchaseChangedSignal, adopt);

  /** One action at a time: a double click's second update is refused while the first runs. */
  function idle(): void {
    if (busy) throw refusal('ACTION_IN_PROGRESS', { action: busy });
  }
  /** The order's rules, as its decider has them: what it refuses, the update refuses, before anything is recorded. */
  function check(command: PurchaseCommand): void {
    idle();
    try {
      decide(command, purchase);
    } catch (error) {
      const refused = refusalOf(error);
      if (refused) throw refusal(refused.code, refused.params);
      throw error;
    }
  }

  /** Runs an accepted action; `busy` is set before the first await, so a double click's validator refuses it. */
  async function act<T>(action: string, body: (base: string, at: string) => Promise<T>): Promise<T> {
    busy = action;
    actions += 1;
    try {
      return await body(`${workflowId}:${action}#${actions}`, new Date().toISOString());
    } catch (error) {
      throw asRefusal(error);
    } finally {
      busy = null;
    }
  }

  const record = async (actor: Actor, at: string, commandId: string, command: PurchaseCommand) => {
    const result = await activities.recordPurchase({
      tenantId: input.tenantId,
      purchaseId: input.purchaseId,
      userId: actor.userId,
      at,
      commandId,
      command,
    });
    adopt(result);
    return result.events;
  };

  /** One stock movement per line; the command id names the step and the stock, so a retry moves it once. */
  const moveLines = (
    actor: Actor,
    at: string,
    step: string,
    type: 'ExpectStock' | 'CancelExpectedStock' | 'WriteOffStock',
    lines: readonly { masterCodeId: string; quantity: number }[],
    reason: string,
  ) =>
    Promise.all(
      lines
        .filter((line) => line.quantity > 0)
        .map((line) => {
          const target = {
            masterCodeId: line.masterCodeId,
            warehouseId: purchase.warehouseId,
            quantity: line.quantity,
            reason,
            source: { type: 'purchase', id: input.purchaseId },
          };
          const command: StockCommand =
            type === 'WriteOffStock' ? { type, ...target, refuseNegative: false } : { type, ...target };
          return activities.movePurchaseStock({
            tenantId: input.tenantId,
            userId: actor.userId,
            at,
            commandId: `${workflowId}:${step}:${line.masterCodeId}@${purchase.warehouseId}`,
            command,
          });
        }),
    );

  /** The order reached `ordered`: its items are expected at the warehouse. */
  const expectIncoming = (actor: Actor, at: string) =>
    moveLines(
      actor,
      at,
      'expect',
      'ExpectStock',
      purchase.lines,
      movementReason('purchase_ordered', { po: purchase.poNumber }),
    );

  setHandler(
    placePurchaseUpdate,
    (args) =>
      act('place', async (base, at) => {
        await record(args, at, base, {
          type: 'PlacePurchase',
          by: args.userId,
          approvalRequired: args.approvalRequired,
        });
        if (purchase.status === 'ordered') await expectIncoming(args, at);
        return snapshot();
      }),
    {
      validator: (args: PlaceArgs) =>
        check({ type: 'PlacePurchase', by: args.userId, approvalRequired: args.approvalRequired }),
    },
  );

  setHandler(
    approvePurchaseUpdate,
    (actor) =>
      act('approve', async (base, at) => {
        await record(actor, at, base, { type: 'ApprovePurchase', by: actor.userId, byOwner: actor.owner });
        await expectIncoming(actor, at);
        return snapshot();
      }),
    {
      validator: (actor) => check({ type: 'ApprovePurchase', by: actor.userId, byOwner: actor.owner }),
    },
  );

  setHandler(
    rejectPurchaseUpdate,
    (args) =>
      act('reject', async (base, at) => {
        await record(args, at, base, {
          type: 'RejectPurchase',
          by: args.userId,
          byOwner: args.owner,
          reason: args.reason,
        });
        return snapshot();
      }),
    {
      validator: (args) =>
        check({ type: 'RejectPurchase', by: args.userId, byOwner: args.owner, reason: args.reason }),
    },
  );

  setHandler(
    cancelPurchaseUpdate,
    (args) =>
      act('cancel', async (base, at) => {
        const events = await record(args, at, base, {
          type: 'CancelPurchase',
          by: args.userId,
          reason: args.reason,
        });
        const cancelled = events.find((event) => event.type === 'PurchaseCancelled');
        if (cancelled?.type === 'PurchaseCancelled') {
          await moveLines(
            args,
            at,
            'cancel-expected',
            'CancelExpectedStock',
            cancelled.data.outstanding,
            movementReason('purchase_cancelled', { po: purchase.poNumber }),
          );
        }
        return snapshot();
      }),
    {
      validator: (args: ReasonArgs) =>
        check({ type: 'CancelPurchase', by: args.userId, reason: args.reason }),
    },
  );

  setHandler(
    voidPurchaseUpdate,
    (args) =>
      act('void', async (base, at) => {
        const events = await record(args, at, base, {
          type: 'VoidPurchase',
          by: args.userId,
          reason: args.reason,
        });
        const voided = events.find((event) => event.type === 'PurchaseVoided');
        if (voided?.type === 'PurchaseVoided') {
          await moveLines(
            args,
            at,
            'void-expected',
            'CancelExpectedStock',
            voided.data.outstanding,
            movementReason('purchase_voided', { po: purchase.poNumber }),
          );
        }
        return snapshot();
      }),
    {
      validator: (args: ReasonArgs) => check({ type: 'VoidPurchase', by: args.userId, reason: args.reason }),
    },
  );

  setHandler(
    returnPurchaseUpdate,
    (args) =>
      act('return', async (base, at) => {
        const events = await record(args, at, base, {
          type: 'ReturnPurchase',
          by: args.userId,
          reason: args.reason,
          lines: args.lines,
        });
        const returned = events.find((event) => event.type === 'PurchaseReturned');
        if (returned?.type === 'PurchaseReturned') {
          const reason = movementReason('purchase_returned', { po: purchase.poNumber });
          await moveLines(args, at, 'return', 'WriteOffStock', returned.data.lines, reason);
          await moveLines(
            args,
            at,
            'return-expected',
            'CancelExpectedStock',
            returned.data.outstanding,
            reason,
          );
        }
        return snapshot();
      }),
    {
      validator: (args: ReturnArgs) =>
        check({ type: 'ReturnPurchase', by: args.userId, reason: args.reason, lines: args.lines }),
    },
  );

  setHandler(
    openReceiptUpdate,
    (args) =>
      act('open-receipt', async (_base, at) => {
        const noteWorkflowId = goodsReceiptWorkflowId(input.tenantId, args.goodsReceiptId);
        // Named by the note, not the action's number: opening the same note twice reserves once.
        await record(args, at, `${workflowId}:open-receipt:${args.goodsReceiptId}`, {
          type: 'OpenReceipt',
          goodsReceiptId: args.goodsReceiptId,
          grnNumber: args.grnNumber,
          lines: args.lines,
        });
        const created = await activities.recordGoodsReceipt({
          tenantId: input.tenantId,
          goodsReceiptId: args.goodsReceiptId,
          userId: args.userId,
          at,
          commandId: `${noteWorkflowId}:create`,
          command: {
            type: 'CreateGoodsReceipt',
            goodsReceiptId: args.goodsReceiptId,
            grnNumber: args.grnNumber,
            purchaseId: input.purchaseId,
            poNumber: purchase.poNumber,
            supplierId: purchase.supplierId,
            warehouseId: purchase.warehouseId,
            reference: args.reference,
            note: args.note,
            lines: args.lines,
            approvalRequired: args.approvalRequired,
            by: args.userId,
          },
        });
        const noteInput: GoodsReceiptWorkflowInput = {
          tenantId: input.tenantId,
          goodsReceiptId: args.goodsReceiptId,
          goodsReceipt: created.goodsReceipt,
          revision: created.revision,
          purchaseWorkflowId: workflowId,
        };
        // The note lives on its own: it outlives nothing here, as the order cannot close while a note is open.
        try {
          await startChild(GOODS_RECEIPT_WORKFLOW, {
            workflowId: noteWorkflowId,
            args: [noteInput],
            parentClosePolicy: ParentClosePolicy.ABANDON,
          });
        } catch (error) {
          // Opened before (a retried request): its workflow is running already.
          if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
        }
        return { goodsReceipt: created.goodsReceipt, revision: created.revision, busy: null };
      }),
    {
      validator: (args: OpenReceiptArgs) =>
        check({
          type: 'OpenReceipt',
          goodsReceiptId: args.goodsReceiptId,
          grnNumber: args.grnNumber,
          lines: args.lines,
        }),
    },
  );

  await condition(() => FINAL.includes(purchase.status) && busy === null);
  await condition(allHandlersFinished);
  return snapshot();
}
